"""The session log ``<root>/sessions/YYYY-MM-DD.jsonl``: every turn as it was said.

One redacted turn a line, ``{"time", "role", "name"?, "content"}``, appended as the
conversation happens, in the scope's time zone (the file of the turn's date). Items may
cite ``sessions/DATE.jsonl#Ln`` like note lines, so line numbers never change: ``forget``
turns a line into a tombstone (``"content": "[forgotten]"``) instead of removing it.

Crash safety: writers of one file are serialised by a lock (threads and processes); each
append is one ``write`` of whole lines, flushed to disk, cut back to its old size if the
write fails half-way. A line torn by a killed process (no final newline) is cut off by
the next writer before it appends, so the file is always a sequence of whole lines; a
reader ignores an unterminated last line.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

from memory.atomic import file_lock
from memory.errors import StorageError
from memory.paths import MemoryRoot
from memory.redact import DEFAULT, Redaction, redact
from memory.textfile import clean_text

FOLDER = "sessions"
FORGOTTEN = "[forgotten]"
MAX_CONTENT_CHARS = 20_000
_NAME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})\.jsonl$")
_TAIL_BLOCK = 4096

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LoggedTurn:
    """One line of a session log (``number`` is its 1-based line)."""

    number: int
    time: str
    role: str
    content: str
    name: str | None = None

    @property
    def forgotten(self) -> bool:
        return self.content == FORGOTTEN

    @property
    def speaker(self) -> str:
        """Who said it: the name in a group, else the role."""
        return self.name or self.role

    def display(self) -> str:
        """``HH:MM speaker: content``, as search and ``memory_get`` show the turn."""
        clock = self.time[11:16] if len(self.time) >= 16 else ""
        return f"{clock} {self.speaker}: {self.content}".strip()


def folder(root: MemoryRoot) -> Path:
    return root.path / FOLDER


def log_path(root: MemoryRoot, day: date) -> Path:
    return folder(root) / f"{day.isoformat()}.jsonl"


def relative_path(day: date) -> str:
    return f"{FOLDER}/{day.isoformat()}.jsonl"


def is_session_path(relative: str) -> bool:
    """``sessions/YYYY-MM-DD.jsonl`` (root-relative)."""
    head, _, name = relative.partition("/")
    return head == FOLDER and _NAME.match(name) is not None


def log_dates(root: MemoryRoot) -> list[date]:
    """Dates of the session logs present, oldest first."""
    found = []
    with contextlib.suppress(OSError):
        for child in folder(root).iterdir():
            match = _NAME.match(child.name)
            if match and child.is_file():
                with contextlib.suppress(ValueError):
                    found.append(date(*map(int, match.groups())))
    return sorted(found)


def lock_path(root: MemoryRoot, path: Path) -> Path:
    """The lock every writer of the log at ``path`` holds (``forget`` too)."""
    return root.state_dir / "locks" / f"session-{path.name}.lock"


def encode(
    when: datetime,
    role: str,
    content: str,
    name: str | None = None,
    redaction: Redaction = DEFAULT,
) -> str:
    """One log line (without the newline): secrets redacted (by ``redaction``'s policy),
    text made storable, very long content cut."""
    text = redact(clean_text(content), redaction)
    if len(text) > MAX_CONTENT_CHARS:
        text = f"{text[:MAX_CONTENT_CHARS]}… [{len(text) - MAX_CONTENT_CHARS} characters cut]"
    data: dict[str, Any] = {"time": when.isoformat(timespec="seconds"), "role": role}
    if name:
        data["name"] = redact(clean_text(name), redaction)
    data["content"] = text
    return json.dumps(data, ensure_ascii=False)


def _cut_torn_tail(fd: int, path: Path) -> None:
    """Cut back an unterminated last line (a writer killed mid-write)."""
    size = os.fstat(fd).st_size
    if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
        return
    end = size
    while end > 0:
        start = max(0, end - _TAIL_BLOCK)
        block = os.pread(fd, end - start, start)
        newline = block.rfind(b"\n")
        if newline >= 0:
            end = start + newline + 1
            break
        end = start
    os.ftruncate(fd, end)
    log.warning("%s: cut a torn last line (%d bytes) left by a crash", path.name, size - end)


def _count_lines(fd: int, path: Path) -> int:
    """Whole lines in the open log (remembered by inode and size, so an append costs no
    re-read of the day's log)."""
    info = os.fstat(fd)
    key = str(path)
    known = _line_counts.get(key)
    if known is not None and known[:2] == (info.st_ino, info.st_size):
        return known[2]
    count, offset = 0, 0
    while offset < info.st_size:
        block = os.pread(fd, 1 << 20, offset)
        if not block:
            break
        count += block.count(b"\n")
        offset += len(block)
    _line_counts[key] = (info.st_ino, info.st_size, count)
    return count


_line_counts: dict[str, tuple[int, int, int]] = {}  # path -> (inode, size, whole lines)


@dataclass(frozen=True)
class Appended:
    """Where an append landed: the log, and the 1-based line of its first turn."""

    path: Path
    first_line: int

    @property
    def ref(self) -> str:
        return f"{FOLDER}/{self.path.name}#L{self.first_line}"


def append(root: MemoryRoot, when: datetime, lines: Sequence[str]) -> Appended:
    """Append encoded ``lines`` (see :func:`encode`) to the log of ``when``'s date."""
    path = log_path(root, when.date())
    data = "".join(f"{line}\n" for line in lines).encode("utf-8")
    with file_lock(lock_path(root, path)):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            _cut_torn_tail(fd, path)
            size = os.fstat(fd).st_size
            first = _count_lines(fd, path) + 1
            try:
                view = memoryview(data)
                while view:
                    written = os.write(fd, view)
                    view = view[written:]
                if data:
                    os.fsync(fd)
            except OSError as exc:
                os.ftruncate(fd, size)
                raise StorageError.of(exc, f"{FOLDER}/{path.name}") from exc
            info = os.fstat(fd)
            _line_counts[str(path)] = (info.st_ino, info.st_size, first - 1 + len(lines))
        finally:
            os.close(fd)
    return Appended(path, first)


def parse_line(raw: str, number: int) -> LoggedTurn | None:
    """One stored line, or None when it is not a well-formed turn."""
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    role, content = data.get("role"), data.get("content")
    name = data.get("name")
    if not isinstance(role, str) or not isinstance(content, str):
        return None
    return LoggedTurn(
        number, str(data.get("time", "")), role, content, name if isinstance(name, str) else None
    )


def complete_lines(data: bytes) -> list[str]:
    """The whole lines of ``data`` (an unterminated last line is left out)."""
    end = data.rfind(b"\n")
    if end < 0:
        return []
    return data[:end].decode("utf-8", errors="replace").split("\n")


def read_turns(path: Path) -> list[LoggedTurn | None]:
    """Every whole line of a log, in order; None for a line that does not parse."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    return [parse_line(raw, n) for n, raw in enumerate(complete_lines(data), start=1)]


def said(turn: LoggedTurn | None) -> str | None:
    """What a user said in ``turn``, as evidence: ``name: content`` in a group, else the
    content; None for the assistant's own turns (never evidence of a fact), a tombstone or
    a line that did not parse."""
    if turn is None or turn.role != "user" or turn.forgotten or not turn.content.strip():
        return None
    return f"{turn.name}: {turn.content}" if turn.name else turn.content


def statement(raw: str) -> str | None:
    """:func:`said` of a stored line."""
    return said(parse_line(raw, 0))


def display_line(raw: str) -> str:
    """A stored line for a person or a model to read (the raw line if it does not parse)."""
    turn = parse_line(raw, 0)
    return turn.display() if turn is not None else raw


# forget ----------------------------------------------------------------------------------


def tombstone(raw: str) -> str:
    """The line that replaces a forgotten turn: its time and role stay, the words go."""
    turn = parse_line(raw, 0)
    data = {"time": turn.time if turn else "", "role": turn.role if turn else "user"}
    return json.dumps({**data, "content": FORGOTTEN}, ensure_ascii=False)


def matching_lines(root: MemoryRoot, needle: str) -> list[tuple[str, int, str]]:
    """``(path, line, shown text)`` of every turn whose words or speaker mention ``needle``
    (case-folded), for ``forget``'s plan."""
    lowered = needle.casefold()
    out = []
    for day in log_dates(root):
        path = log_path(root, day)
        relative = relative_path(day)
        for turn in read_turns(path):
            if turn is None or turn.forgotten:
                continue
            if lowered in turn.content.casefold() or lowered in (turn.name or "").casefold():
                out.append((relative, turn.number, turn.display()))
    return out


def forgotten_text(path: Path, lines: set[int]) -> tuple[str, int]:
    """The log at ``path`` with ``lines`` turned into tombstones (numbering kept), and the
    size it was read at (the caller holds :func:`lock_path`)."""
    data = path.read_bytes()
    raw = complete_lines(data)
    kept = [tombstone(line) if n in lines else line for n, line in enumerate(raw, start=1)]
    return "".join(f"{line}\n" for line in kept), len(data)
