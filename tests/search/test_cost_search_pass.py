"""One search's passes over the index: each chunk row read once, each keyword side searched
once."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from conftest import FakeEmbeddings, write

from memory.paths import MemoryRoot
from memory.search.facets import facets
from memory.search.keyword_index import KeywordIndex
from memory.search.ranker import chunk_rows
from memory.search.service import MemorySearch, SearchSettings
from memory.search.store import Store, connect

NOW = date(2026, 11, 30)
QUESTION = "which sauce did we make with tomatoes and basil"


def garden(base: Path) -> MemoryRoot:
    """Notes about a tomato sauce and about basil: the question names both (two facets)."""
    for n in range(5):
        write(base, f"memory/2026-11-{20 + n}.md", f"# Daily Memory\n\n- tomatoes sauce {n}\n")
    for n in range(8):
        write(base, f"memory/2026-10-{10 + n}.md", f"# Daily Memory\n\n- the basil pot {n}\n")
    write(base, "MEMORY.md", "# MEMORY\n\n- we grow basil and tomatoes on the balcony\n")
    return MemoryRoot.at(base)


def hybrid(server: FakeEmbeddings) -> SearchSettings:
    return SearchSettings(
        provider="openai", api_key="sk-test", base_url=server.base_url, openai_model="fake"
    )


ROWS = re.compile(r"FROM chunks WHERE id IN \(([^)]*)\)")


def test_a_facet_question_reads_each_chunk_row_once_and_each_keyword_side_once(
    tmp_path: Path, embeddings_server: FakeEmbeddings, monkeypatch: object
) -> None:
    named = facets(QUESTION)
    assert len(named) == 2
    svc = MemorySearch(garden(tmp_path / "r"), hybrid(embeddings_server))
    svc.sync()
    svc.search("basil", now=NOW)  # the open's own reads are done
    state = svc._state
    assert state is not None
    statements: list[str] = []
    state.store.conn.set_trace_callback(statements.append)
    searched: list[str] = []
    real = KeywordIndex.search

    def spy(self: KeywordIndex, query: str, limit: int) -> object:
        searched.append(query)
        return real(self, query, limit)

    setattr(KeywordIndex, "search", spy)  # noqa: B010 (restored below)
    try:
        hits = svc.search(QUESTION, limit=3, now=NOW, min_score=0.0)
    finally:
        setattr(KeywordIndex, "search", real)  # noqa: B010
        state.store.conn.set_trace_callback(None)
    svc.close()
    assert hits
    assert sorted(searched) == sorted([QUESTION, *named])
    read = [int(i) for s in statements for m in ROWS.finditer(s) for i in m.group(1).split(",")]
    assert read, "the candidates' rows are read"
    assert len(read) == len(set(read)), "a chunk row was read twice in one search"


def test_chunk_rows_reads_only_what_it_lacks_and_keeps_the_store_order(tmp_path: Path) -> None:
    root = garden(tmp_path / "r")
    svc = MemorySearch(root, SearchSettings(provider="none"))
    svc.sync()
    svc.close()
    store = Store(connect(root.index_dir / "search.sqlite").conn)
    every = [c.id for c in store.chunks_after(0)]
    wanted = set(every[::2])
    direct = store.chunks(wanted)
    fetched: dict[int, object] = {}
    statements: list[str] = []
    store.conn.set_trace_callback(statements.append)
    first = chunk_rows(store, wanted, fetched)  # type: ignore[arg-type]
    again = chunk_rows(store, wanted | {every[1]}, fetched)  # type: ignore[arg-type]
    store.conn.close()
    assert list(first) == list(direct) == sorted(wanted)
    assert first == direct
    assert list(again) == sorted(wanted | {every[1]})
    asked = [m.group(1) for s in statements for m in ROWS.finditer(s)]
    assert asked == [",".join(map(str, sorted(wanted))), str(every[1])]
