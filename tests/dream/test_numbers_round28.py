"""The same measured thing, a new number, read however the numbers are written (issue 10,
round 28: changed values with digits kept beside their new value; durable facts wrongly
superseded by "the same measured thing, a new number"). Examples of this file's own:

- a number is read in digits and in the one unit word of its quantity ("一百五十斤" is 75
  公斤, "15k" 15000, "3000块钱" 3000元), one-digit numbers too ("跑步5公里"), and its
  neighbours are the words of its own clause;
- one's weight or height is one measured thing whatever the classifier calls each line;
- a number said with "now" beside another thing's, sharing only the unit it is in
  ("现在每月工资12000元" / "每月房租3000元", "目前公司在28楼" / "家住在12楼"), is no new
  value; a value of a year gone by ("去年房租每月3200元") is no value now; a number of
  someone around the subject ("邻居养了3只猫") is theirs; a weighing is no new target.
"""

from __future__ import annotations

from datetime import date

import pytest

from memory.dream.extractive import ExtractiveEngine, _behind, _holds_from, _two_measured
from memory.dream.judge.kin import others_named
from memory.dream.judge.measures import body_reading, of_then, slot_numbers
from memory.dream.judge.quantities import is_unit, one_unit
from memory.dream.judge.relations import Said
from memory.dream.retire import slot_keys


def _found(old: str, new: str, kinds: tuple[str, str] = ("fact", "fact"), **new_fields: bool):
    newer = Said(new, "user", kinds[1], **new_fields)
    return ExtractiveEngine._judge_change(newer, Said(old, "user", kinds[0]), None)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("用户体重150斤", "用户体重75公斤"),
        ("体重一百四十五斤", "体重一百四十五斤"),  # numerals are :func:`canonical`'s
        ("月薪15k", "月薪15000"),
        ("房租3000块钱", "房租3000元"),
        ("房租3000块1个月", "房租3000元1个月"),
        ("一块蛋糕", "一块蛋糕"),
        ("weighs 176 lbs", "weighs 79.8 kg"),
        ("down to 77 kilos", "down to 77 kg"),
        ("身高175公分", "身高175厘米"),
    ],
)
def test_one_unit_word_a_quantity(text: str, read: str) -> None:
    assert one_unit(text) == read


def test_units_name_no_thing() -> None:
    assert all(map(is_unit, ["公斤", "元", "楼", "hours", "kg", "%", "次"]))
    assert not any(map(is_unit, ["rate", "房租", "体重", "commute"]))


def test_numbers_read_in_digits_one_unit_and_their_clause() -> None:
    assert slot_numbers("用户体重一百五十斤") == {"体重": {"75"}, "公斤": {"75"}}
    assert slot_numbers("用户每周游泳3次")["游泳"] == {"3"}  # one digit is a number
    assert slot_numbers("用户月薪15k") == {"月薪": {"15000"}}
    # 只 is the breed's measure word, in another clause than the age
    assert "只" not in slot_numbers("团子三岁了，是只英短")


CHANGES = [
    ("用户体重150斤", "用户称了一下，72公斤了"),
    ("用户体重七十五公斤", "用户称了一下，七十二公斤"),
    ("The user weighs 176 lbs", "The user is down to 78 kg"),
    ("用户每天跑步5公里", "用户现在每天跑8公里"),
    ("用户月薪15k", "用户现在月薪一万八"),
]


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_the_same_measured_thing_a_new_number(old: str, new: str) -> None:
    assert _found(old, new) == "rules"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("用户体重150斤", "用户2027-05-06称了一下，72公斤了"),
        ("The user weighs 80 kg", "The user: Down to 77 kilos in the week of 2027-05-03"),
    ],
)
def test_ones_weight_whatever_each_line_is_called(old: str, new: str) -> None:
    assert _found(old, new, ("health", "event")) == "rules"


