"""``status``: what a memory root holds, and how its dreams went."""

from __future__ import annotations

from typing import Any

from memory.daily_notes import parse_note
from memory.dream.state import load_state, snapshots
from memory.memory_file import read_archive, read_memory
from memory.paths import MemoryRoot
from memory.recovery import ensure_recovered, last_recovery, pending


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
        "notes": notes,
        "last_dream": state.get("last_run"),
        "last_success": {k: v for k, v in state.get("last_success", {}).items() if k != "hash"}
        or None,
        "undo_available": bool(snapshots(root)),
        "pending_recovery": pending(root),
        "last_recovery": last_recovery(root),
    }


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
    if status.get("index"):
        lines.append(f"search index: {status['index']}")
    return "\n".join(lines)
