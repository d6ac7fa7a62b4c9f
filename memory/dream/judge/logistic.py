"""A shipped logistic regression: its weights, bias and threshold, read from a JSON file.

The slot model (:mod:`slotmodel`) and the pair judgement (:mod:`changemodel`) are both one
weight per named feature and a bias, fitted by a script in ``bench/`` and shipped as JSON
(``{"features": [...], "weights": [...], "bias": b, "threshold": t}``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Logistic:
    """The fitted weights, one per feature, the bias, and the threshold a decision uses."""

    weights: tuple[float, ...]
    bias: float
    threshold: float = 0.5

    def probability(self, values: tuple[float, ...]) -> float:
        z = self.bias + sum(w * x for w, x in zip(self.weights, values, strict=True))
        return 1.0 / (1.0 + math.exp(-z))


def load(path: Path, features: tuple[str, ...]) -> Logistic | None:
    """The model in ``path``; None when the file is missing, unreadable or names other
    features than ``features`` (a model of another version of the code)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if tuple(data.get("features", ())) != features:
        return None
    threshold = float(data.get("threshold", 0.5))
    return Logistic(tuple(float(w) for w in data["weights"]), float(data["bias"]), threshold)


__all__ = ["Logistic", "load"]
