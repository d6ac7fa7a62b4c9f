"""Deduction vs induction: pattern words, doubts, confidences (exact numbers)."""

from __future__ import annotations

import pytest

from memory.people.reasoning import (
    first_person,
    induction_confidence,
    is_hedged,
    is_induction,
    mentions,
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
