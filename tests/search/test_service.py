import os
import sqlite3
from datetime import date
from pathlib import Path

import pytest
from conftest import FakeEmbeddings, write

from memory.errors import UsageError
from memory.paths import MemoryRoot
from memory.search.chunker import ChunkerConfig
from memory.search.indexer import indexable_files
from memory.search.ranker import RankSettings
from memory.search.service import MemorySearch, SearchSettings, SearchUnavailable

NOW = date(2026, 11, 30)


def keyword_only(root: MemoryRoot, **kw: object) -> MemorySearch:
    return MemorySearch(root, SearchSettings(provider="none", **kw))  # type: ignore[arg-type]


def fake_openai(server: FakeEmbeddings, provider: str = "openai") -> SearchSettings:
    return SearchSettings(
        provider=provider, api_key="sk-test", base_url=server.base_url, openai_model="fake-embed"
    )


def test_only_memory_files_are_indexed(root: MemoryRoot) -> None:
    names = [root.relative(p) for p in indexable_files(root)]
    assert names == [
        "MEMORY.md",
        "memory/2026-10-01.md",
        "memory/2026-11-28.md",
        "memory/archive.md",
    ]
    svc = keyword_only(root)
    for secret in ("secretdream", "secretstate", "othersecret", "rootsecret"):
        assert svc.search(secret, min_score=0.0, now=NOW) == []
    svc.close()


def test_chinese_query_finds_segmented_note(root: MemoryRoot) -> None:
    svc = keyword_only(root)
    hits = svc.search("上海出差住哪里", now=NOW)
    assert hits[0].path == "memory/2026-11-28.md"
    assert hits[0].start_line <= 5 <= hits[0].end_line
    assert "静安区" in hits[0].snippet
    assert hits[0].source == "keyword"
    svc.close()


def test_exact_identifiers_match(root: MemoryRoot) -> None:
    svc = keyword_only(
        root, chunker=ChunkerConfig(max_lines=1), ranking=RankSettings(context_chars=0)
    )
    for query, line in (("ECONNREFUSED", 6), ("max_tokens", 7), ("127.0.0.1:5432", 6)):
        hits = svc.search(query, now=NOW)
        assert (hits[0].path, hits[0].start_line) == ("memory/2026-11-28.md", line), query
    svc.close()


def test_snippets_strip_provenance_but_keep_lines(root: MemoryRoot) -> None:
    svc = keyword_only(
        root, chunker=ChunkerConfig(max_lines=1), ranking=RankSettings(context_chars=0)
    )
    [hit] = [h for h in svc.search("美式咖啡", now=NOW) if h.path == "MEMORY.md"]
    assert hit.start_line == 4 and hit.snippet == "- 用户偏好美式咖啡，不加糖"
    svc.close()


def test_basename_and_stem_rank_first(root: MemoryRoot) -> None:
    svc = keyword_only(root)
    assert svc.search("2026-10-01", now=NOW)[0].path == "memory/2026-10-01.md"
    assert svc.search("archive.md", now=NOW)[0].path == "memory/archive.md"
    svc.close()


def test_nothing_relevant_gives_no_hits_even_at_min_score_0(root: MemoryRoot) -> None:
    svc = keyword_only(root)
    assert [h.path for h in svc.search("游泳", min_score=0.0, now=NOW)] == ["memory/2026-10-01.md"]
    # One word of four is a quarter of what the query asks: not evidence of anything.
    assert svc.search("游泳 zebra quantum nebula", min_score=0.0, now=NOW) == []
    assert svc.search("xyzzy", min_score=0.0, now=NOW) == []
    svc.close()


def test_incremental_sync_rechunks_only_changed_files(root: MemoryRoot) -> None:
    svc = keyword_only(root)
    first = svc.sync()
    assert (first.files_changed, first.files_unchanged) == (4, 0)
    again = svc.sync()
    assert (again.files_changed, again.files_unchanged, again.rebuilt) == (0, 4, False)
    note = root.path / "memory/2026-10-01.md"
    note.write_text(note.read_text("utf-8") + "- 用户开始学习滑雪\n", "utf-8")
    os.utime(note, ns=(1, 1))
    changed = svc.sync()
    assert (changed.files_changed, changed.files_unchanged) == (1, 3)
    assert svc.search("滑雪", now=NOW)[0].path == "memory/2026-10-01.md"
    (root.path / "memory/archive.md").unlink()
    removed = svc.sync()
    assert removed.files_removed == 1
    assert svc.search("拿铁", min_score=0.0, now=NOW) == []
    svc.close()


