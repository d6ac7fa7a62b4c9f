"""Append-only JSON-lines bookkeeping stores (the recall store, the usage ledger).

Writers append whole lines under the store's lock (:func:`append_records`); readers
parse each non-blank line and count the unreadable ones (:func:`parsed_lines`); a repair
rewrites the store under the same lock without unreadable or too old lines, keeping the
unreadable ones aside in ``<name>.bad`` (:func:`compact`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Protocol, TypeVar

from memory.atomic import atomic_write_text, file_lock, locked_append

log = logging.getLogger(__name__)


class Record(Protocol):
    @property
    def day(self) -> date: ...

    def to_json(self) -> str: ...


R = TypeVar("R", bound=Record)


def append_records(path: Path, lines: list[str], *, lock: Path, what: str) -> int:
    """Append whole JSON ``lines`` under ``lock``; how many were written. A store that
    cannot be written (a full disk) costs the records, logged in one line, never the
    caller's work."""
    if not lines:
        return 0
    try:
        locked_append(path, "".join(lines), lock=lock)
    except OSError as exc:
        log.error("could not record %d %s in %s: %s", len(lines), what, path, exc)
        return 0
    return len(lines)


def parsed_lines(raw: bytes, parse: Callable[[str], R | None]) -> Iterator[tuple[bytes, R | None]]:
    """Each non-blank stored line with its record (None when unreadable)."""
    for chunk in raw.split(b"\n"):
        if not chunk.strip():
            continue
        try:
            yield chunk, parse(chunk.decode("utf-8"))
        except UnicodeDecodeError:
            yield chunk, None


def compact(
    path: Path, *, lock: Path, parse: Callable[[str], R | None], oldest: date
) -> tuple[int, int]:
    """Rewrite ``path`` without unreadable lines and records dated before ``oldest``,
    under the writers' ``lock`` (nothing appended meanwhile is lost); the unreadable and
    the old lines removed. Unreadable lines are kept in ``<name>.bad``."""
    with file_lock(lock):
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return 0, 0
        kept: list[str] = []
        bad: list[bytes] = []
        old = 0
        for chunk, record in parsed_lines(raw, parse):
            if record is None:
                bad.append(chunk)
            elif record.day < oldest:
                old += 1
            else:
                kept.append(record.to_json() + "\n")
        if not bad and not old:
            return 0, 0
        if bad:
            with open(path.with_name(path.name + ".bad"), "ab") as aside:
                aside.write(b"\n".join(bad) + b"\n")
        atomic_write_text(path, "".join(kept))
    return len(bad), old
