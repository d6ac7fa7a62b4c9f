"""The deep phase's scoring: exact numbers for every signal, the boost, the gates."""

from __future__ import annotations

import math
from datetime import date

import pytest

from memory.dream.scoring import (
    WEIGHTS,
    Evidence,
    Signals,
    Thresholds,
    competition,
    conceptual_richness,
    consolidation,
    contributions,
    durability_of_rank,
    frequency,
    gates,
    phase_boost,
    query_diversity,
    recency,
    relevance,
    room,
    signals,
    total,
)

TODAY = date(2026, 11, 29)


def test_weights_are_the_designed_ones_and_sum_to_one() -> None:
    assert WEIGHTS == {
        "relevance": 0.30,
        "frequency": 0.24,
        "query_diversity": 0.15,
        "recency": 0.15,
        "consolidation": 0.10,
        "conceptual_richness": 0.06,
    }
    assert sum(WEIGHTS.values()) == pytest.approx(1.0)


def test_relevance_is_the_mean_clamped_recall_score() -> None:
    assert relevance([]) == 0.0
    assert relevance([0.5, 0.7]) == pytest.approx(0.6)
    assert relevance([1.4, -0.2]) == 0.5  # clamped to [0, 1] first


def test_frequency_saturates_at_five() -> None:
    assert frequency(0) == 0.0
    assert frequency(1) == pytest.approx(math.log(2) / math.log(6))  # 0.386853
    assert frequency(3) == pytest.approx(math.log(4) / math.log(6))  # 0.773706
    assert frequency(5) == 1.0
    assert frequency(50) == 1.0


def test_query_diversity_and_richness_are_linear_then_flat() -> None:
    assert query_diversity(0) == 0.0
    assert query_diversity(3) == 0.75
    assert query_diversity(9) == 1.0
    assert conceptual_richness(3) == 0.5
    assert conceptual_richness(12) == 1.0


def test_recency_halves_every_fourteen_days() -> None:
    assert recency(0) == 1.0
    assert recency(14) == 0.5
    assert recency(28) == 0.25
    assert recency(-3) == 1.0  # a future date counts as today
    assert recency(None) == 0.0


def test_consolidation_counts_days_beyond_the_first() -> None:
    assert consolidation(0) == 0.0
    assert consolidation(1) == 0.0
    assert consolidation(2) == 0.5
    assert consolidation(3) == 1.0
    assert consolidation(8) == 1.0


def recalled_thrice() -> Evidence:
    """A fact noted once (11-20) and looked up on three days with three queries."""
    return Evidence(
        mention_lines=1,
        mention_days=frozenset({date(2026, 11, 20)}),
        recall_scores=(0.6, 0.7, 0.8),
        recall_contexts=3,
        recall_days=frozenset({date(2026, 11, 27), date(2026, 11, 28), TODAY}),
        concepts=4,
    )


def test_counts_add_mentions_to_recalls() -> None:
    evidence = recalled_thrice()
    assert evidence.recall_count == 4
    assert evidence.unique_queries == 4
    assert evidence.last_seen == TODAY
    assert len(evidence.days) == 4


def test_signals_score_and_contributions_add_up() -> None:
    values = signals(recalled_thrice(), TODAY)
    assert values == Signals(
        relevance=pytest.approx(0.7),
        frequency=pytest.approx(math.log(5) / math.log(6)),
        query_diversity=1.0,
        recency=1.0,
        consolidation=1.0,
        conceptual_richness=pytest.approx(4 / 6),
    )
    parts = contributions(values)
    assert parts == {
        "relevance": 0.21,
        "frequency": 0.215579,  # 0.24 * 0.898244
        "query_diversity": 0.15,
        "recency": 0.15,
        "consolidation": 0.1,
        "conceptual_richness": 0.04,
    }
    assert total(values, 0.0) == 0.865579
    assert total(values, 0.02) == 0.885579
    assert total(values, 0.0) == round(sum(parts.values()), 6)


def test_a_fact_mentioned_once_and_never_recalled_scores_low() -> None:
    once = Evidence(1, frozenset({TODAY}), (), 0, frozenset(), concepts=3)
    values = signals(once, TODAY)
    score = total(values, 0.0)
    # 0.24 * 0.386853 + 0.15 * 0.25 + 0.15 * 1 + 0.06 * 0.5
    assert score == pytest.approx(0.092845 + 0.0375 + 0.15 + 0.03)
    assert gates(score, once.recall_count, once.unique_queries, Thresholds()) == {
        "min_score": False,
        "min_recall_count": False,
        "min_unique_queries": False,
    }


def test_phase_boost_is_small_and_decays_weekly() -> None:
    base = recalled_thrice()
    assert phase_boost(base, TODAY) == 0.0
    seen = Evidence(
        **{**base.__dict__, "light_hits": 3, "light_last": TODAY, "rem_hits": 1, "rem_last": TODAY}
    )
    assert phase_boost(seen, TODAY) == pytest.approx(0.03 + 0.05 / 3, abs=1e-6)  # 0.046667
    week_later = date(2026, 12, 6)
    assert phase_boost(seen, week_later) == pytest.approx((0.03 + 0.05 / 3) / 2, abs=1e-6)


def test_gates_name_each_threshold() -> None:
    strict = Thresholds(min_score=0.9, min_recall_count=5, min_unique_queries=2)
    assert gates(0.9, 4, 2, strict) == {
        "min_score": True,
        "min_recall_count": False,
        "min_unique_queries": True,
    }
    assert Thresholds() == Thresholds(0.8, 3, 3)


def test_competition_durability_and_room() -> None:
    assert durability_of_rank(0, 4) == 1.0
    assert durability_of_rank(3, 4) == 0.25
    assert durability_of_rank(0, 0) == 0.0
    assert competition(0.4, 1.0) == 0.9
    assert competition(0.6, 0.25) == 0.725
    assert room(30, 4) == 26
    assert room(3, 5) == 0
