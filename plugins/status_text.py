"""What ``/memory status`` and ``/dreaming status`` say (and the web console shows)."""

from __future__ import annotations

import logging
from typing import Any

from bot.scope_state import dreaming_enabled, read_state
from bot.services import BotServices
from memory.paths import MemoryRoot
from plugins.events import ChatContext

log = logging.getLogger(__name__)


def dreaming_info(services: BotServices, root: MemoryRoot) -> dict[str, Any]:
    """Dreaming state of ``root``: on/off, next nightly run, last result, whether queued."""
    state = read_state(root)
    enabled = dreaming_enabled(root, services.config.dreaming_enabled)
    next_run = services.nightly.next_run() if enabled else None
    return {
        "enabled": enabled,
        "next_run": next_run.isoformat(timespec="minutes") if next_run else None,
        "timezone": services.config.timezone,
        "last_dream": state.get("last_dream"),
        "changed_since_dream": bool(state.get("changed")),
        "running": services.dreams.busy(root),
    }


def memory_counts(root: MemoryRoot) -> dict[str, Any]:
    """Items, archive items and notes of ``root`` (the memory engine's status)."""
    from memory.status import collect_status

    return dict(collect_status(root))


def _last(info: dict[str, Any]) -> str:
    last = info.get("last_dream")
    if not last:
        return "never"
    line = f"{last.get('status')} at {last.get('at')}"
    if last.get("reason"):
        line += f" ({last['reason']})"
    elif last.get("status") == "done":
        line += f": {last.get('items', 0)} items, +{last.get('added', 0)}"
    return line


def dreaming_text(services: BotServices, root: MemoryRoot) -> str:
    info = dreaming_info(services, root)
    lines = [f"Nightly dreaming: {'on' if info['enabled'] else 'off'}"]
    if info["next_run"]:
        lines.append(f"Next run: {info['next_run']} ({info['timezone']})")
    if info["running"]:
        lines.append("A dream is running now.")
    lines.append(f"Last dream: {_last(info)}")
    return "\n".join(lines)


def status_text(services: BotServices, ctx: ChatContext) -> str:
    scopes = services.scopes
    entry = scopes.entry(ctx.scope.key)
    folder = entry.folder if entry else scopes.folder_for(ctx.scope)
    title = (entry.title if entry else "") or ctx.scope.title
    shown = str(ctx.root.path) if folder == "." else folder  # "." is the workspace itself
    lines = [f"Memory of {ctx.scope.key}" + (f" ({title})" if title else "") + f": {shown}"]
    try:
        counts = memory_counts(ctx.root)
        notes = counts.get("notes") or {}
        lines.append(
            f"MEMORY.md: {counts.get('items', 0)} items; archive: "
            f"{counts.get('archive_items', 0)} items; daily notes: {len(notes)}"
            + (f" (latest {max(notes)})" if notes else "")
        )
    except Exception as exc:
        log.exception("memory status failed")
        lines.append(f"Memory status unavailable: {exc}")
    lines.append(dreaming_text(services, ctx.root))
    if scopes.is_owner(ctx.scope):
        others = [e for e in scopes.entries() if e.folder != "."]
        if others:
            lines.append(f"Other chats ({len(others)}):")
            lines.extend(
                f"- {e.key}" + (f" ({e.title})" if e.title else "") + f": {e.folder}"
                for e in others
            )
    return "\n".join(lines)
