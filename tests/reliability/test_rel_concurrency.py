"""Concurrent writers: appends racing forget and dream lose nothing."""

from __future__ import annotations

import multiprocessing
import re
import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from memory.daily_notes import append_section
from memory.dream import DreamOptions, run_dream
from memory.errors import Busy
from memory.forget import apply_forget, plan_forget
from memory.paths import MemoryRoot

ZONE = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 11, 29, 14, 5, tzinfo=ZONE)
_LINE = re.compile(r"^- writer (\d+) line (\d+)( secret\S*)?$")


def _append(root_path: str, writer: int, count: int) -> None:
    root = MemoryRoot.at(root_path)
    for number in range(count):
        extra = f" secret{number}" if number % 5 == 0 else ""
        append_section(root, "Trimmed Context", [f"writer {writer} line {number}{extra}"], now=NOW)


def _lines(root: MemoryRoot) -> tuple[set[tuple[int, int]], int]:
    """(writer, line) of every surviving bullet, and the number of tombstones."""
    text = root.daily_note(NOW.date()).read_text(encoding="utf-8")
    seen, tombstones = set(), 0
    for line in text.splitlines():
        match = _LINE.match(line)
        if match:
            seen.add((int(match.group(1)), int(match.group(2))))
        elif line == "- [forgotten]":
            tombstones += 1
    return seen, tombstones


def _writers(root: MemoryRoot, writers: int, count: int) -> list[multiprocessing.Process]:
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_append, args=(str(root.path), w, count)) for w in range(writers)]
    for proc in procs:
        proc.start()
    return procs


def test_forget_loses_no_line_appended_while_it_runs(tmp_path: Path) -> None:
    root = MemoryRoot.at(tmp_path / "root")
    append_section(root, "Trimmed Context", ["the seed line"], now=NOW)
    writers, count = 4, 40
    procs = _writers(root, writers, count)
    forgets = 0
    while any(p.is_alive() for p in procs) or forgets < 3:
        forgets += 1
        apply_forget(root, plan_forget(root, "secret"))
    for proc in procs:
        proc.join(60)
        assert proc.exitcode == 0
    apply_forget(root, plan_forget(root, "secret"))
    seen, tombstones = _lines(root)
    expected = {(w, n) for w in range(writers) for n in range(count) if n % 5}
    assert seen == expected  # every line that does not mention the secret is there
    assert tombstones == writers * count // 5  # and each one that did is a tombstone
    assert "secret" not in root.daily_note(NOW.date()).read_text(encoding="utf-8")


def test_eight_writers_against_forget_and_dream(tmp_path: Path) -> None:
    root = MemoryRoot.at(tmp_path / "root")
    append_section(root, "Trimmed Context", ["the user lives in Hangzhou"], now=NOW)
    writers, count = 8, 25
    procs = _writers(root, writers, count)
    counts = {"dreams": 0, "forgets": 0}

    def busy(run: Callable[[], object], what: str) -> None:
        try:
            run()
            counts[what] += 1
        except Busy:  # the other one holds the root: try again
            pass

    options = DreamOptions(days=1, engine="extractive", force=True)
    dreamer = threading.Thread(
        target=lambda: [
            busy(lambda: run_dream(root, options, model=None, now=NOW), "dreams")
            for _ in iter(lambda: any(p.is_alive() for p in procs) or counts["dreams"] < 2, False)
        ]
    )
    dreamer.start()
    while any(p.is_alive() for p in procs) or counts["forgets"] < 2:
        busy(lambda: apply_forget(root, plan_forget(root, "secret")), "forgets")
    for proc in procs:
        proc.join(60)
        assert proc.exitcode == 0
    dreamer.join(60)
    apply_forget(root, plan_forget(root, "secret"))
    seen, tombstones = _lines(root)
    assert seen == {(w, n) for w in range(writers) for n in range(count) if n % 5}
    assert tombstones == writers * count // 5
    assert counts["dreams"] >= 2 and counts["forgets"] >= 2
    assert "secret" not in root.memory_md.read_text(encoding="utf-8")
