"""How well does the single best line of the hits match the question? Line-level signals.

The answerability gate (:mod:`memory.search.answerable`) reads each hit's *chunk* cosine
with the question: a chunk of three turns or a few note lines is one vector, so a chunk
that mentions the question's topic in passing scores like one that answers it. These
signals read the hits' lines one by one, each with its own passage vector (one forward
pass a line, cached like a chunk's): the best line's cosine, how far it stands above the
other lines and above its chunk's cosine, and how much of the question's weight (its
terms' idf) that one line holds.

Pure arithmetic over vectors and text given by the caller (docs/search.md, "Round 17":
measured as gate signals, not in the search's default path).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from memory.search.answerable import without_question
from memory.search.keyword_index import index_tokens, query_terms
from memory.search.names import names
from memory.search.ranker import Hit
from memory.search.reader import split_line

LINES_READ = 3  # the lines of this many of the first hits are read
FEATURES = (
    "line_best",
    "line_best1",
    "line_gap",
    "line_spread",
    "line_margin",
    "line_cover",
    "line_slot",
    "line_cover_max",
)


def embedded_text(line: str) -> str:
    """What of a snippet line is embedded: the line without bullet, tag and time (the
    speaker's label kept: "Caroline: I painted a lake" is about Caroline)."""
    who, text = split_line(line)
    return f"{who}: {text}" if who else text


def hit_line_texts(
    question: str, hits: Sequence[Hit], depth: int = LINES_READ
) -> list[tuple[int, str]]:
    """The non-blank lines of the first ``depth`` hits as embedded, each with its hit's rank;
    the lines that are ``question`` itself are not read (:func:`answerable.without_question`)."""
    out: list[tuple[int, str]] = []
    for rank, h in enumerate(hits[:depth]):
        for kept in without_question(question, [h]):
            out.extend(
                (rank, embedded_text(line)) for line in kept.snippet.splitlines() if line.strip()
            )
    return [(rank, text) for rank, text in out if text]


def _share(tokens: set[str], weights: Mapping[str, float]) -> float:
    total = sum(weights.values())
    return sum(w for t, w in weights.items() if t in tokens) / total if total else 0.0


def line_signals(
    question: str,
    weights: Mapping[str, float],
    lines: Sequence[tuple[int, str]],
    cosines: Sequence[float],
    chunk_cosines: Sequence[float],
) -> dict[str, float]:
    """The signals of :data:`FEATURES` for ``question`` (term ``weights``) against its hits'
    ``lines`` (:func:`hit_line_texts`) whose cosines with the question are ``cosines``;
    ``chunk_cosines`` are the hits' chunk cosines (:func:`answerable.hit_cosines`), best
    hit first. Without lines every signal reads 0 except the margin (minus the chunk's)."""
    chunk_best = max(chunk_cosines[:LINES_READ], default=0.0)
    if not lines:
        return {name: 0.0 for name in FEATURES} | {"line_margin": -chunk_best}
    c = np.asarray(cosines, dtype=np.float64)
    order = np.argsort(-c)
    best = int(order[0])
    second = float(c[order[1]]) if len(c) > 1 else float(c[best])
    first = [float(v) for (rank, _), v in zip(lines, c, strict=True) if rank == 0]
    named = {t for n in names(question) for t in query_terms(n)}
    slot = {t: w for t, w in weights.items() if t not in named} or dict(weights)
    held = [set(index_tokens(text)) for _, text in lines]
    return {
        "line_best": float(c[best]),
        "line_best1": max(first, default=float(c.min())),
        "line_gap": float(c[best]) - second,
        "line_spread": float(c[best]) - float(np.median(c)),
        "line_margin": float(c[best]) - chunk_best,
        "line_cover": _share(held[best], weights),
        "line_slot": _share(held[best], slot),
        "line_cover_max": max(_share(h, weights) for h in held),
    }
