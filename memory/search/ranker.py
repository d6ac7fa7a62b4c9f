"""Turns keyword and vector candidates into the final, diverse list of hits.

The arithmetic is in :mod:`memory.search.ranking` (pure); this module gathers the chunk
rows it needs and applies, in order: names the memory never heard (:mod:`names`: no hits),
the evidence gate (no candidate is evidence: no hits), fusion, recency, importance and tier
multipliers (MEMORY.md first, superseded archive items last), the boost of conversation
turns from the candidate turns beside them, exact path/basename/stem pinning, the minimum
score, and the MMR diversity pass. Context widening (:mod:`memory.search.context`) comes
after, in the service, once the hits of a question's facets have joined.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date
from functools import lru_cache
from typing import Any, Literal

import numpy as np

from memory.search.chunker import is_turn
from memory.search.currency import NO_CURRENCY, Currency
from memory.search.keyword_index import KeywordHit, index_tokens, query_terms
from memory.search.names import names_unheard
from memory.search.rank_arrays import (
    apart,
    fused,
    importances,
    mmr_matrix,
    neighbour_scores,
    rounded,
    scaled_cosines,
)
from memory.search.ranking import (
    CORE_PATH,
    Candidate,
    Gate,
    coverage,
    current_first,
    drop_echoes,
    has_evidence,
    inheritors,
    note_date,
    query_floor,
    recency_multiplier,
    reciprocal_ranks,
)
from memory.search.store import Store, StoredChunk
from memory.segment import content_words, tokens
from memory.session_log import FOLDER as SESSION_FOLDER


@dataclass(frozen=True)
class RankSettings:
    vector_weight: float = 0.5
    recency_floor: float = 0.9
    half_life_days: float = 30.0
    mmr_lambda: float = 0.75
    same_file_similarity: float = 0.0
    max_snippet_chars: int = 600
    context_chars: int = 430  # per rank; joined passages may use the next rank's room
    rrf_weight: float = 0.5
    rrf_k: int = 7
    core_boost: float = 1.25
    superseded_factor: float = 0.5
    gate: Gate = field(default_factory=Gate)
    decompose: bool = True  # a question naming several things searches each (facets.py)
    neighbour_share: float = 0.6  # share of the adjacent turns' score a turn chunk gains
    unheard_names: bool = True  # a query whose every name the memory lacks finds nothing
    provenance: bool = True  # what the files' citations say is current comes first (currency.py)
    current_margin: float = 0.02  # cosine an older note may lead a current item by and follow it


Source = Literal["vector", "keyword", "hybrid"]
recency_of = lru_cache(maxsize=1 << 16)(recency_multiplier)  # one figure a note a day
EVIDENCE_DEPTH = 10  # keyword hits (best first) whose coverage the evidence gate reads


@dataclass(frozen=True)
class Hit:
    """One search result: lines ``start_line``..``end_line`` (1-based, inclusive) of the
    root-relative ``path``; ``source`` says which side found it (both: ``hybrid``)."""

    path: str
    start_line: int
    end_line: int
    score: float
    snippet: str
    source: Source

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


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


def _successors(
    rows: dict[int, StoredChunk], store: Store, currency: Currency, answers: Callable[[str], bool]
) -> dict[int, list[int]]:
    """Each candidate chunk holding a replaced fact -> the chunk ids of the MEMORY.md items
    that may have replaced it (:meth:`Currency.successors_of`), or holding a line that
    answers the question and that items were distilled from (:meth:`Currency.distilled_from`);
    those items join ``rows``, so a question asked in the note's words finds the item."""
    lines: dict[int, set[int]] = {}  # candidate chunk id -> MEMORY.md lines of successors
    paths = currency.cited_paths
    if not paths:
        return {}
    for chunk_id, row in rows.items():
        if row.path != CORE_PATH and row.path in paths:
            found = currency.successors_of(row.path, row.start_line, row.end_line)
            found |= currency.distilled_from(
                row.path, row.start_line, row.end_line, row.text, answers
            )
            if found:
                lines[chunk_id] = found
    if not lines:
        return {}
    wanted = set().union(*lines.values())
    items = {c.start_line: c for c in store.file_chunks(CORE_PATH) if c.start_line in wanted}
    rows.update((c.id, c) for c in items.values())
    return {i: [items[n].id for n in sorted(found) if n in items] for i, found in lines.items()}