def test_tokenizer_or_chunker_change_forces_rebuild(root: MemoryRoot) -> None:
    keyword_only(root).sync()
    db = sqlite3.connect(root.index_dir / "search.sqlite")
    db.execute("UPDATE meta SET value = 'old-tokenizer' WHERE key = 'signature'")
    db.commit()
    db.close()
    assert keyword_only(root).sync().rebuilt is True
    assert keyword_only(root).sync().rebuilt is False
    assert keyword_only(root, chunker=ChunkerConfig(max_lines=1)).sync().rebuilt is True


def test_recency_prefers_newer_note_and_never_decays_memory_md(tmp_path: Path) -> None:
    base = tmp_path / "r"
    write(base, "memory/2026-01-01.md", "- 用户喜欢爬山\n")
    write(base, "memory/2026-11-29.md", "- 用户喜欢爬山\n")
    svc = keyword_only(MemoryRoot.at(base))
    hits = svc.search("爬山", now=NOW)
    assert [h.path for h in hits][:1] == ["memory/2026-11-29.md"]
    assert hits[0].score > hits[1].score
    svc.close()


def test_empty_query_and_bad_limit_are_usage_errors(root: MemoryRoot) -> None:
    svc = keyword_only(root)
    with pytest.raises(UsageError):
        svc.search("   ")
    with pytest.raises(UsageError):
        svc.search("x", limit=0)
    with pytest.raises(UsageError):
        SearchSettings(provider="bogus")
    svc.close()


def test_openai_provider_hybrid_and_embedding_cache(
    root: MemoryRoot, embeddings_server: FakeEmbeddings
) -> None:
    svc = MemorySearch(root, fake_openai(embeddings_server))
    report = svc.sync()
    assert report.provider == "openai" and report.state == "ready"
    assert report.vectors == report.chunks and report.pending == 0
    embedded = sum(len(c) for c in embeddings_server.calls)
    assert embedded == report.chunks
    hits = svc.search("white BYD Seal car", now=NOW, min_score=0.0)
    assert hits[0].path == "memory/2026-10-01.md" and hits[0].source == "hybrid"
    svc.close()
    # a fresh rebuild reuses the cache: no passage is embedded again
    embeddings_server.calls.clear()
    again = MemorySearch(root, fake_openai(embeddings_server)).sync(rebuild=True)
    assert again.vectors == again.chunks
    assert embeddings_server.calls == []


def test_auto_degrades_to_keyword_and_says_so(
    root: MemoryRoot, embeddings_server: FakeEmbeddings
) -> None:
    embeddings_server.fail = True
    svc = MemorySearch(root, fake_openai(embeddings_server, provider="auto"))
    hits = svc.search("上海出差", now=NOW)
    assert hits and all(h.source == "keyword" for h in hits)
    status = svc.status()
    assert status["state"] == "degraded" and "openai embeddings failed" in status["degraded"]
    assert status["vectors_ready"] is False
    svc.close()


def test_explicit_provider_failure_makes_search_unavailable(
    root: MemoryRoot, embeddings_server: FakeEmbeddings
) -> None:
    embeddings_server.fail = True
    svc = MemorySearch(root, fake_openai(embeddings_server))
    with pytest.raises(SearchUnavailable, match="unavailable: openai embeddings failed"):
        svc.search("上海出差", now=NOW)
    assert svc.status()["state"] == "unavailable"
    svc.close()


def test_explicit_openai_without_key_is_unavailable(root: MemoryRoot) -> None:
    svc = MemorySearch(root, SearchSettings(provider="openai"))
    with pytest.raises(SearchUnavailable, match="API key"):
        svc.search("上海")
    svc.close()


def test_background_embedding_serves_keywords_meanwhile(
    root: MemoryRoot, embeddings_server: FakeEmbeddings
) -> None:
    settings = fake_openai(embeddings_server)
    svc = MemorySearch(
        root, SearchSettings(**{**settings.__dict__, "background": True, "batch_size": 1})
    )
    svc.sync()
    assert svc.search("上海出差", now=NOW)  # served whatever the embedder's progress
    svc.wait_for_vectors(10)
    status = svc.status()
    assert status["vectors_ready"] is True and status["vectors"] == status["chunks"]
    svc.close()


def test_local_provider_end_to_end(root: MemoryRoot) -> None:
    svc = MemorySearch(root, SearchSettings(provider="local"))
    hits = svc.search("什么时候去游泳", now=NOW, min_score=0.0)
    assert hits[0].path == "memory/2026-10-01.md"
    assert svc.status()["provider"] == "local"
    svc.close()


