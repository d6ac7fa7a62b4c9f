"""Crash-safe file primitives: atomic replacement, locked appends, advisory locks."""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

from memory.errors import Busy

_thread_locks: dict[str, threading.Lock] = {}
_thread_locks_guard = threading.Lock()


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_text(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so readers see the old or the new file, never a mix."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


def _thread_lock(path: Path) -> threading.Lock:
    key = str(path.resolve())
    with _thread_locks_guard:
        return _thread_locks.setdefault(key, threading.Lock())


@contextlib.contextmanager
def file_lock(path: Path, *, blocking: bool = True) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` across threads and processes.

    With ``blocking=False`` a held lock raises :class:`Busy` at once.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    local = _thread_lock(path)
    if not local.acquire(blocking=blocking):
        raise Busy(f"busy: {path.name} is locked")
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            flags = fcntl.LOCK_EX if blocking else fcntl.LOCK_EX | fcntl.LOCK_NB
            try:
                fcntl.flock(fd, flags)
            except BlockingIOError as exc:
                raise Busy(f"busy: {path.name} is locked by another process") from exc
            yield
        finally:
            os.close(fd)
    finally:
        local.release()


def locked_append(path: Path, text: str, *, lock: Path | None = None) -> None:
    """Append ``text`` to ``path`` under a lock, in one write, flushed to disk. A last line
    a killed writer left unterminated is ended first, so it alone is unreadable and the
    lines appended now stay whole."""
    data = text.encode("utf-8")
    with file_lock(lock or path.with_name(f".{path.name}.lock")):
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "ab+") as handle:
            end = handle.seek(0, os.SEEK_END)
            if end and data.endswith(b"\n"):
                handle.seek(end - 1)
                if handle.read(1) != b"\n":
                    data = b"\n" + data
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
