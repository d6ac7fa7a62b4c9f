"""Round 26 (issue 10): changes told by the old value's end, and slots read in more ways.

An end told by name ("Kit and I split up", "the divorce from Rob", "跟阿杰分手了", "Pip died
last week") retires what the older said of that partner or pet, whatever the change model
weighs, and finds its pair though the two share no other word; a pursuit stopped ("日语不学
了") is not one of them (it is the stop rule's). Slots read in more ways: an address ("new
address is in Hull"), "work as", more job words, the team one supports, the stage with a
partner. Near misses stay: someone else's breakup, a third person's partner, a team one's
son supports, a partner named again. The new probe set's runner (``--data``, ``--half
more``, ``--part``) is checked too."""

from __future__ import annotations

from pathlib import Path

import pytest
from two_days import dream_two_days

from memory.dream.judge.single_slots import ended, slot_values, swapped, tells_end

ENDED = [
    ("User: Kit and I split up in March", "The user is dating Kit"),
    ("The user said the divorce from Rob came through", "The user is married to Rob"),
    ("User: broke up with Noor, still friends though", "The user's girlfriend is Noor"),
    ("User: Pip died last week, the house is quiet", "The user has a rabbit called Pip"),
    ("用户：上周跟阿杰分手了", "用户的男朋友叫阿杰"),
    ("用户提到已经和Leo离婚了", "用户的老公叫Leo"),
]
NOT_ENDED = [
    ("User: my cousin broke up with her boyfriend", "The user's boyfriend is Kit"),
    ("User: Kit and I went to Rome", "The user is dating Kit"),
    ("用户：闺蜜和她男朋友分手了", "用户的男朋友叫阿杰"),
    ("用户：表姐和阿杰分手了", "用户的男朋友叫阿杰"),
    ("用户：日语不学了", "用户在学日语"),  # a stop: relations' rule, not an end by name
]


@pytest.mark.parametrize(("newer", "older"), ENDED)
def test_an_end_told_by_name(newer: str, older: str) -> None:
    assert tells_end(newer)
    assert ended(newer, older)


@pytest.mark.parametrize(("newer", "older"), NOT_ENDED)
def test_no_end_of_the_older_s_partner(newer: str, older: str) -> None:
    assert not ended(newer, older)


@pytest.mark.parametrize(
    ("newer", "older", "slot"),
    [
        ("Ana: new address is in Hull, boxes everywhere", "Ana lives in Derby", "home"),
        ("User: our new flat in Bath has a garden", "The user lives in Bristol", "home"),
        ("User: left retail, now work as a dental nurse", "The user works as a cashier", "role"),
        ("User: got a job as a site supervisor", "The user works as a van driver", "role"),
        ("用户：在京东当快递员", "用户在饿了么做骑手", "employer"),
        ("User: I support Leeds United now", "The user supports Everton", "team"),
        ("用户：现在支持火箭队了", "用户支持热火队", "team"),
        ("用户：考上了浙大读研", "用户在杭电读书", "school"),
        ("The user is married now", "The user is engaged to Priti", "stage"),
        ("用户：现在单身", "用户在谈恋爱", "stage"),
    ],
)
def test_slots_read_in_more_ways(newer: str, older: str, slot: str) -> None:
    assert swapped(newer, older) == slot


def test_a_team_someone_is_a_fan_of_names_the_team_alone() -> None:
    assert slot_values("用户：儿子是火箭队的球迷")["team"] == frozenset({"火箭"})
    assert "team" not in slot_values("The user supports the idea of a four-day week")


def test_the_same_stage_again_is_no_change() -> None:
    assert swapped("用户：已婚，孩子三岁", "用户结婚了") == ""


def test_a_breakup_retires_the_partner(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path, ["The user is dating Kit"], ["User: Kit and I split up in March"]
    )
    assert "dating Kit" not in items
    assert "dating Kit" in archive


def test_a_pet_that_died_retires_the_pet(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path,
        ["The user has a rabbit called Pip"],
        ["User: Pip died in April, we adopted two guinea pigs"],
    )
    assert "rabbit called Pip" not in items
    assert "rabbit called Pip" in archive


def test_someone_else_s_breakup_keeps_the_partner(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path, ["The user is dating Kit"], ["User: Kit's sister and Tom split up"]
    )
    assert "dating Kit" in items
    assert "superseded" not in archive


def test_the_more_probe_runs(tmp_path: Path) -> None:
    from bench import change_probe

    data = Path(change_probe.__file__).parent / "data" / "judge" / "change_probe_more.tsv"
    pairs = change_probe.load(data)
    assert len(pairs) >= 120 and {p.half for p in pairs} == {"more"}
    assert {p.label for p in pairs} == {"change", "keep"}


@pytest.mark.parametrize(
    "text", ["User: Kit and I split up in March", "User: met Priti in March", "User: quit in March"]
)
def test_a_bare_month_after_an_irregular_past_is_gone_by(text: str) -> None:
    from datetime import date

    from memory.dream.judge.dates import find

    assert [s.first for s in find(text, date(2027, 5, 6))] == [date(2027, 3, 1)]
