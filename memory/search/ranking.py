"""Pure scoring functions: BM25 normalisation, fusion, recency, importance, MMR.

No I/O here; every function is unit-tested with exact numbers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date

from memory.overlap import jaccard

HALF_LIFE_DAYS = 30.0
_DATED = re.compile(r"(?:^|/)(\d{4})-(\d{2})-(\d{2})\.(?:md|jsonl)$")


def fts5_idf(total_docs: int, docs_with_term: int) -> float:
    """The IDF SQLite's FTS5 uses in ``bm25()``: ``ln((N - n + 0.5) / (n + 0.5))``, floored."""
    value = math.log((total_docs - docs_with_term + 0.5) / (docs_with_term + 0.5))
    return max(value, 1e-6)


def bm25_normalise(raw: float, query_idfs: Sequence[float]) -> float:
    """Map a BM25 score (positive, higher is better) to [0, 1].

    A chunk holding every query term once at average length scores about the sum of the
    terms' IDFs, so ``raw / sum(idf)`` is the share of the query's information the chunk
    matches; it is capped at 1. Unlike ``1 / (1 + rank)`` on FTS5's negative ranks (which
    gives every hit the same score), this keeps the spread and is comparable across queries.
    """
    total = sum(query_idfs)
    if raw <= 0 or total <= 0:
        return 0.0
    return min(1.0, raw / total)


def cosine_to_score(cosine: float, floor: float, ceiling: float) -> float:
    """Rescale a cosine similarity to [0, 1] between a model's unrelated ``floor`` and a
    near-paraphrase ``ceiling`` (small e5 models put unrelated text near 0.7)."""
    if ceiling <= floor:
        raise ValueError("ceiling must exceed floor")
    return min(1.0, max(0.0, (cosine - floor) / (ceiling - floor)))


def fuse(vector: float | None, keyword: float | None, vector_weight: float) -> float:
    """Weighted fusion; a side that did not find the chunk counts as 0, a side that is not
    running at all (``None`` for every chunk) gives the other side the full weight."""
    if vector is None and keyword is None:
        return 0.0
    if vector is None:
        return keyword or 0.0
    if keyword is None:
        return vector
    return vector_weight * vector + (1.0 - vector_weight) * keyword


def reciprocal_ranks(rankings: Sequence[Sequence[int]], k: int = 60) -> dict[int, float]:
    """Reciprocal-rank fusion, scaled so an item first in every list scores 1:
    ``sum(1 / (k + rank)) * (k + 1) / len(rankings)`` (ranks 1-based)."""
    if not rankings:
        return {}
    out: dict[int, float] = {}
    scale = (k + 1) / len(rankings)
    for ranking in rankings:
        for position, item in enumerate(ranking, start=1):
            out[item] = out.get(item, 0.0) + scale / (k + position)
    return out


def note_date(path: str) -> date | None:
    """The date of a daily note ``memory/YYYY-MM-DD.md`` or a session log
    ``sessions/YYYY-MM-DD.jsonl``; ``None`` for evergreen files."""
    match = _DATED.search(path)
    if not match or not path.startswith(("memory/", "sessions/")) or path.count("/") != 1:
        return None
    try:
        return date(*map(int, match.groups()))
    except ValueError:
        return None


def recency_decay(age_days: float, half_life: float = HALF_LIFE_DAYS) -> float:
    """``0.5 ** (age / half_life)``; future dates count as age 0."""
    return 0.5 ** (max(0.0, age_days) / half_life)


def recency_multiplier(
    path: str, now: date, floor: float, half_life: float = HALF_LIFE_DAYS
) -> float:
    """``floor + (1 - floor) * decay`` for dated daily notes, 1.0 for MEMORY.md, the archive
    and undated files. ``floor`` keeps old but relevant notes findable."""
    day = note_date(path)
    if day is None:
        return 1.0
    return floor + (1.0 - floor) * recency_decay((now - day).days, half_life)


def importance_multiplier(importance: float | None) -> float:
    """``0.5 + importance`` (0.5..1.5) for a marked item, neutral 1.0 when unmarked."""
    if importance is None:
        return 1.0
    return 0.5 + min(1.0, max(0.0, importance))


@dataclass(frozen=True)
class Candidate:
    """One chunk under ranking; ``terms`` feed the diversity pass."""

    chunk_id: int
    path: str
    start_line: int
    end_line: int
    score: float
    terms: frozenset[str]
    pinned: bool = False


def mmr(
    items: Sequence[Candidate],
    limit: int,
    lam: float = 0.7,
    similarity: Callable[[Candidate, Candidate], float] | None = None,
) -> list[Candidate]:
    """Maximal marginal relevance: repeatedly pick the item maximising
    ``lam * score - (1 - lam) * max_similarity_to_picked``. Pinned items come first.
    Only the best ``4 * limit`` items are considered. Returns items with their original
    scores, in pick order."""
    sim = similarity or (lambda x, y: jaccard(x.terms, y.terms))
    pool = sorted(items, key=lambda c: (not c.pinned, -c.score, c.chunk_id))[: limit * 4]
    picked: list[Candidate] = []
    while pool and len(picked) < limit:
        best_index, best_value = 0, -math.inf
        for index, item in enumerate(pool):
            if item.pinned:
                best_index = index
                break
            penalty = max((sim(item, p) for p in picked), default=0.0)
            value = lam * item.score - (1.0 - lam) * penalty
            if value > best_value:
                best_index, best_value = index, value
        picked.append(pool.pop(best_index))
    return picked


def similarity(a: Candidate, b: Candidate, same_file: float) -> float:
    """MMR similarity: word overlap, raised towards 1 by ``same_file`` for hits of one file
    (so the top hits spread over days, which multi-part questions need)."""
    base = jaccard(a.terms, b.terms)
    return base + (1.0 - base) * same_file if a.path == b.path else base


def overlaps(a: Candidate, b: Candidate) -> bool:
    """True when two candidates share a line of the same file."""
    return a.path == b.path and a.start_line <= b.end_line and b.start_line <= a.end_line


def drop_overlapping(items: Sequence[Candidate]) -> list[Candidate]:
    """Keep the best of candidates that share lines (input best first)."""
    kept: list[Candidate] = []
    for item in items:
        if not any(overlaps(item, k) for k in kept):
            kept.append(item)
    return kept


def with_score(item: Candidate, score: float) -> Candidate:
    return replace(item, score=score)
