"""Dream bookkeeping under ``memory/.dreams/``: the lock, state, events and undo history."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memory.atomic import atomic_write_text, file_lock
from memory.errors import StorageError
from memory.paths import MemoryRoot
from memory.recovery import recover_locked, root_lock_path
from memory.transaction import Transaction

log = logging.getLogger(__name__)

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


_STATE_SHAPES = {"last_success": dict, "last_run": dict, "last_undo": dict}


def load_state(root: MemoryRoot) -> dict[str, Any]:
    """The dream state; what cannot be trusted (not JSON, a value of the wrong shape) is
    ignored with one logged line, and the next dream writes it afresh."""
    path = state_path(root)
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        data = exc
    if not isinstance(data, dict):
        log.warning("%s cannot be trusted (%s); ignored", path, _short(data))
        return {}
    for key, shape in _STATE_SHAPES.items():
        if key in data and not isinstance(data[key], shape):
            log.warning("%s: %s %s cannot be trusted; ignored", path, key, _short(data[key]))
            del data[key]
    success = data.get("last_success")
    if success is not None and not isinstance(success.get("hash"), str):
        log.warning("%s: last_success without a hash; ignored", path)
        del data["last_success"]
    return data


def _short(value: Any) -> str:
    return repr(value)[:60]


def state_text(state: dict[str, Any]) -> str:
    return json.dumps(state, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def save_state(root: MemoryRoot, state: dict[str, Any]) -> None:
    try:
        atomic_write_text(state_path(root), state_text(state))
    except OSError as exc:
        raise StorageError.of(exc, root.relative(root.state_dir)) from exc


def append_event(root: MemoryRoot, event: dict[str, Any]) -> None:
    """Add ``event`` to the event log; a log the disk refuses is skipped with one line
    (the change it tells of is already committed)."""
    path = root.state_dir / "events.jsonl"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(event, ensure_ascii=False) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:
        log.error("cannot add to the event log %s: %s", path, exc.strerror or exc)


_SNAPSHOT = re.compile(r"^(?P<number>\d{6})-[0-9T+]{8,15}$")
SNAPSHOT_FILES = ("MEMORY.md", "archive.md")
OPTIONAL_FILES = ("short-term.json",)


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


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


def _verified(folder: Path) -> Snapshot | None:
    """The snapshot in ``folder`` if it is one this code wrote and nobody changed since:
    a numbered name, a meta.json with its time, both files, and (for snapshots made since
    hashes were kept) their SHA-256 as recorded."""
    if not _SNAPSHOT.match(folder.name):
        return None
    try:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict) or not isinstance(meta.get("time"), str):
        return None
    sums = meta.get("sha256")
    if sums is not None and not isinstance(sums, dict):
        return None
    # The short-term store is in snapshots made since the dream had phases.
    optional = tuple(n for n in OPTIONAL_FILES if sums is not None and n in sums)
    for name in SNAPSHOT_FILES + optional:
        try:
            content = (folder / name).read_text(encoding="utf-8")
        except (OSError, ValueError):
            return None
        if sums is not None and sums.get(name) != content_hash(content):
            return None
    return Snapshot(folder, meta)


def _history_folders(root: MemoryRoot) -> list[Path]:
    folder = history_dir(root)
    return sorted(p for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []


def snapshots(root: MemoryRoot) -> list[Snapshot]:
    """The undo history that can be verified, oldest first (see :func:`unverified`)."""
    return [s for s in map(_verified, _history_folders(root)) if s is not None]


def unverified(root: MemoryRoot) -> list[str]:
    """History folders that are no snapshot this code can trust (left alone)."""
    return [p.name for p in _history_folders(root) if _verified(p) is None]


def snapshot_files(root: MemoryRoot) -> tuple[tuple[Path, str], ...]:
    """The files an undo restores, with their names in a snapshot: MEMORY.md, the archive
    and the short-term store (whose candidates a dream marks promoted)."""
    return (
        (root.memory_md, "MEMORY.md"),
        (root.archive, "archive.md"),
        (root.state_dir / "short-term.json", "short-term.json"),
    )


def stage_snapshot(root: MemoryRoot, txn: Transaction, meta: dict[str, Any]) -> None:
    """Add to ``txn`` a snapshot of the files undo restores, pruning old snapshots."""
    existing = snapshots(root)
    numbers = [m["number"] for p in _history_folders(root) if (m := _SNAPSHOT.match(p.name))]
    number = int(max(numbers)) + 1 if numbers else 1
    name = f"{number:06d}-{meta['time'].replace(':', '').replace('-', '')[:15]}"
    base = root.relative(history_dir(root)) + "/" + name
    sums = {}
    for source, stored in snapshot_files(root):
        try:
            content = source.read_text(encoding="utf-8")
        except FileNotFoundError:
            content = ABSENT
        txn.write(f"{base}/{stored}", content)
        sums[stored] = content_hash(content)
    meta = {**meta, "sha256": sums}
    txn.write(f"{base}/meta.json", json.dumps(meta, ensure_ascii=False, indent=2))
    for old in existing[: max(0, len(existing) + 1 - HISTORY_KEEP)]:
        for child in old.folder.iterdir():
            txn.delete(root.relative(child))
