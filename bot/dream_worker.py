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
from bot.material import material_sizes
from bot.messages import Scope
from bot.scope_state import changes
from memory.dream.model import DreamReport, EngineName
from memory.dream.tiers import TierSettings
from memory.errors import MemoryEngineError
from memory.llm import ChatModel
from memory.paths import MemoryRoot

log = logging.getLogger(__name__)


Origin = Literal["command", "nightly", "idle", "pressure"]


@dataclass(frozen=True)
class DreamJob:
    scope: Scope
    root: MemoryRoot
    days: int
    max_items: int
    engine: EngineName
    force: bool = False
    origin: Origin = "command"
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
        """Finish the queued dreams, then end the thread."""
        if self._thread is None:
            return
        self._queue.put(None)
        self._thread.join(timeout)
        self._thread = None

    def _loop(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            seen = changes(job.root)  # notes written after this are not in the dream
            material = material_sizes(job.root, self.clock().date())
            try:
                report = self.run(job)
            except Exception as exc:  # reported below, never silently
                log.exception("dream for %s failed", job.scope.key)
                report = DreamReport("failed", reason=_one_line(exc))
            outcome = DreamOutcome(job, report, self.clock(), seen, material)
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
            tiers=job.tiers,
            token_budget=job.token_budget,
        )
        try:
            return run_dream(job.root, options, model=self.model, now=self.clock())
        except MemoryEngineError as exc:
            return DreamReport("failed", reason=_one_line(exc))


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else type(exc).__name__


def format_report(report: DreamReport) -> str:
    """A dream's result in a few plain lines for a chat."""
    if report.status == "skipped":
        return f"Dream skipped: {report.reason or 'nothing to do'}."
    if report.status != "done":
        return f"Dream failed: {report.reason or 'unknown error'}."
    counts = ", ".join(
        f"{value} {name}"
        for name, value in (
            ("added", report.added),
            ("merged", report.merged),
            ("superseded", report.superseded),
            ("archived", report.archived),
            ("rejected", report.rejected),
        )
        if value
    )
    noun = "item" if report.items == 1 else "items"
    head = f"Dream done ({report.engine or '?'}): {report.items} {noun} in MEMORY.md"
    head += f" ({counts})." if counts else "."
    diary = report.diary.strip()
    return f"{head}\n\n{diary}" if diary else head
