"""A logistic model over named, standardised features: what the search's learned gates share.

The answerability gate (:mod:`memory.search.answerable`) and the question-line reader
(:mod:`memory.search.reader`) each ship one per language as JSON; this is their common
form: features by name, each centred and scaled as in training, then weighted.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Standardised:
    """``sigmoid(bias + sum(w * (x - mean) / scale))`` over the named features."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float

    def probability(self, values: Mapping[str, float]) -> float:
        z = self.bias + sum(
            w * (values[f] - m) / s
            for f, m, s, w in zip(self.features, self.mean, self.scale, self.weights, strict=True)
        )
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def to_dict(self) -> dict[str, object]:
        return {
            "features": list(self.features),
            "mean": list(self.mean),
            "scale": list(self.scale),
            "weights": list(self.weights),
            "bias": self.bias,
        }


def standardised_fields(data: Mapping[str, object], what: str) -> dict[str, Any]:
    """The :class:`Standardised` fields read from ``data`` (a model's JSON); a ValueError
    naming ``what`` when the features, means, scales and weights differ in length."""

    def floats(key: str) -> tuple[float, ...]:
        value = data[key]
        assert isinstance(value, list)
        return tuple(float(v) for v in value)

    features = data["features"]
    assert isinstance(features, list)
    fields: dict[str, Any] = {
        "features": tuple(str(f) for f in features),
        "mean": floats("mean"),
        "scale": floats("scale"),
        "weights": floats("weights"),
        "bias": float(data["bias"]),  # type: ignore[arg-type]
    }
    if len({len(fields[k]) for k in ("features", "mean", "scale", "weights")}) != 1:
        raise ValueError(f"{what}: features, mean, scale and weights differ in length")
    return fields
