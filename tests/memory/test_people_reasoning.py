"""Deduction vs induction: pattern words, doubts, confidences (exact numbers)."""

from __future__ import annotations

import pytest

from memory.people.reasoning import (
    first_person,
    induction_confidence,
    is_hedged,
    is_induction,
    mentions,
    only_addressed,
)


@pytest.mark.parametrize(
    "text",
    [
        "我周末通常去爬山",
        "他似乎偏好甜食",
        "Ann usually cycles to work",
        "Bob tends to be late",
        "她总是最后一个到",
        "I often work from home",
    ],
)
def test_patterns_are_inductions(text: str) -> None:
    assert is_induction(text)


@pytest.mark.parametrize("text", ["我家在南山区", "Ann lives in Berlin", "李四下个月结婚"])
def test_facts_are_not_inductions(text: str) -> None:
    assert not is_induction(text)


def test_doubts_and_first_person() -> None:
    assert is_hedged("李四好像搬家了") and is_hedged("maybe Ann moved?")
    assert not is_hedged("我搬到宝安了")
    assert first_person("我家在南山区") and first_person("my cat is Mochi")
    assert not first_person("我们周五聚餐") and not first_person("Ann lives in Berlin")


def test_confidence_exact_numbers() -> None:
    assert induction_confidence(1, 1, False) == 0.3
    assert induction_confidence(1, 1, True) == 0.4
    assert induction_confidence(3, 2, False) == 0.65
    assert induction_confidence(10, 10, True) == 0.9  # a pattern is never certain
    assert induction_confidence(0, 1, True) == 0.0


def test_mentions_by_word_or_substring() -> None:
    assert mentions("Ann is moving", "Ann") and not mentions("Annie is moving", "Ann")
    assert mentions("李四下个月结婚", "李四") and not mentions("", "李四")


@pytest.mark.parametrize(
    ("text", "name", "called"),
    [
        ("Hey Caroline, it's been busy here. I ran a race", "Caroline", True),
        ("That's a gorgeous song, Caroline.", "Caroline", True),
        ("谢谢李四！", "李四", True),
        ("李四，下午开会", "李四", True),
        ("Caroline is moving to Berlin", "Caroline", False),
        ("李四下个月结婚", "李四", False),
        ("Wow, Melanie! Your painting is great", "Melanie", False),  # said to her: about her
        ("Thanks, Ann! Ann's sister lives in Graz", "Ann", False),
    ],
)
def test_a_name_only_called_is_no_subject(text: str, name: str, called: bool) -> None:
    assert only_addressed(text, name) is called


def test_stamped_lines_and_vocatives_in_observations() -> None:
    from datetime import date, datetime
    from zoneinfo import ZoneInfo

    from memory.daily_notes import NoteLine
    from memory.people.directory import Directory
    from memory.people.observe import observations

    directory = Directory()
    when = datetime(2026, 11, 29, 9, tzinfo=ZoneInfo("UTC"))
    directory.sight("x:1", "Ann", when)
    directory.sight("x:2", "Bob", when)
    day = date(2026, 11, 29)
    notes = [
        NoteLine("memory/2026-11-29.md", 4, "[D1:3] Bob: Thanks, Ann! I ran a marathon", day, ""),
        NoteLine("memory/2026-11-29.md", 5, "[10:02] Bob: Ann got a new job at Siemens", day, ""),
    ]
    got = [(o.subject, o.speaker, o.ref.start) for o in observations(notes, directory)]
    assert got == [("x-2", "Bob", 4), ("x-1", "Bob", 5)]
