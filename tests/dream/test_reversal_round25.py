"""Round 25 (issue 10): a change told as the older statement's own thing turned or ended.

"用户不吃辣" then "现在特别能吃辣", "works as a nurse at St Mary's" then "I quit the hospital":
the newer names no other value in the older's words, it turns the older's predicate round
(a negation said now, or the negation now gone) or tells its thing over (healed, quit,
closed). Near misses stay: a meal on one day, a relative's or a neighbour's habit, a quit
only meant or denied, a wound not healed yet, a thing of another's closed, a topic word
that is no predicate ("跑步的人", "驾照考试"). Every example is this file's own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from two_days import dream_two_days

from memory.dream.extractive import ExtractiveEngine
from memory.dream.judge.clauses import changed_clauses
from memory.dream.judge.relations import Said
from memory.dream.judge.reversal import closed, healed, quit_job, reverses, turned

WHO = frozenset({"user", "用户", "mia", "王芳"})

TURNED = [
    ("用户：现在会游泳了，学了一个暑假", "用户不会游泳"),
    ("用户：最近不喝咖啡了，改喝茶", "用户喝咖啡"),
    ("用户：吃了抗过敏药，现在不过敏了", "用户对猫毛过敏"),
    ("用户：上个月领证结婚了", "用户还没结婚"),
    ("王芳：最近减肥，米饭一口都不吃了", "王芳喜欢吃米饭"),
    ("User: I don't eat meat anymore, went vegetarian", "The user eats meat"),
    ("User: I can swim now, took lessons all summer", "The user can't swim"),
    ("Mia: has a car now, a little Fiesta", "Mia doesn't have a car"),
    ("Mia: turns out I'm allergic to cats now", "Mia is allergic to nothing"),
]
HEALED = [
    ("用户：膝盖已经好了，可以跑步了", "用户膝盖受伤了，在休养"),
    ("用户提到做完手术了，现在肩膀已经不疼了", "用户肩周炎，在做针灸"),
    ("The user said the ankle has fully healed", "The user has a sprained ankle"),
]
QUIT = [
    ("用户：辞职了，现在在家带孩子", "用户在招商银行上班"),
    ("用户：把华为的工作辞掉了，现在自己创业", "用户在华为做工程师"),
    ("User: I quit last month, now a full-time student", "The user works as a nurse at Kings"),
    ("User: quit Dishoom, cooking at home now", "The user is a chef at Dishoom"),
]
CLOSED = [
    ("The user closed the Lloyds account and moved to Starling", "The user banks with Lloyds"),
    ("User: the PureGym membership was cancelled last week", "The user has a gym membership"),
    ("用户：招行信用卡注销了", "用户办了一张招行信用卡"),
    ("李强：宽带换成联通的了，电信到期没续", "李强用的是电信宽带"),
]
KEEPS = [
    ("用户：今天吃了一顿火锅，辣得受不了", "用户不吃辣"),
    ("用户：我爸现在喝酒喝得少了", "用户不喝酒"),
    ("用户：现在跑步的人越来越多了", "用户不喜欢跑步"),
    ("用户：驾照考试现在改规则了", "用户没有驾照"),
    ("用户：最近在学做饭了", "用户不会做饭"),
    ("用户：今年春天花粉少，现在还没过敏", "用户对花粉过敏"),
    ("User: my sister doesn't eat sweets anymore", "The user likes sweets"),
    ("User: the kids eat pork now, not me", "The user doesn't eat pork"),
    ("User: the gym now opens at 6 in the morning", "The user is not a morning person"),
    ("User: had a coffee at 4pm, now I can't sleep", "The user never drinks coffee after 2pm"),
    ("User: taking swimming lessons now", "The user can't swim"),
    ("Mia: car insurance is so expensive now", "Mia doesn't have a car"),
    ("User: made fish for the guests now they've gone", "The user doesn't eat fish"),
    ("User: the neighbours smoke on the balcony now", "The user doesn't smoke"),
    ("User: the wrist hasn't fully healed yet, cast stays on", "The user has a broken wrist"),
    ("User: Tom's knee has fully healed now", "The user has a bad knee"),
    ("用户：腰还没好利索，现在还在做理疗", "用户腰椎间盘突出，在做理疗"),
    ("User: I nearly quit today, but staying now", "The user works as a nurse at Kings"),
    ("User: didn't quit in the end, they gave me a raise", "The user works as a nurse at Kings"),
    ("User: quit my evening class now", "The user works as a nurse"),
    ("User: one of my students quit the football team", "The user teaches at Hillside School"),
    ("用户：同事辞职了，工作多了好多", "用户在招商银行上班"),
    ("陈静会辞掉幼儿园的工作，到广州再找", "陈静在深圳一家幼儿园当老师"),
    ("User: Lloyds closed the branch near me now", "The user banks with Lloyds"),
    ("User: Elm Street was closed for roadworks", "The user rents a flat on Elm Street"),
    ("用户：医院食堂关掉了，现在只能带饭", "用户在医院做护士"),
    ("用户：招行信用卡没注销，现在还在用", "用户办了一张招行信用卡"),
]


@pytest.mark.parametrize(("newer", "older"), TURNED)
def test_a_predicate_turned_now(newer: str, older: str) -> None:
    assert turned(newer, older, WHO)
    assert reverses(newer, older, WHO)


@pytest.mark.parametrize(("newer", "older"), HEALED)
def test_a_condition_healed(newer: str, older: str) -> None:
    assert healed(newer, older, WHO)


@pytest.mark.parametrize(("newer", "older"), QUIT)
def test_a_job_quit(newer: str, older: str) -> None:
    assert quit_job(newer, older, WHO)


@pytest.mark.parametrize(("newer", "older"), CLOSED)
def test_a_thing_closed(newer: str, older: str) -> None:
    assert closed(newer, older, WHO)


@pytest.mark.parametrize(("newer", "older"), KEEPS)
def test_near_misses_turn_nothing(newer: str, older: str) -> None:
    assert not reverses(newer, older, WHO)


def test_the_rules_find_a_reversal_and_no_near_miss() -> None:
    older = Said("用户不会游泳", "user", "fact")
    assert ExtractiveEngine._rules_change(Said("用户：现在会游泳了", "user", "fact"), older)
    assert not ExtractiveEngine._rules_change(Said("用户：最近在学游泳了", "user", "fact"), older)


def test_a_packed_older_loses_the_turned_clause_and_its_detail() -> None:
    newer = Said("用户：最近不吃甜食了", "user", "fact")
    assert changed_clauses(Said("用户喜欢吃甜食，尤其蛋糕", "user", "fact"), newer) == [True, True]
    packed = Said("用户喜欢吃甜食，周末常去爬山散心", "user", "fact")
    assert changed_clauses(packed, newer) == [True, False]


def test_a_reversal_retires_the_old_value(tmp_path: Path) -> None:
    items, archive = dream_two_days(tmp_path, ["用户不会游泳"], ["用户：现在会游泳了，暑假学的"])
    assert "会游泳了" in items
    assert "用户不会游泳" not in items
    assert "用户不会游泳" in archive


def test_a_quit_job_retires_the_job(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path,
        ["The user works as a pharmacist at Boots"],
        ["User: I quit Boots, I'm a locum pharmacist now"],
    )
    assert "locum" in items
    assert "at Boots" not in items
    assert "at Boots" in archive


def test_a_relatives_reversal_retires_nothing(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path, ["用户不吃辣"], ["用户：表妹在四川待久了，现在特别能吃辣"]
    )
    assert "用户不吃辣" in items
    assert "superseded" not in archive
