"""A weekday said with its day of the month ("fri 17th", "下周五17号") is one date, and
"the 5th of next month" is that day of the next month: read as one span each, never
written twice or half-rewritten."""

from __future__ import annotations

from datetime import date

import pytest

from memory.dream.judge.dates import find, resolve

# a Monday: the 17th of this month is a Friday, the 18th is a Saturday
ANCHOR = date(2031, 3, 10)


@pytest.mark.parametrize(
    "text",
    [
        "Physio fri 17th, bring the knee brace",
        "physio moved to Friday 17th",
        "physio on Fri. the 17th",
        "下周五17号去复诊",
        "周五（17号）去复诊",
    ],
)
def test_a_weekday_with_its_day_is_that_day(text: str) -> None:
    spans = find(text, ANCHOR)
    assert [(s.first, s.unit) for s in spans] == [(date(2031, 3, 17), "day")]
    written, _ = resolve(text, ANCHOR)
    assert written.count("2031-03-17") == 1


def test_the_weekday_chooses_between_the_next_two_such_days() -> None:
    # on the 20th, the next 17th is in April (a Thursday), the one after in May (a Saturday)
    later = date(2031, 3, 20)
    assert [s.first for s in find("sat 17th: the recital", later)] == [date(2031, 5, 17)]
    # no weekday fits: the nearest such day
    assert [s.first for s in find("sun 17th: the recital", later)] == [date(2031, 4, 17)]


def test_a_day_of_next_month() -> None:
    written, spans = resolve("Rent is due on the 5th of next month", ANCHOR)
    assert [s.first for s in spans] == [date(2031, 4, 5)]
    assert written == "Rent is due on 2031-04-05"


def test_a_weekday_before_a_month_stays_the_month_days() -> None:
    spans = find("dentist on Tuesday 18th March", ANCHOR)
    assert [s.first for s in spans] == [date(2031, 3, 18)]
