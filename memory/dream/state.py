"""Dream bookkeeping under ``memory/.dreams/``: the lock, state, events and undo history."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memory.atomic import atomic_write_text, file_lock
from memory.paths import MemoryRoot
from memory.recovery import recover_locked, root_lock_path
from memory.transaction import Transaction

HISTORY_KEEP = 20
ABSENT = "\x00absent\x00"  # history marker: the file did not exist


@contextlib.contextmanager
def root_lock(root: MemoryRoot, *, blocking: bool = False) -> Iterator[None]:
    """One dream, undo or forget per root at a time; recovers a crashed commit first."""
    with file_lock(root_lock_path(root), blocking=blocking):
        recover_locked(root)
        yield


def state_path(root: MemoryRoot) -> Path:
    return root.state_dir / "state.json"


def load_state(root: MemoryRoot) -> dict[str, Any]:
    try:
        data = json.loads(state_path(root).read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def state_text(state: dict[str, Any]) -> str:
    return json.dumps(state, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def save_state(root: MemoryRoot, state: dict[str, Any]) -> None:
    atomic_write_text(state_path(root), state_text(state))


def append_event(root: MemoryRoot, event: dict[str, Any]) -> None:
    path = root.state_dir / "events.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(event, ensure_ascii=False) + "\n")
        handle.flush()
        os.fsync(handle.fileno())


@dataclass(frozen=True)
class Snapshot:
    """MEMORY.md and the archive as they were before one change."""

    folder: Path
    meta: dict[str, Any]

    def text(self, name: str) -> str | None:
        try:
            content = (self.folder / name).read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        return None if content == ABSENT else content


def history_dir(root: MemoryRoot) -> Path:
    return root.state_dir / "history"


def snapshots(root: MemoryRoot) -> list[Snapshot]:
    """Undo history, oldest first."""
    folder = history_dir(root)
    if not folder.is_dir():
        return []
    out = []
    for child in sorted(p for p in folder.iterdir() if p.is_dir()):
        try:
            meta = json.loads((child / "meta.json").read_text(encoding="utf-8"))
        except (FileNotFoundError, json.JSONDecodeError):
            continue
        out.append(Snapshot(child, meta))
    return out


def stage_snapshot(root: MemoryRoot, txn: Transaction, meta: dict[str, Any]) -> None:
    """Add to ``txn`` a snapshot of the current MEMORY.md and archive, pruning old ones."""
    existing = snapshots(root)
    number = int(existing[-1].folder.name.split("-")[0]) + 1 if existing else 1
    name = f"{number:06d}-{meta['time'].replace(':', '').replace('-', '')[:15]}"
    base = root.relative(history_dir(root)) + "/" + name
    for source, stored in ((root.memory_md, "MEMORY.md"), (root.archive, "archive.md")):
        try:
            content = source.read_text(encoding="utf-8")
        except FileNotFoundError:
            content = ABSENT
        txn.write(f"{base}/{stored}", content)
    txn.write(f"{base}/meta.json", json.dumps(meta, ensure_ascii=False, indent=2))
    for old in existing[: max(0, len(existing) + 1 - HISTORY_KEEP)]:
        for child in old.folder.iterdir():
            txn.delete(root.relative(child))
