"""The deep phase's upkeep of the core: tier moves, and the token budget.

Tier moves: cold core items go to the archive, hot archive entries come back.
:class:`TierView` is read once per dream (the usage ledger, the archive, the recall store's
recalls and ``memory/.dreams/tiers.json``: the day each cited line entered MEMORY.md) and
decides with :mod:`memory.dream.tiers`. :func:`move_tiers` works on the engine's order
before the cap: a prior generated item that is cold leaves for the archive (reason
``cold``); a hot entry whose lines no kept item cites comes first. Both are listed in the
proposal with why, so the diary tells them; the commit stores the new ``tiers.json``
(:func:`entered_text`), and ``undo`` puts MEMORY.md and the archive back as they were.

The budget: :func:`fit_to_budget` works after the cap; over ``token_budget`` it demotes
the coldest items (reason ``budget``) or tightens the longest (the full text goes to the
archive as ``tightened``) until MEMORY.md is under 80 % of the budget
(:func:`memory.dream.budget.fit_budget`).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from memory.dream.budget import fit_budget, memory_tokens
from memory.dream.model import DreamInputs, Proposal
from memory.dream.sections import section_for
from memory.dream.tiers import (
    Activity,
    TierSettings,
    cold_reason,
    hot_reason,
    is_cold,
    is_hot,
    last_said,
)
from memory.memory_file import ArchivedItem, MemoryItem, cited_lines, parse_memory, read_archive
from memory.paths import MemoryRoot
from memory.provenance import SourceRef, ref_lines
from memory.recall_store import Recall, read_recalls
from memory.textfile import read_optional
from memory.usage import Ledger, read_ledger

log = logging.getLogger(__name__)

FILE = "tiers.json"
NEVER_RETURN = frozenset({"superseded", "conflict-dropped"})  # replaced, or dropped by a person
Line = tuple[str, int]


def state_relative(root: MemoryRoot) -> str:
    return f"{root.relative(root.state_dir)}/{FILE}"


def load_entered(root: MemoryRoot) -> dict[str, date]:
    """``"path#Ln"`` -> the day a core item first cited that line (missing file: none)."""
    try:
        data = json.loads((root.state_dir / FILE).read_text(encoding="utf-8"))
        return {str(k): date.fromisoformat(str(v)) for k, v in data["entered"].items()}
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        log.warning("%s: %s unreadable (%s); every core item starts afresh", root.path, FILE, exc)
        return {}


def entered_text(keep: Sequence[MemoryItem], old: dict[str, date], today: date) -> str:
    """The state after a dream: the lines the new core cites, each with its entry day."""
    lines = sorted(f"{path}#L{n}" for path, n in cited_lines(keep))
    entered = {line: old.get(line, today).isoformat() for line in lines}
    return json.dumps({"version": 1, "entered": entered}, indent=1, sort_keys=True) + "\n"


@dataclass
class TierView:
    """What the tier decisions read, for one dream."""

    settings: TierSettings
    today: date
    ledger: Ledger = field(default_factory=Ledger)
    archive: list[ArchivedItem] = field(default_factory=list)
    entered: dict[str, date] = field(default_factory=dict)
    recalls: Sequence[Recall] = ()

    def __post_init__(self) -> None:
        self._recalled: dict[Line, date] = defaultdict(lambda: date.min)
        for recall in self.recalls:
            for ref in recall.refs:
                for n in ref.lines():
                    line = (ref.path, n)
                    self._recalled[line] = max(self._recalled[line], recall.day)

    @classmethod
    def read(
        cls,
        root: MemoryRoot,
        settings: TierSettings,
        today: date,
        recalls: Sequence[Recall],
        archive: Sequence[ArchivedItem] | None = None,
    ) -> TierView:
        """The view of ``root``; ``archive``: the archive as the caller already read it."""
        entries = list(archive) if archive is not None else read_archive(root)
        return cls(settings, today, read_ledger(root), entries, load_entered(root), recalls)

    def activity(self, sources: Sequence[SourceRef], text: str = "") -> Activity:
        usage = self.ledger.usage(sources, text, since=self.settings.hot_since(self.today))
        lines = ref_lines(sources)
        recalled = [self._recalled[line] for line in lines if line in self._recalled]
        entered = [self.entered[f"{p}#L{n}"] for p, n in lines if f"{p}#L{n}" in self.entered]
        return Activity(
            last_use=usage.last,
            recent_uses=usage.recent,
            last_recall=max(recalled, default=None),
            last_said=last_said(sources),
            entered=min(entered, default=self.today),  # a line no core item cited: today
        )

    def cold(self, item: MemoryItem) -> str:
        """Why ``item`` is cold ("" when it is not)."""
        activity = self.activity(item.sources, item.text)
        if item.handwritten or not is_cold(activity, self.today, self.settings):
            return ""
        return cold_reason(activity, self.today)

    def hot(self, entry: ArchivedItem) -> str:
        """Why archived ``entry`` should return ("" when it should not)."""
        if not entry.sources or entry.reason in NEVER_RETURN:
            return ""
        activity = self.activity(entry.sources)
        return hot_reason(activity, self.settings) if is_hot(activity, self.settings) else ""

    def due(self, prior: Sequence[MemoryItem]) -> list[str]:
        """The moves due today: a dream runs for them even over unchanged notes."""
        moves = [f"cold: {i.text}" for i in prior if self.cold(i)]
        held = cited_lines(prior)
        moves += [
            f"hot: {e.text}"
            for e in self.archive
            if self.hot(e) and not ref_lines(e.sources) & held
        ]
        return sorted(moves)

    def coldness(self, item: MemoryItem) -> tuple[date | None, str]:
        """An item's last activity and how long ago (the budget demotes the coldest)."""
        last = self.activity(item.sources, item.text).last_active
        return (
            last,
            f"over the budget; last active {last.isoformat()}" if last else "over the budget",
        )


