"""Pure scoring functions: BM25 normalisation, fusion, recency, importance, MMR.

No I/O here; every function is unit-tested with exact numbers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from functools import lru_cache
from typing import TypeVar

from memory.overlap import jaccard
from memory.provenance import Span

HALF_LIFE_DAYS = 30.0
DEFAULT_MIN_SCORE = 0.35  # the one default minimum score of every search surface
CORE_PATH = "MEMORY.md"
_DATED = re.compile(r"(?:^|/)(\d{4})-(\d{2})-(\d{2})\.(?:md|jsonl)$")


IDF_FLOOR = 1e-6  # FTS5's idf of a term in at least half of the rows


def fts5_idf(total_docs: int, docs_with_term: int) -> float:
    """The IDF SQLite's FTS5 uses in ``bm25()``: ``ln((N - n + 0.5) / (n + 0.5))``, floored."""
    value = math.log((total_docs - docs_with_term + 0.5) / (docs_with_term + 0.5))
    return max(value, IDF_FLOOR)


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


def term_weight(total_docs: int, docs_with_term: int) -> float:
    """A query term's weight for coverage: the smoothed idf ``ln(1 + (N - n + 0.5) / (n +
    0.5))``, positive even for a term in every chunk of a tiny memory (where FTS5's idf is
    floored to nothing). A term no chunk holds weighs as one that a single chunk holds: it
    might have been said in other words, and in a tiny memory it would otherwise outweigh
    everything the memory does hold."""
    n = max(1, docs_with_term)
    return math.log(1.0 + (total_docs - n + 0.5) / (n + 0.5))


def coverage(matched: Iterable[str], weights: Mapping[str, float]) -> float:
    """The share of the query's information a chunk holds: the weights of the query terms
    it contains over the weights of all query terms (0 for a query without terms)."""
    total = sum(weights.values())
    if total <= 0:
        return 0.0
    return sum(weights[t] for t in set(matched) if t in weights) / total


@dataclass(frozen=True)
class Gate:
    """Thresholds of :func:`has_evidence`."""

    coverage: float = 0.5
    vector: float = 0.55
    margin: float = 0.015
    floor_rank: int = 100


def query_floor(cosines: Sequence[float], static_floor: float, rank: int) -> float:
    """The cosine an unrelated chunk gets for this query: the ``rank``-th best cosine (the
    bulk of the memory, which cannot all be about the query), never below the model's
    ``static_floor``. Input best first; with fewer cosines, the last one."""
    if not cosines:
        return static_floor
    return max(static_floor, cosines[min(rank, len(cosines)) - 1])


def has_evidence(
    covered: float,
    vector: float | None,
    vector_cosine: float | None,
    floor: float,
    gate: Gate,
) -> bool:
    """Whether one chunk is evidence that the memory holds something about the query.

    Yes when its :func:`coverage` of the query reaches ``gate.coverage``, or when its
    rescaled vector score reaches ``gate.vector`` *and* its cosine stands out of the
    query's own unrelated level (``floor``) by ``gate.margin``.
    The second test is what a model's absolute cosine alone cannot tell: short Chinese
    texts sit high above the static floor even when unrelated."""
    if covered >= gate.coverage:
        return True
    if vector is None or vector_cosine is None:
        return False
    return vector >= gate.vector and vector_cosine - floor >= gate.margin


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


@lru_cache(maxsize=1 << 16)  # a root of 100k chunks has 5,000 notes
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


def tier_multiplier(
    path: str, evident: bool, superseded: bool, core_boost: float, superseded_factor: float
) -> float:
    """Current facts first: ``core_boost`` for a MEMORY.md item (the curated, current
    memory) that is itself evidence for the query (:func:`has_evidence`), so an unrelated
    core item does not crowd out notes; ``superseded_factor`` for an archived item that a
    newer one replaced; else 1.0."""
    if superseded:
        return superseded_factor
    return core_boost if evident and path == CORE_PATH else 1.0


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
    superseded: bool = False
    day: date | None = None  # the date of a daily note or session log hit
    as_of: date | None = None  # a current MEMORY.md item's newest dated source
    cosine: float | None = None  # the query's cosine to it
    follows: int | None = None  # the chunk id of the item that replaced what it says


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


def neighbour_boost(
    items: Sequence[Candidate], share: float, joined: Callable[[Candidate], bool]
) -> list[Candidate]:
    """Each candidate for which ``joined`` holds (a conversation turn, whose meaning leans on
    the turns around it) plus ``share`` of the better score of the candidates right beside
    it in the same file (the lines just before and after) for which it holds too: a passage
    in the middle of a discussion of the question is more likely to hold the answer than
    one the conversation touched in passing. Other candidates keep their score."""
    if share <= 0:
        return list(items)
    turns = [joined(c) for c in items]
    starts = {(c.path, c.start_line): c.score for c, t in zip(items, turns, strict=True) if t}
    ends = {(c.path, c.end_line): c.score for c, t in zip(items, turns, strict=True) if t}
    out = []
    for c, turn in zip(items, turns, strict=True):
        before = ends.get((c.path, c.start_line - 1), 0.0) if turn else 0.0
        beside = max(before, starts.get((c.path, c.end_line + 1), 0.0)) if turn else 0.0
        out.append(replace(c, score=round(c.score + share * beside, 6)) if beside > 0 else c)
    return out


