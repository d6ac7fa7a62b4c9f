"""The deep phase: score, promote, rehydrate, consolidate through the engine, admit.

1. Every live candidate is scored (:mod:`memory.dream.promotion`); one that passes the
   three thresholds is *promoted*.
2. Rehydration: a promoted candidate is re-read from its live source lines; a line edited
   or forgotten since it was staged drops it.
3. The engine (extractive or llm, behind :class:`DreamEngine`) consolidates the prior
   items, the window's notes and the promoted candidates' lines: merge, supersede, prune.
4. Admission: items holding a promoted candidate come first (best score first), unless
   superseded; a promoted candidate the engine left out enters as its own item. The rest
   compete for the places left under the cap by score plus the engine's durability
   order. The overflow goes to the archive (unless it already holds every line).
   A promoted item holds at most 160 estimated tokens.
5. Upkeep (:mod:`memory.dream.upkeep`): before the cap, cold prior items leave for the
   archive and hot archive entries come first; after it, MEMORY.md is brought under its
   token budget.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date

from memory.conflicts import unmark_lonely
from memory.daily_notes import NoteLine
from memory.dream.context import DeepResult, DreamContext
from memory.dream.evidence import Line, LiveLines
from memory.dream.judgement import concepts
from memory.dream.light import LightResult, rehydrate
from memory.dream.model import DreamInputs, Proposal
from memory.dream.promotion import Ranked, rank
from memory.dream.scoring import (
    competition,
    durability_of_rank,
    phase_boost,
    room,
    signals,
    total,
)
from memory.dream.sections import section_for
from memory.dream.similarity import near_duplicate
from memory.dream.upkeep import fit_to_budget, move_tiers
from memory.memory_file import MemoryItem, cited_lines
from memory.paths import day_of
from memory.provenance import ref_lines
from memory.tokens import clip_tokens

PROMOTED_TOKENS = 160


@dataclass
class Decisions:
    """What the deep phase decided about candidates (by key), for the store and reports."""

    promoted: dict[str, MemoryItem] = field(default_factory=dict)
    deferred: dict[str, str] = field(default_factory=dict)  # key -> why
    rejected: dict[str, str] = field(default_factory=dict)  # key -> why


def already_archived(item: MemoryItem, inputs: DreamInputs) -> bool:
    return all(
        f"{ref.path}#L{n}" in inputs.archived_refs for ref in item.sources for n in ref.lines()
    )


def admit(inputs: DreamInputs, proposal: Proposal, order: list[MemoryItem]) -> Proposal:
    """Keep the first items of ``order`` that fit under the cap; archive the overflow that
    a prior item cited or the archive does not hold yet."""
    cap = room(inputs.max_items, len(inputs.handwritten))
    keep, overflow = order[:cap], order[cap:]
    prior = cited_lines(inputs.prior)
    for item in overflow:
        if ref_lines(item.sources) & prior or not already_archived(item, inputs):
            proposal.archive.append((item, "overflow"))
    kept = set(keep)
    proposal.merges = [(i, n) for i, n in proposal.merges if i in kept]
    proposal.keep = keep
    return proposal


def with_lines(inputs: DreamInputs, promoted: list[Ranked], live: LiveLines) -> DreamInputs:
    """``inputs`` plus the promoted candidates' lines outside the window."""
    have = {(n.path, n.line) for n in inputs.notes}
    extra: list[NoteLine] = []
    lines = dict(inputs.lines)
    for ranked in promoted:
        for ref in ranked.candidate.refs:
            for n in ref.lines():
                note = live.note_line(ref.path, n) if (ref.path, n) not in have else None
                text = live.files.get(ref.path)
                if note is None or text is None:
                    continue
                extra.append(note)
                have.add((ref.path, n))
                lines.setdefault(ref.path, text)
    if not extra:
        return inputs
    notes = sorted([*inputs.notes, *extra], key=lambda n: (n.day, n.path, n.line))
    return replace(inputs, notes=notes, lines=lines)


def _unmark_lonely(proposal: Proposal, decisions: Decisions) -> None:
    """A conflict the cap or the budget left with one side is no conflict any more."""
    unmarked = unmark_lonely(proposal.keep)
    changed = {old: new for old, new in zip(proposal.keep, unmarked, strict=True) if old != new}
    if changed:
        proposal.keep = unmarked
        decisions.promoted = {k: changed.get(i, i) for k, i in decisions.promoted.items()}


