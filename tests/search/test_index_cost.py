"""A search costs what the answer costs: pinned by the statements and the rows it touches.

Each test compares a small root with one many times larger (the same notes that match the
query, plus unrelated notes): the SQL statements a search runs, the SQLite VM steps they
take (``set_progress_handler``), and the ``stat`` calls must not grow with the archive.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from conftest import FakeEmbeddings, write

from memory import clock
from memory.paths import MemoryRoot
from memory.search import embedder, freshness, vector_packs
from memory.search import service as service_module
from memory.search.facets import facets
from memory.search.service import MemorySearch, SearchSettings

NOW = date(2026, 11, 30)
QUERY = "上海出差 静安区"


def make_root(base: Path, extra_files: int) -> MemoryRoot:
    write(base, "MEMORY.md", "# MEMORY\n\n- 用户偏好美式咖啡，不加糖\n")
    write(
        base,
        "memory/2026-11-28.md",
        "# Daily Memory: 2026-11-28\n\n- 用户下周三要去上海出差，住在静安区\n",
    )
    for n in range(extra_files):
        lines = [f"- filler note {n} line {i} about gardening and tomatoes" for i in range(6)]
        write(base, f"memory/topic-{n:03d}.md", "\n".join(lines) + "\n")
    return MemoryRoot.at(base)


class Tracer:
    """Records the statements a connection runs and the VM steps they take."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.statements: list[str] = []
        self.steps = 0

    def _step(self) -> int:
        self.steps += 1
        return 0

    def __enter__(self) -> Tracer:
        self.conn.set_trace_callback(self.statements.append)
        self.conn.set_progress_handler(self._step, 1)
        return self

    def __exit__(self, *exc: object) -> None:
        self.conn.set_trace_callback(None)
        self.conn.set_progress_handler(None, 1)


def connection(svc: MemorySearch) -> sqlite3.Connection:
    state = svc._state
    assert state is not None
    return state.store.conn


