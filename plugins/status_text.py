"""What ``/memory status`` and ``/dreaming status`` say (and the web console shows)."""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from bot.engine_messages import engine_text
from bot.i18n import Translator
from bot.scope_state import DreamResult, dreaming_enabled, read_state
from bot.services import BotServices
from bot.trigger_reasons import reason_text
from memory.conflicts import open_conflicts
from memory.errors import MemoryEngineError
from memory.memory_file import read_memory
from memory.paths import MemoryRoot
from memory.resolve import Resolution
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
    # the phases' last results, the short-term store's counts, signals, promoted today
    phases: dict[str, Any] = field(default_factory=dict)
    short_term: dict[str, int] = field(default_factory=dict)
    signals: dict[str, int] = field(default_factory=dict)
    promoted_today: int = 0
    last_trigger: dict[str, Any] | None = None  # the last trigger decision (run or skip, why)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["next_run"] = self.next_run.isoformat(timespec="minutes") if self.next_run else None
        return data


def dreaming_info(services: BotServices, root: MemoryRoot) -> DreamingInfo:
    """Dreaming state of ``root``: on/off, next nightly run, last result, whether queued."""
    from memory.dream.state import load_state
    from memory.status import dreaming_overview

    state = read_state(root)
    enabled = dreaming_enabled(root, services.config.dreaming_enabled)
    undo = load_state(root).get("last_undo")
    undone = undo.get("time") if isinstance(undo, dict) else None
    last = state.last_dream
    if not (last and isinstance(undone, str) and _after(undone, last.at)):
        undone = None
    next_run = services.nightly.next_run() if enabled else None
    overview = dreaming_overview(root, services.clock(), enabled=enabled, next_run=next_run)
    return DreamingInfo(
        enabled=enabled,
        next_run=next_run,
        timezone=services.config.timezone,
        last_dream=last,
        last_skip=state.last_skip,
        undone_at=undone,
        changed_since_dream=state.changed,
        running=services.dreams.busy(root),
        phases=overview["phases"],
        short_term=overview["short_term"],
        signals=overview["signals"],
        promoted_today=overview["promoted_today"],
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


def _result(last: DreamResult, tr: Translator) -> str:
    status = (
        tr.t(f"result.status.{last.status}")
        if tr.has(f"result.status.{last.status}")
        else last.status
    )
    when = tr.datetime(last.at)
    if last.reason:
        return tr.t("result.reason", status=status, when=when, reason=engine_text(tr, last.reason))
    if last.status == "done":
        items = tr.t("count.item", n=last.items)
        return tr.t("result.done", status=status, when=when, items=items, added=last.added)
    return tr.t("result.plain", status=status, when=when)


def dreaming_text(services: BotServices, root: MemoryRoot, tr: Translator) -> str:
    info = dreaming_info(services, root)
    lines = [tr.t("dreaming.state", state=tr.t("state.on" if info.enabled else "state.off"))]
    if info.next_run:
        lines.append(tr.t("dreaming.next", when=tr.datetime(info.next_run), zone=info.timezone))
    if info.running:
        lines.append(tr.t("dreaming.running"))
    last = _result(info.last_dream, tr) if info.last_dream else tr.t("dreaming.never")
    if info.undone_at:
        last += tr.t("dreaming.undone", when=tr.datetime(info.undone_at))
    lines.append(tr.t("dreaming.last", result=last))
    if info.last_skip:
        skip = info.last_skip
        reason = engine_text(tr, skip.reason)
        lines.append(tr.t("dreaming.since", when=tr.datetime(skip.at), reason=reason))
    lines += phase_lines(info, tr)
    if info.last_trigger:
        t = info.last_trigger
        decision = "run" if t["decision"] == "run" else "skip"
        lines.append(
            tr.t(
                f"dreaming.trigger_{decision}",
                when=tr.datetime(str(t["time"])),
                trigger=tr.t(f"trigger.{t['trigger']}")
                if tr.has(f"trigger.{t['trigger']}")
                else t["trigger"],
                reason=reason_text(tr, str(t["reason"])),
            )
        )
    return "\n".join(lines)


PHASE_COUNTS = (
    ("light", ("candidates", "staged")),
    ("rem", ("themes", "truths")),
    ("deep", ("ranked", "promoted")),
)


def phase_lines(info: DreamingInfo, tr: Translator) -> list[str]:
    """Each phase's last result, then the short-term store's counts."""
    lines = []
    for key, counts in PHASE_COUNTS:
        name = tr.t(f"phase.{key}")
        last = info.phases.get(key)
        if last:
            shown = tr.join([tr.t(f"phase.count.{c}", n=int(last.get(c, 0))) for c in counts])
            when = tr.datetime(str(last.get("time", "?")))
            lines.append(tr.t("phase.line", name=name, counts=shown, when=when))
        else:
            lines.append(tr.t("phase.not_run", name=name))
    short = info.short_term
    backfill = tr.t("phase.backfill", n=short["backfill"]) if short.get("backfill") else ""
    lines.append(
        tr.t(
            "phase.staged",
            staged=short.get("staged", 0),
            backfill=backfill,
            light=info.signals.get("light", 0),
            rem=info.signals.get("rem", 0),
            promoted=info.promoted_today,
        )
    )
    return lines


def conflict_lines(root: MemoryRoot, tr: Translator) -> list[str]:
    """The open conflicts of ``root``'s MEMORY.md, one line each with its numbered sides."""
    try:
        conflicts = open_conflicts(read_memory(root).items)
    except MemoryEngineError:
        return []
    if not conflicts:
        return []
    lines = [tr.t("status.conflicts", n=len(conflicts))]
    for c in conflicts:
        sides = [
            tr.t("conflict.side", n=n, text=tr.quote(i.text)) for n, i in enumerate(c.items, 1)
        ]
        lines.append(tr.t("status.conflict", id=c.id, sides=" ".join(sides)))
    return lines


def resolution_text(done: Resolution, tr: Translator) -> str:
    """What a resolution did, for the person who asked for it."""
    kept = tr.join([tr.quote(i.text) for i in done.kept])
    dropped = tr.join([tr.quote(i.text) for i in done.dropped])
    if done.action == "both":
        return tr.t("resolve.both", id=done.id, kept=kept)
    if done.still_open:
        return tr.t("resolve.dropped_open", id=done.id, dropped=dropped)
    key = "resolve.kept" if done.action == "keep" else "resolve.dropped"
    return tr.t(key, id=done.id, kept=kept, dropped=dropped)


def conflicts_text(root: MemoryRoot, tr: Translator) -> str:
    """``/memory resolve`` alone: the open conflicts, and how to settle one."""
    lines = conflict_lines(root, tr)
    if not lines:
        return tr.t("resolve.none")
    return "\n".join([tr.t("resolve.head"), *lines[1:], tr.t("resolve.hint")])


def status_text(services: BotServices, ctx: ChatContext) -> str:
    tr = ctx.lang
    scopes = services.scopes
    entry = scopes.entry(ctx.scope.key)
    folder = entry.folder if entry else scopes.folder_for(ctx.scope)
    title = (entry.title if entry else "") or ctx.scope.title
    shown = str(ctx.root.path) if folder == "." else folder  # "." is the workspace itself
    lines = [tr.t("status.memory_of", key=ctx.scope.key, title=_title(tr, title), folder=shown)]
    try:
        counts = memory_counts(ctx.root)
        notes = counts.get("notes") or {}
        latest = tr.t("status.latest", date=tr.date(max(notes))) if notes else ""
        lines.append(
            tr.t(
                "status.counts",
                items=tr.t("count.item", n=counts.get("items", 0)),
                archive=tr.t("count.item", n=counts.get("archive_items", 0)),
                notes=len(notes),
                latest=latest,
            )
        )
        recovery = counts.get("last_recovery")
        if recovery:  # a crashed dream, forget or append was finished or undone
            actions = "; ".join(engine_text(tr, a) for a in recovery["actions"])
            lines.append(
                tr.t("status.recovered", when=tr.datetime(recovery["time"]), actions=actions)
            )
    except Exception as exc:
        log.exception("memory status failed")
        lines.append(tr.t("status.unavailable", error=exc))
    lines += conflict_lines(ctx.root, tr)
    lines.append(dreaming_text(services, ctx.root, tr))
    if scopes.is_owner(ctx.scope):
        others = [e for e in scopes.entries() if e.folder != "."]
        if others:
            lines.append(tr.t("status.others", n=len(others)))
            lines.extend(
                tr.t("status.other", key=e.key, title=_title(tr, e.title), folder=e.folder)
                for e in others
            )
    return "\n".join(lines)


def _title(tr: Translator, title: str) -> str:
    return tr.t("status.title", title=title) if title else ""
