"""Pure scoring for the deep phase: six signals, a decaying phase boost, three thresholds.

``score = 0.30·relevance + 0.24·frequency + 0.15·query_diversity + 0.15·recency
+ 0.10·consolidation + 0.06·conceptual_richness + boost``, each signal in [0, 1]:

- relevance: the mean score search gave the candidate's recalls (0 when never recalled);
- frequency: ``ln(1 + recall_count) / ln(1 + 5)``, capped at 1 (five recalls saturate);
- query_diversity: ``unique_queries / 4``, capped at 1;
- recency: ``0.5 ** (age / 14 days)`` since it was last mentioned or recalled;
- consolidation: ``(days - 1) / 2``, capped at 1: said or recalled on three days saturates;
- conceptual_richness: ``concepts / 6``, capped at 1 (distinct content words);
- boost: up to 0.03 for light hits and 0.05 for REM hits, each ``min(1, hits / 3)``
  times ``0.5 ** (age / 7 days)`` since the phase last saw it.

No I/O here; every function is unit-tested with exact numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

WEIGHTS: dict[str, float] = {
    "relevance": 0.30,
    "frequency": 0.24,
    "query_diversity": 0.15,
    "recency": 0.15,
    "consolidation": 0.10,
    "conceptual_richness": 0.06,
}
FREQUENCY_SATURATION = 5
DIVERSITY_SATURATION = 4
RECENCY_HALF_LIFE = 14.0
CONSOLIDATION_DAYS = 3
RICHNESS_SATURATION = 6
LIGHT_BOOST = 0.03
REM_BOOST = 0.05
BOOST_HITS = 3
BOOST_HALF_LIFE = 7.0
# The rest compete for places by score plus this much of the engine's durability order.
DURABILITY_WEIGHT = 0.5
DIGITS = 6  # every reported number is rounded to this many places


@dataclass(frozen=True)
class Thresholds:
    """The three gates a candidate must pass to be promoted."""

    min_score: float = 0.8
    min_recall_count: int = 3
    min_unique_queries: int = 3


@dataclass(frozen=True)
class Signals:
    relevance: float
    frequency: float
    query_diversity: float
    recency: float
    consolidation: float
    conceptual_richness: float

    def as_dict(self) -> dict[str, float]:
        return {name: round(getattr(self, name), DIGITS) for name in WEIGHTS}


@dataclass(frozen=True)
class Evidence:
    """What supports one candidate: note mentions, search recalls, phase hits."""

    mention_lines: int  # distinct note lines that state it
    mention_days: frozenset[date]
    recall_scores: tuple[float, ...]  # one per recall
    recall_contexts: int  # distinct (query, day) pairs among the recalls
    recall_days: frozenset[date]
    concepts: int  # distinct content words
    light_hits: int = 0
    light_last: date | None = None
    rem_hits: int = 0
    rem_last: date | None = None

    @property
    def recall_count(self) -> int:
        return len(self.recall_scores) + self.mention_lines

    @property
    def unique_queries(self) -> int:
        return self.recall_contexts + len(self.mention_days)

    @property
    def days(self) -> frozenset[date]:
        return self.mention_days | self.recall_days

    @property
    def last_seen(self) -> date | None:
        return max(self.days) if self.days else None


def relevance(scores: Sequence[float]) -> float:
    """Mean recall score, each clamped to [0, 1]; 0 without recalls."""
    if not scores:
        return 0.0
    return sum(min(1.0, max(0.0, s)) for s in scores) / len(scores)


def frequency(recall_count: int) -> float:
    if recall_count <= 0:
        return 0.0
    return min(1.0, math.log1p(recall_count) / math.log1p(FREQUENCY_SATURATION))


def query_diversity(unique_queries: int) -> float:
    return min(1.0, max(0, unique_queries) / DIVERSITY_SATURATION)


def decay(age_days: float, half_life: float) -> float:
    """``0.5 ** (age / half_life)``; a future date counts as age 0."""
    return 0.5 ** (max(0.0, age_days) / half_life)


def recency(age_days: float | None) -> float:
    """1 for today, 0.5 after 14 days; 0 when never seen."""
    return 0.0 if age_days is None else decay(age_days, RECENCY_HALF_LIFE)


def consolidation(days: int) -> float:
    return min(1.0, max(0, days - 1) / (CONSOLIDATION_DAYS - 1))


def conceptual_richness(concepts: int) -> float:
    return min(1.0, max(0, concepts) / RICHNESS_SATURATION)


def _age(today: date, day: date | None) -> float | None:
    return None if day is None else float((today - day).days)


def signals(evidence: Evidence, today: date) -> Signals:
    return Signals(
        relevance=relevance(evidence.recall_scores),
        frequency=frequency(evidence.recall_count),
        query_diversity=query_diversity(evidence.unique_queries),
        recency=recency(_age(today, evidence.last_seen)),
        consolidation=consolidation(len(evidence.days)),
        conceptual_richness=conceptual_richness(evidence.concepts),
    )


def phase_boost(evidence: Evidence, today: date) -> float:
    """The small boost light and REM hits give, fading with a seven-day half-life."""
    boost = 0.0
    for weight, hits, last in (
        (LIGHT_BOOST, evidence.light_hits, evidence.light_last),
        (REM_BOOST, evidence.rem_hits, evidence.rem_last),
    ):
        if hits > 0 and last is not None:
            age = float((today - last).days)
            boost += weight * min(1.0, hits / BOOST_HITS) * decay(age, BOOST_HALF_LIFE)
    return round(boost, DIGITS)


def contributions(values: Signals) -> dict[str, float]:
    """weight × signal for each signal, rounded, so that the parts add up to the score."""
    return {name: round(WEIGHTS[name] * getattr(values, name), DIGITS) for name in WEIGHTS}


def total(values: Signals, boost: float) -> float:
    """The score: the rounded contributions plus the boost."""
    return round(sum(contributions(values).values()) + boost, DIGITS)


def gates(
    score: float, recall_count: int, unique_queries: int, thresholds: Thresholds
) -> dict[str, bool]:
    """Which thresholds are met (the keys are the thresholds' names)."""
    return {
        "min_score": score >= thresholds.min_score,
        "min_recall_count": recall_count >= thresholds.min_recall_count,
        "min_unique_queries": unique_queries >= thresholds.min_unique_queries,
    }


def durability_of_rank(position: int, count: int) -> float:
    """The engine's order as a number: 1 for its first choice, falling evenly towards 0."""
    if count <= 0 or position < 0:
        return 0.0
    return 1.0 - position / count


def competition(score: float, durability: float) -> float:
    """How an item that was not promoted competes for the places left under the cap."""
    return round(score + DURABILITY_WEIGHT * durability, DIGITS)


CONFIDENCE_SUPPORT = 3


def confidence(durability: float, evidence: Evidence) -> float:
    """How sure the light phase is that a candidate is worth keeping: half its kind's
    durability, half its support (mentions plus recall contexts, three saturate)."""
    support = evidence.mention_lines + evidence.recall_contexts
    kind = min(1.0, max(0.0, durability))
    return round(0.5 * kind + 0.5 * min(1.0, support / CONFIDENCE_SUPPORT), DIGITS)


def room(max_items: int, handwritten: int) -> int:
    """Places for generated items: hand-written items count against the cap."""
    return max(0, max_items - handwritten)