def chunk_rows(
    store: Store, ids: set[int], fetched: dict[int, StoredChunk] | None = None
) -> dict[int, StoredChunk]:
    """The rows of ``ids`` in id order (as the store reads them), only those not in
    ``fetched`` read from the store (and kept there)."""
    if fetched is None:
        return store.chunks(sorted(ids))
    missing = [i for i in ids if i not in fetched]
    if missing:
        fetched.update(store.chunks(sorted(missing)))
    return {i: fetched[i] for i in sorted(ids) if i in fetched}


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
    currency: Currency = NO_CURRENCY,
    term_weights: Mapping[str, float] | None = None,
    unheard: frozenset[str] = frozenset(),
    words: Callable[[Sequence[int]], Mapping[int, frozenset[str]]] | None = None,
    fetched: dict[int, StoredChunk] | None = None,
) -> list[Hit]:
    """The final hits; ``[]`` when no candidate is evidence that the memory holds anything
    about the query (:func:`has_evidence`). ``currency`` says which archived items a newer
    item replaced and which note lines they came from (they rank after every current hit),
    which MEMORY.md items may have replaced them (when the old wording is evidence, the one
    most like the question takes on its relevance and counts as evidence), and how recent
    each item's sources are (:func:`current_first`).
    ``term_weights`` weighs the query's terms for coverage (:func:`term_weight`);
    ``unheard`` holds the query terms no chunk holds: a query whose every name is one of
    them is about someone the memory never heard of and gets ``[]`` (:mod:`names`).
    ``words`` gives the content words stored for chunks (:meth:`KeywordIndex.words`); a
    chunk it leaves out, or every chunk without it, has its text segmented.
    ``fetched``: the chunk rows one search has read so far (its question's and facets'
    rankings share their candidates), completed here with the rows it lacks."""
    keyword = {h.chunk_id: h.score for h in keyword_hits}
    cosine = dict(vector_hits)
    pins = pinned_paths(query, store.files_named(pin_names(query)))
    if not pins and settings.unheard_names and names_unheard(query, unheard, query_terms):
        return []
    pinned_ids = {i for p in pins for i in store.chunks_of(p, limit)}
    rows = chunk_rows(store, set(keyword) | set(cosine) | pinned_ids, fetched)
    retrieved = len(rows)  # the first rows: those retrieved; successors join after them
    bar_covered = settings.gate.coverage
    answers = lambda line: coverage(index_tokens(line), term_weights or {}) >= bar_covered  # noqa: E731
    olds = _successors(rows, store, currency, answers) if settings.provenance else {}
    gate = settings.gate
    floor = query_floor([c for _, c in vector_hits], cosine_range[0], gate.floor_rank)
    rrf = reciprocal_ranks(
        [[h.chunk_id for h in keyword_hits], [i for i, _ in vector_hits]], settings.rrf_k
    )
    weights = term_weights or {}
    read = {h.chunk_id for h in keyword_hits[:EVIDENCE_DEPTH]}  # whose coverage is read

    # one entry per candidate row, in ``rows`` order
    ids = list(rows)
    at = {chunk_id: n for n, chunk_id in enumerate(ids)}
    has_vector = np.array([i in vector_ids for i in ids], dtype=np.bool_)
    hit = np.array([i in cosine for i in ids], dtype=np.bool_)
    cosines = np.array([cosine.get(i, 0.0) for i in ids], dtype=np.float64)
    vector = scaled_cosines(cosines, *cosine_range) * hit if cosine else np.zeros(len(ids))
    # the vector test of :func:`has_evidence` (a chunk's coverage is read only without it)
    near = has_vector & hit & (vector >= gate.vector) & (cosines - floor >= gate.margin)

    known: dict[int, bool] = {}  # each chunk's answer, asked again for MEMORY.md items

    def evident(chunk_id: int) -> bool:
        if chunk_id not in known:
            known[chunk_id] = tested(chunk_id)
        return known[chunk_id]

    def tested(chunk_id: int) -> bool:
        if gate.coverage <= 0.0 or near[at[chunk_id]]:
            return True
        if chunk_id not in read and not (chunk_id in keyword and rows[chunk_id].path == CORE_PATH):
            return False
        covered = coverage(index_tokens(rows[chunk_id].text), weights)
        return has_evidence(covered, None, None, floor, gate)

    asked = [h.chunk_id for h in keyword_hits[:EVIDENCE_DEPTH]] + [i for i, _ in vector_hits]
    asked = [i for i in asked if i in rows]
    # any chunk is evidence: the vector tests first, segmenting a chunk's text is the cost
    evidence = bool(near[[at[i] for i in asked]].any()) or any(evident(i) for i in asked)

    base = fused(
        vector,
        np.array([keyword.get(i, 0.0) for i in ids], dtype=np.float64),
        has_vector,
        settings.vector_weight,
    ) + settings.rrf_weight * np.array([rrf.get(i, 0.0) for i in ids], dtype=np.float64)
    # the new fact is as relevant as the old one's wording, when the question is about it:
    # that wording is evidence, and among the ``limit`` best-scored candidates
    heir: dict[int, int] = {}
    if olds:
        top = sorted(base[:retrieved].tolist(), reverse=True)[: max(1, limit)]
        bar = top[-1] if top else 0.0
        olds = {old: items for old, items in olds.items() if base[at[old]] >= bar and evident(old)}
        heir = inheritors(olds, dict(zip(ids, base.tolist(), strict=True)))
        for old, item in heir.items():
            base[at[item]] = max(base[at[item]], base[at[old]])
    succeeds = set(heir.values())  # items that replaced a fact the question is about
    # joined for nothing the question is about: dropped
    keep = [n for n, i in enumerate(ids) if n < retrieved or i in succeeds]
    if len(keep) < len(ids):
        for unused in ids[retrieved:]:
            if unused not in succeeds:
                del rows[unused]
        ids = [ids[n] for n in keep]
        at = {chunk_id: n for n, chunk_id in enumerate(ids)}
        base, near = base[keep], near[keep]
    found = [rows[i] for i in ids]
    core = [n for n, row in enumerate(found) if row.path == CORE_PATH]
    core_evident = {ids[n] for n in core if ids[n] in succeeds or evident(ids[n])}
    replaced = np.array(
        [(row.path, row.start_line) in currency.superseded for row in found]
        if currency.superseded
        else np.zeros(len(found)),
        dtype=np.bool_,
    )
    tier = np.where(replaced, settings.superseded_factor, 1.0)
    for n in core:
        if ids[n] in core_evident and not replaced[n]:
            tier[n] = settings.core_boost
    recency = np.array(
        [
            recency_of(row.path, now, settings.recency_floor, settings.half_life_days)
            for row in found
        ],
        dtype=np.float64,
    )
    score = rounded(base * recency * importances([row.importance for row in found]) * tier)
    spans = [(row.path, row.start_line, row.end_line) for row in found]
    if settings.neighbour_share > 0:

        def turn(n: int) -> bool:
            return is_turn(found[n].text)

        score = neighbour_scores(spans, turn, score, settings.neighbour_share)
    pinned = np.array(
        [
            row.path in pins and (i in keyword or i in cosine or not keyword)
            for i, row in zip(ids, found, strict=True)
        ]
        if pins
        else np.zeros(len(ids)),
        dtype=np.bool_,
    )
    chosen = pinned | (evidence & (score >= min_score))
    id_array = np.array(ids, dtype=np.int64)
    ranked = np.lexsort((id_array, -score, ~pinned))  # pinned first, then best first
    order = [int(n) for n in ranked[chosen[ranked]]]

    def candidate(n: int, terms: frozenset[str]) -> Candidate:
        row, chunk_id = found[n], ids[n]
        evident_core = chunk_id in core_evident
        return Candidate(
            chunk_id,
            row.path,
            row.start_line,
            row.end_line,
            float(score[n]),
            terms,
            pinned=bool(pinned[n]),
            superseded=bool(replaced[n]),
            day=note_date(row.path),
            as_of=currency.as_of.get(row.start_line)
            if evident_core and settings.provenance
            else None,
            cosine=cosine.get(chunk_id),
            follows=heir.get(chunk_id),
        )

    # Candidate objects only for what the diversity pass may pick
    pool = drop_echoes(
        [order[n] for n in apart([spans[n] for n in order], limit * 4)],
        lambda n: found[n].text,
        lambda n: found[n].path.startswith(f"{SESSION_FOLDER}/"),
    )
    stored = words([ids[n] for n in pool]) if words is not None else {}
    kept = [
        candidate(n, stored.get(ids[n]) or frozenset(content_words(found[n].text))) for n in pool
    ]
    picked = current_first(
        mmr_matrix(kept, limit, settings.mmr_lambda, settings.same_file_similarity),
        settings.current_margin,
    )
    out = []
    for c in picked:
        row = rows[c.chunk_id]
        by_keyword, by_vector = c.chunk_id in keyword, c.chunk_id in cosine
        source: Source = (
            "hybrid" if by_keyword and by_vector else "vector" if by_vector else "keyword"
        )
        text = snippet_of(row.text, settings.max_snippet_chars)
        out.append(Hit(c.path, c.start_line, c.end_line, c.score, text, source))
    return out
