"""A statement that names only an older one's values again (the same weekday, the same
time) gives no new value: the older is not archived as superseded by it, whatever the slot
model finds alike ("had his first Wednesday piano lesson at 4:15" after "lessons move to
Wednesdays at 4:15pm from next week"). Examples of this file's own."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from memory.daily_notes import append_section
from memory.dream import DreamOptions, run_dream
from memory.dream.judge.restate import values_again
from memory.paths import MemoryRoot

ZONE = ZoneInfo("Asia/Shanghai")


def _archive(tmp_path: Path, first: list[str], later: list[str]) -> str:
    """The archive after a dream on 6 May over ``first`` (3 May) and ``later`` (6 May)."""
    (tmp_path / "root").mkdir()
    root = MemoryRoot.at(tmp_path / "root")
    append_section(root, "Daily Summary", first, now=datetime(2027, 5, 3, 23, 50, tzinfo=ZONE))
    append_section(root, "Daily Summary", later, now=datetime(2027, 5, 6, 23, 50, tzinfo=ZONE))
    options = DreamOptions(days=7, engine="extractive", max_items=30)
    report = run_dream(root, options, model=None, now=datetime(2027, 5, 6, 23, 58, tzinfo=ZONE))
    assert report.status == "done", report.reason
    return root.archive.read_text("utf-8") if root.archive.exists() else ""


def test_the_first_lesson_on_the_new_day_retires_no_plan_of_it(tmp_path: Path) -> None:
    first = [
        "The user's son Theo has piano lessons on Mondays at 4pm",
        "The user said Theo's piano lessons move to Wednesdays at 4:15pm from next week",
    ]
    later = ["The user said Theo had his first Wednesday piano lesson at 4:15 and loved it"]
    archive = _archive(tmp_path, first, later)
    superseded = [line for line in archive.splitlines() if "reason: superseded" in line]
    assert not any("Wednesdays at 4:15pm" in line for line in superseded)


def test_a_new_time_still_retires_the_old_one(tmp_path: Path) -> None:
    first = ["The user ran the 10k in 52:10, a new best"]
    archive = _archive(tmp_path, first, ["The user ran the 10k in 50:45, another new best"])
    assert "52:10" in archive and "reason: superseded" in archive


def test_values_again() -> None:
    plan = "Theo's piano lessons move to Wednesdays at 4:15pm from the week of 2027-05-10"
    assert values_again("Theo had his first Wednesday piano lesson at 4:15", plan)
    assert values_again("女儿上了第一次周六的舞蹈课，10点", "女儿的舞蹈课改到周六上午10点")
    assert not values_again("Theo had his first Thursday piano lesson at 4:15", plan)
    assert not values_again("The user ran the 10k in 50:45", "The user ran the 10k in 52:10")
    # naming no value, a statement names none again
    assert not values_again("Theo loved the new teacher", plan)
