"""Numbers and units read as the quantity they name (issue 10, changed values with digits).

A weight said in kilos, 公斤, 斤 or pounds, a height in metres, centimetres or "一米七五", a
price with its currency sign or 块/元, a clock time as "7点半", "7:30" or "7.30pm", a
duration as "一个半小时" or "90 minutes": one quantity each, so a new value of one is
read as a new value (not another slot), and the same value in another unit as the same
value (not a change). Two things of one kind measured side by side ("council tax" beside
"rent", 语文 beside 数学) are two slots, and a value of a time of life gone by ("小时候")
replaces nothing. Examples of this file's own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from two_days import dream_two_days

from memory.dream.judge.quantities import canonical, measure, zh_amount
from memory.dream.judge.relations import Said, replaces
from memory.dream.judge.slots import changes_value, new_value, two_things, typed_values


@pytest.mark.parametrize(
    ("numeral", "value"),
    [
        ("一百六十", 160),
        ("一百四十五", 145),
        ("两万五", 25_000),
        ("三千五", 3_500),
        ("一百二", 120),
        ("三点五", 3.5),
        ("一千二百零五", 1_205),
        ("十二", 12),
        ("一百二十万", 1_200_000),
    ],
)
def test_chinese_numerals_colloquial_forms(numeral: str, value: float) -> None:
    assert zh_amount(numeral) == value


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("体重一百六十斤", "体重160斤"),
        ("身高一米七五", "身高1.75米"),
        ("儿子一米二", "儿子1.2米"),
        ("月薪两万五", "月薪25000"),
        ("月薪 1.5 万", "月薪 15000"),
        ("通勤一个半小时", "通勤1.5小时"),
        ("电池剩百分之八十", "电池剩80%"),
    ],
)
def test_canonical_writes_amounts_in_digits(text: str, written: str) -> None:
    assert canonical(text) == written


@pytest.mark.parametrize(
    "text", ["一点点", "千万别忘了", "万一下雨", "一起去", "十分好", "一下子", "三四个人"]
)
def test_canonical_leaves_words_that_are_no_amounts(text: str) -> None:
    assert canonical(text) == text


@pytest.mark.parametrize(
    ("text", "clock"),
    [
        ("每天晚上7点半吃饭", "7:30"),
        ("早上八点上班", "8:00"),
        ("十点一刻开会", "10:15"),
        ("starts at 9am", "9:00"),
        ("finishes at 5:30pm", "5:30"),
        ("pickup at 17:30", "5:30"),
    ],
)
def test_clock_times_one_form(text: str, clock: str) -> None:
    assert typed_values(text)["time"] == frozenset({clock})


@pytest.mark.parametrize(
    ("unit", "amount", "quantity", "value"),
    [
        ("斤", 160, "mass", "80"),
        ("kilos", 74, "mass", "74"),
        ("lbs", 180, "mass", "81.6"),
        ("厘米", 175, "length", "1.75"),
        ("m", 1.75, "length", "1.75"),
        ("块", 3800, "cny", "3800"),
        ("%", 72, "percent", "72"),
    ],
)
def test_measure_names_the_quantity(unit: str, amount: float, quantity: str, value: str) -> None:
    assert measure(unit, amount) == (quantity, value)


def test_one_quantity_whatever_the_unit() -> None:
    assert typed_values("体重 80 kg") == typed_values("体重 160 斤")
    assert typed_values("身高 175 厘米") == typed_values("身高 1.75 米")
    assert typed_values("每月 3800 块") == typed_values("每月 3800 元")
    assert typed_values("commute is 90 minutes") == typed_values("通勤一个半小时")
    assert typed_values("rent is £1,020")["num:gbp"] == frozenset({"1020"})


# (newer, older): a new value of one slot, read without embeddings
CHANGES = [
    ("用户：最近胖了，现在体重一百六十五斤", "用户体重一百六十斤"),
    ("The user's daughter is 1.2 m tall now", "The user's daughter is 110 cm tall"),
    ("用户的儿子长高了，现在身高一米三五", "用户的儿子身高一米二"),
    ("The user now starts work at 8:30", "The user starts work at 9am"),
    ("用户的房租现在每月 3800 块", "用户的房租每月 3500 元"),
    ("用户的通勤现在要一个半小时", "用户的通勤要 40 分钟"),
]


@pytest.mark.parametrize(("newer", "older"), CHANGES)
def test_a_new_amount_of_one_slot(newer: str, older: str) -> None:
    assert new_value(newer, older, None)


# (newer, older): the same amount in another unit, no new value
SAME = [
    ("用户：我身高 1.75 米", "用户身高 175 厘米"),
    ("The user is 1.80 m tall", "The user is 180 cm tall"),
    ("用户体重 80 公斤", "用户体重一百六十斤"),
]


@pytest.mark.parametrize(("newer", "older"), SAME)
def test_the_same_amount_in_another_unit_is_no_change(newer: str, older: str) -> None:
    assert not changes_value(newer, older)
    assert not replaces(Said(newer, "user", "fact"), Said(older, "user", "fact"))


# (newer, older): two things of one kind, side by side: one head, another word beside it
TWO_THINGS = [
    ("用户的语文成绩是 78 分", "用户的数学成绩是 85 分"),
    ("User: I take 5 mg of amlodipine too", "The user takes 20 mg of atorvastatin daily"),
    ("User: I finish work at 5:30pm", "The user starts work at 9am"),
]


@pytest.mark.parametrize(("newer", "older"), TWO_THINGS)
def test_two_things_of_one_kind_are_two_slots(newer: str, older: str) -> None:
    assert two_things(newer, older)
    assert not changes_value(newer, older)
    assert not replaces(Said(newer, "user", "fact"), Said(older, "user", "fact"), 0.9)


@pytest.mark.parametrize(
    ("newer", "older"),
    [
        ("用户：房租一个月3100，两个人分", "用户：我住武侯区，跟人合租，房租一个月2800"),
        ("User: doctor upped my amlodipine to 10mg", "The user takes amlodipine 5mg"),
        ("用户这次数学考了 92 分，成绩提高了", "用户的数学成绩是 85 分"),
        # another word right before the number: the same thing reworded, as often as not
        ("用户：早上称了一下 75 公斤", "用户：体重 78 公斤"),
        ("User: scale says 77 kg", "The user weighs 80 kg"),
        ("User: paying £1,000 a month for the flat", "The user's rent is £950 a month"),
        ("用户：英语期中考了 91 分", "用户的英语成绩是 85 分"),
        ("User: council tax is £150 a month", "The user pays £950 a month in rent"),
        (
            "The user said the mortgage is £1,050 a month, less than the old rent",
            "The user pays £1,300 a month in rent",
        ),
    ],
)
def test_one_thing_or_news_is_no_two_things(newer: str, older: str) -> None:
    assert not two_things(newer, older)


@pytest.mark.parametrize(
    ("newer", "older"),
    [
        ("用户：小时候我体重才 40 公斤", "用户：体重 62 公斤"),
        ("User: back in college I was 95 kg", "The user weighs 80 kg"),
        ("用户：年轻的时候体重 50 公斤", "用户体重 62 公斤"),
    ],
)
def test_a_time_of_life_gone_by_replaces_nothing(newer: str, older: str) -> None:
    assert not replaces(Said(newer, "user", "fact"), Said(older, "user", "fact"), 0.95)


def test_two_distances_in_words_are_two_records() -> None:
    newer, older = "用户跑十公里要 65 分钟", "用户跑五公里要 30 分钟"
    assert not replaces(Said(newer, "user", "fact"), Said(older, "user", "fact"), 0.95)


def test_a_weight_in_jin_retired_by_a_new_one_in_a_dream(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path, ["用户体重一百六十斤"], ["用户：最近胖了，现在体重一百六十五斤"]
    )
    assert "一百六十五斤" in items
    assert "一百六十斤" not in items
    assert "一百六十斤" in archive


def test_two_subjects_scores_retire_nothing_in_a_dream(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path, ["用户的数学成绩是 85 分"], ["用户的语文成绩是 78 分"]
    )
    assert "85" in items and "78" in items
    assert "85" not in archive
