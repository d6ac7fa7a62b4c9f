"""What ``/memory status`` and ``/dreaming status`` say (and the web console shows)."""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from bot.scope_state import DreamResult, dreaming_enabled, read_state
from bot.services import BotServices
from memory.paths import MemoryRoot
from memory.wording import plural
from plugins.events import ChatContext

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DreamingInfo:
    """A root's dreaming state, as ``/dreaming status`` and the console show it."""

    enabled: bool
    next_run: datetime | None
    timezone: str
    last_dream: DreamResult | None  # the last done or failed dream
    last_skip: DreamResult | None  # a later skip ("nothing new"), shown apart
    undone_at: str | None  # the last dream's result was undone since
    changed_since_dream: bool
    running: bool
    last_trigger: dict[str, Any] | None = None  # the last trigger decision (run or skip, why)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["next_run"] = self.next_run.isoformat(timespec="minutes") if self.next_run else None
        return data


def dreaming_info(services: BotServices, root: MemoryRoot) -> DreamingInfo:
    """Dreaming state of ``root``: on/off, next nightly run, last result, whether queued."""
    from memory.dream.state import load_state

    state = read_state(root)
    enabled = dreaming_enabled(root, services.config.dreaming_enabled)
    undo = load_state(root).get("last_undo")
    undone = undo.get("time") if isinstance(undo, dict) else None
    last = state.last_dream
    if not (last and isinstance(undone, str) and _after(undone, last.at)):
        undone = None
    return DreamingInfo(
        enabled=enabled,
        next_run=services.nightly.next_run() if enabled else None,
        timezone=services.config.timezone,
        last_dream=last,
        last_skip=state.last_skip,
        undone_at=undone,
        changed_since_dream=state.changed,
        running=services.dreams.busy(root),
        last_trigger=_trigger(root),
    )


def _trigger(root: MemoryRoot) -> dict[str, Any] | None:
    from bot.trigger_watch import last_decision

    recorded = last_decision(root)
    if recorded is None:
        return None
    decision = recorded.decision
    return {
        "time": recorded.time,
        "decision": "run" if decision.run else "skip",
        "trigger": decision.trigger,
        "gate": decision.gate,
        "reason": decision.reason,
    }


def _after(a: str, b: str) -> bool:
    try:
        return datetime.fromisoformat(a) >= datetime.fromisoformat(b)
    except ValueError:
        return False


def memory_counts(root: MemoryRoot) -> dict[str, Any]:
    """Items, archive items and notes of ``root`` (the memory engine's status)."""
    from memory.status import collect_status

    return dict(collect_status(root))


def _result(last: DreamResult) -> str:
    line = f"{last.status} at {last.at}"
    if last.reason:
        line += f" ({last.reason})"
    elif last.status == "done":
        line += f": {plural(last.items, 'item')}, +{last.added}"
    return line


def dreaming_text(services: BotServices, root: MemoryRoot) -> str:
    info = dreaming_info(services, root)
    lines = [f"Nightly dreaming: {'on' if info.enabled else 'off'}"]
    if info.next_run:
        lines.append(f"Next run: {info.next_run.isoformat(timespec='minutes')} ({info.timezone})")
    if info.running:
        lines.append("A dream is running now.")
    last = _result(info.last_dream) if info.last_dream else "never"
    if info.undone_at:
        last += f" (undone at {info.undone_at})"
    lines.append(f"Last dream: {last}")
    if info.last_skip:
        lines.append(f"Since then: skipped at {info.last_skip.at} ({info.last_skip.reason})")
    if info.last_trigger:
        t = info.last_trigger
        verb = "started" if t["decision"] == "run" else "held back"
        lines.append(
            f"Last trigger decision ({t['time']}): {t['trigger']} dream {verb}: {t['reason']}"
        )
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
            f"MEMORY.md: {plural(counts.get('items', 0), 'item')}; archive: "
            f"{plural(counts.get('archive_items', 0), 'item')}; daily notes: {len(notes)}"
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
