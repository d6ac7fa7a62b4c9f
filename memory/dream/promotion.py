"""Ranking staged candidates with the deep phase's scoring, and explaining the result.

A :class:`Ranked` candidate carries everything ``promote`` and ``promote-explain`` print:
its six signals, the boost, the score they add up to, the three gates and why it passes
or not. The numbers come from :mod:`memory.dream.scoring`; nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from memory.dream.scoring import (
    WEIGHTS,
    Evidence,
    Signals,
    Thresholds,
    contributions,
    gates,
    phase_boost,
    signals,
    total,
)
from memory.dream.short_term import Candidate, ShortTerm
from memory.wording import plural

RANKED_STATUSES = ("staged", "deferred", "promoted")


@dataclass(frozen=True)
class Ranked:
    candidate: Candidate
    evidence: Evidence
    signals: Signals
    boost: float
    score: float
    gates: dict[str, bool]

    @property
    def key(self) -> str:
        return self.candidate.key

    @property
    def passes(self) -> bool:
        return all(self.gates.values())

    def why(self, thresholds: Thresholds) -> str:
        """One line: each gate with the value it was measured against."""
        values = {
            "min_score": (f"score {self.score:.3f}", thresholds.min_score),
            "min_recall_count": (
                plural(self.evidence.recall_count, "recall"),
                thresholds.min_recall_count,
            ),
            "min_unique_queries": (
                plural(self.evidence.unique_queries, "unique query", "unique queries"),
                thresholds.min_unique_queries,
            ),
        }
        parts = [
            f"{shown} {'≥' if self.gates[name] else '<'} {limit}"
            for name, (shown, limit) in values.items()
        ]
        verdict = "passes" if self.passes else "does not pass"
        return f"{verdict}: " + ", ".join(parts)

    def to_dict(self, thresholds: Thresholds) -> dict[str, Any]:
        """The ``C`` object of DESIGN.md."""
        c = self.candidate
        return {
            "key": c.key,
            "text": c.text,
            "refs": [str(r) for r in c.refs],
            "score": self.score,
            "signals": self.signals.as_dict(),
            "boost": self.boost,
            "recall_count": self.evidence.recall_count,
            "unique_queries": self.evidence.unique_queries,
            "passes": self.passes,
            "why": self.why(thresholds),
            "status": c.status,
            "origin": c.origin,
        }

    def explain(self, thresholds: Thresholds) -> dict[str, Any]:
        """``C`` plus the weights, each contribution and each threshold met or missed."""
        data = self.to_dict(thresholds)
        data["weights"] = dict(WEIGHTS)
        data["contributions"] = contributions(self.signals)
        actual = {
            "min_score": self.score,
            "min_recall_count": self.evidence.recall_count,
            "min_unique_queries": self.evidence.unique_queries,
        }
        data["thresholds"] = {
            name: {"required": getattr(thresholds, name), "actual": actual[name], "met": met}
            for name, met in self.gates.items()
        }
        return data


def score(candidate: Candidate, evidence: Evidence, today: date, thresholds: Thresholds) -> Ranked:
    values = signals(evidence, today)
    boost = phase_boost(evidence, today)
    result = total(values, boost)
    met = gates(result, evidence.recall_count, evidence.unique_queries, thresholds)
    return Ranked(candidate, evidence, values, boost, result, met)


def rank(
    store: ShortTerm,
    evidence: dict[str, Evidence],
    today: date,
    thresholds: Thresholds,
    statuses: Iterable[str] = RANKED_STATUSES,
) -> list[Ranked]:
    """Every candidate of ``statuses`` with evidence, best score first."""
    allowed = set(statuses)
    out = [
        score(c, evidence[key], today, thresholds)
        for key, c in store.candidates.items()
        if c.status in allowed and key in evidence
    ]
    out.sort(key=lambda r: (-r.score, r.key))
    return out


def matching(ranked: list[Ranked], query: str) -> list[Ranked]:
    """The candidates whose text holds ``query`` (case-insensitive), or failing that any
    of its words."""
    needle = query.strip().casefold()
    exact = [r for r in ranked if needle in r.candidate.text.casefold()]
    if exact:
        return exact
    words = [w for w in needle.split() if len(w) > 1]
    return [r for r in ranked if words and any(w in r.candidate.text.casefold() for w in words)]