class DeepPhase:
    """The nightly deep phase; ``promoted_only`` consolidates the prior items with the
    promoted candidates alone (``promote --apply``)."""

    name = "deep"

    def __init__(self, *, promoted_only: bool = False, keys: set[str] | None = None) -> None:
        self.promoted_only = promoted_only
        self.keys = keys  # only these candidates may be promoted (``promote --limit``)

    def run(self, ctx: DreamContext) -> None:
        light = ctx.state.light
        assert light is not None, "the deep phase needs the light phase's candidates"
        today = ctx.now.date()
        ranking = rank(light.store, light.evidence, today, ctx.options.thresholds)
        decisions = Decisions()
        fresh = LiveLines(ctx.root, light.live.sources, {})  # re-read: the files as they are now
        promoted = []
        for ranked in ranking:
            if not ranked.passes or (self.keys is not None and ranked.key not in self.keys):
                continue
            why = rehydrate(ranked.candidate, fresh)
            if why:
                decisions.rejected[ranked.key] = why
            else:
                promoted.append(ranked)
        base = replace(ctx.inputs, notes=[]) if self.promoted_only else ctx.inputs
        inputs = with_lines(base, promoted, fresh)
        ctx.check()
        proposal = ctx.engine.propose(inputs)
        ctx.check()
        order = self._order(ctx, light, inputs, proposal, promoted, decisions)
        if ctx.tiers is not None:  # cold items out, hot archive entries back
            order = move_tiers(ctx.tiers, inputs, proposal, order)
        admitted = admit(inputs, proposal, order)
        if ctx.tiers is not None:  # under the token budget, never by deleting
            fit_to_budget(ctx.tiers, inputs, admitted, ctx.options.token_budget)
        _unmark_lonely(admitted, decisions)
        kept = set(admitted.keep)
        for key, item in list(decisions.promoted.items()):
            if item not in kept:
                del decisions.promoted[key]
                decisions.deferred[key] = f"no room under the cap of {ctx.inputs.max_items}"
        ctx.state.deep = DeepResult(
            admitted,
            ranked=len(ranking),
            competed=len(order),
            ranking=ranking,
            decisions=decisions,
        )
        self._update_store(ctx, light, admitted, decisions)

    def _order(
        self,
        ctx: DreamContext,
        light: LightResult,
        inputs: DreamInputs,
        proposal: Proposal,
        promoted: list[Ranked],
        decisions: Decisions,
    ) -> list[MemoryItem]:
        today = ctx.now.date()
        owners: dict[Line, str] = {}
        for key, cand in light.store.candidates.items():
            if key in light.evidence:
                for ref in cand.refs:
                    for n in ref.lines():
                        owners.setdefault((ref.path, n), key)
        winners = {r.key: r for r in promoted}
        first: list[tuple[float, int, MemoryItem]] = []
        rest: list[tuple[float, int, MemoryItem]] = []
        placed: set[str] = set()
        count = len(proposal.keep)
        for position, item in enumerate(proposal.keep):
            lines = ref_lines(item.sources)
            keys = {owners[line] for line in lines if line in owners}
            item_score = self._item_score(light, item, lines, keys, today)
            mine = [winners[k] for k in sorted(keys) if k in winners]
            if mine:
                best = max(item_score, *(r.score for r in mine))
                item = replace(item, text=clip_tokens(item.text, PROMOTED_TOKENS))
                first.append((-best, position, item))
                for ranked in mine:
                    decisions.promoted[ranked.key] = item
                    placed.add(ranked.key)
            else:
                value = competition(item_score, durability_of_rank(position, count))
                rest.append((-value, position, item))
        for ranked in promoted:
            if ranked.key in placed:
                continue
            why = self._left_out(ranked, proposal, inputs)
            if why:
                (decisions.deferred if why.startswith("already") else decisions.rejected)[
                    ranked.key
                ] = why
                continue
            cand = ranked.candidate
            item = MemoryItem(
                clip_tokens(cand.text, PROMOTED_TOKENS), cand.refs, section_for(cand.text)
            )
            self._unarchive(proposal, ranked)
            first.append((-ranked.score, count + len(first), item))
            decisions.promoted[ranked.key] = item
        first.sort(key=lambda t: (t[0], t[1]))
        rest.sort(key=lambda t: (t[0], t[1]))
        return [item for _, _, item in first] + [item for _, _, item in rest]

    @staticmethod
    def _item_score(
        light: LightResult, item: MemoryItem, lines: set[Line], keys: set[str], today: date
    ) -> float:
        cands = [light.store.candidates[k] for k in keys]
        evidence = light.index.evidence(
            [line for line in lines if day_of(line[0]) is not None],
            len(concepts(item.text)),
            light=max(((c.light_hits, c.light_last) for c in cands), default=(0, None)),
            rem=max(((c.rem_hits, c.rem_last) for c in cands), default=(0, None)),
        )
        return total(signals(evidence, today), phase_boost(evidence, today))

    @staticmethod
    def _left_out(ranked: Ranked, proposal: Proposal, inputs: DreamInputs) -> str:
        """Why a promoted candidate the engine did not keep stays out ("" if it enters)."""
        lines = ref_lines(ranked.candidate.refs)
        for old, new in proposal.superseded:
            if ref_lines(old.sources) & lines:
                return f"superseded by “{new.text}”"
        for item in inputs.handwritten:  # as the engine folds a note into a hand-written item
            if near_duplicate(ranked.candidate.text, item.text):
                return "already in MEMORY.md, written by hand"
        return ""

    @staticmethod
    def _unarchive(proposal: Proposal, ranked: Ranked) -> None:
        """A promoted candidate the engine pruned is kept after all: not archived."""
        lines = ref_lines(ranked.candidate.refs)
        proposal.archive = [
            (item, reason)
            for item, reason in proposal.archive
            if reason == "superseded" or not ref_lines(item.sources) <= lines
        ]

    @staticmethod
    def _update_store(
        ctx: DreamContext, light: LightResult, proposal: Proposal, decisions: Decisions
    ) -> None:
        today = ctx.now.date()
        kept = cited_lines(proposal.keep)
        newly = 0
        for key, cand in sorted(light.store.candidates.items()):
            if key in decisions.promoted:
                if cand.status != "promoted":
                    newly += 1
                    cand = replace(cand, status="promoted", note="", promoted_on=today)
            elif key in decisions.rejected:
                cand = cand.with_status("rejected", decisions.rejected[key])
            elif key in decisions.deferred:
                cand = cand.with_status("deferred", decisions.deferred[key])
            elif cand.status == "promoted" and not ref_lines(cand.refs) & kept:
                cand = cand.with_status("deferred", "left MEMORY.md")
            light.store.candidates[key] = cand
        assert ctx.state.deep is not None
        ctx.state.deep.promoted = newly
