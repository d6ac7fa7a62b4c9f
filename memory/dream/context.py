"""One dream cycle's context: what the phases read, and the typed state they hand on.

The runner builds a :class:`DreamContext` under the root's lock, runs the phases in order
(each reads the context and sets its result on ``ctx.state``), then commits everything
the phases produced in one transaction. No phase writes a file itself.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from memory.dream.model import DreamEngine, DreamInputs, DreamOptions, Proposal
from memory.dream.short_term import ShortTerm
from memory.dream.upkeep import TierView
from memory.errors import MemoryEngineError
from memory.llm import ChatModel
from memory.paths import MemoryRoot
from memory.recall_store import RecallRead

if TYPE_CHECKING:
    from memory.dream.deep import Decisions
    from memory.dream.light import LightResult
    from memory.dream.promotion import Ranked
    from memory.dream.rem import RemResult


class DreamInterrupted(MemoryEngineError):
    """The dream was asked to stop (the bot is shutting down); nothing was written."""


@dataclass
class DeepResult:
    proposal: Proposal
    ranked: int = 0  # candidates scored
    competed: int = 0  # items (candidates merged with prior items) that competed for places
    promoted: int = 0  # candidates promoted for the first time
    ranking: list[Ranked] = field(default_factory=list)
    decisions: Decisions | None = None


@dataclass
class DreamState:
    """What the phases have produced so far, each phase's result once it has run."""

    light: LightResult | None = None
    rem: RemResult | None = None
    deep: DeepResult | None = None


@dataclass
class DreamContext:
    root: MemoryRoot
    options: DreamOptions
    now: datetime
    engine: DreamEngine
    inputs: DreamInputs
    recalls: RecallRead
    short_term: ShortTerm
    state: DreamState = field(default_factory=DreamState)
    model: ChatModel | None = None  # the llm engine's model (REM words reflections with it)
    cancel: threading.Event | None = None
    tiers: TierView | None = None  # the core's upkeep (tier moves, budget) reads this
    problems: list[str] = field(default_factory=list)  # reported in the diary and status

    def check(self) -> None:
        """Raise :class:`DreamInterrupted` when the dream was asked to stop."""
        if self.cancel is not None and self.cancel.is_set():
            raise DreamInterrupted("the dream was interrupted; nothing was written")


class Phase(Protocol):
    """One step of a dream cycle: reads the context, sets its result on ``ctx.state``."""

    name: str

    def run(self, ctx: DreamContext) -> None: ...
