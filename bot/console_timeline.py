"""The Dreams view's timeline: what each dream did, read from the dreams' own event log.

Every dream that ran (and every ``promote --apply``) appends one line to
``memory/.dreams/events.jsonl`` with its counts; the timeline is those lines, oldest
first, nothing recomputed. A line that cannot be read is left out (the log is
append-only bookkeeping: a torn last line must not hide the others).
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass
from typing import Any

from memory.paths import MemoryRoot

log = logging.getLogger(__name__)

KINDS = ("dream", "promote")  # the events that change MEMORY.md
MAX_POINTS = 60  # the newest dreams shown


@dataclass(frozen=True)
class DreamPoint:
    """One dream on the timeline: when, how it ended, what it did to MEMORY.md."""

    time: str
    kind: str
    status: str
    engine: str
    items: int
    added: int
    merged: int
    superseded: int
    archived: int
    rejected: int
    tokens: int | None  # MEMORY.md's estimated tokens after it (None: not recorded then)


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def point(event: Any) -> DreamPoint | None:
    """The timeline's point for one event line, or None (another event, or unusable)."""
    if not isinstance(event, dict) or event.get("event") not in KINDS:
        return None
    time, status = event.get("time"), event.get("status")
    if not isinstance(time, str) or status not in ("done", "failed"):
        return None  # a skipped dream did nothing to draw
    tokens = event.get("tokens") if status == "done" else None  # a failed one wrote nothing
    return DreamPoint(
        time=time,
        kind=str(event["event"]),
        status=str(status),
        engine=str(event.get("engine") or ""),
        items=_count(event.get("items")),
        added=_count(event.get("added")),
        merged=_count(event.get("merged")),
        superseded=_count(event.get("superseded")),
        archived=_count(event.get("archived")),
        rejected=_count(event.get("rejected")),
        tokens=_count(tokens) if isinstance(tokens, int) else None,
    )


def read_timeline(root: MemoryRoot, limit: int = MAX_POINTS) -> list[DreamPoint]:
    """The newest ``limit`` dreams of ``root``, oldest first."""
    path = root.state_dir / "events.jsonl"
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return []
    except OSError as exc:
        log.warning("cannot read %s: %s", path, exc.strerror or exc)
        return []
    points: list[DreamPoint] = []
    for line in text.splitlines():
        try:
            found = point(json.loads(line)) if line.strip() else None
        except ValueError:
            found = None
        if found is not None:
            points.append(found)
    return points[-limit:] if limit > 0 else []


def timeline_dict(root: MemoryRoot, budget: int | None) -> dict[str, Any]:
    """What the console draws: the dreams and MEMORY.md's token budget (None: no budget)."""
    return {"dreams": [asdict(p) for p in read_timeline(root)], "budget": budget}
