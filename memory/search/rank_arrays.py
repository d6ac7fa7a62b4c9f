"""The ranking's per-candidate arithmetic over numpy arrays, one entry per candidate.

:mod:`memory.search.ranking` states each rule for one candidate (``fuse``,
``importance_multiplier``, ``similarity``, ``mmr``); the functions here apply the same
rules to every candidate at once, with the same floating-point operations in the same
order, so that the scores are bit for bit those of the one-candidate functions (tested
against them). Python's ``round`` and ``**`` are not numpy's (``np.round`` scales by a
power of ten; ``np.power`` may use a vector library), so rounding and recency decay stay
with Python's operators, once per candidate or per day.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import count as count_from

import numpy as np
import numpy.typing as npt

from memory.search.ranking import Candidate

Floats = npt.NDArray[np.float64]
Flags = npt.NDArray[np.bool_]


def fused(vector: Floats, keyword: Floats, has_vector: Flags, vector_weight: float) -> Floats:
    """:func:`ranking.fuse` of every candidate: ``vector_weight * vector + (1 -
    vector_weight) * keyword`` where the vector side runs for the chunk (``has_vector``), the
    keyword score alone where it does not (a side that did not find a chunk scores 0)."""
    both = vector_weight * vector + (1.0 - vector_weight) * keyword
    return np.where(has_vector, both, keyword)


def importances(values: Sequence[float | None]) -> Floats:
    """:func:`ranking.importance_multiplier` of every candidate: ``0.5 + importance``
    clamped to 0..1, 1.0 when unmarked."""
    marked = np.array([np.nan if v is None else v for v in values], dtype=np.float64)
    return np.where(np.isnan(marked), 1.0, 0.5 + np.minimum(1.0, np.maximum(0.0, marked)))


def rounded(values: Floats, digits: int = 6) -> Floats:
    """``round(v, digits)`` of each value, as Python rounds (correctly, in decimal)."""
    return np.array([round(v, digits) for v in values.tolist()], dtype=np.float64)


def jaccard_matrix(term_sets: Sequence[frozenset[str]]) -> Floats:
    """:func:`memory.overlap.jaccard` of every pair: ``|a ∩ b| / |a ∪ b|``, 0.0 where
    either set is empty. One incidence matrix of the sets' terms; the intersections are
    its product with itself."""
    count = len(term_sets)
    flat = [term for terms in term_sets for term in terms]
    vocabulary = dict(zip(dict.fromkeys(flat), count_from(), strict=False))
    sizes = np.array([len(terms) for terms in term_sets], dtype=np.int64)
    incidence = np.zeros((count, max(1, len(vocabulary))), dtype=np.float64)
    incidence[np.repeat(np.arange(count), sizes), list(map(vocabulary.__getitem__, flat))] = 1.0
    shared = incidence @ incidence.T  # exact: sums of ones
    union = sizes[:, None] + sizes[None, :] - shared
    empty = (sizes[:, None] == 0) | (sizes[None, :] == 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        out: Floats = np.where(empty, 0.0, shared / np.where(empty, 1.0, union))
    return out


def similarity_matrix(items: Sequence[Candidate], same_file: float) -> Floats:
    """:func:`ranking.similarity` of every pair of ``items``: word overlap, raised towards
    1 by ``same_file`` for two hits of one file."""
    base = jaccard_matrix([c.terms for c in items])
    paths = [c.path for c in items]
    codes = {p: n for n, p in enumerate(dict.fromkeys(paths))}
    file_of = np.array([codes[p] for p in paths], dtype=np.int64)
    one_file = file_of[:, None] == file_of[None, :]
    return np.where(one_file, base + (1.0 - base) * same_file, base)


def mmr_picks(scores: Floats, pinned: Flags, alike: Floats, limit: int, lam: float) -> list[int]:
    """The indices :func:`ranking.mmr` picks from a pool already in its order (pinned first,
    best first), in pick order: a pinned item when one is left (the first), else the one
    maximising ``lam * score - (1 - lam) * max similarity to the picked`` (ties to the
    first). ``alike``: the pool's similarity matrix; the penalties are kept as a running
    maximum of its rows."""
    left = list(range(len(scores)))
    penalty = np.full(len(scores), -np.inf)  # the best similarity to a picked item
    picked: list[int] = []
    while left and len(picked) < limit:
        if pinned[left[0]]:
            best = left[0]
        else:
            pool = np.array(left, dtype=np.int64)
            worst = penalty[pool] if picked else np.zeros(len(pool))
            value = lam * scores[pool] - (1.0 - lam) * worst
            best = left[int(np.argmax(value))]
        picked.append(best)
        left.remove(best)
        np.maximum(penalty, alike[best], out=penalty)
    return picked


def mmr_matrix(
    items: Sequence[Candidate], limit: int, lam: float, same_file: float
) -> list[Candidate]:
    """:func:`ranking.mmr` with :func:`ranking.similarity` (``same_file``), over arrays:
    the same picks in the same order."""
    pool = sorted(items, key=lambda c: (not c.pinned, -c.score, c.chunk_id))[: limit * 4]
    if not pool:
        return []
    scores = np.array([c.score for c in pool], dtype=np.float64)
    pinned = np.array([c.pinned for c in pool], dtype=np.bool_)
    alike = similarity_matrix(pool, same_file)
    return [pool[i] for i in mmr_picks(scores, pinned, alike, limit, lam)]


def scaled_cosines(cosines: Floats, floor: float, ceiling: float) -> Floats:
    """:func:`ranking.cosine_to_score` of every cosine."""
    if ceiling <= floor:
        raise ValueError("ceiling must exceed floor")
    return np.minimum(1.0, np.maximum(0.0, (cosines - floor) / (ceiling - floor)))


Span = tuple[str, int, int]  # path, start line, end line


def neighbour_scores(
    spans: Sequence[Span], turn: Callable[[int], bool], scores: Floats, share: float
) -> Floats:
    """:func:`ranking.neighbour_boost` over arrays: each candidate that is a conversation
    turn (``turn`` of its index) plus ``share`` of the better score of the turns right
    beside it in the same file (the lines just before and after), rounded as the scores
    are; others unchanged. Only candidates with one right beside them are asked ``turn``."""
    if share <= 0:
        return scores
    starts: dict[tuple[str, int], list[int]] = {}
    ends: dict[tuple[str, int], list[int]] = {}
    for n, (path, start, end) in enumerate(spans):
        starts.setdefault((path, start), []).append(n)
        ends.setdefault((path, end), []).append(n)
    beside = {
        n: (ends.get((path, start - 1), []), starts.get((path, end + 1), []))
        for n, (path, start, end) in enumerate(spans)
        if (path, start - 1) in ends or (path, end + 1) in starts
    }
    if not beside:
        return scores
    asked: dict[int, bool] = {}

    def is_turn(n: int) -> bool:
        if n not in asked:
            asked[n] = turn(n)
        return asked[n]

    def last_turn(found: list[int]) -> int | None:  # a later candidate's span wins, as in a dict
        return next((n for n in reversed(found) if is_turn(n)), None)

    values = scores.tolist()
    out = scores.copy()
    for n, (before, after) in beside.items():
        if not is_turn(n):
            continue
        left, right = last_turn(before), last_turn(after)
        best = max(
            values[left] if left is not None else 0.0, values[right] if right is not None else 0.0
        )
        if best > 0:
            out[n] = round(values[n] + share * best, 6)
    return out


def apart(spans: Sequence[Span], limit: int) -> list[int]:
    """:func:`ranking.drop_overlapping` over spans (best first): the indices of the first
    ``limit`` spans sharing no line with a kept span of their file."""
    kept: list[int] = []
    by_path: dict[str, list[tuple[int, int]]] = {}
    for n, (path, start, end) in enumerate(spans):
        if len(kept) >= limit:
            break
        same_file = by_path.setdefault(path, [])
        if not any(start <= e and s <= end for s, e in same_file):
            same_file.append((start, end))
            kept.append(n)
    return kept