def upkeep_due(view: TierView, inputs: DreamInputs, budget: int) -> list[str]:
    """What the core needs today besides the notes: tier moves, or fitting the budget."""
    return _due(view, inputs.prior, "\n".join(inputs.lines.get("MEMORY.md", [])), budget)


def _due(view: TierView, prior: Sequence[MemoryItem], text: str, budget: int) -> list[str]:
    due = view.due(prior)
    tokens = memory_tokens(text)
    if tokens > budget:
        due.append(f"over budget: {tokens} of {budget} tokens")
    return due


def digest(due: Sequence[str]) -> str:
    """Part of the dream's input hash."""
    return hashlib.sha256("\n".join(due).encode("utf-8")).hexdigest()


def move_tiers(
    view: TierView, inputs: DreamInputs, proposal: Proposal, order: list[MemoryItem]
) -> list[MemoryItem]:
    """``order`` without the cold prior items (archived as ``cold``), with the hot archive
    entries first (``proposal.returned``)."""
    prior = cited_lines(inputs.prior)
    kept: list[MemoryItem] = []
    for item in order:
        why = view.cold(item) if ref_lines(item.sources) & prior else ""
        if why:
            proposal.archive.append((item, "cold"))
            proposal.why[item] = why
        else:
            kept.append(item)
    held = cited_lines(kept) | cited_lines(inputs.handwritten)
    back: list[MemoryItem] = []
    for entry in reversed(view.archive):  # the newest entry of a fact wins
        lines = ref_lines(entry.sources)
        why = view.hot(entry) if not lines & held else ""
        if not why:
            continue
        item = MemoryItem(entry.text, entry.sources, section_for(entry.text))
        back.append(item)
        proposal.returned.append((item, why))
        held |= lines
    return back + kept


def fit_to_budget(view: TierView, inputs: DreamInputs, proposal: Proposal, budget: int) -> None:
    """After the cap: bring ``proposal.keep`` under the budget (see the module's doc)."""
    fit = fit_budget(inputs.memory, proposal.keep, budget, view.coldness)
    proposal.fit = fit
    if not fit.moved:
        return
    for item, why in fit.demoted:
        proposal.archive.append((item, "budget"))
        proposal.why[item] = why
    for old, new in fit.tightened:
        proposal.archive.append((old, "tightened"))
        proposal.why[old] = f"tightened in MEMORY.md to “{new.text}”"
    renamed = dict(fit.tightened)
    kept = set(fit.keep)
    merges = [(renamed.get(i, i), n) for i, n in proposal.merges]
    proposal.merges = [(i, n) for i, n in merges if i in kept]
    proposal.keep = fit.keep


def due_today(root: MemoryRoot, settings: TierSettings, budget: int, today: date) -> list[str]:
    """:func:`upkeep_due` read from ``root`` (the nightly job dreams a chat whose notes did
    not change when its core needs this)."""
    text = read_optional(root.memory_md) or ""
    view = TierView.read(root, settings, today, read_recalls(root).recalls)
    return _due(view, parse_memory(text).generated, text, budget)
