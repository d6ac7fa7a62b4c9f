"""A whole search through :class:`MemorySearch` compares no pair of candidates in Python:
the diversity pass reads one similarity matrix (:func:`rank_arrays.mmr_matrix`), and the
per-pair :func:`ranking.similarity` is never asked."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from conftest import write

import memory.search.ranking as ranking
from memory.paths import MemoryRoot
from memory.search.service import MemorySearch, SearchSettings

DAY = date(2026, 11, 28)


def test_a_search_asks_no_pairwise_similarity(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(1, 6):
        lines = [f"- User: the green kite number {n}{i} flew over the river" for i in range(8)]
        write(tmp_path, f"memory/2026-11-2{n}.md", "# Notes\n\n" + "\n\n".join(lines) + "\n")
    pairs = 0
    real = ranking.jaccard

    def counted(a: frozenset[str], b: frozenset[str]) -> float:
        nonlocal pairs
        pairs += 1
        return real(a, b)

    monkeypatch.setattr(ranking, "jaccard", counted)
    service = MemorySearch(MemoryRoot.at(tmp_path), SearchSettings(provider="none"))
    try:
        service.sync()
        hits = service.search("green kite river", limit=6, now=DAY)
    finally:
        service.close()
    assert len(hits) == 6
    assert pairs == 0
    # the per-pair pass this replaced would compare them
    items = [
        ranking.Candidate(i, h.path, i, i, h.score, frozenset(["kite", str(i)]))
        for i, h in enumerate(hits)
    ]
    ranking.mmr(items, 6, 0.75, lambda a, b: ranking.similarity(a, b, 0.0))
    assert pairs > 0
