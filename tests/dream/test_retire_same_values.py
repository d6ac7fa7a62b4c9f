"""A statement that names only an older one's values again (the same weekday, the same
time) gives no new value: the older is not archived as superseded by it, whatever the slot
model finds alike ("had his first Wednesday piano lesson at 4:15" after "lessons move to
Wednesdays at 4:15pm from next week"). Examples of this file's own."""

from __future__ import annotations

from pathlib import Path
from zoneinfo import ZoneInfo

from two_days import dream_two_days

from memory.dream.judge.restate import values_again

ZONE = ZoneInfo("Asia/Shanghai")


def test_the_first_lesson_on_the_new_day_retires_no_plan_of_it(tmp_path: Path) -> None:
    first = [
        "The user's son Theo has piano lessons on Mondays at 4pm",
        "The user said Theo's piano lessons move to Wednesdays at 4:15pm from next week",
    ]
    later = ["The user said Theo had his first Wednesday piano lesson at 4:15 and loved it"]
    archive = dream_two_days(tmp_path, first, later)[1]
    superseded = [line for line in archive.splitlines() if "reason: superseded" in line]
    assert not any("Wednesdays at 4:15pm" in line for line in superseded)


def test_a_new_time_still_retires_the_old_one(tmp_path: Path) -> None:
    first = ["The user ran the 10k in 52:10, a new best"]
    archive = dream_two_days(tmp_path, first, ["The user ran the 10k in 50:45, another new best"])[
        1
    ]
    assert "52:10" in archive and "reason: superseded" in archive


def test_values_again() -> None:
    plan = "Theo's piano lessons move to Wednesdays at 4:15pm from the week of 2027-05-10"
    assert values_again("Theo had his first Wednesday piano lesson at 4:15", plan)
    assert values_again("女儿上了第一次周六的舞蹈课，10点", "女儿的舞蹈课改到周六上午10点")
    assert not values_again("Theo had his first Thursday piano lesson at 4:15", plan)
    assert not values_again("The user ran the 10k in 50:45", "The user ran the 10k in 52:10")
    # naming no value, a statement names none again
    assert not values_again("Theo loved the new teacher", plan)
