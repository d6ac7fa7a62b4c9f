"""What a chat's triggers measure on disk: material sizes, MEMORY.md, the last turn.

New material is counted by size: at the start of each dream the sizes of the recent
daily notes and session logs are kept (:func:`material_sizes`), and what those files (and
new ones) grew by since is :func:`new_bytes`. Notes and logs only grow (``forget`` keeps
their lines), so growth is what was written.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from datetime import date, datetime, timedelta

from memory import session_log
from memory.dream.budget import memory_tokens
from memory.dream.model import MAX_DAYS
from memory.paths import MemoryRoot
from memory.textfile import read_optional

TAIL_BYTES = 64 * 1024


def material_sizes(root: MemoryRoot, today: date) -> dict[str, int]:
    """Sizes of the daily notes and session logs of the last ``MAX_DAYS`` days."""
    first = today - timedelta(days=MAX_DAYS)
    files = [root.daily_note(d) for d in root.note_dates() if d >= first]
    files += [session_log.log_path(root, d) for d in session_log.log_dates(root) if d >= first]
    sizes = {}
    for path in files:
        with contextlib.suppress(OSError):
            sizes[root.relative(path)] = path.stat().st_size
    return sizes


def new_bytes(now: dict[str, int], then: dict[str, int]) -> int:
    """Bytes written since ``then`` (a file that shrank counts nothing)."""
    return sum(max(0, size - then.get(path, 0)) for path, size in now.items())


def memory_digest(root: MemoryRoot) -> str:
    try:
        return hashlib.sha256(root.memory_md.read_bytes()).hexdigest()
    except OSError:
        return hashlib.sha256(b"").hexdigest()


def memory_estimate(root: MemoryRoot) -> int:
    """MEMORY.md's estimated tokens (0 when it is missing or unreadable)."""
    return memory_tokens(read_optional(root.memory_md) or "")


def last_turn(root: MemoryRoot) -> datetime | None:
    """The time of the newest turn in the session log, or None."""
    days = session_log.log_dates(root)
    if not days:
        return None
    path = session_log.log_path(root, days[-1])
    try:
        with open(path, "rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - TAIL_BYTES))
            tail = handle.read()
    except OSError:
        return None
    for raw in reversed(session_log.complete_lines(tail)):
        turn = session_log.parse_line(raw, 0)
        if turn is not None:
            with contextlib.suppress(ValueError):
                return datetime.fromisoformat(turn.time)
    return None
