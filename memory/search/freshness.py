"""Which files a search must look at before it answers, at a cost that does not grow with
the archive.

A full scan (every indexable file stat-ed) runs when the index opens and then at most every
``full_scan_seconds``. In between, each search stats only:

- the folders the last scan read (the root and ``memory/`` among them): creating,
  deleting or renaming a file changes its folder's mtime, and atomic writes (the dream,
  ``forget``, most editors) are renames; a changed folder brings the full scan forward;
- the *hot* files, where appends land: ``MEMORY.md``, the archive, today's and
  yesterday's notes and session logs (in the scope's zone) and the ``hot_files`` most
  recently modified.

So a line appended to today's note, or any file written by a rename, is seen by the very
next search; an in-place edit of an old note (some editors) within ``full_scan_seconds``.

The open's full scan (5,000 ``stat`` calls at 100k chunks) runs on another thread while the
index loads its vectors (:meth:`Freshness.prefetch`; ``stat`` releases the GIL); the first
plan takes its result and stats the hot files again, so a line appended meanwhile is seen.
"""

from __future__ import annotations

import heapq
import os
import threading
import time
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import timedelta

from memory import clock
from memory.paths import MemoryRoot
from memory.search.indexer import FileEntry, scan, stat_file
from memory.search.store import FileRow

ALWAYS_HOT = ("MEMORY.md", "memory/archive.md")
DATED = (("memory", "md"), ("sessions", "jsonl"))  # today's note and session log are hot


@dataclass(frozen=True)
class Plan:
    """What to sync: the entries to compare with the index and the paths that vanished."""

    entries: list[FileEntry]
    gone: list[str]
    full: bool


class Freshness:
    def __init__(
        self,
        root: MemoryRoot,
        *,
        full_scan_seconds: float = 60.0,
        hot_files: int = 8,
        timezone: str | None = None,
    ) -> None:
        self.root = root
        self.timezone = timezone
        self.full_scan_seconds = full_scan_seconds
        self.hot_files = hot_files
        self._dirs: dict[str, int] = {}
        self._hot: list[str] = []
        self._scanned_at: float | None = None
        self._ahead: Future[tuple[list[FileEntry], dict[str, int], float]] | None = None

    def reset(self) -> None:
        """Forget what was seen: the next plan is a full scan (one started ahead, if any,
        and recent enough)."""
        self._scanned_at = None

    def prefetch(self) -> None:
        """Start the next full scan on another thread (the caller loads the index
        meanwhile); the next plan that needs a full scan takes its result. A scan still
        running is not started twice."""
        if self._ahead is not None and not self._ahead.done():
            return
        ahead: Future[tuple[list[FileEntry], dict[str, int], float]] = Future()

        def run() -> None:
            try:
                dirs: dict[str, int] = {}
                started = time.monotonic()
                ahead.set_result((scan(self.root, dirs), dirs, started))
            except BaseException as exc:  # handed to the plan that waits for it
                ahead.set_exception(exc)

        self._ahead = ahead
        threading.Thread(target=run, name="memory-scan", daemon=True).start()

    def _full(self) -> tuple[list[FileEntry], dict[str, int], float]:
        """A full scan: the one started ahead (its hot files stat-ed again now), or a new
        one."""
        ahead, self._ahead = self._ahead, None
        if ahead is not None:
            entries, dirs, started = ahead.result()
            if time.monotonic() - started < self.full_scan_seconds:
                found = {e.relative: e for e in entries}
                missing: list[str] = []
                found.update((e.relative, e) for e in self._hot_entries(missing, found))
                for relative in missing:
                    del found[relative]
                return sorted(found.values(), key=lambda e: e.relative), dirs, started
        dirs = {}
        started = time.monotonic()
        return scan(self.root, dirs), dirs, started

    def _folders_changed(self) -> bool:
        for folder, mtime in self._dirs.items():
            try:
                if os.stat(folder).st_mtime_ns != mtime:
                    return True
            except OSError:
                return True
        return False

    def plan(self, known: Mapping[str, FileRow], *, full: bool = False) -> Plan:
        """The files to sync now, given what the index holds (``known``)."""
        now = time.monotonic()
        due = self._scanned_at is None or now - self._scanned_at >= self.full_scan_seconds
        if full or due or self._folders_changed():
            entries, self._dirs, self._scanned_at = self._full()
            seen = {e.relative for e in entries}
            return Plan(entries, [p for p in known if p not in seen], True)
        gone: list[str] = []
        entries = self._hot_entries(gone, known)
        return Plan(entries, gone, False)

    def _hot_entries(self, gone: list[str], known: Mapping[str, object]) -> list[FileEntry]:
        """Today's and yesterday's files and the hot ones, stat-ed now; those in ``known``
        that are gone are added to ``gone``."""
        entries = []
        today = clock.now_in(self.timezone).date()
        recent = [(today - timedelta(days=n)).isoformat() for n in (0, 1)]
        days = [f"{folder}/{day}.{ext}" for day in recent for folder, ext in DATED]
        for relative in dict.fromkeys([*days, *(self._hot or ALWAYS_HOT)]):
            entry = stat_file(self.root, relative)
            if entry is not None:
                entries.append(entry)
            elif relative in known:
                gone.append(relative)
        return entries

    def settle(self, known: Mapping[str, FileRow]) -> None:
        """Choose the hot files from the index's view after a sync."""
        recent = heapq.nlargest(self.hot_files, known, key=lambda p: known[p].mtime)
        self._hot = list(dict.fromkeys([*ALWAYS_HOT, *recent]))
