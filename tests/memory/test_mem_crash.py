"""Crash safety: a dream stopped at any point of its commit leaves MEMORY.md, the archive,
the diary and the daily notes either as before or as after, once recovered."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest
from mem_support import NOW, Crash, at, copy_root, crash_at, note, read

from memory.dream import DreamOptions, run_dream
from memory.paths import MemoryRoot
from memory.transaction import recover

OPTIONS = DreamOptions(days=3, engine="extractive")


def watched(root: MemoryRoot) -> tuple[str | None, ...]:
    files = [root.memory_md, root.archive, root.diary(NOW.date())]
    files += sorted(root.notes_dir.glob("2026-*.md"))
    return tuple(read(p) for p in files)


@pytest.fixture(scope="module")
def states(tmp_path_factory: pytest.TempPathFactory) -> tuple[MemoryRoot, tuple, tuple, list[str]]:
    """(the root before the dream, its watched files before, after, the fault points)."""
    base = MemoryRoot.at(tmp_path_factory.mktemp("crash") / "base")
    note(
        base,
        at(27),
        "用户最喜欢拿铁",
        "The user's sister Maria lives in Lisbon",
        "用户养了一只橘猫",
    )
    assert run_dream(base, OPTIONS, model=None, now=at(27, 23, 58)).status == "done"
    note(base, at(29), "用户改喝美式了", "The user plays tennis every Saturday", "用户喜欢爬山")
    reference = copy_root(base, base.path.parent / "reference")
    points: list[str] = []
    report = run_dream(reference, OPTIONS, model=None, now=NOW, fault=points.append)
    assert report.status == "done" and report.superseded == 1
    old, new = watched(base), watched(reference)
    assert old != new and old[0] != new[0] and old[1] != new[1]
    assert points[:2] == ["staged", "committed"]
    assert {"moved MEMORY.md", "moved memory/archive.md"} <= set(points)
    return base, old, new, points


def test_fault_at_every_point_recovers_old_or_new(states, tmp_path: Path) -> None:
    base, old, new, points = states
    outcomes = {}
    for number, point in enumerate(points):
        root = copy_root(base, tmp_path / f"run{number}")
        with pytest.raises(Crash):
            run_dream(root, OPTIONS, model=None, now=NOW, fault=crash_at(point))
        recover(root)
        state = watched(root)
        assert state in (old, new), f"mixed state after a crash at {point!r}"
        outcomes[point] = "old" if state == old else "new"
        assert not list(root.state_dir.glob("txn-*")) and not (root.state_dir / "commit").exists()
        # the root is usable afterwards: a new dream either finishes the job or skips
        again = run_dream(root, OPTIONS, model=None, now=NOW)
        assert again.status in ("done", "skipped")
        assert watched(root) == new
    assert outcomes["staged"] == "old"
    assert all(outcomes[p] == "new" for p in points[1:])


def _dream_and_die(root_path: str, point: str) -> None:
    def fault(where: str) -> None:
        if where == point:
            os._exit(17)

    run_dream(MemoryRoot.at(root_path), OPTIONS, model=None, now=NOW, fault=fault)
    os._exit(0)


def test_killed_process_recovers_old_or_new(states, tmp_path: Path) -> None:
    base, old, new, points = states
    ctx = multiprocessing.get_context("fork")
    chosen = ["staged", "committed", "moved MEMORY.md", "moved memory/archive.md", points[-1]]
    for number, point in enumerate(chosen):
        root = copy_root(base, tmp_path / f"kill{number}")
        child = ctx.Process(target=_dream_and_die, args=(str(root.path), point))
        child.start()
        child.join(30)
        assert child.exitcode == 17, point
        before_recovery = watched(root)
        recover(root)
        state = watched(root)
        assert state == (old if point == "staged" else new), point
        if point not in ("staged", points[-1]):
            assert before_recovery != new  # the kill really left the commit unfinished


def test_every_command_recovers_first(states, tmp_path: Path) -> None:
    """A crashed commit is rolled forward by the next dream without an explicit recover."""
    base, _, new, _ = states
    root = copy_root(base, tmp_path / "next")
    with pytest.raises(Crash):
        run_dream(root, OPTIONS, model=None, now=NOW, fault=crash_at("moved MEMORY.md"))
    assert run_dream(root, OPTIONS, model=None, now=NOW).status == "skipped"
    assert watched(root) == new
