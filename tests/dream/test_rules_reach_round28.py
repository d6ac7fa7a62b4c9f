"""Issue 10, round 28: changes no rule read. A partnership's end told of the partner by
name retires the line that was read as the partner's ("小王是用户的男朋友"); a school year
is a slot of one value that only grows ("上三年级" / "升了四年级"); a school moved to is
named bare ("转到实验小学了", "transferred to Exeter"); the old one of a kind disposed of
names the older's thing by its kind ("旧车卖了" after "开一辆大众朗逸"); a course or state
told as over stops it ("化疗结束了", "the cast came off"). Each is a way of its own a
left-out line comes back by. Examples of this file's own."""

from __future__ import annotations

import pytest

from memory.dream.extractive import ExtractiveEngine
from memory.dream.judge import single_slots
from memory.dream.judge.relations import Said
from memory.dream.retire import NEWS_SURE
from tests.dream.judged_lines import judged as _statement
from tests.dream.judged_lines import news as _news

SURE = (NEWS_SURE + 1.0) / 2


def _way(new: str, new_subject: str, old: str, old_subject: str) -> str | None:
    newer = Said(new, new_subject, "fact", False)
    older = Said(old, old_subject, "fact", False)
    return ExtractiveEngine._rules_way(newer, older)


CHANGES = [
    # a partnership's end, the older read as the partner's line
    ("用户和小王分手了，不想多说", "user", "用户的男朋友是小王", "user/partner"),
    ("用户和小王分手了", "user", "小王是用户的男朋友", "小王"),
    ("The user broke up with Sam last weekend", "user", "Sam is the user's boyfriend", "Sam"),
    # a school year, a school moved to
    ("用户的儿子升了四年级", "user/son", "用户的儿子上三年级", "user/son"),
    ("周敏的女儿升初二了", "周敏/daughter", "周敏的女儿在读初一", "周敏/daughter"),
    ("用户：儿子转到实验小学了", "user/son", "用户的儿子在育才小学上学", "user/son"),
    (
        "Kate's daughter switched schools, she's at Oakfield now",
        "Kate/daughter",
        "Kate's daughter goes to St Mary's primary",
        "Kate/daughter",
    ),
    # the old one of a kind, a thing broken beside a new one
    ("用户：旧车卖了，换了辆比亚迪", "user", "用户开一辆大众朗逸", "user"),
    ("用户手机彻底坏了，买了个小米14", "user", "用户的手机是华为Mate40", "user"),
    ("刘洋：科沃斯那个扔了，换了个石头的", "刘洋", "刘洋家的扫地机器人是科沃斯的", "刘洋"),
    # a course, a state of a while, over
    ("用户表示化疗全部结束了", "user", "用户在做化疗", "user"),
    ("The user's cast came off today", "user", "The user has a cast on their left leg", "user"),
]
KEEPS = [
    ("用户和小王吵了一架", "user", "用户的男朋友是小王", "user/partner"),
    ("用户说阿欣的哥哥和女朋友分手了", "user", "用户的女朋友是阿欣", "user/partner"),
    ("小王和用户分手了", "小王", "小王住在杭州", "小王"),  # 小王's home stays
    ("用户的儿子上二年级", "user/son", "用户的儿子上三年级", "user/son"),  # younger: another
    ("周敏的女儿的表姐升初二了", "周敏/daughter", "周敏的女儿在读初一", "周敏/daughter"),
    ("用户：帮表哥把旧车卖了，他换了辆比亚迪", "user", "用户开一辆大众朗逸", "user"),
    ("用户表示手机彻底坏了，修好了", "user", "用户的手机是华为Mate40", "user"),
    ("用户表示化疗今天暂停一次", "user", "用户在做化疗", "user"),
    ("用户：表妹今天去招商银行报到了", "user", "用户在超市当收银员", "user"),
    ("用户下个月开始在招商银行上班", "user", "用户在超市当收银员", "user"),  # a plan
]


@pytest.mark.parametrize(("new", "new_subject", "old", "old_subject"), CHANGES)
def test_a_rule_reads_the_change(new: str, new_subject: str, old: str, old_subject: str) -> None:
    assert _way(new, new_subject, old, old_subject) is not None


@pytest.mark.parametrize(("new", "new_subject", "old", "old_subject"), KEEPS)
def test_a_look_alike_stays(new: str, new_subject: str, old: str, old_subject: str) -> None:
    assert _way(new, new_subject, old, old_subject) is None


def test_the_ways_are_named() -> None:
    assert _way("用户和小王分手了", "user", "用户的男朋友是小王", "user/partner") == "ended"
    assert _way("用户：旧车卖了，换了辆比亚迪", "user", "用户开一辆大众朗逸", "user") == "gone"


def test_a_school_year_counts_from_primary() -> None:
    assert single_slots.slot_values("女儿在读初一")["grade"] == frozenset({"7"})
    assert single_slots.slot_values("儿子升了小四")["grade"] == frozenset({"4"})
    assert single_slots.slot_values("Tom is in Year 4")["grade"] == frozenset({"4"})
    assert single_slots.swapped("儿子升了四年级", "儿子上三年级") == "grade"
    assert single_slots.swapped("儿子上二年级", "儿子上三年级") == ""


def test_a_breakup_told_as_chatter_retires_the_partners_line() -> None:
    partner = _statement("用户的男朋友是小王", 3, 4)
    partner.subject = "user/partner"
    over = _statement("用户：和小王分手了，不想多说", 9, 2, chatter=SURE)
    assert _news([over], [partner]) == [over.text]
    quarrel = _statement("用户：和小王吵了一架，不想多说", 9, 3, chatter=SURE)
    assert _news([quarrel], [partner]) == []


def test_a_thing_replaced_told_as_chatter_is_news() -> None:
    car = _statement("用户开一辆大众朗逸", 3, 4)
    sold = _statement("用户：旧车卖了哈哈，换了辆比亚迪", 9, 2, chatter=SURE)
    assert _news([sold], [car]) == [sold.text]
    cousin = _statement("用户：帮表哥把旧车卖了哈哈，他换了辆比亚迪", 9, 3, chatter=SURE)
    assert _news([cousin], [car]) == []
