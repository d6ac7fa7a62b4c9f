"""What the question asks about, and whether the hits hold it: the asked *slot*, not the names.

"What did Caroline paint?" asked of a conversation with Caroline finds her lines whatever
it asks: the name matches anyway. The slot is the rest of the question's content terms
(here *paint*), and a hit that holds none of it answers nothing. These signals read the
question's terms without its names (:func:`memory.search.names.names`; Chinese questions
name no one this way, so there the slot is every term), weighed by their idf as
coverage is (:func:`memory.search.ranking.term_weight`), against the top hits: how much of
the slot the first, the best and the top 5 hold, whether its heaviest term is held, and
whether a hit that holds some of the slot also holds the kind of value the question asks
for (a *when* question's hit with the slot and a date, a *how many* one with the slot and
a number): answer-type presence where it matters, in the lines about the asked thing.

Pure text processing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from memory.search.answerable import asks, holds
from memory.search.keyword_index import index_tokens, query_terms
from memory.search.names import names
from memory.search.ranker import Hit

TOP = 5


def slot_weights(question: str, weights: Mapping[str, float]) -> dict[str, float]:
    """The question's term weights without the terms of its names (all of them when every
    term is a name's: then the names are what it asks about)."""
    named = {t for n in names(question) for t in query_terms(n)}
    slot = {t: w for t, w in weights.items() if t not in named}
    return slot or dict(weights)


def _share(tokens: set[str], weights: Mapping[str, float]) -> float:
    total = sum(weights.values())
    return sum(w for t, w in weights.items() if t in tokens) / total if total else 0.0


def slot_signals(
    question: str, hits: Sequence[Hit], weights: Mapping[str, float]
) -> dict[str, float]:
    """The slot's coverage by the first hit, the best hit and the top 5 together; whether
    its heaviest term is in the first hit / the top 5; the share of the slot no top-5 hit
    holds; and, for a question asking when / how many / where / who, whether a top-5 hit
    holding part of the slot also holds such a value (1.0 for a question asking none)."""
    slot = slot_weights(question, weights)
    top = list(hits[:TOP])
    held = [set(index_tokens(h.snippet)) for h in top]
    union = set().union(*held) if held else set()
    focus = max(slot, key=lambda t: (slot[t], t)) if slot else ""
    shares = [_share(h, slot) for h in held]
    wanted = [kind for kind, v in asks(question).items() if v]
    question_names = set(names(question))
    about = [h for h, s in zip(top, shares, strict=True) if s > 0]
    if wanted:
        have = [holds(h, question_names, wanted) for h in about]
        typed = float(all(any(h[k] for h in have) for k in wanted))
    else:
        typed = 1.0
    return {
        "slot1": shares[0] if shares else 0.0,
        "slot_best": max(shares, default=0.0),
        "slot5": _share(union, slot),
        "slot_focus1": float(bool(held) and focus in held[0]),
        "slot_focus5": float(focus in union),
        "slot_hits": len(about) / TOP,
        "slot_typed": typed,
    }
