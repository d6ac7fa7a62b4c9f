import math
from datetime import date

import pytest

from memory.overlap import jaccard
from memory.search.ranker import RankSettings
from memory.search.ranking import (
    Candidate,
    Gate,
    bm25_normalise,
    cosine_to_score,
    cover_facets,
    coverage,
    current_first,
    drop_echoes,
    drop_overlapping,
    fts5_idf,
    fuse,
    has_evidence,
    importance_multiplier,
    inheritors,
    mmr,
    neighbour_boost,
    note_date,
    query_floor,
    recency_decay,
    recency_multiplier,
    reciprocal_ranks,
    term_weight,
    tier_multiplier,
)


def test_fts5_idf_matches_sqlite_formula() -> None:
    assert fts5_idf(100, 1) == pytest.approx(math.log(99.5 / 1.5))
    assert fts5_idf(10, 9) == 1e-6  # common terms are floored, never negative


def test_bm25_normalise_is_share_of_query_information() -> None:
    assert bm25_normalise(3.0, [2.0, 4.0]) == 0.5
    assert bm25_normalise(9.0, [2.0, 4.0]) == 1.0
    assert bm25_normalise(0.0, [2.0]) == 0.0
    assert bm25_normalise(1.0, []) == 0.0
    # different raw scores stay different (the incumbent mapped all to 1.0)
    assert bm25_normalise(1.0, [4.0]) < bm25_normalise(2.0, [4.0])


def test_cosine_rescaling() -> None:
    assert cosine_to_score(0.85, 0.8, 0.9) == pytest.approx(0.5)
    assert cosine_to_score(0.5, 0.8, 0.9) == 0.0
    assert cosine_to_score(0.99, 0.8, 0.9) == 1.0
    with pytest.raises(ValueError):
        cosine_to_score(0.5, 0.9, 0.9)


def test_fuse_weights_and_missing_sides() -> None:
    assert fuse(0.8, 0.4, 0.5) == pytest.approx(0.6)
    assert fuse(0.8, 0.4, 0.7) == pytest.approx(0.68)
    assert fuse(None, 0.4, 0.7) == 0.4
    assert fuse(0.8, None, 0.7) == 0.8
    assert fuse(None, None, 0.7) == 0.0


def test_recency_half_life_and_evergreen_files() -> None:
    now = date(2026, 11, 30)
    assert recency_decay(30) == 0.5
    assert recency_decay(60) == 0.25
    assert recency_decay(-5) == 1.0
    assert recency_multiplier("memory/2026-10-31.md", now, floor=0.0) == 0.5
    assert recency_multiplier("memory/2026-10-31.md", now, floor=0.8) == pytest.approx(0.9)
    assert recency_multiplier("memory/2026-11-30.md", now, floor=0.8) == 1.0
    for evergreen in (
        "MEMORY.md",
        "memory/archive.md",
        "memory/topics.md",
        "memory/x/2026-01-01.md",
    ):
        assert recency_multiplier(evergreen, now, floor=0.0) == 1.0
    assert note_date("memory/2026-02-30.md") is None


def test_importance_multiplier() -> None:
    assert importance_multiplier(None) == 1.0
    assert importance_multiplier(0.8) == pytest.approx(1.3)
    assert importance_multiplier(0.0) == 0.5
    assert importance_multiplier(3.0) == 1.5


def _c(
    i: int, score: float, terms: str, pinned: bool = False, lines: tuple[int, int] = (1, 1)
) -> Candidate:
    return Candidate(i, "memory/a.md", lines[0], lines[1], score, frozenset(terms.split()), pinned)


def test_mmr_demotes_near_duplicates() -> None:
    items = [
        _c(1, 0.9, "coffee latte sugar"),
        _c(2, 0.88, "coffee latte sugar"),
        _c(3, 0.6, "swim tuesday"),
    ]
    assert [c.chunk_id for c in mmr(items, 3, lam=0.7)] == [1, 3, 2]
    # lam=1 is pure relevance order
    assert [c.chunk_id for c in mmr(items, 3, lam=1.0)] == [1, 2, 3]
    # MMR value of item 3 after item 1: 0.7*0.6 - 0 = 0.42 > 0.7*0.88 - 0.3*1.0 = 0.316
    assert jaccard(frozenset({"a", "b"}), frozenset({"b", "c"})) == pytest.approx(1 / 3)


def test_pinned_items_come_first() -> None:
    items = [_c(1, 0.9, "a"), _c(2, 0.1, "b", pinned=True)]
    assert [c.chunk_id for c in mmr(items, 2)] == [2, 1]


def test_drop_overlapping_keeps_best_of_shared_lines() -> None:
    items = [
        _c(1, 0.9, "a", lines=(3, 5)),
        _c(2, 0.8, "b", lines=(5, 6)),
        _c(3, 0.7, "c", lines=(7, 8)),
    ]
    assert [c.chunk_id for c in drop_overlapping(items)] == [1, 3]


