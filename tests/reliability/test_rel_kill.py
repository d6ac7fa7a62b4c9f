"""SIGKILL at random moments (seeded): a dream, a forget, a flush and an index are each
killed in 20 places between their first and last write. After recovery the files are
exactly as before or exactly as after, never a mix, and the next run finishes the job.

Each try forks a child that has already imported everything, lets it signal that it
starts, waits a seeded random time inside the operation's measured duration, and kills
it with SIGKILL (nothing runs in the child after that: no finally, no atexit).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import shutil
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memory.daily_notes import append_section
from memory.dream import DreamOptions, run_dream
from memory.flush import flush_turns
from memory.forget import apply_forget, plan_forget
from memory.paths import MemoryRoot
from memory.recovery import ensure_recovered, pending
from memory.search.service import MemorySearch, SearchSettings
from memory.transcript import Turn
from tests.memory.mem_support import NOW, at, note, tree

TRIES = 20
OPTIONS = DreamOptions(days=3, engine="extractive", force=True)
Operation = Callable[[MemoryRoot], Any]


def seeded_root(path: Path) -> MemoryRoot:
    """A root with a dreamed MEMORY.md, an archive and history, and new notes since."""
    root = MemoryRoot.at(path)
    note(
        root,
        at(27),
        "用户最喜欢拿铁",
        "The user's sister Maria lives in Lisbon",
        "用户养了一只橘猫",
    )
    assert run_dream(root, OPTIONS, model=None, now=at(27, 23, 58)).status == "done"
    bullets = [f"The user mentioned plan number {n} for the garden" for n in range(30)]
    note(root, at(29), "用户改喝美式了", "The user plays tennis every Saturday", *bullets)
    return root


def watched(root: MemoryRoot) -> dict[str, bytes]:
    """Every memory file a user can see (bookkeeping and the index aside)."""
    files = tree(root.path)
    return {
        k: v
        for k, v in files.items()
        if not k.startswith(("memory/.dreams/locks/", "memory/.index/", "memory/.bot/"))
        and k not in ("memory/.dreams/events.jsonl", "memory/.dreams/recovery.json")
    }


def _dream(root: MemoryRoot) -> None:
    run_dream(root, OPTIONS, model=None, now=NOW)


def _forget(root: MemoryRoot) -> None:
    apply_forget(root, plan_forget(root, "Lisbon"))


TURNS = [Turn("user", f"我下周{n}要去杭州出差，住在西湖边的酒店第{n}晚" * 3) for n in range(30)]


def _flush(root: MemoryRoot) -> None:
    flush_turns(root, TURNS, "trim", model=None, now=at(29, 23, 59))


def _run_child(root_path: str, operation: Operation, started: Any) -> None:
    root = MemoryRoot.at(root_path)
    started.set()
    operation(root)
    os._exit(0)


def kill_during(
    operation: Operation, base: MemoryRoot, work: Path, rng: random.Random, span: float
) -> MemoryRoot:
    """Copy ``base`` to ``work``, run ``operation`` on it in a child, SIGKILL it after a
    random time in [0, span) and return the copy."""
    shutil.copytree(base.path, work)
    root = MemoryRoot.at(work)
    ctx = multiprocessing.get_context("fork")
    started = ctx.Event()
    child = ctx.Process(target=_run_child, args=(str(work), operation, started))
    child.start()
    assert started.wait(30)
    time.sleep(rng.uniform(0, span))
    os.kill(child.pid or 0, signal.SIGKILL)
    child.join(30)
    return root


def duration(operation: Operation, base: MemoryRoot, work: Path) -> tuple[float, dict]:
    """How long ``operation`` takes on a copy of ``base``, and the files it leaves."""
    shutil.copytree(base.path, work)
    root = MemoryRoot.at(work)
    start = time.perf_counter()
    operation(root)
    return time.perf_counter() - start, watched(root)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> MemoryRoot:
    return seeded_root(tmp_path_factory.mktemp("kill") / "base")


@pytest.mark.parametrize(
    ("name", "operation", "seed"),
    [("dream", _dream, 11), ("forget", _forget, 12), ("flush", _flush, 13)],
)
def test_killed_at_random_points_leaves_old_or_new(
    base: MemoryRoot, tmp_path: Path, name: str, operation: Operation, seed: int
) -> None:
    rng = random.Random(seed)
    old = watched(base)
    took, new = duration(operation, base, tmp_path / "reference")
    assert new != old
    outcomes = {"old": 0, "new": 0, "recovered": 0}
    for number in range(TRIES):
        root = kill_during(operation, base, tmp_path / f"try{number}", rng, took * 1.2)
        if pending(root):
            outcomes["recovered"] += 1
        ensure_recovered(root)
        state = watched(root)
        assert state in (old, new), f"{name}: a mixed state after kill {number}"
        outcomes["old" if state == old else "new"] += 1
        assert not pending(root)
        assert not list(root.state_dir.glob("txn-*"))
        if state == old and name != "flush":  # a flush again appends a section, by design
            operation(root)
            assert watched(root) == new, f"{name}: the next run after kill {number}"
    print(f"{name}: {TRIES} kills within {took * 1.2 * 1000:.0f} ms: {outcomes}")
    assert outcomes["old"] + outcomes["new"] == TRIES


def _index(root: MemoryRoot) -> None:
    service = MemorySearch(root, SearchSettings(provider="none"))
    try:
        service.sync(rebuild=True)
    finally:
        service.close()


def test_a_killed_index_is_rebuilt_and_answers(base: MemoryRoot, tmp_path: Path) -> None:
    rng = random.Random(14)
    took, files = duration(_index, base, tmp_path / "reference")
    expected = _hits(MemoryRoot.at(tmp_path / "reference"))
    assert expected
    for number in range(TRIES):
        root = kill_during(_index, base, tmp_path / f"try{number}", rng, took * 1.2)
        assert watched(root) == files  # the index never touches the memory files
        assert _hits(root) == expected, f"search after kill {number}"


def _hits(root: MemoryRoot) -> list[tuple[str, int]]:
    service = MemorySearch(root, SearchSettings(provider="none"))
    try:
        return [(h.path, h.start_line) for h in service.search("tennis Saturday", limit=3)]
    finally:
        service.close()


def test_a_killed_append_never_leaves_a_torn_section(tmp_path: Path) -> None:
    """Appends killed mid-write, many in a row: each note is cut back to whole sections."""
    rng = random.Random(15)
    root = MemoryRoot.at(tmp_path / "root")
    append_section(root, "Trimmed Context", ["seed"], now=NOW)
    big = ["很长的一句话，" * 285 for _ in range(10)]  # 60 KB a section: many write pages

    def appends(target: MemoryRoot) -> None:
        for _ in range(3):
            append_section(target, "Trimmed Context", big, now=NOW)

    took, _ = duration(appends, root, tmp_path / "reference")
    for number in range(TRIES):
        work = kill_during(appends, root, tmp_path / f"try{number}", rng, took * 1.2)
        ensure_recovered(work)
        text = work.daily_note(NOW.date()).read_text(encoding="utf-8")
        sections = text.split("\n## ")[1:]
        assert sections[0].rstrip("\n") == "Trimmed Context (23:58)\n- seed"
        for section in sections[1:]:
            assert section.rstrip("\n") == "Trimmed Context (23:58)\n" + "\n".join(
                f"- {b}" for b in big
            ), f"a torn section after kill {number}"
