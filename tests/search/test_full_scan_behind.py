"""The periodic full scan (every file of the root stat-ed, for an old note edited in
place) runs between searches, never on a search's own path, and what it found is checked
again before it is applied."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest
from test_index_cost import NOW, QUERY, make_root

from memory.search import freshness
from memory.search.service import MemorySearch, SearchSettings


def edit_in_place(path: Path, line: str) -> None:
    """Append as an editor that writes in place does: the folder's mtime stays."""
    with path.open("a", encoding="utf-8") as f:
        f.write(line)


def finish_behind(svc: MemorySearch) -> None:
    """Wait for the scan started after the last search."""
    behind = svc._freshness._behind
    assert behind is not None  # started when the search answered
    behind.result(timeout=10)


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The thread of every full scan."""
    threads: list[str] = []
    real = freshness.scan

    def recorded(*args: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(*args)

    monkeypatch.setattr(freshness, "scan", recorded)
    return threads


def test_a_due_full_scan_runs_after_the_answer_and_the_next_search_sees_the_edit(
    tmp_path: Path, scans: list[str]
) -> None:
    root = make_root(tmp_path / "r", 40)
    svc = MemorySearch(root, SearchSettings(provider="none", full_scan_seconds=0.0))
    assert svc.search(QUERY, now=NOW)
    # the scan started after that answer stats the files before the edit: wait for it, or
    # (on a loaded machine) it is still running at the next search, which then starts none
    finish_behind(svc)
    scans.clear()  # the open's (with no interval, its scan ahead is stale at once)
    old = root.path / "memory/topic-000.md"  # not among the hot files
    edit_in_place(old, "- 用户的猫叫豆豆\n")
    assert not svc.search("豆豆", now=NOW)  # the hot files only: not seen yet
    finish_behind(svc)
    hits = svc.search("豆豆", now=NOW)
    assert hits and hits[0].path == "memory/topic-000.md"
    assert scans and set(scans) == {"memory-scan"}  # none on the searching thread
    svc.close()


def test_what_a_scan_found_is_stat_ed_again_when_it_is_applied(
    tmp_path: Path, scans: list[str]
) -> None:
    root = make_root(tmp_path / "r", 40)
    svc = MemorySearch(root, SearchSettings(provider="none", full_scan_seconds=0.0))
    svc.search(QUERY, now=NOW)
    old = root.path / "memory/topic-001.md"
    edit_in_place(old, "- 用户的狗叫旺财\n")
    svc.search(QUERY, now=NOW)
    finish_behind(svc)  # found topic-001 changed
    edit_in_place(old, "- 用户的鹦鹉叫小绿\n")  # and it changed again since
    hits = svc.search("鹦鹉 小绿", now=NOW)
    assert hits and hits[0].path == "memory/topic-001.md"
    assert "小绿" in (root.path / hits[0].path).read_text(encoding="utf-8")
    state = svc._state
    assert state is not None
    row = state.files["memory/topic-001.md"]
    assert (row.size, row.mtime) == (old.stat().st_size, old.stat().st_mtime_ns)
    svc.close()


def test_a_search_before_the_interval_starts_no_scan(tmp_path: Path, scans: list[str]) -> None:
    svc = MemorySearch(make_root(tmp_path / "r", 10), SearchSettings(provider="none"))
    svc.search(QUERY, now=NOW)
    svc.search(QUERY, now=NOW)
    assert svc._freshness._behind is None and scans == ["memory-scan"]  # the open's only
    svc.close()


def test_a_new_file_is_seen_at_once_by_its_folders_change(tmp_path: Path) -> None:
    root = make_root(tmp_path / "r", 10)
    svc = MemorySearch(root, SearchSettings(provider="none"))
    svc.search(QUERY, now=NOW)
    path = root.path / "memory/topic-new.md"
    path.write_text("- 用户开始学滑板\n", encoding="utf-8")
    os.utime(path.parent)  # coarse folder clocks: make the change visible
    hits = svc.search("滑板", now=NOW)
    assert hits and hits[0].path == "memory/topic-new.md"
    svc.close()


def test_a_search_after_the_interval_stats_a_few_files_not_the_archive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    on_main: list[str] = []
    for name in ("stat", "lstat"):
        real = getattr(os, name)

        def counting(path: Any, *args: Any, real: Any = real, **kwargs: Any) -> Any:
            if threading.current_thread() is threading.main_thread():
                on_main.append(str(path))
            return real(path, *args, **kwargs)

        monkeypatch.setattr(os, name, counting)
    counts = []
    for extra in (12, 120):
        root = make_root(tmp_path / f"r{extra}", extra)
        svc = MemorySearch(root, SearchSettings(provider="none", full_scan_seconds=0.0))
        svc.search(QUERY, now=NOW)
        for _ in range(3):  # each takes the scan the one before started
            finish_behind(svc)
            on_main.clear()
            svc.search(QUERY, now=NOW)
            counts.append(len(on_main))
        svc.close()
    assert max(counts) <= 16, counts
