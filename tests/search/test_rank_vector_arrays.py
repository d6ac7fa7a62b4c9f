"""The ranking's array arithmetic (:mod:`memory.search.rank_arrays`) against the
one-candidate functions of :mod:`memory.search.ranking` it replaces in the ranker: the same
numbers bit for bit, the same picks in the same order, on random pools."""

from __future__ import annotations

import random
import sys
from types import FrameType
from typing import Any

import numpy as np
import pytest

from memory.overlap import jaccard
from memory.search.rank_arrays import (
    apart,
    fused,
    importances,
    jaccard_matrix,
    mmr_matrix,
    neighbour_scores,
    rounded,
    scaled_cosines,
)
from memory.search.ranking import (
    Candidate,
    cosine_to_score,
    drop_overlapping,
    fuse,
    importance_multiplier,
    mmr,
    neighbour_boost,
    similarity,
)

WORDS = [f"w{i}" for i in range(30)]


def pool(rng: random.Random, size: int, pinned: int = 0) -> list[Candidate]:
    """Candidates over few files and few words (so that scores, files and words repeat)."""
    return [
        Candidate(
            i,
            f"memory/2026-01-0{rng.randrange(1, 4)}.md",
            rng.randrange(1, 30),
            0,
            round(rng.choice([0.5, 0.25, rng.random()]), 6),
            frozenset(rng.sample(WORDS, rng.randrange(0, 8))),
            pinned=i < pinned,
        )
        for i in range(size)
    ]


def test_fused_is_fuse_of_each_candidate() -> None:
    rng = np.random.default_rng(3)
    vector, keyword = rng.random(500), rng.random(500)
    keyword[::7] = 0.0
    has_vector = rng.random(500) < 0.7
    for weight in (0.0, 0.3, 0.5, 1.0):
        got = fused(vector, keyword, has_vector, weight)
        want = [
            fuse(float(v) if h else None, float(k), weight)
            for v, k, h in zip(vector, keyword, has_vector, strict=True)
        ]
        assert got.tolist() == want


def test_importances_and_scaled_cosines_are_the_scalar_functions() -> None:
    values: list[float | None] = [None, -0.5, 0.0, 0.3, 0.5, 1.0, 1.7, None]
    assert importances(values).tolist() == [importance_multiplier(v) for v in values]
    cosines = np.random.default_rng(5).uniform(0.5, 1.0, 300)
    got = scaled_cosines(cosines, 0.72, 0.9)
    assert got.tolist() == [cosine_to_score(float(c), 0.72, 0.9) for c in cosines]
    with pytest.raises(ValueError):
        scaled_cosines(cosines, 0.9, 0.9)


def test_rounded_is_pythons_round() -> None:
    # values beside the halfway points, where scaling by a power of ten rounds otherwise
    halves = (np.arange(0, 400_000, 997) + 0.5) / 1e6
    values = np.concatenate([np.nextafter(halves, 0.0), halves, np.nextafter(halves, 2.0)])
    want = [round(v, 6) for v in values.tolist()]
    assert rounded(values).tolist() == want
    assert np.round(values, 6).tolist() != want  # what np.round would have got wrong


def test_jaccard_matrix_is_jaccard_of_each_pair() -> None:
    rng = random.Random(7)
    sets = [frozenset(rng.sample(WORDS, rng.randrange(0, 10))) for _ in range(40)]
    sets += [frozenset(), frozenset({"只"}), frozenset({"只"})]
    matrix = jaccard_matrix(sets)
    assert matrix.tolist() == [[jaccard(a, b) for b in sets] for a in sets]
    assert jaccard_matrix([]).shape == (0, 0)


@pytest.mark.parametrize("seed", range(40))
def test_mmr_matrix_picks_what_mmr_picks(seed: int) -> None:
    rng = random.Random(seed)
    items = pool(rng, rng.randrange(0, 45), pinned=rng.choice([0, 0, 1, 3]))
    limit = rng.choice([1, 3, 6, 10])
    lam = rng.choice([0.5, 0.75, 1.0])
    same_file = rng.choice([0.0, 0.0, 0.3, -0.2])

    def alike(a: Candidate, b: Candidate) -> float:
        return similarity(a, b, same_file)

    want = mmr(items, limit, lam, alike)
    assert mmr_matrix(items, limit, lam, same_file) == want


def test_mmr_matrix_asks_no_python_per_pair() -> None:
    """The diversity pass makes a number of Python calls that grows with the pool, not with
    the pairs it compares (per-pair similarity, as :func:`mmr` asks it, would be 40 x 10)."""

    def python_calls(items: list[Candidate]) -> int:
        count = 0

        def profile(frame: FrameType, event: str, arg: Any) -> None:
            nonlocal count
            count += event == "call"

        sys.setprofile(profile)
        try:
            mmr_matrix(items, 10, 0.75, 0.0)
        finally:
            sys.setprofile(None)
        return count

    rng = random.Random(1)
    small, large = python_calls(pool(rng, 12)), python_calls(pool(rng, 40))
    assert large - small <= 2 * (40 - 12)  # the pool's sort key, once an item
    pairs = 0

    def counted(a: Candidate, b: Candidate) -> float:
        nonlocal pairs
        pairs += 1
        return similarity(a, b, 0.0)

    mmr(pool(random.Random(1), 40), 10, 0.75, counted)
    assert pairs > 10 * (40 - 12)  # what the per-pair pass costs, for scale


@pytest.mark.parametrize("seed", range(30))
def test_neighbour_scores_are_neighbour_boost(seed: int) -> None:
    rng = random.Random(seed)
    spans = []
    for _ in range(rng.randrange(0, 60)):
        start = rng.randrange(1, 25)
        spans.append((rng.choice(["a.md", "b.md"]), start, start + rng.choice([0, 0, 1])))
    turns = [rng.random() < 0.7 for _ in spans]
    scores = rounded(np.array([rng.random() for _ in spans]))
    items = [
        Candidate(n, path, start, end, score, frozenset())
        for n, ((path, start, end), score) in enumerate(zip(spans, scores.tolist(), strict=True))
    ]
    share = rng.choice([0.0, 0.6, 1.0])
    want = [c.score for c in neighbour_boost(items, share, lambda c: turns[c.chunk_id])]
    asked: list[int] = []

    def turn(n: int) -> bool:
        asked.append(n)
        return turns[n]

    assert neighbour_scores(spans, turn, scores, share).tolist() == want
    assert len(asked) == len(set(asked))  # each candidate asked once at most


def test_neighbour_scores_ask_only_candidates_beside_another() -> None:
    spans = [("a.md", 1, 1), ("a.md", 2, 2), ("a.md", 9, 9), ("b.md", 3, 3)]
    asked: list[int] = []

    def turn(n: int) -> bool:
        asked.append(n)
        return True

    out = neighbour_scores(spans, turn, np.array([0.5, 0.25, 0.5, 0.5]), 0.6)
    assert out.tolist() == [0.65, 0.55, 0.5, 0.5]
    assert sorted(asked) == [0, 1]


@pytest.mark.parametrize("seed", range(20))
def test_apart_keeps_what_drop_overlapping_keeps(seed: int) -> None:
    rng = random.Random(seed)
    items = pool(rng, rng.randrange(0, 50))
    items = [
        Candidate(
            c.chunk_id, c.path, c.start_line, c.start_line + rng.randrange(0, 3), 0.0, c.terms
        )
        for c in items
    ]
    limit = rng.choice([1, 5, 24, 100])
    spans = [(c.path, c.start_line, c.end_line) for c in items]
    assert [items[n] for n in apart(spans, limit)] == drop_overlapping(items, limit)
