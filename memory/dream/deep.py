"""The deep phase: consolidate through the engine, then admit items under the cap.

The engine (extractive or llm, behind :class:`DreamEngine`) merges, supersedes and prunes;
this phase decides what enters MEMORY.md: items in the order given, cut at the cap
(hand-written items count against it), the overflow archived unless the archive already
holds every line it cites.
"""

from __future__ import annotations

from memory.dream.context import DeepResult, DreamContext
from memory.dream.model import DreamInputs, Proposal
from memory.dream.scoring import room
from memory.dream.upkeep import fit_to_budget, move_tiers
from memory.memory_file import MemoryItem, cited_lines
from memory.provenance import ref_lines


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


class DeepPhase:
    name = "deep"

    def run(self, ctx: DreamContext) -> None:
        ctx.check()
        proposal = ctx.engine.propose(ctx.inputs)
        ctx.check()
        order = list(proposal.keep)
        if ctx.tiers is not None:
            order = move_tiers(ctx.tiers, ctx.inputs, proposal, order)
        admitted = admit(ctx.inputs, proposal, order)
        if ctx.tiers is not None:
            fit_to_budget(ctx.tiers, ctx.inputs, admitted, ctx.options.token_budget)
        ctx.state.deep = DeepResult(admitted, ranked=len(admitted.keep))
