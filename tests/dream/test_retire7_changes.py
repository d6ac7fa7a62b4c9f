"""Round 19: numbers written in words read as numbers, and an age is one's one age: a newer,
greater age retires the older ("六十八了" after "今年六十七岁"), what else the old item
said stays, a younger age or a value that is no age retires nothing. Examples of this
file's own."""

from __future__ import annotations

from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from two_days import dream_two_days

from memory.dream.judge.clauses import split_changed
from memory.dream.judge.numerals import en_number, number, zh_number
from memory.dream.judge.relations import Said
from memory.dream.judge.single_slots import slot_values, swapped

ZONE = ZoneInfo("Asia/Shanghai")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("六十八", 68),
        ("十九", 19),
        ("两百", 200),
        ("三千零八", 3008),
        ("九", 9),
        ("eighty-one", 81),
        ("Forty two", 42),
        ("thirteen", 13),
        ("57", 57),
    ],
)
def test_a_numeral_in_words_reads_as_its_number(text: str, value: int) -> None:
    assert number(text) == value


@pytest.mark.parametrize("text", ["六八", "十百", "百千", "", "eighty-twelve", "many"])
def test_words_that_write_no_number_read_as_none(text: str) -> None:
    assert (zh_number(text) if not text.isascii() else en_number(text)) is None


@pytest.mark.parametrize(
    ("text", "age"),
    [
        ("外公今年八十一岁", "81"),
        ("用户：六十八了", "68"),
        ("用户刚过完生日，一下就四十了", "40"),
        ("用户叫林芳，35（2027年）", "35"),  # "今年35", as the date resolver writes it
        ("Her gran is eighty-one and still gardens", "81"),
        ("Tom was 44 until yesterday", "44"),
        ("The user is 52 years old", "52"),
    ],
)
def test_an_age_in_digits_or_words_is_the_age_slot(text: str, age: str) -> None:
    assert slot_values(text).get("age") == frozenset({age})


@pytest.mark.parametrize(
    "text",
    ["体重降到68了", "等了两百了", "That's 5 now", "It's 3, see you", "用户住在三楼"],
)
def test_a_number_that_is_no_age_fills_no_age_slot(text: str) -> None:
    assert "age" not in slot_values(text)


def test_an_age_grows_only() -> None:
    assert swapped("用户：六十八了", "用户今年六十七岁") == "age"
    assert swapped("Her gran is eighty-two today", "Her gran is 81") == "age"
    # an age that fell is someone else's, or a slip: nothing retired
    assert swapped("用户：六十六了", "用户今年六十七岁") == ""
    assert swapped("用户今年六十七岁", "用户今年六十七岁") == ""


def test_a_clause_said_without_commas_is_split_off_when_its_age_changes() -> None:
    older = Said("用户姓钱 六十七了", "user", "fact", False)
    newer = Said("用户：六十八了", "user", "fact", False)
    part = split_changed(older, newer)
    assert part is not None
    assert part.kept == "用户姓钱" and "六十七" in part.retired


FIRST = [
    "用户: 我姓钱 六十七了",
    "用户: 住在洛阳老城区，一个人住",
    "用户: 每天早上去河边打太极",
]


def test_an_age_said_alone_in_words_retires_the_old_age_and_keeps_the_name(
    tmp_path: Path,
) -> None:
    items, archive = dream_two_days(tmp_path, FIRST, ["用户: 六十八了"], first_day=2, later_day=5)
    assert "六十八" in items
    assert "六十七" not in items and "六十七" in archive
    assert "姓钱" in items  # the name said with the old age stays
    assert "洛阳" in items and "太极" in items


def test_a_younger_age_retires_nothing(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path, FIRST, ["用户: 孙女六岁了，上一年级"], first_day=2, later_day=5
    )
    assert "六十七" in items
    assert "六十七" not in archive


def test_an_age_said_on_a_birthday_is_kept_and_never_takes_the_name_with_it(
    tmp_path: Path,
) -> None:
    first = ["用户: 我叫林芳，今年35", "用户: 在郑州一家药店当药剂师"]
    items, archive = dream_two_days(
        tmp_path, first, ["用户: 今天我生日！36了"], first_day=2, later_day=5
    )
    # a guard, not a gain: without the grounding check below the age rule would archive the name
    assert "36了" in items
    # "35（2027年）" reads apart from its line "今年35", so the clause cannot leave alone:
    # the item stays whole rather than archive the name with the age
    assert "林芳" in items and "林芳" not in archive
    assert "药剂师" in items
