"""Round 22 (issue 10): plain changes the dream kept beside their new value.

A thing told as gone ("sold the Focus", "朗逸卖了", "the Corsa finally died, got a Mazda"),
a new role named with how it was got ("got hired as a junior developer"), what one studies,
a school named by its kind ("现在去彩虹幼儿园"), a member's child named bare ("王芳：女儿…"),
and whose a relation's relation is ("闺蜜的男朋友", "their friend pays"). Near misses stay: a
thing broken with nothing new, a car borrowed while one's own is at the garage, a friend's
rent, a friend's boyfriend. The dream tests are pairs of ``bench/data/judge/change_probe.tsv``;
the rest are examples of this file's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from two_days import dream_two_days

from memory.dream.judge.relations import subject_of
from memory.dream.judge.single_slots import disposed, slot_values, swapped

GONE = [
    ("User: sold the Passat last month, on the bus for now", "The user drives a VW Passat"),
    ("Kim: the Clio finally died, bought a Yaris instead", "Kim drives a Renault Clio"),
    ("The user replaced the Dell with a Surface Pro", "The user's laptop is a Dell XPS"),
    ("Ola: gave my Kobo away, I read on paper again", "Ola reads on a Kobo Clara"),
    ("Jin: left The Comets, I sing with Blue Hour now", "Jin plays drums in The Comets"),
    ("用户：那辆捷达卖掉了，现在骑电动车", "用户开一辆大众捷达"),
    ("用户提到把Switch送人了", "用户有一台Switch游戏机"),
    ("陈敏：华为手表丢了，新买了一块小米手环", "陈敏戴的是华为手表"),
]
NOT_GONE = [
    ("User: my Passat is in for a service", "The user drives a VW Passat"),
    ("Kim: the Clio died on the motorway, waiting for the AA", "Kim drives a Renault Clio"),
    ("用户：手表坏了，拿去修了", "用户戴的是华为手表"),
    ("User: left work early, felt ill", "The user works at Boots"),
    ("User: lost 2 kg this month", "The user weighs 81 kg"),
    ("用户：钥匙丢了", "用户开一辆大众捷达"),
]


@pytest.mark.parametrize(("newer", "older"), GONE)
def test_a_thing_told_as_gone_is_another_value(newer: str, older: str) -> None:
    assert disposed(newer, older)
    assert swapped(newer, older) == "gone"


@pytest.mark.parametrize(("newer", "older"), NOT_GONE)
def test_a_thing_broken_kept_or_unnamed_is_not_gone(newer: str, older: str) -> None:
    assert not disposed(newer, older)


@pytest.mark.parametrize(
    ("newer", "older", "slot"),
    [
        ("Ravi: got hired as a data analyst", "Ravi works as a waiter", "role"),
        ("User: started my first job as a trainee architect", "The user is a student", "role"),
        ("The user now studies geography", "The user studies history at Exeter", "course"),
        ("Lu: switched from maths, studying physics now", "Lu studies maths", "course"),
        ("赵磊：儿子现在去育红幼儿园", "赵磊的儿子在小天鹅幼儿园", "school"),
        ("用户：女儿在实验中学读初一了", "用户的女儿在青华中学", "school"),
        ("周丽：离职了，现在在一家药店上班", "周丽在一家超市做收银", "employer"),
        ("用户：换工作了，现在在律所做行政", "用户在一家书店工作", "employer"),
    ],
)
def test_a_new_role_course_or_school(newer: str, older: str, slot: str) -> None:
    assert swapped(newer, older) == slot


def test_studying_for_something_is_no_course() -> None:
    assert "course" not in slot_values("The user is studying for finals")
    assert "course" not in slot_values("The user studies hard every evening")


@pytest.mark.parametrize(
    ("text", "names", "subject"),
    [
        ("The user said their sister pays £700 in rent", frozenset(), "user/sister"),
        ("The user mentioned his wife is a vet", frozenset(), "user/wife"),
        ("同事的老婆叫小敏", frozenset(), "user/colleague-wife"),
        ("用户：闺蜜的老公在银行上班", frozenset(), "user/friend-husband"),
        ("刘洋：儿子转学了", frozenset({"刘洋"}), "刘洋/son"),
        ("刘洋：奶奶下周过生日", frozenset({"刘洋"}), "刘洋"),
        ("Jo: Priya moved to Hull", frozenset({"Jo", "Priya"}), "Priya"),
        ("Jo: Priya's son is at Leeds now", frozenset({"Jo", "Priya"}), "Priya/son"),
    ],
)
def test_whose_the_words_are(text: str, names: frozenset[str], subject: str) -> None:
    assert subject_of(text, names) == subject


def test_a_car_sold_and_another_got_retires_the_car(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path,
        ["Sam drives a Vauxhall Corsa"],
        ["Sam: the Corsa finally died, got a Mazda 2 instead"],
    )
    assert "Mazda" in items
    assert "Vauxhall" not in items
    assert "Vauxhall" in archive


def test_a_car_sold_in_chinese_retires_the_car(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path, ["用户开一辆大众朗逸"], ["用户：朗逸卖了，换了一辆比亚迪汉"]
    )
    assert "比亚迪" in items
    assert "大众朗逸" not in items
    assert "大众朗逸" in archive


def test_a_members_daughter_at_another_nursery(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path, ["王芳的女儿在蓝天幼儿园"], ["王芳：女儿换幼儿园了，现在去彩虹幼儿园"]
    )
    assert "彩虹" in items
    assert "蓝天" not in items
    assert "蓝天" in archive


def test_another_course_retires_the_old_one(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path,
        ["The user studies chemistry at Leeds University"],
        ["The user said they switched courses and now study pharmacy"],
    )
    assert "pharmacy" in items
    assert "chemistry" not in items
    assert "chemistry" in archive


def test_a_friends_boyfriend_is_not_the_users(tmp_path: Path) -> None:
    items, archive = dream_two_days(tmp_path, ["用户的男朋友叫小刘"], ["用户：闺蜜的男朋友叫阿杰"])
    assert "小刘" in items and "阿杰" in items
    assert "小刘" not in archive


def test_a_friends_rent_is_not_the_users(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path,
        ["The user's rent is £950 a month"],
        ["The user said their friend pays £1,050 a month for a similar flat"],
    )
    assert "950" in items
    assert "950" not in archive
