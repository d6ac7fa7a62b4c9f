"""Runs Deep Dreams in one background thread, one dream at a time, in request order.

The bot keeps answering while a dream runs. Each finished job goes to ``on_done`` with
its report (or the error that stopped it); a failing job is logged with its traceback and
reported the same way as a failing handler, never silently.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from bot.config import BotConfig
from bot.engine_messages import engine_text
from bot.i18n import Translator
from bot.material import material_sizes
from bot.messages import Scope
from bot.scope_state import changes
from memory.dream.model import DreamReport, EngineName
from memory.dream.scoring import Thresholds
from memory.dream.tiers import TierSettings
from memory.errors import MemoryEngineError
from memory.llm import ChatModel
from memory.paths import MemoryRoot
from memory.people.limits import PeopleLimits, people_on

log = logging.getLogger(__name__)


Origin = Literal["command", "nightly", "idle", "pressure"]
INTERRUPT_WAIT = 10.0  # seconds an interrupted dream gets to stop
STOPPED = "the bot stopped before this dream ran"  # the reason of a dream dropped at shutdown


@dataclass(frozen=True)
class DreamJob:
    scope: Scope
    root: MemoryRoot
    days: int
    max_items: int
    engine: EngineName
    force: bool = False
    origin: Origin = "command"
    thresholds: Thresholds = field(default_factory=Thresholds)
    people: PeopleLimits | None = None  # the people pass's limits; None: off for this chat
    tiers: TierSettings = field(default_factory=TierSettings)
    token_budget: int = 2000

    @classmethod
    def configured(
        cls,
        config: BotConfig,
        scope: Scope,
        root: MemoryRoot,
        *,
        days: int | None = None,
        origin: Origin = "command",
    ) -> DreamJob:
        """A dream of ``root`` with the configured window, cap and engine."""
        return cls(
            scope,
            root,
            days or config.dream_days,
            config.dream_max_items,
            config.dream_engine,
            origin=origin,
            thresholds=config.thresholds,
            people=(
                config.people_limits if people_on(config.people_enabled, scope.is_group) else None
            ),
            tiers=config.tiers,
            token_budget=config.memory_token_budget,
        )


@dataclass(frozen=True)
class DreamOutcome:
    job: DreamJob
    report: DreamReport
    finished: datetime
    changes_seen: int = 0  # the root's change count when the dream started
    material: dict[str, int] = field(default_factory=dict)  # note/log sizes at its start


class DreamWorker:
    """A queue of dream jobs and the thread that runs them."""

    def __init__(
        self,
        *,
        model: ChatModel | None,
        clock: Callable[[], datetime],
        on_done: Callable[[DreamOutcome], None],
    ) -> None:
        self.model = model
        self.clock = clock
        self.on_done = on_done
        self._queue: queue.Queue[DreamJob | None] = queue.Queue()
        self._pending: set[str] = set()  # root paths queued or running
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._idle = threading.Condition(self._lock)
        self._cancel = threading.Event()  # set: the running dream stops, writing nothing

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="dream-worker", daemon=True)
            self._thread.start()

    def submit(self, job: DreamJob) -> bool:
        """Queue ``job``; False when a dream for the same root is already queued or running."""
        key = str(job.root.path)
        with self._lock:
            if key in self._pending:
                return False
            self._pending.add(key)
        self._queue.put(job)
        return True

    def busy(self, root: MemoryRoot) -> bool:
        with self._lock:
            return str(root.path) in self._pending

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until every queued dream has finished; False on timeout."""
        with self._idle:
            return self._idle.wait_for(lambda: not self._pending, timeout)

    def stop(self, timeout: float | None = None) -> None:
        """Finish the queued dreams, then end the thread. After ``timeout`` seconds the
        running dream is interrupted (it writes nothing) and the queue is dropped."""
        if self._thread is None:
            return
        self._queue.put(None)
        self._thread.join(timeout)
        if self._thread.is_alive():
            log.warning("a dream is still running after %s s: interrupting it", timeout)
            self._cancel.set()
            self._thread.join(INTERRUPT_WAIT)
        self._thread = None

    def _loop(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            if self._cancel.is_set():
                report = DreamReport("failed", reason=STOPPED)
                self._finish(job, report, changes(job.root))
                continue
            seen = changes(job.root)  # notes written after this are not in the dream
            material = material_sizes(job.root, self.clock().date())
            try:
                report = self.run(job)
            except (MemoryEngineError, OSError) as exc:  # a full disk, a model down: one line
                log.error("dream for %s failed: %s", job.scope.key, _one_line(exc))
                report = DreamReport("failed", reason=_one_line(exc))
            except Exception as exc:  # a defect: the traceback, reported below too
                log.exception("dream for %s failed", job.scope.key)
                report = DreamReport("failed", reason=_one_line(exc))
            self._finish(job, report, seen, material)

    def _finish(
        self, job: DreamJob, report: DreamReport, seen: int, material: dict[str, int] | None = None
    ) -> None:
        outcome = DreamOutcome(job, report, self.clock(), seen, material or {})
        try:
            self.on_done(outcome)
        except Exception:
            log.exception("reporting the dream for %s failed", job.scope.key)
        with self._idle:
            self._pending.discard(str(job.root.path))
            self._idle.notify_all()

    def run(self, job: DreamJob) -> DreamReport:
        """Run one dream now, in this thread."""
        from memory.dream import DreamOptions, run_dream

        options = DreamOptions(
            days=job.days,
            force=job.force,
            engine=job.engine,
            max_items=job.max_items,
            thresholds=job.thresholds,
            people=job.people,
            tiers=job.tiers,
            token_budget=job.token_budget,
        )
        try:
            return run_dream(
                job.root, options, model=self.model, now=self.clock(), cancel=self._cancel
            )
        except MemoryEngineError as exc:
            return DreamReport("failed", reason=_one_line(exc))


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else type(exc).__name__


def format_report(report: DreamReport, tr: Translator) -> str:
    """A dream's result in a few plain lines for a chat, in ``tr``'s language (the diary
    under it is already in the notes' language)."""
    if report.status == "skipped":
        reason = engine_text(tr, report.reason) if report.reason else tr.t("report.nothing")
        return tr.t("report.skipped", reason=reason)
    if report.status != "done":
        reason = engine_text(tr, report.reason) if report.reason else tr.t("report.unknown_error")
        return tr.t("report.failed", reason=reason)
    counts = tr.join(
        [
            tr.t(f"report.{name}", n=value)
            for name, value in (
                ("added", report.added),
                ("merged", report.merged),
                ("superseded", report.superseded),
                ("archived", report.archived),
                ("rejected", report.rejected),
            )
            if value
        ]
    )
    head = tr.t(
        "report.done",
        engine=report.engine or "?",
        items=tr.t("count.item", n=report.items),
        counts=tr.t("report.counts", counts=counts) if counts else "",
    )
    people = _people_line(report, tr)
    head = f"{head}\n{people}" if people else head
    diary = report.diary.strip()
    return f"{head}\n\n{diary}" if diary else head


def _people_line(report: DreamReport, tr: Translator) -> str:
    """What the people pass changed on the cards ("" when nothing)."""
    people = report.people or {}
    parts = [
        tr.t(key, n=int(people.get(name) or 0))
        for name, key in (
            ("carded", "count.new_card_line"),
            ("opened", "count.open"),
            ("corrected", "count.correction"),
            ("inductions", "count.pattern"),
        )
        if people.get(name)
    ]
    return tr.t("report.people", counts=tr.join(parts)) if parts else ""
