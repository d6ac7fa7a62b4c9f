"""Set overlap measures shared by search (diversity) and the dream (near duplicates)."""

from __future__ import annotations

from collections.abc import Set


def jaccard(a: Set[str], b: Set[str]) -> float:
    """``|a ∩ b| / |a ∪ b|``; 0.0 when either set is empty (nothing shared to measure)."""
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def containment(a: Set[str], b: Set[str]) -> float:
    """Share of the smaller set found in the larger one (0.0 when either is empty)."""
    size_a, size_b = len(a), len(b)
    if not size_a or not size_b:
        return 0.0
    return len(a & b) / (size_a if size_a <= size_b else size_b)