def test_reciprocal_ranks_scaled_so_first_everywhere_is_one() -> None:
    scores = reciprocal_ranks([[7, 8, 9], [8, 7]], k=10)
    assert scores[7] == pytest.approx(5.5 / 11 + 5.5 / 12)
    assert scores[8] == pytest.approx(5.5 / 12 + 5.5 / 11)
    assert scores[9] == pytest.approx(5.5 / 13)
    assert reciprocal_ranks([[1], [1]], k=10)[1] == pytest.approx(1.0)
    assert reciprocal_ranks([]) == {}


def test_one_jaccard_for_search_and_dream() -> None:
    assert jaccard(frozenset(), frozenset()) == 0.0  # nothing shared to measure
    assert jaccard({"a"}, set()) == 0.0
    assert jaccard({"a", "b"}, {"a", "b"}) == 1.0


def test_query_floor_is_the_bulk_cosine_never_below_the_models_floor() -> None:
    cosines = [0.9, 0.85, 0.8, 0.79, 0.78]
    assert query_floor(cosines, 0.72, 3) == 0.8
    assert query_floor(cosines, 0.72, 100) == 0.78  # fewer than rank: the last one
    assert query_floor(cosines, 0.82, 3) == 0.82
    assert query_floor([], 0.72, 3) == 0.72


def test_evidence_needs_half_the_query_by_keyword_or_a_standout_vector() -> None:
    gate = Gate(coverage=0.5, vector=0.6, margin=0.024)
    assert has_evidence(0.5, None, None, 0.72, gate)
    assert not has_evidence(0.49, None, None, 0.72, gate)
    # a high rescaled vector score alone is not enough when the whole memory scores high
    assert has_evidence(0.0, 0.6, 0.85, 0.826, gate)
    assert not has_evidence(0.0, 0.6, 0.85, 0.827, gate)
    assert not has_evidence(0.0, 0.59, 0.95, 0.72, gate)
    assert not has_evidence(0.2, 0.9, None, 0.72, gate)


def test_tier_multiplier_puts_current_facts_first() -> None:
    assert tier_multiplier("MEMORY.md", True, False, 1.25, 0.5) == 1.25
    assert tier_multiplier("MEMORY.md", False, False, 1.25, 0.5) == 1.0  # unrelated item
    assert tier_multiplier("memory/archive.md", True, True, 1.25, 0.5) == 0.5
    assert tier_multiplier("memory/archive.md", True, False, 1.25, 0.5) == 1.0
    assert tier_multiplier("memory/2026-11-28.md", True, False, 1.25, 0.5) == 1.0


def test_current_first_moves_superseded_items_last_in_order() -> None:
    old = Candidate(1, "memory/archive.md", 3, 3, 0.9, frozenset(), superseded=True)
    a = Candidate(2, "MEMORY.md", 4, 4, 0.5, frozenset())
    b = Candidate(3, "memory/2026-11-28.md", 5, 5, 0.4, frozenset())
    older = Candidate(4, "memory/archive.md", 4, 4, 0.3, frozenset(), superseded=True)
    assert [c.chunk_id for c in current_first([old, a, older, b])] == [2, 3, 1, 4]


def test_current_first_puts_a_successor_first_and_a_current_item_before_older_notes() -> None:
    def c(i: int, path: str, cos: float, **kw: object) -> Candidate:
        return Candidate(i, path, 4, 4, 1.0 - i / 10, frozenset(), cosine=cos, **kw)  # type: ignore[arg-type]

    day = date(2026, 11, 20)
    older = c(1, "memory/2026-09-22.md", 0.85, day=date(2026, 9, 22))
    newer = c(2, "memory/2026-11-25.md", 0.84, day=date(2026, 11, 25))
    evergreen = c(3, "notes.md", 0.86)
    item = c(4, "MEMORY.md", 0.84, as_of=day)
    # the item moves before the older note (cosine 0.85 <= 0.84 + 0.02), not the newer one
    assert [x.chunk_id for x in current_first([older, newer, evergreen, item], 0.02)] == [
        4,
        1,
        2,
        3,
    ]
    # an older hit much closer to the question answers another one: it keeps its place
    assert [x.chunk_id for x in current_first([older, item], 0.0)] == [1, 4]
    assert [x.chunk_id for x in current_first([older, c(5, "MEMORY.md", 0.9)], 0.02)] == [1, 5]
    # the old wording of a replaced fact moves to just after what replaced it, not further
    old = c(6, "memory/2026-09-01.md", 0.9, follows=5)
    assert [x.chunk_id for x in current_first([old, evergreen, c(5, "MEMORY.md", 0.7), older])] == [
        3,
        5,
        6,
        1,
    ]
    assert [x.chunk_id for x in current_first([old, evergreen])] == [6, 3]  # no heir listed


