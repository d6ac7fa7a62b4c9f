"""Which files a search must look at before it answers, at a cost that does not grow with
the archive.

A full scan (every indexable file stat-ed) runs when the index opens, when a sync asks for
one, and when a folder it read has changed. In between, each search stats only:

- the folders the last scan read (the root and ``memory/`` among them): creating,
  deleting or renaming a file changes its folder's mtime, and atomic writes (the dream,
  ``forget``, most editors) are renames; a changed folder brings the full scan forward;
- the *hot* files, where appends land: ``MEMORY.md``, the archive, today's and
  yesterday's notes and session logs (in the scope's zone) and the ``hot_files`` most
  recently modified.

Every ``full_scan_seconds`` the whole root is stat-ed again, for the rare edit in place of
an old note, but never on a search's path: a search that ends after that interval starts
the scan on another thread (:meth:`Freshness.after_search`), beside the wait for the next
message, and the first search after it has finished takes its result: only the files whose
size or mtime differ from the index's (or that are gone), each stat-ed again then, since
the scan is older than the search. So a line appended to today's note, or any file
written by a rename, is seen by the very next search; an in-place edit of an old note by
the second search after ``full_scan_seconds``.

The open's full scan (5,000 ``stat`` calls at 100k chunks) runs on another thread while the
index loads its vectors (:meth:`Freshness.prefetch`; ``stat`` releases the GIL); the first
plan takes its result and stats the hot files again, so a line appended meanwhile is seen.
"""

from __future__ import annotations

import heapq
import os
import threading
import time
from collections.abc import Callable, Mapping
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


@dataclass(frozen=True)
class _Scan:
    """One scan of the whole root: its entries, the folders' mtimes, when it started, the
    files most recently modified, and (for a scan given the index's view) the paths whose
    stat differs from it or that it did not find."""

    entries: list[FileEntry]
    dirs: dict[str, int]
    started: float
    hot: list[str]
    changed: list[str] | None


def _differing(entries: list[FileEntry], known: Mapping[str, FileRow]) -> list[str]:
    found = {e.relative for e in entries}
    differ = [
        e.relative
        for e in entries
        if (row := known.get(e.relative)) is None or (row.size, row.mtime) != (e.size, e.mtime_ns)
    ]
    return differ + [p for p in known if p not in found]


def _in_thread(run: Callable[[], _Scan]) -> Future[_Scan]:
    """``run`` on a daemon thread; its result (or its exception) in the future."""
    ahead: Future[_Scan] = Future()

    def target() -> None:
        try:
            ahead.set_result(run())
        except BaseException as exc:  # handed to the plan that takes it
            ahead.set_exception(exc)

    threading.Thread(target=target, name="memory-scan", daemon=True).start()
    return ahead


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
        self._ahead: Future[_Scan] | None = None  # the open's scan
        self._behind: Future[_Scan] | None = None  # a due scan, between searches

    def reset(self) -> None:
        """Forget what was seen: the next plan is a full scan (one started ahead, if any,
        and recent enough)."""
        self._scanned_at = None
        self._behind = None

    def _scan(self, known: Mapping[str, FileRow] | None = None) -> _Scan:
        dirs: dict[str, int] = {}
        started = time.monotonic()
        entries = scan(self.root, dirs)
        recent = heapq.nlargest(self.hot_files, entries, key=lambda e: e.mtime_ns)
        hot = list(dict.fromkeys([*ALWAYS_HOT, *(e.relative for e in recent)]))
        changed = None if known is None else _differing(entries, known)
        return _Scan(entries, dirs, started, hot, changed)

    def prefetch(self) -> None:
        """Start the next full scan on another thread (the caller loads the index
        meanwhile); the next plan that needs a full scan takes its result. A scan still
        running is not started twice."""
        if self._ahead is None or self._ahead.done():
            self._ahead = _in_thread(self._scan)

    def after_search(self, known: Mapping[str, FileRow]) -> None:
        """Called when a search has answered: once ``full_scan_seconds`` have passed since
        the last scan, start the next on another thread, against a copy of the index's
        view ``known``; a later plan takes what it found."""
        if self._scanned_at is None or self._behind is not None:
            return
        if time.monotonic() - self._scanned_at >= self.full_scan_seconds:
            view = dict(known)
            self._behind = _in_thread(lambda: self._scan(view))

    def _full(self) -> _Scan:
        """A full scan: the one started ahead, or a new one."""
        ahead, self._ahead = self._ahead, None
        if ahead is not None:
            found = ahead.result()
            if time.monotonic() - found.started < self.full_scan_seconds:
                return found
        return self._scan()

    def _folders_changed(self) -> bool:
        for folder, mtime in self._dirs.items():
            try:
                if os.stat(folder).st_mtime_ns != mtime:
                    return True
            except OSError:
                return True
        return False

    def _adopt(self, found: _Scan) -> None:
        self._dirs, self._scanned_at, self._hot = found.dirs, found.started, found.hot

    def plan(self, known: Mapping[str, FileRow], *, full: bool = False) -> Plan:
        """The files to sync now, given what the index holds (``known``)."""
        behind = self._behind
        if full or self._scanned_at is None or self._folders_changed():
            self._behind = None
            found = self._full()
            self._adopt(found)
            merged = {e.relative: e for e in found.entries}
            missing: list[str] = []  # found by the scan, gone since
            merged.update((e.relative, e) for e in self._hot_entries(missing, merged))
            for relative in missing:
                del merged[relative]
            entries = sorted(merged.values(), key=lambda e: e.relative)
            return Plan(entries, [p for p in known if p not in merged])
        gone: list[str] = []
        entries = self._hot_entries(gone, known)
        if behind is not None and behind.done():
            self._behind = None
            found = behind.result()
            self._adopt(found)
            listed = {e.relative for e in entries}
            for relative in found.changed or ():
                if relative in listed or relative in gone:
                    continue
                entry = stat_file(self.root, relative)  # the scan is older than this search
                if entry is not None:
                    entries.append(entry)
                elif relative in known:
                    gone.append(relative)
        return Plan(entries, gone)

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
