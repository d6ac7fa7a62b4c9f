"""Round 20: changes of one subject the pair judgement missed, though both values are typed.

An age given on the day it is reached ("Dad's 64 on 2027-05-05", "his 64th birthday"); an
employer joined on its first day ("到京东报到了"), whatever else the line says holds ("还是
九点上班") and though it names its day; opening hours or a shift as one span ("8 to 3" is
another span than "9 to 3", though both end at 3); and an English item whose age clause
leaves keeps its speaker's label ("The user: Dad is Ken, plays golf"); a change to a named
thing of the kind the older names another of (Chinese compounds end with their kind: 缬沙坦
after 厄贝沙坦). Examples of this file's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from two_days import dream_two_days

from memory.dream.extractive import ExtractiveEngine
from memory.dream.judge import single_slots, slots
from memory.dream.judge.clauses import split_changed
from memory.dream.judge.relations import Said
from memory.dream.judge.single_slots import slot_values
from memory.dream.judge.slots import typed_values


@pytest.mark.parametrize(
    ("text", "age"),
    [
        ("The user: Dad's 64 on 2027-05-05", "64"),
        ("Priya is 40 on Saturday", "40"),
        ("my niece turns 9 on 3 June", "9"),
        ("The user said Grandpa's 90th birthday is next month", "90"),
    ],
)
def test_an_age_reached_on_a_day_is_the_age_slot(text: str, age: str) -> None:
    assert slot_values(text).get("age") == frozenset({age})


@pytest.mark.parametrize(
    "text", ["The score is 10 on the board", "Bus 12 on the way", "Our 3rd anniversary"]
)
def test_a_number_on_something_else_is_no_age(text: str) -> None:
    assert "age" not in slot_values(text)


def test_an_employer_gone_to_on_the_first_day_fills_the_employer_slot() -> None:
    assert "employer" in slot_values("小林今天去中信银行入职了")
    assert "employer" in slot_values("小林到京东报到了，还是做运营")
    assert "employer" not in slot_values("我到公司报到了")  # a kind of place, no employer named


def test_joining_another_employer_is_a_change_the_same_one_is_none() -> None:
    older = "小林在美团做运营专员，九点上班"
    assert single_slots.joined("小林：2027-05-05到京东报到了，还是做运营，还是九点上班", older)
    assert not single_slots.joined("小林到美团报到了，还是做运营", older)
    assert not single_slots.joined("小林还是九点上班", older)


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("The café opens 8 to 3 now", "8-3"),
        ("Open 9am-5pm on weekdays", "9-5"),
        ("营业时间早上9点到晚上10点", "9-10"),
        ("Shift is 7:00-19:00", "7-19"),
    ],
)
def test_a_span_of_hours_is_one_value(text: str, span: str) -> None:
    assert typed_values(text).get("range") == frozenset({span})


@pytest.mark.parametrize("text", ["2 to 3 times a week", "paid on 2027-02-01", "from 200 to 300"])
def test_counts_dates_and_a_value_moved_from_are_no_span(text: str) -> None:
    assert "range" not in typed_values(text)


@pytest.mark.parametrize(
    ("newer", "older"),
    [
        (
            Said("小林：2027-05-05到京东报到了，还是做运营，还是九点上班", "小林", "work"),
            Said("小林在美团做运营专员，九点上班", "小林", "work"),
        ),
        (
            Said("The user: Dad's 64 on 2027-05-05", "user/father", "event"),
            Said("The user: Dad is Ken, he's 63 and plays golf", "user/father", "people"),
        ),
        (
            Said("The user: the café now opens 7 to 3", "user", "routine"),
            Said("The user: the café opens 8 to 3, closed Tuesdays", "user", "routine"),
        ),
    ],
)
def test_the_rules_judge_these_a_change(newer: Said, older: Said) -> None:
    assert ExtractiveEngine._judge_change(newer, older, 0.9) == "rules"


def test_a_change_to_another_of_the_same_kind_is_a_sibling_change() -> None:
    older = "用户每天早上吃一粒厄贝沙坦降压"
    assert slots.sibling_changed("用户：医生让换成缬沙坦了，一天一粒", older)
    assert slots.sibling_changed("用户的工资卡换成建设银行的了", "用户的工资卡是招商银行的")
    # no change said, the same one again, or a thing of another kind: none
    assert not slots.sibling_changed("用户也在吃缬沙坦", older)
    assert not slots.sibling_changed("用户改吃厄贝沙坦了", older)
    assert not slots.sibling_changed("用户改吃阿司匹林了", older)


def test_a_drug_changed_to_a_sibling_retires_the_old_drug(tmp_path: Path) -> None:
    first = ["用户: 我每天早上吃一粒厄贝沙坦降压", "用户: 对青霉素过敏"]
    later = ["用户: 医生让换药，改吃缬沙坦，一天一粒"]
    items, archive = dream_two_days(tmp_path, first, later)
    assert "缬沙坦" in items
    assert "厄贝沙坦" not in items and "厄贝沙坦" in archive
    assert "青霉素" in items


def test_an_english_clause_with_its_own_subject_keeps_the_speakers_label() -> None:
    older = Said("The user: Dad is Ken, he's 63 and plays golf", "user/father", "people")
    newer = Said("The user: Dad's 64 on 2027-05-05", "user/father", "event")
    part = split_changed(older, newer)
    assert part is not None
    assert part.kept == "The user: Dad is Ken, plays golf"
    assert "63" in part.retired


def test_a_new_employer_joined_retires_the_old_one(tmp_path: Path) -> None:
    first = ["用户: 我在美团做运营专员，每天九点上班", "用户: 住在北京望京"]
    later = ["用户: 今天到京东报到了，还是做运营，还是九点上班"]
    items, archive = dream_two_days(tmp_path, first, later)
    assert "京东" in items
    assert "美团" not in items and "美团" in archive
    assert "望京" in items


def test_new_opening_hours_retire_the_old_ones(tmp_path: Path) -> None:
    first = ["User: My café opens 8 to 3, closed Tuesdays", "User: I roast my own beans"]
    later = ["User: Changed the hours, the café opens 7 to 3 now"]
    items, archive = dream_two_days(tmp_path, first, later)
    assert "7 to 3" in items
    assert "8 to 3" not in items and "8 to 3" in archive
    assert "roast" in items
