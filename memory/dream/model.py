"""The data a dream works on and produces, shared by both engines and the runner."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Literal, Protocol

from memory.daily_notes import NoteLine
from memory.dream.budget import Fit
from memory.dream.scoring import Thresholds
from memory.dream.tiers import TierSettings
from memory.memory_file import ArchivedItem, MemoryDoc, MemoryItem, cited_lines
from memory.people.limits import PeopleLimits
from memory.provenance import ref_lines

EngineName = Literal["auto", "llm", "extractive"]
MIN_DAYS, MAX_DAYS = 1, 30


@dataclass(frozen=True)
class DreamOptions:
    days: int = 3
    force: bool = False
    engine: EngineName = "auto"
    dry_run: bool = False
    max_items: int = 30
    thresholds: Thresholds = field(default_factory=Thresholds)
    people: PeopleLimits | None = field(default_factory=PeopleLimits)  # None: no people pass
    tiers: TierSettings = field(default_factory=TierSettings)
    token_budget: int = 2000  # MEMORY.md's budget in estimated tokens


@dataclass(frozen=True)
class DreamInputs:
    """MEMORY.md and the bullets of the daily notes in the window, with the lines they cite."""

    today: date
    memory: MemoryDoc
    notes: list[NoteLine]
    lines: dict[str, list[str]]  # root-relative path -> the file's lines (for grounding)
    archived_refs: dict[str, str]  # "path#Ln" already in the archive -> reason
    max_items: int
    state_dir: Path | None = None  # the root's memory/.dreams/ (caches), when on disk
    # the archive as read with the notes (the core's upkeep reads it again from here)
    archive: list[ArchivedItem] = field(default_factory=list, compare=False, repr=False)
    # An engine calls this now and then in its long loops; it raises DreamInterrupted
    # when the dream was asked to stop (the bot shutting down).
    check: Callable[[], None] = field(default=lambda: None, compare=False, repr=False)

    @property
    def prior(self) -> list[MemoryItem]:
        return self.memory.generated

    @property
    def handwritten(self) -> list[MemoryItem]:
        return [i for i in self.memory.items if i.handwritten]


def new_items(prior: list[MemoryItem], items: list[MemoryItem]) -> list[MemoryItem]:
    """The items of ``items`` citing no line a prior item cites."""
    old = cited_lines(prior)
    return [i for i in items if not ref_lines(i.sources) & old]


@dataclass
class Proposal:
    """What an engine proposes: the consolidated items (merged, superseded, pruned) in its
    order of preference, uncapped; the deep phase admits them under the cap and the runner
    verifies the accounting and writes it."""

    keep: list[MemoryItem]
    archive: list[tuple[MemoryItem, str]] = field(default_factory=list)  # (item, reason)
    merged: int = 0
    superseded: list[tuple[MemoryItem, MemoryItem]] = field(default_factory=list)  # (old, new)
    rejected: list[tuple[str, str]] = field(default_factory=list)  # (text, why)
    dropped: int = 0  # chatter left out
    merges: list[tuple[MemoryItem, int]] = field(default_factory=list)  # (item, lines folded)
    rewrites: list[tuple[MemoryItem, MemoryItem]] = field(default_factory=list)  # (old, new)
    corrected: int = 0  # model items the post-checks corrected or rejected
    model_diary: str = ""
    returned: list[tuple[MemoryItem, str]] = field(default_factory=list)  # (item, why) hot
    why: dict[MemoryItem, str] = field(default_factory=dict)  # why an item moved (the diary)
    fit: Fit | None = None  # the token budget's work (after the cap)


class DreamEngine(Protocol):
    """The consolidation behind the deep phase: merge, supersede, prune, in an order."""

    name: str

    def propose(self, inputs: DreamInputs) -> Proposal:
        """Distil ``inputs``; raise :class:`memory.errors.ModelError` if a model fails."""
        ...


@dataclass
class PhaseCounts:
    """What ``dream --json`` reports of each phase."""

    light: dict[str, int] = field(default_factory=lambda: {"candidates": 0, "staged": 0})
    rem: dict[str, int] = field(default_factory=lambda: {"themes": 0, "truths": 0})
    deep: dict[str, int] = field(default_factory=lambda: {"ranked": 0, "promoted": 0})


@dataclass
class DreamReport:
    status: Literal["done", "skipped", "failed"]
    reason: str = ""
    engine: str = ""
    items: int = 0
    added: int = 0
    merged: int = 0
    superseded: int = 0
    archived: int = 0
    rejected: int = 0
    returned: int = 0  # archive entries back in MEMORY.md (hot)
    tokens: int = 0  # MEMORY.md's estimated tokens after the dream
    conflicts: int = 0  # open conflicts in MEMORY.md after the dream
    diary: str = ""
    phases: PhaseCounts = field(default_factory=PhaseCounts)
    diff: str = ""  # --dry-run only
    people: dict[str, Any] | None = None  # the people pass's counts, in a group chat

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        if not self.diff:
            data.pop("diff")
        if self.people is None:
            data.pop("people")
        return data
