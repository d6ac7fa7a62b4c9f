"""Per-root bot bookkeeping: dreaming on/off, the last dreams' results, "changed" marks.

Kept in ``<root>/memory/.bot/state.json`` (a dot-folder: bookkeeping, not memory), read
and written as :class:`ScopeState`. The last *real* result (done or failed) is kept apart
from the last skip, so "nothing new to dream" never hides what the last dream did.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime
from pathlib import Path
from typing import Any

from memory.atomic import atomic_write_text, file_lock
from memory.dream.model import DreamReport
from memory.paths import MemoryRoot

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DreamResult:
    """The counts of one finished dream (its diary stays in the diary file, where
    ``forget`` can reach it)."""

    status: str
    at: str
    engine: str = ""
    reason: str = ""
    items: int = 0
    added: int = 0
    merged: int = 0
    superseded: int = 0
    archived: int = 0
    rejected: int = 0

    @classmethod
    def of(cls, report: DreamReport, when: datetime) -> DreamResult:
        return cls(
            report.status,
            when.isoformat(timespec="seconds"),
            report.engine,
            report.reason,
            report.items,
            report.added,
            report.merged,
            report.superseded,
            report.archived,
            report.rejected,
        )

    @classmethod
    def parse(cls, data: Any) -> DreamResult | None:
        if not isinstance(data, dict) or not isinstance(data.get("status"), str):
            return None
        known = {f.name for f in fields(cls)}
        try:
            return cls(**{k: v for k, v in data.items() if k in known})
        except TypeError:
            return None


@dataclass
class ScopeState:
    dreaming: bool | None = None  # None: the configured default
    changed: bool = False  # notes changed since the last dream
    changes: int = 0  # how many times the notes changed, ever
    last_dream: DreamResult | None = None  # the last done or failed dream
    last_skip: DreamResult | None = None  # the last skipped one, if later
    material: dict[str, int] = field(default_factory=dict)  # note/log sizes at the last dream
    memory_digest: str = ""  # MEMORY.md's SHA-256 as the last dream left it
    extra: dict[str, Any] = field(default_factory=dict)  # keys other code keeps here

    @classmethod
    def parse(cls, data: Any) -> ScopeState:
        if not isinstance(data, dict):
            return cls()
        known = {
            "dreaming",
            "changed",
            "changes",
            "last_dream",
            "last_skip",
            "material",
            "memory_digest",
        }
        dreaming = data.get("dreaming")
        try:
            changes = max(0, int(data.get("changes", 0)))
        except (TypeError, ValueError):
            changes = 0
        return cls(
            dreaming if isinstance(dreaming, bool) else None,
            data.get("changed") is True,
            changes,
            DreamResult.parse(data.get("last_dream")),
            DreamResult.parse(data.get("last_skip")),
            _sizes(data.get("material")),
            str(data.get("memory_digest") or ""),
            {k: v for k, v in data.items() if k not in known},
        )

    def to_json(self) -> str:
        data: dict[str, Any] = dict(self.extra)
        data.update(dreaming=self.dreaming, changed=self.changed, changes=self.changes)
        data["last_dream"] = asdict(self.last_dream) if self.last_dream else None
        data["last_skip"] = asdict(self.last_skip) if self.last_skip else None
        data.update(material=self.material, memory_digest=self.memory_digest)
        return json.dumps(data, ensure_ascii=False, indent=1)


def _sizes(value: Any) -> dict[str, int]:
    if not isinstance(value, dict):
        return {}
    return {str(k): v for k, v in value.items() if isinstance(v, int) and v >= 0}


def _path(root: MemoryRoot) -> Path:
    return root.notes_dir / ".bot" / "state.json"


def read_state(root: MemoryRoot) -> ScopeState:
    try:
        return ScopeState.parse(json.loads(_path(root).read_text(encoding="utf-8")))
    except FileNotFoundError:
        return ScopeState()
    except (OSError, ValueError) as exc:
        log.error("bot state of %s unreadable (%s); starting afresh", root.path, exc)
        return ScopeState()


def update_state(root: MemoryRoot, change: Callable[[ScopeState], None]) -> ScopeState:
    """Read, ``change`` and write the state under its lock."""
    path = _path(root)
    with file_lock(path.with_name(".state.lock")):
        state = read_state(root)
        change(state)
        atomic_write_text(path, state.to_json())
    return state


def dreaming_enabled(root: MemoryRoot, default: bool) -> bool:
    value = read_state(root).dreaming
    return default if value is None else value


def set_dreaming(root: MemoryRoot, on: bool) -> None:
    def change(state: ScopeState) -> None:
        state.dreaming = on

    update_state(root, change)


def mark_changed(root: MemoryRoot) -> None:
    """Remember that the root's notes changed since its last dream (and count changes)."""

    def change(state: ScopeState) -> None:
        state.changed = True
        state.changes += 1

    update_state(root, change)


def changes(root: MemoryRoot) -> int:
    """How many times the notes changed, ever: a dream clears ``changed`` only if no
    change came after it started."""
    return read_state(root).changes


def clear_changed(root: MemoryRoot, seen: int) -> None:
    def change(state: ScopeState) -> None:
        if state.changes == seen:
            state.changed = False

    update_state(root, change)


def record_dream(
    root: MemoryRoot,
    report: DreamReport,
    when: datetime,
    *,
    material: dict[str, int] | None = None,
    memory_digest: str = "",
) -> None:
    """Keep the counts of a finished dream: a skip apart from the last real result; for a
    dream that ran or had nothing to do, the material it saw (``material``: note and log
    sizes when it started) and the MEMORY.md it left (``memory_digest``), which the
    triggers measure from."""
    result = DreamResult.of(report, when)

    def change(state: ScopeState) -> None:
        if report.status == "skipped":
            state.last_skip = result
        else:
            state.last_dream, state.last_skip = result, None
        if report.status != "failed":
            if material is not None:
                state.material = dict(material)
            if memory_digest:
                state.memory_digest = memory_digest

    update_state(root, change)
