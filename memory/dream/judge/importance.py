"""How much an item deserves one of MEMORY.md's places (pure scoring).

``score = KIND_WEIGHT[kind] · (1 − p_chatter) + 0.5 · log2(1 + min(days, 8))
+ 0.5 / (1 + age / 14) + 0.3 · prior``: what kind of fact it is counts most (a name,
an allergy or a medication outranks a hobby), then on how many days it came up (capped, so
recurring small talk cannot push real facts out), then recency, then having been in
MEMORY.md already.
"""

from __future__ import annotations

import math

KIND_WEIGHT = {
    "identity": 3.2,
    "health": 3.2,
    "people": 2.8,
    "work": 2.8,
    "preference": 2.5,
    "plan": 2.4,
    "fact": 2.3,
    "routine": 2.1,
    "event": 2.0,
    "chatter": 0.5,
}
MAX_DAYS = 8


def score(kind: str, p_chatter: float, days: int, age_days: int, prior: bool) -> float:
    """The rank of an item; higher first."""
    return (
        KIND_WEIGHT.get(kind, 2.0) * (1.0 - p_chatter)
        + 0.5 * math.log2(1 + min(max(days, 1), MAX_DAYS))
        + 0.5 / (1.0 + max(age_days, 0) / 14.0)
        + (0.3 if prior else 0.0)
    )
