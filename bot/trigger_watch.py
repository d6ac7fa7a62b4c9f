"""The idle and pressure triggers at work: a check of every chat every ``poll_seconds``.

Each check measures every memory root (:mod:`bot.material`), decides
(:func:`bot.triggers.decide`) and queues the dreams that should run, after writing the
chat's conversation so far into today's note (as ``/memory dream`` does). Every decision goes
to ``memory/.dreams/events.jsonl`` as ``{"event": "trigger", "time", "decision",
"trigger", "gate", "reason"}``; a check that reaches the same decision as the last one
recorded for that root (same run or skip, trigger and gate) adds nothing, so a quiet bot
does not fill the file. Nightly and manual decisions are recorded too
(:meth:`TriggerWatch.record`), and ``/dreaming status`` shows the last one
(:func:`last_decision`).
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from bot.config import BotConfig
from bot.conversations import Conversations
from bot.dream_worker import DreamJob, DreamWorker, Origin
from bot.material import last_turn, material_sizes, memory_digest, memory_estimate, new_bytes
from bot.messages import Scope
from bot.scope_state import dreaming_enabled, read_state
from bot.scopes import ScopeDirectory
from bot.triggers import ChatActivity, Decision, TriggerSettings, decide
from memory.dream.state import append_event
from memory.paths import MemoryRoot

log = logging.getLogger(__name__)

EVENTS = "events.jsonl"
TAIL_BYTES = 256 * 1024


def settings_of(config: BotConfig) -> TriggerSettings:
    return TriggerSettings(
        idle_minutes=config.dream_idle_minutes,
        min_hours=config.dream_min_hours_between,
        min_new_bytes=config.dream_min_new_kib * 1024,
        token_budget=config.memory_token_budget,
    )


def record_decision(root: MemoryRoot, decision: Decision, when: datetime) -> None:
    """Append ``decision`` to the root's events (a failure is logged, never raised)."""
    try:
        append_event(root, decision.to_event(when))
    except OSError as exc:
        log.error("could not record a trigger decision for %s: %s", root.path, exc)


@dataclass(frozen=True)
class RecordedDecision:
    time: str
    decision: Decision


def last_decision(root: MemoryRoot) -> RecordedDecision | None:
    """The newest trigger decision in the root's events, or None."""
    path = root.state_dir / EVENTS
    try:
        with open(path, "rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - TAIL_BYTES))
            lines = handle.read().splitlines()
    except OSError:
        return None
    for raw in reversed(lines):
        try:
            data = json.loads(raw)
            if data.get("event") != "trigger":
                continue
            decision = Decision(
                data["decision"] == "run", data["trigger"], data["gate"], str(data["reason"])
            )
            return RecordedDecision(str(data["time"]), decision)
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
    return None


def activity(
    config: BotConfig, dreams: DreamWorker, root: MemoryRoot, now: datetime
) -> ChatActivity:
    """What the gates look at for ``root`` now."""
    state = read_state(root)
    attempts = [r.at for r in (state.last_dream, state.last_skip) if r is not None]
    last = None
    for stamp in attempts:
        try:
            when = datetime.fromisoformat(stamp)
        except ValueError:
            continue
        last = when if last is None or when > last else last
    return ChatActivity(
        enabled=dreaming_enabled(root, config.dreaming_enabled),
        busy=dreams.busy(root),
        last_turn=last_turn(root),
        last_dream=last,
        new_bytes=new_bytes(material_sizes(root, now.date()), state.material),
        tokens=memory_estimate(root),
        memory_changed=memory_digest(root) != state.memory_digest,
    )


class TriggerWatch:
    """Checks every chat for an idle or pressure dream; ``check`` is the whole job."""

    def __init__(
        self,
        config: BotConfig,
        scopes: ScopeDirectory,
        conversations: Conversations,
        dreams: DreamWorker,
        clock: Callable[[], datetime],
        *,
        poll_seconds: float = 30.0,
    ) -> None:
        self.config = config
        self.settings = settings_of(config)
        self.scopes = scopes
        self.conversations = conversations
        self.dreams = dreams
        self.clock = clock
        self.poll_seconds = poll_seconds
        self._last: dict[str, tuple[bool, str, str] | None] = {}
        self._guard = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def chats(self) -> list[tuple[Scope, MemoryRoot]]:
        """One scope per memory root (the terminal and the console share the owner's)."""
        seen: dict[str, tuple[Scope, MemoryRoot]] = {}
        for entry in self.scopes.entries():
            scope = self.scopes.scope_from_key(entry.key)
            if scope is not None:
                root = self.scopes.root_for(scope)
                seen.setdefault(str(root.path), (scope, root))
        return list(seen.values())

    def check(self, now: datetime | None = None) -> list[DreamJob]:
        """Decide for every chat; queue the dreams that should run."""
        now = (now or self.clock()).astimezone(self.config.zone)
        jobs = []
        for scope, root in self.chats():
            try:
                decision = decide(now, activity(self.config, self.dreams, root, now), self.settings)
            except Exception:  # one chat's broken files never stop the others' triggers
                log.exception("trigger check of %s failed", scope.key)
                continue
            if decision.run:
                origin: Origin = "pressure" if decision.trigger == "pressure" else "idle"
                job = DreamJob.configured(self.config, scope, root, origin=origin)
                self.conversations.flush(scope, now)  # today's talk goes into the dream
                if not self.dreams.submit(job):
                    continue  # queued meanwhile: the next check sees it busy
                jobs.append(job)
            self.record(root, decision, now, repeat=False)
        return jobs

    def record(
        self, root: MemoryRoot, decision: Decision, now: datetime, *, repeat: bool = True
    ) -> None:
        """Append ``decision`` to the root's events (with ``repeat=False``, a skip the same
        as the last decision recorded there is left out)."""
        key = str(root.path)
        with self._guard:
            if key not in self._last:
                recorded = last_decision(root)
                self._last[key] = recorded.decision.key if recorded else None
            if not (repeat or decision.run) and self._last[key] == decision.key:
                return
            self._last[key] = decision.key
        record_decision(root, decision, now)

    # the thread --------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._loop, name="triggers", daemon=True)
            self._thread.start()

    def _loop(self) -> None:
        while not self._stop.wait(self.poll_seconds):
            try:
                self.check()
            except Exception:
                log.exception("the trigger check failed; it runs again in %ss", self.poll_seconds)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
            self._thread = None
