"""Turns keyword and vector candidates into the final, diverse list of hits.

The arithmetic is in :mod:`memory.search.ranking` (pure); this module gathers the chunk
rows it needs and applies, in order: fusion, recency and importance multipliers, exact
path/basename/stem pinning, the minimum score (keeping keyword hits when nothing clears
it), and the MMR diversity pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Literal

from memory.search.context import widen
from memory.search.keyword_index import KeywordHit
from memory.search.ranking import (
    Candidate,
    cosine_to_score,
    drop_overlapping,
    fuse,
    importance_multiplier,
    mmr,
    recency_multiplier,
    reciprocal_ranks,
    similarity,
)
from memory.search.store import Store
from memory.segment import content_words, tokens


@dataclass(frozen=True)
class RankSettings:
    vector_weight: float = 0.5
    recency_floor: float = 0.9
    half_life_days: float = 30.0
    mmr_lambda: float = 0.75
    same_file_similarity: float = 0.0
    max_snippet_chars: int = 600
    context_chars: int = 485
    rrf_weight: float = 0.5
    rrf_k: int = 10


@dataclass(frozen=True)
class Ranked:
    path: str
    start_line: int
    end_line: int
    score: float
    snippet: str
    source: Literal["vector", "keyword", "hybrid"]


def pin_names(query: str) -> set[str]:
    """What a file's path, basename or stem must equal to be pinned by ``query``."""
    return {query.strip().lower(), *tokens(query)}


def pinned_paths(query: str, paths: Sequence[str]) -> set[str]:
    """Files whose path, basename or stem equals the query or one of its tokens."""
    wanted = pin_names(query)
    hits = set()
    for path in paths:
        name = path.rsplit("/", 1)[-1].lower()
        stem = name.rsplit(".", 1)[0] if "." in name else name
        if path.lower() in wanted or name in wanted or stem in wanted:
            hits.add(path)
    return hits


def snippet_of(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def rank(
    query: str,
    keyword_hits: Sequence[KeywordHit],
    vector_hits: Sequence[tuple[int, float]],
    store: Store,
    *,
    vector_ids: set[int],
    cosine_range: tuple[float, float],
    settings: RankSettings,
    limit: int,
    min_score: float,
    now: date,
) -> list[Ranked]:
    keyword = {h.chunk_id: h.score for h in keyword_hits}
    vector = {i: cosine_to_score(c, *cosine_range) for i, c in vector_hits}
    pins = pinned_paths(query, store.files_named(pin_names(query)))
    pinned_ids = {i for p in pins for i in store.chunks_of(p, limit)}
    rows = store.chunks(set(keyword) | set(vector) | pinned_ids)
    vectors_on = bool(vector_ids)
    rrf = reciprocal_ranks(
        [[h.chunk_id for h in keyword_hits], [i for i, _ in vector_hits]], settings.rrf_k
    )
    candidates: list[Candidate] = []
    for chunk_id, row in rows.items():
        v = vector.get(chunk_id, 0.0) if vectors_on and chunk_id in vector_ids else None
        base = fuse(v, keyword.get(chunk_id, 0.0), settings.vector_weight)
        base += settings.rrf_weight * rrf.get(chunk_id, 0.0)
        score = (
            base
            * recency_multiplier(row.path, now, settings.recency_floor, settings.half_life_days)
            * importance_multiplier(row.importance)
        )
        candidates.append(
            Candidate(
                chunk_id,
                row.path,
                row.start_line,
                row.end_line,
                round(score, 6),
                frozenset(),
                pinned=row.path in pins
                and (chunk_id in keyword or chunk_id in vector or not keyword),
            )
        )
    kept = [c for c in candidates if c.pinned or c.score >= min_score]
    if not kept:
        kept = [c for c in candidates if c.chunk_id in keyword]
    kept.sort(key=lambda c: (not c.pinned, -c.score, c.chunk_id))
    kept = [
        replace(c, terms=frozenset(content_words(rows[c.chunk_id].text)))
        for c in drop_overlapping(kept)[: limit * 4]
    ]
    picked = mmr(
        kept,
        limit,
        settings.mmr_lambda,
        lambda a, b: similarity(a, b, settings.same_file_similarity),
    )
    out = []
    for c in picked:
        row = rows[c.chunk_id]
        by_keyword, by_vector = c.chunk_id in keyword, c.chunk_id in vector
        source: Literal["vector", "keyword", "hybrid"] = (
            "hybrid" if by_keyword and by_vector else "vector" if by_vector else "keyword"
        )
        text = snippet_of(row.text, settings.max_snippet_chars)
        out.append(Ranked(c.path, c.start_line, c.end_line, c.score, text, source))
    if settings.context_chars > 0:
        return widen(out, store, settings.context_chars)
    return out
