"""A number beside a shared word is a new value of one measured thing only when the two
statements measure the same thing (round 27, durable facts wrongly superseded). Examples of
this file's own:

- two numbers sharing only a unit or a word beside it ("元", "楼", "euros", "minutes") while
  each has a word the other never says ("房租" / "工资", "家" / "公司", "rent" / "partner
  earns") measure two things: both facts hold, unless the newer says it changed;
- a newer naming a relative the older does not ("小林的老婆身高165厘米" after "小林身高180厘米",
  "Tom's sister Amy is 5" after "Tom is 8") tells another person's value;
- a new number of one thing, told plainly or as news, still retires the old one;
- a relation's own relation ("the user's brother's friend", "用户的哥哥的朋友") is another person;
- a thing moved ("把公司搬到了福田") is no new home.
"""

from __future__ import annotations

import pytest

from memory.dream.extractive import ExtractiveEngine
from memory.dream.judge.relations import Said, subject_of

KEEPS = [
    ("小林", "小林每月房租3000元", "小林每月工资12000元"),
    ("小林", "小林家住在12楼", "小林公司在28楼"),
    ("小林", "小林的车是2018年买的", "小林的房子是2020年买的"),
    ("小林", "小林身高180厘米", "小林的老婆身高165厘米"),
    ("Tom", "Tom is 8 years old", "Tom's sister Amy is 5 years old"),
    ("Tom", "Tom's bus to work takes 40 minutes", "Tom's lunch break is 30 minutes"),
    ("user", "The user's rent is 1200 euros", "The user's partner earns 3000 euros a month"),
    ("user", "用户的电脑是16G内存", "用户的手机是8G内存"),
]

CHANGES = [
    ("Tom", "Tom is 8 years old", "Tom is 9 now"),
    ("Tom", "Tom's rent is £900 a month", "Tom's rent went up to £950 a month"),
    ("Tom", "Tom takes 20 mg of atorvastatin", "Tom takes 40 mg of atorvastatin"),
    ("小林", "小林的儿子今年8岁", "小林的儿子9岁了"),
    ("小林", "小林每月房租3000元", "小林房租涨到3300元"),
    ("小林", "小林身高180厘米", "小林身高182厘米"),
    ("user", "用户体重80公斤", "用户体重78公斤"),
    ("user", "The user's mortgage is £1,200 a month", "The user's mortgage is £1,150 a month"),
    ("user", "The user's son Leo is 7", "The user's son Leo is 8"),
]


def _found(subject: str, old: str, new: str) -> str | None:
    newer, older = Said(new, subject, "fact", False), Said(old, subject, "fact", False)
    return ExtractiveEngine._judge_change(newer, older, None)


@pytest.mark.parametrize(("subject", "old", "new"), KEEPS)
def test_two_measured_things_are_no_change(subject: str, old: str, new: str) -> None:
    assert _found(subject, old, new) is None


@pytest.mark.parametrize(("subject", "old", "new"), CHANGES)
def test_a_new_number_of_one_thing_is_still_a_change(subject: str, old: str, new: str) -> None:
    assert _found(subject, old, new) == "rules"


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("The user's brother's friend moved to Leeds", "user/brother-friend"),
        ("用户的哥哥的朋友搬到了利兹", "user/brother-friend"),
        ("The user's brother lives in Manchester", "user/brother"),
        ("The user's mum's birthday is 3 June", "user/mother"),
    ],
)
def test_a_relation_s_own_relation_is_another_person(text: str, subject: str) -> None:
    """ "the user's brother's friend" is the friend, not the brother: a move of the friend's
    retires no home of the brother's."""
    assert subject_of(text) == subject


def test_a_thing_moved_is_no_new_home() -> None:
    """ "阿杰把公司搬到了福田" moves the company; "把家搬到了福田" moves the home."""
    assert _found("阿杰", "阿杰住在南山区", "阿杰把公司搬到了福田") is None
    assert _found("阿杰", "阿杰住在南山区", "阿杰把家搬到了福田") == "rules"
