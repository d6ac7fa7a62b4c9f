"""A statement retires only what it really replaces, and what it replaces reaches the archive
recognisably (issue 10, round 20). Examples of this file's own:

- a second medicine told as an addition ("also takes metformin 500 mg with dinner") is no
  new dose of the first ("takes ramipril 5 mg every night"), however alike the two read;
- a word beside two numbers that names no measured thing ("now", "takes", "til") does not
  make them two values of one slot ("64 kg now" / "hourly rate is now £45");
- a clause retired from a statement about someone written by their given name ("晓峰是…")
  names them in the archive ("晓峰每周二上午九点到十一点"), not the bare time.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from two_days import dream_two_days

from memory.daily_notes import append_section
from memory.dream import DreamOptions, run_dream
from memory.dream.judge.clauses import split_changed
from memory.dream.judge.relations import Said, replaces
from memory.memory_file import parse_memory
from memory.paths import MemoryRoot

ZONE = ZoneInfo("Asia/Shanghai")


def _said(text: str, subject: str = "user", kind: str = "fact") -> Said:
    return Said(text, subject, kind, False)


def test_a_second_medicine_retires_no_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COWDREAM_DREAM_EMBEDDINGS", "on")  # the two read alike by embedding
    first = ["The user takes ramipril 5 mg every night"]
    later = ["The user also takes metformin 500 mg with dinner"]
    items, archive = dream_two_days(tmp_path, first, later)
    assert "ramipril 5 mg" in items and "metformin 500 mg" in items
    assert "reason: superseded" not in archive


def test_a_new_dose_of_the_same_medicine_still_retires_the_old(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COWDREAM_DREAM_EMBEDDINGS", "on")
    first = ["用户每天早上吃一片阿司匹林"]
    later = ["用户的阿司匹林改成每天两片了"]
    items, archive = dream_two_days(tmp_path, first, later)
    assert "一片阿司匹林" not in items
    assert "一片阿司匹林" in archive and "reason: superseded" in archive


def test_a_word_of_time_or_a_light_verb_is_no_measured_thing() -> None:
    weight = _said("The user is at 64 kg now, nearly at goal")
    assert not replaces(_said("The user said his hourly rate is now £45"), weight)
    ramipril = _said("The user takes ramipril 5 mg every night", kind="health")
    assert not replaces(
        _said("The user also takes metformin 500 mg with dinner", kind="health"), ramipril, None
    )
    # the same measured thing, a new number: still a change
    assert replaces(_said("The user takes ramipril 10 mg every night now"), ramipril)


def test_a_clause_retired_apart_names_whom_it_is_about_by_the_given_name() -> None:
    older = _said("晓峰是博士二年级，这学期给 MA1101 当助教，每周二上午九点到十一点", "李晓峰")
    newer = _said("李晓峰：MA1101 的辅导课改到每周五上午九点了", "李晓峰")
    part = split_changed(older, newer)
    assert part is not None
    assert part.kept == "晓峰是博士二年级，这学期给 MA1101 当助教"
    assert part.retired == "晓峰每周二上午九点到十一点"


def _nightly(tmp_path: Path, days: list[tuple[int, list[str]]]) -> tuple[list[str], str]:
    """MEMORY.md's generated items and the archive after a dream each night of May 2027
    that has notes (``days``: the day and its lines), over a three-day window."""
    (tmp_path / "root").mkdir()
    root = MemoryRoot.at(tmp_path / "root")
    options = DreamOptions(days=3, engine="extractive", max_items=30, force=True)
    for day, lines in days:
        append_section(
            root, "Daily Summary", lines, now=datetime(2027, 5, day, 23, 50, tzinfo=ZONE)
        )
        now = datetime(2027, 5, day, 23, 58, tzinfo=ZONE)
        report = run_dream(root, options, model=None, now=now)
        assert report.status == "done", report.reason
    items = [i.text for i in parse_memory(root.memory_md.read_text("utf-8")).generated]
    return items, root.archive.read_text("utf-8") if root.archive.exists() else ""


def test_a_value_changed_from_a_day_holds_from_that_day(tmp_path: Path) -> None:
    items, archive = _nightly(
        tmp_path,
        [
            (3, ["The user takes atenolol 25 mg every morning"]),
            (4, ["The user said the doctor raised her atenolol to 50 mg, starting tomorrow"]),
            (5, ["The user asked for a quick pasta recipe"]),
            (6, ["The user said it rained all day"]),
        ],
    )
    assert any("atenolol to 50 mg" in item for item in items)
    assert not any("atenolol 25 mg" in item for item in items)
    superseded = [line for line in archive.splitlines() if "reason: superseded" in line]
    assert any("atenolol 25 mg" in line for line in superseded)
    assert "reason: expired" not in archive


def test_a_plan_starting_on_a_day_still_expires(tmp_path: Path) -> None:
    items, archive = _nightly(
        tmp_path,
        [
            (3, ["The user has been offered a job at a bakery in York, starting tomorrow"]),
            (5, ["The user asked for a quick pasta recipe"]),
        ],
    )
    assert not any("bakery" in item for item in items)
    assert "bakery" in archive and "reason: expired" in archive
