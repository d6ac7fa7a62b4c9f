"""Recovery after a crash, run before anything reads or changes a memory root.

A process killed in the middle of a change can leave three things behind: a committed
transaction not yet moved into place (``memory/.dreams/commit``), a staging folder that
never reached its commit point (``memory/.dreams/txn-*``), and a half-written append to
a daily note (a marker in ``memory/.dreams/locks/``). :func:`ensure_recovered` finishes
or undoes each of them under the root's lock, so every reader sees the old or the new
state, and records what it did in ``memory/.dreams/recovery.json`` for ``status``.

When nothing is pending (the usual case) it costs a few ``stat`` calls. When a live
process holds the root's lock it is mid-commit and finishes its own work: the reader
waits a moment for its commit folder to go, and never touches it.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

from memory import clock
from memory.atomic import atomic_write_text, file_lock
from memory.daily_notes import note_lock, repair_note, torn_notes
from memory.errors import Busy
from memory.paths import MemoryRoot
from memory.transaction import COMMIT, recover_commit

log = logging.getLogger(__name__)

WAIT_SECONDS = 2.0  # how long a reader waits for a live process's commit to finish


def root_lock_path(root: MemoryRoot) -> Path:
    """One dream, undo or forget per root at a time hold this lock."""
    return root.state_dir / "root.lock"


def record_path(root: MemoryRoot) -> Path:
    return root.state_dir / "recovery.json"


def pending(root: MemoryRoot) -> bool:
    """True when a dead (or running) writer left something to finish."""
    state = root.state_dir
    if not state.is_dir():
        return False
    return (state / COMMIT).exists() or any(state.glob("txn-*")) or bool(torn_notes(root))


def recover_locked(root: MemoryRoot) -> list[str]:
    """Finish or undo what a dead writer left; the root's lock must be held. Returns one
    plain line per thing done (empty when there was nothing)."""
    if not pending(root):
        return []
    actions = recover_commit(root)
    for path in torn_notes(root):
        with file_lock(note_lock(root, path)):
            if repair_note(root, path):
                actions.append(f"cut back an unfinished append to {root.relative(path)}")
    if actions:
        for action in actions:
            log.warning("recovery of %s: %s", root.path, action)
        stamp = clock.now().isoformat(timespec="seconds")
        record = {"time": stamp, "actions": actions}
        try:
            atomic_write_text(record_path(root), json.dumps(record, ensure_ascii=False) + "\n")
        except OSError as exc:
            log.error("cannot record the recovery of %s: %s", root.path, exc)
    return actions


def ensure_recovered(root: MemoryRoot) -> list[str]:
    """Recover ``root`` if a dead writer left anything; what was done (usually nothing).

    Never raises for a root it cannot write (a read-only copy): that is logged."""
    if not pending(root):
        return []
    try:
        with file_lock(root_lock_path(root), blocking=False):
            return recover_locked(root)
    except Busy:
        deadline = time.monotonic() + WAIT_SECONDS
        while (root.state_dir / COMMIT).exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        return []
    except OSError as exc:
        log.error("cannot recover %s: %s", root.path, exc)
        return []


def last_recovery(root: MemoryRoot) -> dict[str, Any] | None:
    """The last recorded recovery (``{"time", "actions"}``), if it can be read."""
    try:
        data = json.loads(record_path(root).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("actions"), list):
        return None
    return {"time": str(data.get("time", "?")), "actions": [str(a) for a in data["actions"]]}
