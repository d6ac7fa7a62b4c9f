"""Multi-file atomic commits for a memory root, with roll-forward recovery.

A transaction stages every new file under ``memory/.dreams/txn-*``, writes a manifest,
then renames the staging folder to ``memory/.dreams/commit``: that rename is the commit
point. The staged files are then moved into place one by one. A crash before the rename
leaves the old state (the staging folder is discarded by :func:`recover`); a crash after
it is rolled forward by :func:`recover`, which every command runs first. So readers that
go through :func:`recover` see the old or the new state, never a mix.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import uuid
from collections.abc import Callable
from pathlib import Path

from memory.atomic import _fsync_dir
from memory.paths import MemoryRoot

Fault = Callable[[str], None]
COMMIT = "commit"


def _write(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())


class Transaction:
    """Collect writes and deletions of root-relative files, then commit them together."""

    def __init__(self, root: MemoryRoot) -> None:
        self.root = root
        self.writes: dict[str, str | None] = {}

    def write(self, relative: str, text: str) -> None:
        self.root.resolve(relative)  # refuses paths outside the root
        self.writes[relative] = text

    def delete(self, relative: str) -> None:
        self.root.resolve(relative)
        self.writes[relative] = None

    def commit(self, fault: Fault | None = None) -> None:
        state = self.root.state_dir
        state.mkdir(parents=True, exist_ok=True)
        recover(self.root)
        staging = state / f"txn-{uuid.uuid4().hex}"
        staging.mkdir()
        manifest = []
        for number, (target, text) in enumerate(self.writes.items()):
            data = None
            if text is not None:
                data = f"{number}.data"
                _write(staging / data, text)
            manifest.append({"target": target, "data": data})
        _write(staging / "manifest.json", json.dumps(manifest, ensure_ascii=False))
        _fsync_dir(staging)
        if fault:
            fault("staged")
        os.rename(staging, state / COMMIT)
        _fsync_dir(state)
        if fault:
            fault("committed")
        _roll_forward(self.root, fault)


def _roll_forward(root: MemoryRoot, fault: Fault | None = None) -> None:
    folder = root.state_dir / COMMIT
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    for entry in manifest:
        target = root.resolve(entry["target"])
        if entry["data"] is None:
            with contextlib.suppress(FileNotFoundError):
                target.unlink()
        else:
            source = folder / entry["data"]
            if source.exists():  # else moved before a crash
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(source, target)
                _fsync_dir(target.parent)
        if fault:
            fault(f"moved {entry['target']}")
    shutil.rmtree(folder)
    _fsync_dir(root.state_dir)


def recover(root: MemoryRoot) -> bool:
    """Finish a committed transaction, discard unfinished ones. True if anything was done."""
    state = root.state_dir
    if not state.is_dir():
        return False
    done = False
    if (state / COMMIT / "manifest.json").exists():
        _roll_forward(root)
        done = True
    elif (state / COMMIT).exists():  # renamed without a manifest cannot happen; be safe
        shutil.rmtree(state / COMMIT)
    for stale in state.glob("txn-*"):
        shutil.rmtree(stale, ignore_errors=True)
        done = True
    return done