@pytest.fixture
def counted_stats(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    calls: list[str] = []
    for name in ("stat", "lstat"):
        real = getattr(os, name)

        def counting(path: Any, *args: Any, real: Any = real, **kwargs: Any) -> os.stat_result:
            calls.append(str(path))
            return real(path, *args, **kwargs)  # type: ignore[no-any-return]

        monkeypatch.setattr(os, name, counting)
    yield calls


def traced_search(svc: MemorySearch) -> Tracer:
    svc.search(QUERY, now=NOW)  # opened, synced, warm
    with Tracer(connection(svc)) as tracer:
        hits = svc.search(QUERY, now=NOW)
    assert hits[0].path == "memory/2026-11-28.md"
    return tracer


def test_a_search_runs_the_same_statements_whatever_the_archive_size(tmp_path: Path) -> None:
    small = MemorySearch(make_root(tmp_path / "small", 2), SearchSettings(provider="none"))
    large = MemorySearch(make_root(tmp_path / "large", 120), SearchSettings(provider="none"))
    a, b = traced_search(small), traced_search(large)
    assert a.statements == b.statements  # FTS5's own statements (-- ...) included
    assert b.steps < 1.5 * a.steps, (a.steps, b.steps)
    for sql in (s.upper() for s in b.statements if not s.startswith("--")):
        assert "COUNT(" not in sql and (" WHERE " in sql or sql.startswith("PRAGMA")), sql
    small.close()
    large.close()


def test_a_search_stats_a_few_files_not_the_archive(
    tmp_path: Path, counted_stats: list[str]
) -> None:
    counts = []
    for extra in (12, 120):
        svc = MemorySearch(
            make_root(tmp_path / f"r{extra}", extra), SearchSettings(provider="none")
        )
        svc.search(QUERY, now=NOW)
        counted_stats.clear()
        svc.search(QUERY, now=NOW)
        counts.append(len(counted_stats))
        svc.close()
    # the folders, today's and yesterday's notes and session logs, MEMORY.md, the archive,
    # 8 recent files
    assert counts[0] == counts[1] <= 16, counts


def test_an_appended_line_is_found_by_the_next_search_and_touches_one_chunk(
    tmp_path: Path,
) -> None:
    root = make_root(tmp_path / "r", 40)
    note = root.path / "memory/2026-11-28.md"
    os.utime(note)  # the note appended to last, as today's note is
    svc = MemorySearch(root, SearchSettings(provider="none"))
    svc.search(QUERY, now=NOW)
    with open(note, "a", encoding="utf-8") as handle:
        handle.write("\n- 用户开始学习滑雪\n")
    with Tracer(connection(svc)) as tracer:
        hits = svc.search("滑雪", now=NOW)
    assert hits[0].path == "memory/2026-11-28.md" and "滑雪" in hits[0].snippet
    inserts = [s for s in tracer.statements if s.startswith("INSERT INTO chunks(")]
    assert len(inserts) == 1
    assert not [s for s in tracer.statements if s.startswith("DELETE FROM chunks")]
    svc.close()


def test_todays_note_is_watched_by_name(tmp_path: Path) -> None:
    root = make_root(tmp_path / "r", 20)
    svc = MemorySearch(root, SearchSettings(provider="none", timezone="Asia/Shanghai"))
    svc.search(QUERY, now=NOW)
    today = clock.now_in("Asia/Shanghai").date()
    write(root.path, f"memory/{today.isoformat()}.md", "- placeholder\n")  # a new file: seen
    svc.search(QUERY, now=NOW)
    for n in range(12):  # twelve other files written later, in place
        note = root.path / f"memory/topic-{n:03d}.md"
        with open(note, "a", encoding="utf-8") as handle:
            handle.write("- more gardening\n")
    svc.search(QUERY, now=NOW)
    with open(root.path / f"memory/{today.isoformat()}.md", "a", encoding="utf-8") as handle:
        handle.write("- 用户今天开始学习滑雪\n")
    assert "滑雪" in svc.search("滑雪", now=NOW)[0].snippet
    svc.close()


def test_unchanged_chunks_keep_their_ids_when_lines_move(tmp_path: Path) -> None:
    base = tmp_path / "r"
    write(base, "memory/2026-11-28.md", "- 第一件事 alpha\n\n- 第二件事 beta\n\n- 第三件事 gamma\n")
    svc = MemorySearch(MemoryRoot.at(base), SearchSettings(provider="none"))
    svc.sync()
    store = svc._state.store  # type: ignore[union-attr]
    before = {c.text: c.id for c in store.file_chunks("memory/2026-11-28.md")}
    write(
        base, "memory/2026-11-28.md", "- 新的一行 delta\n\n- 第一件事 alpha\n\n- 第三件事 gamma\n"
    )
    svc.sync()
    after = {c.text: (c.id, c.start_line) for c in store.file_chunks("memory/2026-11-28.md")}
    assert after["- 第一件事 alpha"] == (before["- 第一件事 alpha"], 3)
    assert after["- 第三件事 gamma"] == (before["- 第三件事 gamma"], 5)
    assert after["- 新的一行 delta"][0] > max(before.values())
    assert "- 第二件事 beta" not in after
    [hit] = svc.search("gamma", now=NOW, min_score=0.0)
    assert (hit.start_line, hit.snippet) == (5, "- 第三件事 gamma")
    assert svc.search("beta", now=NOW, min_score=0.0) == []
    svc.close()


def fake_openai(server: FakeEmbeddings) -> SearchSettings:
    return SearchSettings(
        provider="openai", api_key="sk-test", base_url=server.base_url, openai_model="fake"
    )


def test_an_update_embeds_and_looks_up_only_what_changed(
    tmp_path: Path, embeddings_server: FakeEmbeddings
) -> None:
    root = make_root(tmp_path / "r", 30)
    note = root.path / "memory/2026-11-28.md"
    os.utime(note)
    svc = MemorySearch(root, fake_openai(embeddings_server))
    svc.search(QUERY, now=NOW)
    embeddings_server.calls.clear()
    with open(note, "a", encoding="utf-8") as handle:
        handle.write("\n- The user adopted a cat named Miso\n")
    with Tracer(connection(svc)) as tracer:
        hits = svc.search("cat named Miso", now=NOW)
    assert "Miso" in hits[0].snippet and hits[0].source == "hybrid"
    # the new line, and the query (embedded ahead, beside the refresh that adds the line)
    assert sorted(embeddings_server.calls) == [
        ["- The user adopted a cat named Miso"],
        ["cat named Miso"],
    ]
    cache_reads = [s for s in tracer.statements if "FROM embeddings" in s]
    assert cache_reads and all("text_hash IN" in s for s in cache_reads), cache_reads
    assert not [s for s in tracer.statements if "JOIN embeddings" in s]  # no reload
    svc.close()


def test_a_reopened_index_copies_cached_codes_without_embedding(
    tmp_path: Path, embeddings_server: FakeEmbeddings
) -> None:
    root = make_root(tmp_path / "r", 10)
    first = MemorySearch(root, fake_openai(embeddings_server))
    first.sync()
    first.close()
    embeddings_server.calls.clear()
    again = MemorySearch(root, fake_openai(embeddings_server))
    hits = again.search("gardening tomatoes", now=NOW, min_score=0.0)
    assert hits and hits[0].source == "hybrid"
    # only the query was embedded
    assert embeddings_server.calls == [["gardening tomatoes"]]
    status = again.status()
    assert status["vectors"] == status["chunks"] and status["codec"] == "float16"
    again.close()


def test_another_process_writing_the_index_is_followed_by_its_log(
    tmp_path: Path, embeddings_server: FakeEmbeddings
) -> None:
    root = make_root(tmp_path / "r", 10)
    reader = MemorySearch(root, fake_openai(embeddings_server))
    reader.search(QUERY, now=NOW)
    writer = MemorySearch(root, fake_openai(embeddings_server))
    write(
        root.path, "memory/2026-11-28.md", "# Daily Memory: 2026-11-28\n\n- 用户养了一只猫叫米索\n"
    )
    writer.sync()
    with Tracer(connection(reader)) as tracer:
        hits = reader.search("猫叫米索", now=NOW)
    assert hits[0].snippet == "- 用户养了一只猫叫米索" and hits[0].source == "hybrid"
    assert reader.search("静安区", now=NOW, min_score=0.5) == []
    assert any("removed_chunks WHERE seq >" in s for s in tracer.statements)
    assert not [s for s in tracer.statements if "JOIN embeddings" in s]
    writer.close()
    reader.close()


def test_vectors_no_chunk_uses_are_pruned_from_the_cache(
    tmp_path: Path, embeddings_server: FakeEmbeddings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service_module, "PRUNE_MIN", 3)
    base = tmp_path / "r"
    write(base, "memory/2026-11-28.md", "- one alpha\n\n- two beta\n\n- three gamma\n")
    svc = MemorySearch(MemoryRoot.at(base), fake_openai(embeddings_server))
    svc.sync()
    conn = connection(svc)
    assert conn.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0] == 3
    for n in range(4):  # each rewrite removes a chunk and adds one
        write(base, "memory/2026-11-28.md", f"- one alpha\n\n- two beta\n\n- version {n}\n")
        svc.search("alpha", now=NOW)
    cached = conn.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0]
    assert cached <= 4 + 1  # the live three, and what came after the last prune
    # the blocks were rewritten without the dropped codes: each code is stored once
    stored = conn.execute("SELECT SUM(length(hashes) / 16) FROM vector_blocks").fetchone()[0]
    assert stored == cached
    assert svc.search("version 3", now=NOW)[0].snippet == "- version 3"
    svc.close()


