"""Issue 10, round 28: durable facts wrongly archived as superseded, by a newer line that
states another current fact of the same person. A change needs the same slot of the same
subject, the newer value excluding the older, told as current: one more of a kind told as
an addition ("又领养了一只橘猫", "还报了个游泳班", "cycle ... too"), a club joined beside
one's employer, a thing moved that is not one's home ("公司搬到福田了" / "住在南山"), a thing
moved the older never places ("在公司负责订单系统"), another animal's age, where one comes
from beside where one lives, two amounts sharing no word but their unit ("rent" /
"salary"), and a plan of a month as the dream writes it on a later night ("2027年7月房租涨到
4500") replace nothing. Examples of this file's own (``change_probe_keeps2.tsv`` and the
dev scenario ``d33_zh_private_nightly_sidebyside`` hold more)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from two_days import dream_two_days

from memory.dream.extractive import ExtractiveEngine, _adds, _other_slot
from memory.dream.judge import dates, single_slots
from memory.dream.judge.beings import other_pets
from memory.dream.judge.relations import Said, moved_unplaced, of_origin, replaces


def _said(text: str, subject: str = "user") -> Said:
    return Said(text, subject, "fact", False)


ADDITIONS = [
    "用户又领养了一只橘猫，叫年糕，一岁",
    "用户还报了个游泳班，每周六上午上课",
    "用户也喜欢画水彩",
    "The user cycles about 50 km a week too",
]
NOT_ADDITIONS = ["用户又搬家了，搬到福田", "I moved to York too", "用户现在每周跑五次了"]


@pytest.mark.parametrize("text", ADDITIONS)
def test_one_more_of_a_kind_is_told_as_an_addition(text: str) -> None:
    assert _adds(text)


@pytest.mark.parametrize("text", NOT_ADDITIONS)
def test_a_change_told_with_also_is_no_addition(text: str) -> None:
    assert not _adds(text)


def test_a_club_joined_is_no_employer() -> None:
    assert "employer" not in single_slots.slot_values("用户加入了公司的篮球队")
    assert not single_slots.joined("用户加入了公司的篮球队", "用户在腾讯做产品经理")
    assert single_slots.joined("用户跳槽了，加入了字节跳动", "用户在腾讯做产品经理")


KEEPS = [
    # another thing moved, one's home stays
    ("用户他们公司搬到福田了", "用户住在深圳南山"),
    ("The user's office moved to Shoreditch", "The user lives in Camden"),
    # a thing moved the older never places
    ("用户：公司已经搬到福田了，用户还住西丽", "用户在公司负责订单系统"),
    # another animal's age
    ("用户家的猫叫咪咪，五岁了", "用户家的狗三岁了"),
    # where one comes from, beside where one lives
    ("用户现在住在上海徐汇", "用户老家在湖南长沙"),
    # two amounts sharing only their unit
    ("The user's salary is 3000 pounds a month", "The user's rent is 1200 pounds a month"),
]


@pytest.mark.parametrize(("newer", "older"), KEEPS)
def test_another_slot_is_no_change(newer: str, older: str) -> None:
    new, old = _said(newer), _said(older)
    assert ExtractiveEngine._rules_way(new, old, 0.85) is None or _other_slot(new, old)


def test_the_pieces_each_read_their_own_case() -> None:
    assert other_pets("用户家的猫叫咪咪，五岁了", "用户家的狗三岁了")
    assert not other_pets("用户家的狗狗四岁了", "用户家的狗三岁了")
    assert of_origin("用户现在住在上海徐汇", "用户老家在湖南长沙")
    assert moved_unplaced(_said("用户：公司已经搬到福田了"), _said("用户在公司负责订单系统"))
    assert not moved_unplaced(_said("用户：公司已经搬到福田了"), _said("用户的公司在南山科技园"))
    # someone moving, or a meeting moved to a day, is no thing one never placed
    assert not moved_unplaced(
        _said("Gus: Dan's moving to London, Marta is our coach now", "Gus"),
        _said("Gus: our coach is Dan Reilly", "Gus"),
    )
    assert not moved_unplaced(
        _said("Mia: book club moved to Wednesdays", "Mia"),
        _said("Mia's book club meets on Mondays", "Mia"),
    )


CHANGES = [
    ("用户搬家了，现在住在深圳福田", "用户住在深圳南山"),
    ("The user's rent is 1350 pounds a month now", "The user's rent is 1200 pounds a month"),
    ("阿杰：我把家搬到了福田", "阿杰：我住在南山区"),
    ("用户：英语期中考了 91 分", "用户的英语成绩是 85 分"),
]


@pytest.mark.parametrize(("newer", "older"), CHANGES)
def test_the_same_slot_still_changes(newer: str, older: str) -> None:
    subject = "阿杰" if newer.startswith("阿杰") else "user"
    new, old = _said(newer, subject), _said(older, subject)
    assert not _other_slot(new, old)
    assert ExtractiveEngine._rules_way(new, old, 0.85) is not None


def test_a_month_as_the_dream_writes_it_is_read_back() -> None:
    anchor = date(2027, 6, 10)
    for text in ("用户：房东说2027年7月房租涨到4500", "rent goes up in July 2027"):
        (span,) = dates.find(text, anchor)
        assert (span.first, span.last, span.unit) == (date(2027, 7, 1), date(2027, 7, 31), "month")
    # a day of the month stays a day
    (day,) = dates.find("on 5 July 2027", anchor)
    assert day.unit == "day" and day.first == date(2027, 7, 5)


def test_a_plan_of_a_month_replaces_no_present_value() -> None:
    plan = Said("用户：房东说2027年7月房租涨到4500", "user", "fact", True)
    assert not replaces(plan, _said("用户的房租每月4200元"))


def test_a_second_pet_leaves_the_first(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path, ["用户：我养了一只柴犬叫豆包，三岁了"], ["用户：我又领养了一只橘猫，叫年糕，一岁"]
    )
    assert "豆包" in items
    assert "年糕" in items
    assert "豆包" not in archive


def test_the_company_moved_leaves_the_home(tmp_path: Path) -> None:
    items, archive = dream_two_days(tmp_path, ["用户住在深圳南山"], ["用户：我们公司搬到福田了"])
    assert "南山" in items
    assert "南山" not in archive


def test_a_plan_of_a_month_reworded_is_still_ahead_the_night_after() -> None:
    from memory.dream.extractive import _ahead

    night_after = date(2027, 6, 11)
    for item in (
        "用户：房东说2027年7月房租涨到4500",
        "用户2027年7月底搬到福田",
        "用户2027年7月初入职",
    ):
        assert _ahead(item, night_after)
    (end,) = dates.find("用户2027年7月底搬到福田", night_after)
    assert dates.words(end, zh=True) == "2027年7月底"
