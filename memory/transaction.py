"""Multi-file atomic commits for a memory root, with roll-forward recovery.

A transaction stages every new file under ``memory/.dreams/txn-*``, writes a manifest,
then renames the staging folder to ``memory/.dreams/commit``: that rename is the commit
point. The staged files are then moved into place one by one. A crash before the rename
leaves the old state (the staging folder is discarded by :func:`recover`); a crash after
it is rolled forward by :func:`recover`, which :mod:`memory.recovery` runs before every
command and read. So readers see the old or the new state, never a mix.

A write that fails before the commit point (a full disk) removes its staging folder and
raises :class:`StorageError`: nothing changed. A commit folder whose manifest cannot be
trusted (empty, not JSON, a target outside the root) is set aside as
``memory/.dreams/commit.broken-N`` with one logged line, never half applied.

Daily notes take appends while a transaction rewrites them (``forget``): such a file is
staged with :meth:`Transaction.write_appendable`, its size when it was read and its lock.
The committing caller holds that lock through the commit; a roll-forward after a crash
takes it, and keeps whatever was appended after the size it was read at.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memory.atomic import _fsync_dir, file_lock
from memory.errors import PathOutsideRoot, StorageError
from memory.paths import MemoryRoot

log = logging.getLogger(__name__)

Fault = Callable[[str], None]
COMMIT = "commit"


def _write(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())


@dataclass(frozen=True)
class _Appendable:
    size: int  # the file's size when the new text was computed from it
    lock: str  # root-relative lock file that serialises its writers


class Transaction:
    """Collect writes and deletions of root-relative files, then commit them together."""

    def __init__(self, root: MemoryRoot) -> None:
        self.root = root
        self.writes: dict[str, str | None] = {}
        self.appendable: dict[str, _Appendable] = {}

    def write(self, relative: str, text: str) -> None:
        self.root.resolve(relative)  # refuses paths outside the root
        self.writes[relative] = text

    def write_appendable(self, relative: str, text: str, *, size: int, lock: Path) -> None:
        """Replace an append-only file read at ``size`` bytes; the caller holds ``lock``."""
        self.write(relative, text)
        self.appendable[relative] = _Appendable(size, self.root.relative(lock))

    def delete(self, relative: str) -> None:
        self.root.resolve(relative)
        self.writes[relative] = None

    def commit(self, fault: Fault | None = None) -> None:
        state = self.root.state_dir
        staging = state / f"txn-{uuid.uuid4().hex}"
        try:
            state.mkdir(parents=True, exist_ok=True)
            recover_commit(self.root)
            staging.mkdir()
            manifest = self._stage(staging)
            _write(staging / "manifest.json", json.dumps(manifest, ensure_ascii=False))
            _fsync_dir(staging)
            if fault:
                fault("staged")
            os.rename(staging, state / COMMIT)
            _fsync_dir(state)
        except BaseException as exc:
            shutil.rmtree(staging, ignore_errors=True)
            if isinstance(exc, OSError):
                raise StorageError.of(exc, self.root.relative(state)) from exc
            raise
        if fault:
            fault("committed")
        try:
            _roll_forward(self.root, manifest, fault, take_locks=False)
        except OSError as exc:  # committed: the next recovery finishes the moves
            raise StorageError(
                f"committed, but moving the files into place failed ({exc.strerror}); "
                "the next command finishes it"
            ) from exc

    def _stage(self, staging: Path) -> list[dict[str, Any]]:
        manifest: list[dict[str, Any]] = []
        for number, (target, text) in enumerate(self.writes.items()):
            entry: dict[str, Any] = {"target": target, "data": None}
            if text is not None:
                entry["data"] = f"{number}.data"
                _write(staging / entry["data"], text)
            if target in self.appendable:
                entry["size"] = self.appendable[target].size
                entry["lock"] = self.appendable[target].lock
            manifest.append(entry)
        return manifest


class _BadManifest(Exception):
    pass


def _read_manifest(root: MemoryRoot) -> list[dict[str, Any]]:
    """The commit folder's manifest, checked entry by entry before anything moves."""
    folder = root.state_dir / COMMIT
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise _BadManifest(f"unreadable manifest ({exc})") from None
    if not isinstance(manifest, list):
        raise _BadManifest("the manifest is not a list")
    for entry in manifest:
        if not isinstance(entry, dict) or not isinstance(entry.get("target"), str):
            raise _BadManifest(f"bad manifest entry {entry!r}")
        data, lock, size = entry.get("data"), entry.get("lock"), entry.get("size", 0)
        if data is not None and (not isinstance(data, str) or "/" in data or data == ".."):
            raise _BadManifest(f"bad data name {data!r}")
        if (lock is not None and not isinstance(lock, str)) or not isinstance(size, int):
            raise _BadManifest(f"bad manifest entry {entry!r}")
        try:
            root.resolve(entry["target"])
            if lock is not None:
                root.resolve(lock)
        except PathOutsideRoot as exc:
            raise _BadManifest(str(exc)) from None
    return manifest