@pytest.fixture
def small_packs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vector_packs, "PACK_MIN", 2)
    monkeypatch.setattr(embedder, "PACK_DELTA_MIN", 0)


def test_a_reopened_index_reads_its_packed_vectors_and_replays_what_changed(
    tmp_path: Path, embeddings_server: FakeEmbeddings, small_packs: None
) -> None:
    root = make_root(tmp_path / "r", 10)
    first = MemorySearch(root, fake_openai(embeddings_server))
    first.sync()  # packs the vectors
    first.close()
    write(
        root.path,
        "memory/2026-11-28.md",
        "# Daily Memory: 2026-11-28\n\n- The user adopted a cat\n",
    )
    other = MemorySearch(root, fake_openai(embeddings_server))
    other.search("cat", now=NOW)  # changes the index after the pack, closes without one
    other._checkpoint = lambda *a: None  # type: ignore[method-assign]
    other.close()
    embeddings_server.calls.clear()
    again = MemorySearch(root, fake_openai(embeddings_server))
    again._open()
    conn = connection(again)
    with Tracer(conn) as tracer:
        again._state.vectors.load(again._state.generation)  # type: ignore[union-attr]
    assert any("FROM vector_maps" in s for s in tracer.statements)
    # no join of every chunk to the cache: the checkpoint says where each code is
    assert not [s for s in tracer.statements if "text_hash FROM chunks" in s]
    assert not [s for s in tracer.statements if "JOIN embeddings" in s]
    assert "adopted a cat" in again.search("adopted a cat", now=NOW)[0].snippet
    assert again.search("上海出差 静安区", now=NOW, min_score=0.6) == []
    status = again.status()
    assert status["vectors"] == status["chunks"]
    passages = [t for call in embeddings_server.calls for t in call if t.startswith("- ")]
    assert passages == []  # the cat's vector came from the cache, the rest from the pack
    again.close()


