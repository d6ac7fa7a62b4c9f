"""Per-root bot bookkeeping: dreaming on/off, the last dream's result, "changed" marks.

Kept in ``<root>/memory/.bot/state.json`` (a dot-folder: bookkeeping, not memory).
"""

from __future__ import annotations

import json
import logging
from datetime import datetime
from pathlib import Path
from typing import Any

from memory.atomic import atomic_write_text, file_lock
from memory.paths import MemoryRoot

log = logging.getLogger(__name__)


def _path(root: MemoryRoot) -> Path:
    return root.notes_dir / ".bot" / "state.json"


def read_state(root: MemoryRoot) -> dict[str, Any]:
    try:
        data = json.loads(_path(root).read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        log.error("bot state of %s unreadable (%s); starting afresh", root.path, exc)
        return {}


def update_state(root: MemoryRoot, **changes: Any) -> dict[str, Any]:
    path = _path(root)
    with file_lock(path.with_name(".state.lock")):
        data = read_state(root)
        data.update(changes)
        atomic_write_text(path, json.dumps(data, ensure_ascii=False, indent=1))
    return data


def dreaming_enabled(root: MemoryRoot, default: bool) -> bool:
    value = read_state(root).get("dreaming")
    return default if value is None else bool(value)


def mark_changed(root: MemoryRoot) -> None:
    """Remember that the root's notes changed since its last dream (and count changes)."""
    path = _path(root)
    with file_lock(path.with_name(".state.lock")):
        data = read_state(root)
        data["changed"] = True
        data["changes"] = int(data.get("changes", 0)) + 1
        atomic_write_text(path, json.dumps(data, ensure_ascii=False, indent=1))


def changes(root: MemoryRoot) -> int:
    """How many times the notes changed, ever: a dream clears ``changed`` only if no
    change came after it started."""
    return int(read_state(root).get("changes", 0))


def clear_changed(root: MemoryRoot, seen: int) -> None:
    path = _path(root)
    with file_lock(path.with_name(".state.lock")):
        data = read_state(root)
        if int(data.get("changes", 0)) == seen:
            data["changed"] = False
            atomic_write_text(path, json.dumps(data, ensure_ascii=False, indent=1))


def record_dream(root: MemoryRoot, report: dict[str, Any], when: datetime) -> None:
    """Keep the counts of the last dream; its diary stays in the diary file only, where
    ``forget`` can reach it."""
    counts = {k: v for k, v in report.items() if k not in ("diary", "diff")}
    update_state(root, last_dream={**counts, "at": when.isoformat(timespec="seconds")})
