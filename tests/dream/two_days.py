"""One dream over two days of notes, as the retirement tests write them."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from memory.daily_notes import append_section
from memory.dream import DreamOptions, run_dream
from memory.memory_file import parse_archive, parse_memory
from memory.paths import MemoryRoot

ZONE = ZoneInfo("Asia/Shanghai")


def dream_two_days(
    tmp_path: Path, first: list[str], later: list[str], *, first_day: int = 3, later_day: int = 6
) -> tuple[str, str]:
    """MEMORY.md's generated items (one a line) and the archive after an extractive dream
    on 6 May 2027 over ``first`` (noted on ``first_day`` May) and ``later`` (on
    ``later_day``)."""
    (tmp_path / "root").mkdir()
    root = MemoryRoot.at(tmp_path / "root")
    for lines, day in ((first, first_day), (later, later_day)):
        when = datetime(2027, 5, day, 23, 50, tzinfo=ZONE)
        append_section(root, "Daily Summary", lines, now=when)
    options = DreamOptions(days=7, engine="extractive", max_items=30)
    report = run_dream(root, options, model=None, now=datetime(2027, 5, 6, 23, 58, tzinfo=ZONE))
    assert report.status == "done", report.reason
    items = [i.text for i in parse_memory(root.memory_md.read_text("utf-8")).generated]
    archive = root.archive.read_text("utf-8") if root.archive.exists() else ""
    return "\n".join(items), archive


def dream_cited(
    root: MemoryRoot, first: list[str], later: list[str]
) -> list[tuple[str, list[str]]]:
    """Each generated item with the sources it cites, after an extractive dream on 6 May 2027
    over ``first`` (a trimmed context of 3 May) and ``later`` (of 6 May)."""
    for day, lines in ((3, first), (6, later)):
        append_section(
            root, "Trimmed Context", lines, now=datetime(2027, 5, day, 21, 0, tzinfo=ZONE)
        )
    options = DreamOptions(days=7, engine="extractive", max_items=30)
    report = run_dream(root, options, model=None, now=datetime(2027, 5, 6, 23, 58, tzinfo=ZONE))
    assert report.status == "done", report.reason
    doc = parse_memory(root.memory_md.read_text("utf-8"))
    return [(i.text, [str(s) for s in i.sources]) for i in doc.generated]


def group_dream(
    root: MemoryRoot, first: list[str], later: list[str]
) -> tuple[list[str], list[str]]:
    """MEMORY.md's generated items and the texts archived as superseded, after an extractive
    dream on 9 March 2026 over ``first`` (a group's trimmed context of 2 March) and ``later``
    (of 6 March)."""
    for day, lines in ((2, first), (6, later)):
        now = datetime(2026, 3, day, 21, 0, tzinfo=ZONE)
        append_section(root, "Trimmed Context", lines, now=now)
    options = DreamOptions(days=10, engine="extractive", max_items=30)
    report = run_dream(root, options, model=None, now=datetime(2026, 3, 9, 23, 58, tzinfo=ZONE))
    assert report.status == "done", report.reason
    items = [i.text for i in parse_memory(root.memory_md.read_text("utf-8")).generated]
    path = root.path / "memory" / "archive.md"
    archive = parse_archive(path.read_text("utf-8")) if path.exists() else []
    return items, [a.text for a in archive if a.reason == "superseded"]
