"""One-character Chinese queries find the words jieba joined them into."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from conftest import write

from memory.paths import MemoryRoot
from memory.search.keyword_index import index_tokens
from memory.search.service import MemorySearch, SearchSettings


def test_two_character_words_also_index_their_characters() -> None:
    tokens = index_tokens("狗叫")
    assert "狗叫" in tokens and "狗" in tokens and "叫" in tokens


def test_a_one_character_query_finds_its_line_by_keyword(tmp_path: Path) -> None:
    base = tmp_path / "root"
    write(
        base,
        "memory/2026-11-28.md",
        "# Daily Memory: 2026-11-28\n\n## Daily Summary (23:55)\n"
        "- 用户养了一只狗叫旺财\n- 用户喜欢喝茶\n\n## Daily Summary (23:56)\n"
        "- 用户在学大提琴\n",
    )
    svc = MemorySearch(MemoryRoot.at(base), SearchSettings(provider="none"))
    try:
        dog = svc.search("狗", limit=3, min_score=0.0, now=date(2026, 11, 30))
        tea = svc.search("茶", limit=3, min_score=0.0, now=date(2026, 11, 30))
    finally:
        svc.close()
    assert dog and "旺财" in dog[0].snippet
    assert tea and "喝茶" in tea[0].snippet


def test_only_common_single_characters_are_dropped_from_a_query() -> None:
    from memory.search.keyword_index import COMMON_CHAR_IDF, _common_char

    assert _common_char("去", COMMON_CHAR_IDF - 0.1)
    assert not _common_char("狗", COMMON_CHAR_IDF + 0.1)
    assert not _common_char("狗叫", 0.5)  # words are never dropped
    assert not _common_char("a", 0.5)


def test_a_query_of_terms_in_half_the_chunks_scores_nothing_in_a_large_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """BM25 gives a term in at least half of the rows no weight; from
    UNINFORMATIVE_MIN_ROWS chunks on, such a query is not scored over the whole index."""
    from memory.search import keyword_index

    base = tmp_path / "root"
    places = "北京 上海 广州 深圳 杭州 苏州".split()
    bullets = "".join(f"- 用户第{n}次去{place}出差\n\n" for n, place in enumerate(places))
    write(base, "memory/2026-11-28.md", "# Daily Memory: 2026-11-28\n\n" + bullets)
    svc = MemorySearch(MemoryRoot.at(base), SearchSettings(provider="none"))
    try:
        small = svc.search("用户", limit=3, min_score=0.0, now=date(2026, 11, 30))
        monkeypatch.setattr(keyword_index, "UNINFORMATIVE_MIN_ROWS", 6)
        large = svc.search("用户", limit=3, min_score=0.0, now=date(2026, 11, 30))
        rare = svc.search("用户去杭州", limit=3, min_score=0.0, now=date(2026, 11, 30))
    finally:
        svc.close()
    assert len(small) == 3  # a small memory still answers with what holds the word
    assert large == []
    assert rare and "杭州" in rare[0].snippet  # a query with one informative term still is