def _keep_appended(target: Path, source: Path, size: int) -> None:
    """Bytes appended to ``target`` after it was read at ``size`` go after the new text."""
    try:
        current = target.stat().st_size
    except FileNotFoundError:
        return
    if current <= size:
        return
    with open(target, "rb") as old, open(source, "ab") as new:
        old.seek(size)
        shutil.copyfileobj(old, new)
        new.flush()
        os.fsync(new.fileno())


def _move(root: MemoryRoot, folder: Path, entry: dict[str, Any]) -> None:
    target = root.resolve(entry["target"])
    if entry["data"] is None:
        with contextlib.suppress(FileNotFoundError):
            target.unlink()
        return
    source = folder / entry["data"]
    if not source.exists():  # moved before a crash
        return
    if entry.get("lock") is not None:
        _keep_appended(target, source, int(entry.get("size", 0)))
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(source, target)
    _fsync_dir(target.parent)


def _roll_forward(
    root: MemoryRoot,
    manifest: list[dict[str, Any]],
    fault: Fault | None = None,
    *,
    take_locks: bool,
) -> None:
    folder = root.state_dir / COMMIT
    for entry in manifest:
        lock = entry.get("lock")
        if take_locks and lock is not None:
            with file_lock(root.resolve(lock)):
                _move(root, folder, entry)
        else:
            _move(root, folder, entry)
        if fault:
            fault(f"moved {entry['target']}")
    shutil.rmtree(folder)
    _fsync_dir(root.state_dir)


def _set_aside(root: MemoryRoot, reason: str) -> str:
    folder = root.state_dir / COMMIT
    number = 1
    while (aside := root.state_dir / f"{COMMIT}.broken-{number}").exists():
        number += 1
    os.rename(folder, aside)
    return f"set aside a commit that cannot be trusted as {root.relative(aside)}: {reason}"


def recover_commit(root: MemoryRoot) -> list[str]:
    """Finish a committed transaction, discard unfinished ones: one line per thing done.

    The caller holds the root's lock (:mod:`memory.recovery`)."""
    state = root.state_dir
    if not state.is_dir():
        return []
    done = []
    if (state / COMMIT).is_dir():
        try:
            manifest = _read_manifest(root)
        except _BadManifest as exc:
            done.append(_set_aside(root, str(exc)))
        else:
            _roll_forward(root, manifest, take_locks=True)
            done.append(f"finished an interrupted commit ({len(manifest)} file(s))")
    elif (state / COMMIT).exists():  # a file where the folder should be
        done.append(_set_aside(root, "not a folder"))
    stale = list(state.glob("txn-*"))
    for folder in stale:
        shutil.rmtree(folder, ignore_errors=True)
    if stale:
        done.append(f"discarded {len(stale)} unfinished change(s) that never committed")
    return done


def recover(root: MemoryRoot) -> bool:
    """Like :func:`recover_commit`; True if anything was done."""
    return bool(recover_commit(root))
