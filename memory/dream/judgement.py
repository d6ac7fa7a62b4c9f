"""The text judgements the phases and the engines share: one place to improve them.

- :func:`is_transient`: chatter, questions, "asked about…" lines and secrets, which stay
  in the notes and are never distilled;
- :func:`same_fact`: one statement restated (light merges them, the engines too);
- :func:`supersedes`: a newer statement replacing an older one about the same thing;
- :func:`concepts`: the content words a statement carries (conceptual richness, themes);
- :func:`durability`: how lasting a statement's kind is, in [0, 1].
"""

from __future__ import annotations

from memory.chatter import is_transient
from memory.dream.similarity import KIND_WEIGHT, features, supersedes
from memory.dream.similarity import near_duplicate as same_fact

__all__ = ["concepts", "durability", "is_transient", "same_fact", "supersedes"]

_LOWEST, _HIGHEST = min(KIND_WEIGHT.values()), max(KIND_WEIGHT.values())


def concepts(text: str) -> frozenset[str]:
    """The statement's content words (discourse words left out)."""
    return features(text).words


def durability(text: str) -> float:
    """1 for the most lasting kind (preferences), 0 for the least (other)."""
    weight = KIND_WEIGHT[features(text).kind]
    return (weight - _LOWEST) / (_HIGHEST - _LOWEST)