def test_conversation_hits_are_widened_within_budget(tmp_path: Path) -> None:
    base = tmp_path / "r"
    turns = [f"- Ann: filler words number {i} about nothing" for i in range(1, 10)]
    turns[4] = "- Ann: I adopted a puppy named Biscuit"
    write(base, "memory/2026-11-01.md", "\n".join(turns) + "\n")
    chunker = ChunkerConfig(max_lines=1, dialogue_lines=1)
    wide = MemorySearch(
        MemoryRoot.at(base),
        SearchSettings(provider="none", chunker=chunker, ranking=RankSettings(context_chars=200)),
    )
    [hit] = wide.search("puppy Biscuit", limit=1, now=NOW)
    # 38 chars + 3 neighbours of 42 (+1 newline each) = 167; a 4th would make 210 > 200
    assert (hit.start_line, hit.end_line) == (3, 6)
    assert hit.snippet.splitlines()[2] == turns[4] and len(hit.snippet) == 167
    wide.close()
    narrow = MemorySearch(
        MemoryRoot.at(base),
        SearchSettings(provider="none", chunker=chunker, ranking=RankSettings(context_chars=0)),
    )
    [hit] = narrow.search("puppy Biscuit", limit=1, now=NOW)
    assert (hit.start_line, hit.end_line, hit.snippet) == (5, 5, turns[4])
    narrow.close()


def test_archive_header_is_never_a_hit(root: MemoryRoot) -> None:
    write(
        root.path,
        "memory/archive.md",
        "# Memory Archive\n\nItems that left MEMORY.md: why, when, and their sources. "
        "Still searchable.\n\n- 用户以前喝拿铁 <!-- src: memory/2026-06-02.md#L5; "
        "reason: superseded; archived: 2026-11-30 -->\n",
    )
    svc = keyword_only(root)
    assert svc.search("items left sources searchable", min_score=0.0, now=NOW) == []
    # the replaced latte is found, after the coffee item that replaced it
    hits = [(h.path, h.start_line) for h in svc.search("喝拿铁", now=NOW)]
    assert hits == [("MEMORY.md", 4), ("memory/archive.md", 5)]
    svc.close()


def _moved(base: Path) -> MemoryRoot:
    write(
        base,
        "MEMORY.md",
        "# MEMORY\n\n## About the user\n"
        "- The user moved to Porto in October and lives there now "
        "<!-- src: memory/2026-10-20.md#L5 -->\n",
    )
    write(
        base,
        "memory/2026-03-02.md",
        "# Daily Memory: 2026-03-02\n\n## Trimmed Context (10:00)\n\n"
        "- The user lives in Berlin, in a flat in Kreuzberg\n- The user asked about the weather\n",
    )
    write(
        base,
        "memory/2026-10-20.md",
        "# Daily Memory: 2026-10-20\n\n## Trimmed Context (10:00)\n\n"
        "- The user has moved to Porto\n",
    )
    write(
        base,
        "memory/archive.md",
        "# Memory Archive\n\n"
        "- The user lives in Berlin <!-- src: memory/2026-03-02.md#L5; reason: superseded; "
        "archived: 2026-10-21 -->\n",
    )
    return MemoryRoot.at(base)


@pytest.mark.parametrize("provider", ["none", "local"])
def test_current_facts_outrank_older_ones(tmp_path: Path, provider: str) -> None:
    root = _moved(tmp_path / "r")
    svc = MemorySearch(root, SearchSettings(provider=provider))
    hits = svc.search("where do I live?", now=NOW)
    assert hits[0].path == "MEMORY.md"
    paths = [h.path for h in hits]
    # the superseded archive entry never outranks the item that replaced it
    assert paths.index("memory/archive.md") > paths.index("MEMORY.md")
    assert hits[-1].path == "memory/archive.md"
    # asked about Berlin itself, it is still found: archived, not forgotten
    assert "memory/archive.md" in [h.path for h in svc.search("Berlin", now=NOW)]
    svc.close()


def test_forgotten_fact_and_nonsense_find_nothing_with_vectors(tmp_path: Path) -> None:
    base = tmp_path / "r"
    write(
        base,
        "memory/2026-11-20.md",
        "# Daily Memory: 2026-11-20\n\n## Daily Summary (23:55)\n\n"
        "- 用户对花生过敏，吃了会起疹子\n- 女儿小满对芒果过敏\n- 用户每周二晚上去游泳\n"
        "- 用户问了明天的天气\n- 帮用户写了一封邮件\n",
    )
    svc = MemorySearch(MemoryRoot.at(base), SearchSettings(provider="local"))
    assert svc.search("花生", now=NOW)[0].start_line == 5
    note = base / "memory/2026-11-20.md"
    forgotten = note.read_text("utf-8").replace("- 用户对花生过敏，吃了会起疹子\n", "")
    note.write_text(forgotten, "utf-8")
    svc.sync()
    assert svc.search("花生", now=NOW) == []
    assert svc.search("xyzzy", now=NOW) == []
    assert svc.search("xyzzy", min_score=0.0, now=NOW) == []
    assert svc.search("小满对什么过敏？", now=NOW)[0].start_line == 5
    svc.close()