def test_a_rebuild_makes_the_packed_vectors_stale(
    tmp_path: Path, embeddings_server: FakeEmbeddings, small_packs: None
) -> None:
    root = make_root(tmp_path / "r", 5)
    first = MemorySearch(root, fake_openai(embeddings_server))
    first.sync()
    first.sync(rebuild=True)  # new chunk ids: the old pack must not be read
    first.close()
    again = MemorySearch(root, fake_openai(embeddings_server))
    hits = again.search("gardening tomatoes", now=NOW, min_score=0.0)
    assert hits and hits[0].source == "hybrid"
    status = again.status()
    assert status["vectors"] == status["chunks"]
    again.close()


def test_a_full_load_gives_every_chunk_of_a_shared_text_its_vector(
    tmp_path: Path, embeddings_server: FakeEmbeddings
) -> None:
    base = tmp_path / "r"
    for day in ("2026-11-01", "2026-11-02", "2026-11-03"):
        write(base, f"memory/{day}.md", "- the user waters the tomatoes\n\n- unique " + day + "\n")
    first = MemorySearch(MemoryRoot.at(base), fake_openai(embeddings_server))
    first.sync()
    first.close()  # too small to pack: the next open reads the cache
    again = MemorySearch(MemoryRoot.at(base), fake_openai(embeddings_server))
    status = again.status()
    assert status["vectors"] == status["chunks"] == 6 and status["pending"] == 0
    hits = again.search("waters the tomatoes", now=NOW, min_score=0.0, limit=6)
    assert {h.path for h in hits if "tomatoes" in h.snippet} == {
        "memory/2026-11-01.md",
        "memory/2026-11-02.md",
        "memory/2026-11-03.md",
    }
    assert all(h.source == "hybrid" for h in hits if "tomatoes" in h.snippet)
    again.close()


def test_term_counts_read_once_are_forgotten_when_the_index_changes(tmp_path: Path) -> None:
    root = make_root(tmp_path / "r", 3)
    reader = MemorySearch(root, SearchSettings(provider="none"))
    assert reader.search("xyzzy plugh", now=NOW) == []  # both counted: in no chunk
    with Tracer(connection(reader)) as tracer:
        assert reader.search("xyzzy plugh", now=NOW) == []
    assert not [s for s in tracer.statements if "SUM(n)" in s]  # remembered
    note = root.path / "memory/2026-11-28.md"
    with open(note, "a", encoding="utf-8") as handle:
        handle.write("\n- the user said xyzzy\n")
    assert "xyzzy" in reader.search("xyzzy", now=NOW)[0].snippet  # this index's own write
    writer = MemorySearch(root, SearchSettings(provider="none"))
    with open(note, "a", encoding="utf-8") as handle:
        handle.write("\n- and then plugh\n")
    writer.sync()  # another connection's write: followed through data_version
    writer.close()
    assert "plugh" in reader.search("plugh", now=NOW)[0].snippet
    reader.close()


def test_small_cache_blocks_are_merged_and_each_code_is_stored_once(
    tmp_path: Path, embeddings_server: FakeEmbeddings, small_packs: None, monkeypatch: Any
) -> None:
    monkeypatch.setattr(embedder, "SMALL_BLOCKS_MAX", 1)
    root = make_root(tmp_path / "r", 10)
    settings = SearchSettings(
        provider="openai",
        api_key="sk-test",
        base_url=embeddings_server.base_url,
        openai_model="fake",
        batch_size=2,  # one small block every two texts
    )
    svc = MemorySearch(root, settings)
    report = svc.sync()  # embeds in blocks of two, then merges them at the checkpoint
    conn = connection(svc)
    blocks, stored = conn.execute(
        "SELECT COUNT(*), SUM(length(hashes) / 16) FROM vector_blocks"
    ).fetchone()
    assert blocks == 1 and stored == conn.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0]
    assert stored >= report.chunks - 1  # (two chunks may share a text)
    svc.close()
    embeddings_server.calls.clear()
    again = MemorySearch(root, settings)
    hits = again.search("gardening tomatoes", now=NOW, min_score=0.0)
    assert (
        hits and hits[0].source == "hybrid" and embeddings_server.calls == [["gardening tomatoes"]]
    )
    assert again.status()["vectors"] == report.chunks
    again.close()