KEEPS = [
    # two things sharing only the unit they are in, told with "now"
    ("用户每月房租3000元", "用户现在每月工资12000元"),
    ("用户家住在12楼", "用户目前公司在28楼"),
    ("The user sleeps 7 hours a night", "The user: Currently working 10 hours a day"),
    # someone around the subject
    ("用户养了2只猫", "用户的邻居养了3只猫"),
    # a weighing is no new target
    ("用户的体重目标是65公斤", "用户今天称了一下66公斤，冲冲冲"),
    # another thing weighed
    ("用户体重75公斤", "用户今天买了20公斤大米"),
    # an animal's age, a difference of ages: no new age of the user's or a niece's
    ("用户31岁", "用户养了一只柴犬叫豆包，三岁了"),
    ("The user is 34", "The user got a kitten last week, she is 2 months old"),
    ("用户的哥哥有个女儿，五岁", "用户哥比用户大三岁"),
    ("The user's daughter is 7", "The user's brother is two years older than the user"),
]


@pytest.mark.parametrize(("old", "new"), KEEPS)
def test_another_thing_measured_is_no_change(old: str, new: str) -> None:
    assert _found(old, new) is None
    assert _found(old, new, ("health", "event")) is None


def test_a_thing_both_name_told_with_now_still_changes() -> None:
    # "rate" is what both measure, not the unit: a change told in other words
    old, new = "The user's mortgage rate is 4.5%", "The user: Remortgaged, the rate is 3.9% now"
    assert _found(old, new) == "rules"
    assert _found("The user's commute is 40 minutes", "The user's commute is 25 minutes now")


def test_others_named() -> None:
    assert others_named("用户的邻居养了3只猫") == {"邻居"}
    assert others_named("User: my landlord put the rent up") == {"landlord"}
    assert not others_named("用户的男朋友在上海")  # a partner is the subject's own stage


def test_a_month_or_a_year_gone_by() -> None:
    day = date(2027, 5, 6)
    assert _behind("去年房租每月3200元", day)
    assert _behind("上个月工资12000", day)
    assert _behind("last year's rent was £900 a month", day)
    assert not _behind("上周三搬到了良渚", day)  # a day a change is told of
    assert not _behind("今年房租每月3800元", day)
    assert not _behind("房租每月3800元", day)


def test_a_value_of_then_is_no_value_now() -> None:
    old = "用户每月房租3500元"
    then = "用户2026年房租每月3200元"
    assert _found(old, then) == "rules"  # read as now, a year's number is a new rent
    assert _found(old, then, past=True) is None
    newer, older = Said(then, "user", "fact", past=True), Said(old, "user", "fact")
    assert of_then(newer, older) and _two_measured(newer, older)
    # a change told of a year gone by is still a change
    raised = Said("用户2026年房租涨到了3500元", "user", "fact", past=True)
    assert not of_then(raised, Said("用户每月房租3200元", "user", "fact"))
    # told in English
    rent = "The user's rent is £950 a month"
    assert _found(rent, "The user: In 2026's rent was £900 a month", past=True) is None


def test_past_is_part_of_the_verdict_key() -> None:
    assert Said("a", "user", "fact").key != Said("a", "user", "fact", past=True).key


def test_ones_weight_read_anew() -> None:
    assert body_reading("用户2027-05-06称了一下，72公斤了", "用户体重150斤")
    assert body_reading("The user: Down to 77 kilos this week", "The user weighs 80 kg")
    assert not body_reading("用户今天称了一下66公斤", "用户的体重目标是65公斤")  # a goal
    assert not body_reading("用户体重75公斤", "用户体重150斤")  # the same weight
    weighed = Said("用户2027-05-06称了一下，72公斤了", "user", "event")
    assert _holds_from(weighed, Said("用户体重150斤", "user", "health"))
    assert not _holds_from(
        Said("用户今天跑了5公里", "user", "event"), Said("用户体重75公斤", "user", "health")
    )


def test_a_weight_is_found_in_any_unit_and_words() -> None:
    keys = set(slot_keys("用户体重150斤", "user")) & set(
        slot_keys("用户称了一下，72公斤了", "user")
    )
    assert keys == {("user", "measure:num:mass")}
    # money measures many things of one person: no key of its own
    assert not [k for _, k in slot_keys("用户每月房租3000元", "user") if k.startswith("measure:")]
