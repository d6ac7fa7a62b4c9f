"""MEMORY.md's token budget: the estimate the prompt pays for it, and fitting under it
(pure)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date

from memory.memory_file import MemoryDoc, MemoryItem, render_memory
from memory.provenance import strip_comments
from memory.tokens import clip_tokens, estimate_tokens


def memory_tokens(text: str) -> int:
    """Estimated tokens of MEMORY.md as a prompt gets it: comments stripped, blank lines
    left out, one token per line break."""
    lines = [strip_comments(line).rstrip() for line in text.splitlines()]
    kept = [line for line in lines if line.strip()]
    return sum(estimate_tokens(line) for line in kept) + max(0, len(kept) - 1)


TARGET = 0.8  # over the budget, a dream brings MEMORY.md under this share of it
MIN_TIGHT_TOKENS = 40  # an item is never tightened below this


@dataclass(frozen=True)
class Fit:
    """What bringing MEMORY.md under its budget did."""

    keep: list[MemoryItem]
    demoted: list[tuple[MemoryItem, str]]  # (item, why), to the archive as ``budget``
    tightened: list[tuple[MemoryItem, MemoryItem]]  # (old, new): the old text is archived
    before: int  # estimated tokens before
    after: int  # and after
    budget: int

    @property
    def moved(self) -> bool:
        return bool(self.demoted or self.tightened)


def fit_budget(
    doc: MemoryDoc,
    keep: Sequence[MemoryItem],
    budget: int,
    coldness: Callable[[MemoryItem], tuple[date | None, str]],
) -> Fit:
    """Over ``budget``, bring MEMORY.md (``doc``'s hand-written lines plus ``keep``) under
    ``TARGET`` of it: tighten an item far longer than the others (at most once each), else
    demote the coldest (``coldness``: its last activity, oldest first, and why; among
    equals the last of ``keep``, which is in the engine's order of preference), until it
    fits or only hand-written lines are left. Nothing is deleted: what leaves goes to the
    archive."""
    items = list(keep)
    before = after = memory_tokens(render_memory(doc, items))
    if before <= budget:
        return Fit(items, [], [], before, after, budget)
    target = int(budget * TARGET)
    demoted: list[tuple[MemoryItem, str]] = []
    tightened: list[tuple[MemoryItem, MemoryItem]] = []
    done: set[int] = set()  # positions already tightened
    while after > target and items:
        sizes = [estimate_tokens(i.text) for i in items]
        average = sum(sizes) / len(sizes)
        longest = max(range(len(items)), key=lambda n: (n not in done, sizes[n]))
        cap = max(MIN_TIGHT_TOKENS, int(2 * average))
        if longest not in done and sizes[longest] > cap:
            old = items[longest]
            new = replace(old, text=clip_tokens(old.text, cap), line=0, raw="")
            items[longest] = new
            tightened.append((old, new))
            done.add(longest)
        else:
            order = sorted(  # the coldest; among equals the engine ranked lowest
                range(len(items)),
                key=lambda n: (coldness(items[n])[0] or date.min, -n),
            )
            coldest = order[0]
            demoted.append((items[coldest], coldness(items[coldest])[1]))
            del items[coldest]
            done = {n - 1 if n > coldest else n for n in done if n != coldest}
        after = memory_tokens(render_memory(doc, items))
    return Fit(items, demoted, tightened, before, after, budget)