def test_inheritors_give_an_old_chunk_to_the_item_most_like_the_question() -> None:
    own = {10: 0.3, 11: 0.5, 12: 0.5}
    assert inheritors({1: [10, 11], 2: [12, 11], 3: [10], 4: []}, own) == {1: 11, 2: 12, 3: 10}


def test_term_weight_is_a_smoothed_idf_positive_in_a_tiny_memory() -> None:
    assert term_weight(1, 1) == pytest.approx(math.log(1 + 0.5 / 1.5))
    assert term_weight(1, 0) == term_weight(1, 1)
    assert term_weight(100, 1) == pytest.approx(math.log(1 + 99.5 / 1.5))


def test_coverage_is_the_weighted_share_of_query_terms_held() -> None:
    weights = {"tofu": 3.0, "eat": 1.0}
    assert coverage(["tofu", "cat", "tofu"], weights) == 0.75
    assert coverage(["eat", "tofu"], weights) == 1.0
    assert coverage([], weights) == 0.0
    assert coverage(["tofu"], {}) == 0.0


def test_cover_facets_puts_each_named_things_best_hit_after_the_first() -> None:
    def span(path: str, start: int, end: int | None = None) -> Candidate:
        return Candidate(start, path, start, end or start, 0.0, frozenset())

    main = [span("a.md", 1), span("a.md", 5), span("b.md", 3), span("c.md", 9)]
    zhao, he = [span("d.md", 2)], [span("b.md", 3, 4), span("e.md", 1)]
    out = cover_facets(main, [zhao, he, []], 4)
    # he's best (b.md#3-4) moves up from third in main; b.md#3 is then not repeated
    assert [(c.path, c.start_line) for c in out] == [
        ("a.md", 1),
        ("d.md", 2),
        ("b.md", 3),
        ("a.md", 5),
    ]
    assert out[2].end_line == 4
    assert cover_facets(main, [], 2) == main[:2]
    assert cover_facets([], [zhao], 3) == zhao


def test_neighbour_boost_adds_a_share_of_the_adjacent_turns_score() -> None:
    a = Candidate(1, "memory/d.md", 5, 7, 0.8, frozenset())
    b = Candidate(2, "memory/d.md", 8, 10, 0.5, frozenset())
    c = Candidate(3, "memory/d.md", 11, 11, 0.2, frozenset())
    far = Candidate(4, "memory/d.md", 20, 22, 0.6, frozenset())
    other = Candidate(5, "memory/e.md", 11, 13, 0.9, frozenset())
    items = [a, b, c, far, other]
    scores = [x.score for x in neighbour_boost(items, 0.1, lambda x: True)]
    # a: b after it (0.5); b: the better of a (0.8) and c (0.2); c: b; far, other: none
    assert scores == [0.85, 0.58, 0.25, 0.6, 0.9]
    # only joined candidates (conversation turns) gain, and only from joined ones
    turns = [x.score for x in neighbour_boost(items, 0.1, lambda x: x.chunk_id != 1)]
    assert turns == [0.8, 0.52, 0.25, 0.6, 0.9]
    assert neighbour_boost(items, 0.0, lambda x: True) == items


def test_shipped_rank_term_and_neighbour_share() -> None:
    """The constants chosen on LoCoMo dev (docs/search.md, round 8): k = 7, share 0.6."""
    shipped = RankSettings()
    rank_term = reciprocal_ranks([[7, 8], [8, 7]], shipped.rrf_k)
    # first in one list, second in the other: (1/8 + 1/9) * 8/2, weighed by 0.5
    assert shipped.rrf_weight * rank_term[7] == pytest.approx(0.5 * 4 * (1 / 8 + 1 / 9))
    assert shipped.rrf_weight * reciprocal_ranks([[1], [1]], shipped.rrf_k)[1] == 0.5
    a = Candidate(1, "memory/d.md", 5, 7, 0.8, frozenset())
    b = Candidate(2, "memory/d.md", 8, 10, 0.5, frozenset())
    boosted = neighbour_boost([a, b], shipped.neighbour_share, lambda x: True)
    assert [x.score for x in boosted] == [1.1, 0.98]


def test_drop_echoes_leaves_out_turns_a_note_quotes_whole() -> None:
    texts = {
        1: "- User: I'm Lena, a NURSE in Leeds\n- User: my cat is Miso",
        2: "09:00 user: i'm lena,  a nurse in leeds",  # the note quotes it (case, spaces)
        3: "09:01 user: my cat is Miso and he is sick",  # says more than the note
        4: "09:02 user: Miso",  # too short to tell
    }
    items = [_c(i, 1.0 - i / 10, "x") for i in texts]
    kept = drop_echoes(items, lambda c: texts[c.chunk_id], lambda c: c.chunk_id != 1)
    assert [c.chunk_id for c in kept] == [1, 3, 4]
    assert drop_echoes(items, lambda c: texts[c.chunk_id], lambda c: True) == items
