"""``status``: what a memory root holds, and how its dreams went."""

from __future__ import annotations

import json
from datetime import datetime, time, timedelta
from typing import Any

from memory.conflicts import conflicts_json, open_conflicts
from memory.daily_notes import parse_note
from memory.dream.short_term import load_short_term
from memory.dream.state import load_state, snapshots
from memory.memory_file import read_archive, read_memory
from memory.paths import MemoryRoot
from memory.recovery import ensure_recovered, last_recovery, pending

NIGHTLY_TIME = "23:55"


def collect_status(root: MemoryRoot) -> dict[str, Any]:
    ensure_recovered(root)
    doc = read_memory(root)
    state = load_state(root)
    notes = {day.isoformat(): len(parse_note(root, day)) for day in root.note_dates()}
    return {
        "root": str(root.path),
        "items": len(doc.items),
        "generated_items": len(doc.generated),
        "handwritten_items": len(doc.items) - len(doc.generated),
        "archive_items": len(read_archive(root)),
        "conflicts": conflicts_json(open_conflicts(doc.items)),
        "notes": notes,
        "last_dream": state.get("last_run"),
        "last_success": {k: v for k, v in state.get("last_success", {}).items() if k != "hash"}
        or None,
        "undo_available": bool(snapshots(root)),
        "pending_recovery": pending(root),
        "last_recovery": last_recovery(root),
    }


def dreaming_enabled(root: MemoryRoot, default: bool) -> bool:
    """The chat's own switch (``/dreaming on|off``, kept by the bot), else ``default``."""
    try:
        data = json.loads((root.notes_dir / ".bot" / "state.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return default
    value = data.get("dreaming") if isinstance(data, dict) else None
    return default if value is None else bool(value)


def next_nightly(now: datetime, at: str = NIGHTLY_TIME) -> datetime:
    """The next time of day ``at`` (HH:MM) after ``now``, in ``now``'s zone."""
    hour, minute = (int(part) for part in at.split(":"))
    due = datetime.combine(now.date(), time(hour, minute), tzinfo=now.tzinfo)
    return due if due > now else due + timedelta(days=1)


def dreaming_overview(
    root: MemoryRoot, now: datetime, *, enabled: bool, next_run: datetime | None
) -> dict[str, Any]:
    """``status --deep``'s ``dreaming``: each phase's last result, the short-term store's
    counts by status, the light and REM signals recorded, candidates promoted today."""
    store = load_short_term(root)
    today = now.date()
    return {
        "enabled": enabled,
        "next_run": next_run.isoformat(timespec="minutes") if enabled and next_run else None,
        "phases": load_state(root).get("phases", {}),
        "short_term": store.counts(),
        "signals": store.signals(),
        "promoted_today": sum(1 for c in store.candidates.values() if c.promoted_on == today),
        "problem": store.problem or None,
    }


def format_dreaming(info: dict[str, Any]) -> list[str]:
    state = "on" if info["enabled"] else "off"
    lines = [f"dreaming: {state}" + (f", next run {info['next_run']}" if info["next_run"] else "")]
    phases = info.get("phases") or {}
    for name, keys in (
        ("light", ("candidates", "staged")),
        ("rem", ("themes", "truths")),
        ("deep", ("ranked", "promoted")),
    ):
        last = phases.get(name)
        if last:
            counts = ", ".join(f"{last.get(k, 0)} {k}" for k in keys)
            lines.append(f"  {name}: {counts} (at {last.get('time', '?')})")
        else:
            lines.append(f"  {name}: never ran")
    short = info["short_term"]
    by_status = ", ".join(
        f"{short[k]} {k}" for k in ("staged", "promoted", "deferred", "rejected", "expired")
    )
    lines.append(f"  short-term store: {short['total']} candidates ({by_status})")
    if short.get("backfill"):
        lines.append(f"  of which backfill: {short['backfill']}")
    signals = info["signals"]
    lines.append(
        f"  signals: {signals['light']} light, {signals['rem']} REM; "
        f"promoted today: {info['promoted_today']}"
    )
    if info.get("problem"):
        lines.append(f"  ⚠ {info['problem']}")
    return lines


def format_index(index: Any) -> str:
    if not isinstance(index, dict):
        return f"search index: {index}"
    line = (
        f"search index: {index.get('chunks', 0)} chunks in {index.get('files', 0)} files; "
        f"vectors {index.get('vectors', 0)} ({index.get('provider', '?')}, "
        f"{index.get('state', '?')})"
    )
    if index.get("pending"):
        line += f", {index['pending']} pending"
    if index.get("reason"):
        line += f": {index['reason']}"
    return line


def format_status(status: dict[str, Any]) -> str:
    lines = [
        f"memory root: {status['root']}",
        f"MEMORY.md: {status['items']} items "
        f"({status['generated_items']} generated, {status['handwritten_items']} hand-written)",
        f"archive: {status['archive_items']} items",
    ]
    notes = status["notes"]
    if notes:
        recent = list(notes.items())[-7:]
        lines.append(f"daily notes: {len(notes)} ({', '.join(f'{d}: {n}' for d, n in recent)})")
    else:
        lines.append("daily notes: none")
    last = status["last_dream"]
    if last:
        result = last.get("status", "?")
        extra = f" ({last['reason']})" if last.get("reason") else ""
        counts = ""
        if result == "done":
            counts = (
                f": {last.get('items', 0)} items, +{last.get('added', 0)} added, "
                f"{last.get('merged', 0)} merged, {last.get('superseded', 0)} superseded, "
                f"{last.get('archived', 0)} archived, {last.get('rejected', 0)} rejected"
            )
        lines.append(
            f"last dream: {last.get('time', '?')} {last.get('engine', '?')} {result}{extra}{counts}"
        )
    else:
        lines.append("last dream: never")
    recovery = status.get("last_recovery")
    if recovery:
        lines.append(f"recovered at {recovery['time']}: {'; '.join(recovery['actions'])}")
    if status.get("dreaming"):
        lines += format_dreaming(status["dreaming"])
    if status.get("index"):
        lines.append(format_index(status["index"]))
    return "\n".join(lines)
