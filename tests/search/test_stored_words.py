"""Each chunk's content words are stored when it is indexed, and equal its text's.

The ranker's diversity pass reads them instead of segmenting its candidates again; an
index made before they were stored answers the same while each sync fills them in.
"""

from __future__ import annotations

import sqlite3
from datetime import date
from pathlib import Path

import pytest
from conftest import write

from memory.paths import MemoryRoot
from memory.search import keyword_index
from memory.search.keyword_index import parse_words, stored_words
from memory.search.service import MemorySearch, SearchSettings
from memory.segment import content_words

NOW = date(2026, 11, 30)
NOTES = {
    "memory/2026-11-20.md": (
        "- 用户下周三要去上海出差，住在静安区\n- The user renewed the API_KEY for prod\n"
    ),
    "memory/2026-11-21.md": (
        "- 用户的女儿周六上钢琴课\n- 用户喜欢在雨天喝热巧克力\n- deploy v2.3 failed: ECONNREFUSED\n"
    ),
    "memory/2026-11-22.md": (
        "- 用户把 Docker 镜像源换成了中科大的镜像\n- 用户报名了苏州半程马拉松\n"
    ),
    "MEMORY.md": "# Memory\n\n- 用户住在杭州西湖区\n- 用户每周二和周四去健身房\n",
}
QUESTIONS = ["上海出差住哪里", "钢琴课是周几", "API_KEY", "马拉松", "用户住在哪", "Docker 镜像"]


def make_root(base: Path) -> MemoryRoot:
    for relative, text in NOTES.items():
        write(base, relative, text)
    return MemoryRoot.at(base)


def stored(conn: sqlite3.Connection) -> dict[int, str | None]:
    return {int(i): w for i, w in conn.execute("SELECT id, words FROM chunk_words")}


def assert_words_match_the_texts(svc: MemorySearch) -> None:
    assert svc._state is not None
    conn, keywords = svc._state.store.conn, svc._state.keywords
    texts = {int(i): str(t) for i, t in conn.execute("SELECT id, text FROM chunks")}
    assert set(stored(conn)) == set(texts)  # one row a chunk, none left by a deleted one
    words = keywords.words(list(texts))
    assert words == {i: frozenset(content_words(t)) for i, t in texts.items()}


@pytest.mark.parametrize(
    "text",
    ["用户下周三要去上海出差", "deploy v2.3 failed: ECONNREFUSED", "", "。，！", "a b c", "的 了"],
)
def test_stored_words_read_back_as_the_texts_content_words(text: str) -> None:
    kept = stored_words(text)
    assert kept is not None and parse_words(kept) == frozenset(content_words(text))


def test_each_chunk_stores_its_content_words_through_edits(tmp_path: Path) -> None:
    root = make_root(tmp_path / "r")
    svc = MemorySearch(root, SearchSettings(provider="none"))
    svc.sync()
    assert_words_match_the_texts(svc)
    write(tmp_path / "r", "memory/2026-11-21.md", "- 用户的儿子周日踢足球\n- deploy v2.4 ok\n")
    (tmp_path / "r" / "memory" / "2026-11-22.md").unlink()
    assert svc.search("足球", now=NOW, min_score=0.0)[0].path == "memory/2026-11-21.md"
    assert_words_match_the_texts(svc)
    svc.sync(rebuild=True)
    assert_words_match_the_texts(svc)
    svc.close()


def test_an_index_made_before_the_stored_words_answers_the_same_and_fills_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_root(tmp_path / "r")
    svc = MemorySearch(root, SearchSettings(provider="none"))
    svc.sync()
    before = [svc.search(q, now=NOW, min_score=0.0) for q in QUESTIONS]
    assert any(len(hits) > 1 for hits in before)  # the diversity pass compares words
    svc.close()
    conn = sqlite3.connect(root.index_dir / "search.sqlite")  # as an earlier version left it
    conn.execute("DROP TABLE chunk_words")
    chunks = conn.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
    conn.commit()
    conn.close()
    assert chunks > 4
    monkeypatch.setattr(keyword_index, "FILL_STEP", 3)
    old = MemorySearch(root, SearchSettings(provider="none"))
    assert [old.search(q, now=NOW, min_score=0.0) for q in QUESTIONS] == before
    assert old._state is not None
    conn = old._state.store.conn
    assert stored(conn) == {}  # searching writes nothing: each candidate is segmented
    filled = []
    while len(filled) < 10 and (not filled or filled[-1] < chunks):
        old.sync()
        filled.append(len(stored(conn)))
    assert filled[:2] == [3, 6] and filled[-1] == chunks  # FILL_STEP a sync, then all
    assert_words_match_the_texts(old)
    assert [old.search(q, now=NOW, min_score=0.0) for q in QUESTIONS] == before
    old.close()
