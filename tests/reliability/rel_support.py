"""Helpers for the reliability suite: a real small file system that fills up."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def small_disk(path: Path, size_kb: int) -> Iterator[Path]:
    """A size-limited tmpfs mounted at ``path`` (skips the test where mounting is not
    allowed: not root, or no CAP_SYS_ADMIN in this container)."""
    path.mkdir(parents=True, exist_ok=True)
    if shutil.which("mount") is None:
        pytest.skip("no mount command: cannot make a small file system to fill")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({done.stderr.strip() or 'not root'})")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False, capture_output=True)


def fill(disk: Path, leave_bytes: int = 0) -> Path:
    """Fill ``disk`` until at most ``leave_bytes`` are free; returns the filler file."""
    filler = disk / "filler.bin"
    with open(filler, "wb") as handle:
        chunk = b"\0" * 4096
        while True:
            free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
            if free <= leave_bytes:
                break
            try:
                handle.write(chunk[: max(1, min(len(chunk), free - leave_bytes))])
                handle.flush()
            except OSError as exc:
                if exc.errno != errno.ENOSPC:
                    raise
                break
    return filler


REPO = Path(__file__).resolve().parents[2]


def app_command(tmp_path: Path, **config: object) -> list[str]:
    """``python app.py --config FILE`` for a terminal bot on ``tmp_path/ws``, offline."""
    data = {
        "agent_workspace": str(tmp_path / "ws"),
        "embedding_provider": "none",
        "timezone": "Asia/Shanghai",
        **config,
    }
    path = tmp_path / "config.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return [sys.executable, str(REPO / "app.py"), "--config", str(path)]


def wait_for(condition: Callable[[], bool], timeout: float = 60.0) -> None:
    """Poll ``condition`` (another process's progress, which nothing can signal)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)