def similarity(a: Candidate, b: Candidate, same_file: float) -> float:
    """MMR similarity: word overlap, raised towards 1 by ``same_file`` for hits of one file
    (so the top hits spread over days, which multi-part questions need)."""
    base = jaccard(a.terms, b.terms)
    return base + (1.0 - base) * same_file if a.path == b.path else base


def overlaps(a: Candidate, b: Candidate) -> bool:
    """True when two candidates share a line of the same file."""
    return a.path == b.path and a.start_line <= b.end_line and b.start_line <= a.end_line


def current_first(items: Sequence[Candidate], margin: float = 0.0) -> list[Candidate]:
    """Current facts first, order otherwise kept. A MEMORY.md item current ``as_of`` a day
    moves before every hit of a dated file (a daily note, a session log) no newer than that
    day, which the dream had already read when it wrote the item, and whose cosine to the
    query is at most ``margin`` above the item's: the newer word on the same question, not
    on another one the older hit answers better. A hit that ``follows`` another (the old
    wording of a fact that item replaced) moves to just after it when it came before; every
    superseded archive item moves after all the others. So a replaced fact never outranks
    what replaced it, and is still there for a question about the past."""
    out: list[Candidate] = []
    for c in items:
        if c.superseded:
            continue
        at = len(out)
        if c.as_of is not None and c.cosine is not None:
            limit = c.cosine + margin
            older = (
                i
                for i, o in enumerate(out)
                if o.day is not None and o.day <= c.as_of and (o.cosine or 0.0) <= limit
            )
            at = next(older, at)
        out.insert(at, c)
    for c in [c for c in out if c.follows is not None]:
        ids = [o.chunk_id for o in out]
        if c.follows in ids and ids.index(c.follows) > ids.index(c.chunk_id):
            out.remove(c)
            out.insert(ids.index(c.follows), c)  # the item moved up one as ``c`` left
    return out + [c for c in items if c.superseded]


def inheritors(citing: Mapping[int, Sequence[int]], own: Mapping[int, float]) -> dict[int, int]:
    """Old chunk -> the one item (of those that may have replaced it, ``citing``) that takes
    on its relevance: the item whose ``own`` score is best, ties to the first listed. A
    dream retires a fact and adds a few items in one night; the one most like the question
    is the likeliest to be the fact's new value."""
    out = {}
    for source, items in citing.items():
        if items:
            out[source] = max(items, key=lambda i: (own.get(i, 0.0), -items.index(i)))
    return out


S = TypeVar("S", bound=Span)


def _shares_lines(a: Span, b: Span) -> bool:
    return a.path == b.path and a.start_line <= b.end_line and b.start_line <= a.end_line


def cover_facets(main: Sequence[S], facets: Sequence[Sequence[S]], limit: int) -> list[S]:
    """The first hit of ``main``, then the best hit of each facet (a thing the question
    names, searched on its own), then the rest of ``main``: at most ``limit`` hits, none
    sharing lines with another, so every named thing is covered before a second hit of the
    first. A facet whose own search found nothing adds nothing."""
    out: list[S] = []

    def add(item: S) -> None:
        if len(out) < limit and not any(_shares_lines(item, o) for o in out):
            out.append(item)

    for item in main[:1]:
        add(item)
    for hits in facets:
        if hits:
            add(hits[0])
    for item in main[1:]:
        add(item)
    return out


T = TypeVar("T")


def drop_echoes(
    items: Sequence[T], text_of: Callable[[T], str], is_log: Callable[[T], bool]
) -> list[T]:
    """Leave out each session log turn whose words another candidate quotes whole (a
    daily note's flushed line): the note already shows what was said, and the turn would
    only take a place in the top hits. Turns a note words differently stay; order is kept."""
    quoted = [plain(text_of(c)) for c in items if not is_log(c)]
    out = []
    for c in items:
        if is_log(c):
            body = plain(turn_words(text_of(c)))
            if len(body) >= _ECHO_MIN_CHARS and any(body in q for q in quoted):
                continue
        out.append(c)
    return out


_ECHO_MIN_CHARS = 8


def turn_words(shown: str) -> str:
    """What a shown session turn (``HH:MM speaker: content``) says, without time and speaker."""
    _, sep, rest = shown.partition(": ")
    return rest if sep else shown


def plain(text: str) -> str:
    """``text`` for comparing wordings: case folded, runs of white space one space."""
    return " ".join(text.casefold().split())


def drop_overlapping(items: Sequence[Candidate], limit: int | None = None) -> list[Candidate]:
    """Keep the best of candidates that share lines (input best first); each is compared
    with the kept ones of its own file only. With ``limit``, stop once that many are kept."""
    kept: list[Candidate] = []
    by_path: dict[str, list[Candidate]] = {}
    for item in items:
        if limit is not None and len(kept) >= limit:
            break
        same_file = by_path.setdefault(item.path, [])
        if not any(overlaps(item, k) for k in same_file):
            same_file.append(item)
            kept.append(item)
    return kept
