"""``undo``: restore MEMORY.md and the archive to before the last dream."""

from __future__ import annotations

import logging
from datetime import datetime

from memory import clock
from memory.dream.state import (
    load_state,
    root_lock,
    snapshot_files,
    snapshots,
    state_path,
    state_text,
    unverified,
)
from memory.errors import UsageError
from memory.paths import MemoryRoot
from memory.transaction import Transaction

log = logging.getLogger(__name__)


def undo(root: MemoryRoot, *, now: datetime | None = None) -> str:
    """Restore the newest snapshot in one atomic commit; a one-line description."""
    with root_lock(root):
        history = snapshots(root)
        strays = unverified(root)
        if strays:
            log.warning("undo ignores history folders it cannot verify: %s", ", ".join(strays))
        if not history:
            left = f" ({len(strays)} unverifiable history folder(s) left alone)" if strays else ""
            raise UsageError(f"nothing to undo: no dream has changed this memory yet{left}")
        last = history[-1]
        txn = Transaction(root)
        for target, name in snapshot_files(root):
            if not (last.folder / name).exists():
                continue  # a snapshot made before this file was kept: leave it as it is
            text = last.text(name)
            relative = root.relative(target)
            if text is None:
                txn.delete(relative)
            else:
                txn.write(relative, text)
        for child in last.folder.iterdir():
            txn.delete(root.relative(child))
        state = load_state(root)
        state.pop("last_success", None)  # the next dream must not be skipped
        state["last_undo"] = {
            "time": (now or clock.now()).isoformat(timespec="seconds"),
            "restored": last.meta.get("time", "?"),
        }
        txn.write(root.relative(state_path(root)), state_text(state))
        txn.commit()
        last.folder.rmdir()
    kind, when = last.meta.get("kind", "dream"), last.meta.get("time", "?")
    return f"undone: MEMORY.md and the archive are back to before the {kind} of {when}"
