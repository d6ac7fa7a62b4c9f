"""An item that writes a relative date as the absolute one ("今年" as "2026年", "next
Friday" as its day) is supported by its line, by the verifier and by the bench's check."""

from __future__ import annotations

from datetime import date

import pytest

from memory.dream.grounding import SUPPORT_THRESHOLD, dated_numbers, support

DAY = date(2026, 3, 10)  # a Tuesday


@pytest.mark.parametrize(
    ("item", "line"),
    [
        ("用户35岁（2026年）", "用户说他今年35岁，生日在夏天"),
        ("The user turns 40 in 2027", "The user said he turns 40 next year"),
        ("用户2026-03-13去南京", "用户说这周五去南京"),
    ],
)
def test_a_resolved_date_is_supported_by_its_line(item: str, line: str) -> None:
    assert support(item, [line], dated_numbers([line], DAY)) >= SUPPORT_THRESHOLD


def test_without_the_resolution_a_short_item_reads_as_unsupported() -> None:
    assert support("用户35岁（2026年）", ["用户说他今年35岁，生日在夏天"]) < SUPPORT_THRESHOLD


def test_a_year_the_line_does_not_name_is_not_supported() -> None:
    line = "用户说他今年35岁，生日在夏天"
    assert support("用户35岁（2031年）", [line], dated_numbers([line], DAY)) < SUPPORT_THRESHOLD


def test_dated_numbers_read_on_the_notes_day() -> None:
    assert {"2026", "3", "03", "13"} <= dated_numbers(["用户说这周五去南京"], DAY)
    assert dated_numbers(["用户喜欢南京"], DAY) == frozenset()
