"""One bot per workspace: an exclusive lock held for the bot's whole run.

Two bots on one workspace would both rewrite the same session files and lose messages,
so the second one stops at start with one line naming the first one's process id. The
lock is ``flock`` on ``<workspace>/memory/.bot/bot.lock``: the kernel drops it when the
process ends, however it ends, so a crashed bot never blocks the next start. The memory
command line (``python -m memory``) does not take it; its commands lock each root.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from bot.errors import WorkspaceBusy


class WorkspaceLock:
    """Held from :meth:`acquire` until :meth:`release` (or the process ends)."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def acquire(cls, workspace: Path) -> WorkspaceLock:
        """Take the lock; :class:`WorkspaceBusy` when another bot holds it."""
        path = workspace / "memory" / ".bot" / "bot.lock"
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
            os.close(fd)
            raise WorkspaceBusy(
                f"another CowDream bot (pid {holder}) is already running on the workspace "
                f"{workspace}; stop it first, or give this one another agent_workspace"
            ) from None
        with contextlib.suppress(OSError):  # the pid is only for the message (a full disk)
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return cls(path, fd)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None