def test_the_query_is_embedded_on_another_thread_while_the_keyword_side_runs(
    tmp_path: Path, embeddings_server: FakeEmbeddings, monkeypatch: pytest.MonkeyPatch
) -> None:
    own = replace(fake_openai(embeddings_server), facet_vectors="own")  # facets embedded too
    svc = MemorySearch(make_root(tmp_path / "r", 3), own)
    svc.sync()
    assert svc._state is not None and svc._state.vectors.provider is not None
    provider, keywords = svc._state.vectors.provider, svc._state.keywords
    embedded: list[tuple[str, str]] = []
    started = threading.Event()
    real_embed, real_search = provider.embed_query, keywords.search

    def recording(text: str) -> Any:
        embedded.append((text, threading.current_thread().name))
        started.set()
        return real_embed(text)

    def after_the_embedding_started(*args: Any, **kwargs: Any) -> Any:
        assert started.wait(10)
        return real_search(*args, **kwargs)

    monkeypatch.setattr(provider, "embed_query", recording)
    monkeypatch.setattr(keywords, "search", after_the_embedding_started)
    query = "gardening and tomatoes or basil"  # and one query per thing it names
    assert len(facets(query)) == 3
    hits = svc.search(query, now=NOW, min_score=0.0)
    assert hits and hits[0].source == "hybrid"
    assert embedded[0] == (query, "memory-query_0")
    texts = [t for t, _ in embedded]
    assert sorted(texts) == sorted([query, *facets(query)])  # each once, the facets too
    svc.close()


def test_with_a_core_idle_a_question_and_its_facets_are_one_model_call_after_the_keywords(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    own = SearchSettings(provider="local", facet_vectors="own")  # the facets embedded too
    svc = MemorySearch(make_root(tmp_path / "r", 3), own)
    svc.sync()
    assert svc._state is not None and svc._state.vectors.provider is not None
    provider, keywords = svc._state.vectors.provider, svc._state.keywords
    query = "gardening and tomatoes or basil"
    monkeypatch.setattr(provider, "idle_cores", lambda: 0)
    beside = svc.search(query, now=NOW, min_score=0.0)  # each text on the other thread
    events: list[Any] = []
    model = provider._model  # type: ignore[attr-defined]
    real_query, real_search = model.query, keywords.search

    def counted(texts: list[str]) -> Any:
        events.append(list(texts))
        return real_query(texts)

    def searched(*args: Any, **kwargs: Any) -> Any:
        events.append("keywords")
        return real_search(*args, **kwargs)

    monkeypatch.setattr(provider, "idle_cores", lambda: 1)
    monkeypatch.setattr(model, "query", counted)
    monkeypatch.setattr(keywords, "search", searched)
    hits = svc.search(query, now=NOW, min_score=0.0)
    calls = [e for e in events if e != "keywords"]
    assert calls == [[query, *facets(query)]]  # one call for the question and its facets
    assert events[0] == "keywords"  # after the question's keyword side
    assert hits == beside and hits[0].source == "hybrid"  # the same vectors either way
    svc.close()


def test_the_opens_full_scan_runs_beside_the_vector_load_and_misses_no_append(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_root(tmp_path / "r", 5)
    first = MemorySearch(root, SearchSettings(provider="none"))
    first.sync()
    first.close()
    note = root.path / f"memory/{clock.now_in(None).date().isoformat()}.md"
    threads: list[str] = []
    real_scan = freshness.scan

    def scan_then_append(*args: Any) -> Any:
        found = real_scan(*args)
        threads.append(threading.current_thread().name)
        write(root.path, str(note.relative_to(root.path)), "- 用户开始学习滑雪\n")
        return found

    monkeypatch.setattr(freshness, "scan", scan_then_append)
    again = MemorySearch(root, SearchSettings(provider="none"))
    hits = again.search("滑雪", now=NOW)
    assert threads == ["memory-scan"]  # one full scan, beside the open
    assert hits and "滑雪" in hits[0].snippet  # written after the scan: seen all the same
    again.close()
