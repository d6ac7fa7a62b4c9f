"""8-bit codes with fitted ranges: the fit's arithmetic, the one-time re-encoding of the
cache, clipping and refits, and another process following a re-encoded cache."""

from __future__ import annotations

import sqlite3
from datetime import date
from pathlib import Path

import numpy as np
import pytest
from conftest import DIM, FakeEmbeddings, write

from memory.paths import MemoryRoot
from memory.search import embedder, vector_codecs, vector_packs
from memory.search.service import MemorySearch, SearchSettings
from memory.search.vector_index import Codec

NOW = date(2026, 11, 30)


def test_ranges_cover_the_data_widened_by_the_margin() -> None:
    low, high = np.array([-1.0, 0.0], np.float32), np.array([1.0, 0.5], np.float32)
    ranges = vector_codecs.ranges_of(low, high, margin=0.1)
    assert np.allclose(ranges, [-1.2, -0.05, 2.4, 0.6])
    flat = vector_codecs.ranges_of(np.zeros(1), np.zeros(1), margin=0.1)
    assert flat[1] > 0  # a constant dimension still has a width to divide by


def test_a_refit_widens_only_the_dimensions_that_were_exceeded() -> None:
    ranges = vector_codecs.ranges_of(np.array([-1.0, 0.0]), np.array([1.0, 0.5]), margin=0.1)
    fit = vector_codecs.Fit(1, ranges, 100, 10, np.array([-0.5, -1.0]), np.array([0.9, 0.2]))
    grown = vector_codecs.widened(fit, margin=0.1)
    assert grown[0] == ranges[0] and grown[2] == ranges[2]  # never exceeded: unchanged
    assert np.allclose([grown[1], grown[3]], [-1.0 - 0.15, 1.5 * 1.2])  # covers [-1, 0.5]


def test_clipping_is_counted_and_makes_a_refit_due() -> None:
    ranges = np.array([0.0, 0.0, 1.0, 1.0], np.float32)  # [0, 1] in both dimensions
    vectors = np.array([[0.5, 0.5], [1.5, 0.5], [0.5, -0.1], [1.0, 0.0]], np.float32)
    assert vector_codecs.outside(ranges, vectors) == 2
    assert not vector_codecs.Fit(1, ranges, 10_000, vector_codecs.REFIT_MIN - 1).due
    assert not vector_codecs.Fit(1, ranges, 100_000, vector_codecs.REFIT_MIN).due  # 0.06 %
    assert vector_codecs.Fit(1, ranges, 1_000, vector_codecs.REFIT_MIN).due


def test_fitted_8bit_codes_keep_the_nearest_neighbours() -> None:
    rng = np.random.default_rng(0)
    scale = np.linspace(0.02, 0.3, 64).astype(np.float32)  # dimensions of unequal spread
    data = rng.normal(size=(2000, 64)).astype(np.float32) * scale
    data /= np.linalg.norm(data, axis=1, keepdims=True)
    seen = vector_codecs.Extent()
    seen.add(data[:1000])
    seen.add(data[1000:])
    assert seen.low is not None and seen.high is not None
    codec = Codec("sq8", 64, tuple(vector_codecs.ranges_of(seen.low, seen.high).tolist()))
    assert codec.code_size == 64
    decoded = codec.decode(codec.encode(data))
    queries = data[:50] + rng.normal(0, 0.01, (50, 64)).astype(np.float32)
    hits = [
        len(set(np.argsort(-(data @ q))[:10]) & set(np.argsort(-(decoded @ q))[:10])) / 10
        for q in queries
    ]
    assert float(np.mean(hits)) >= 0.95


@pytest.fixture
def small_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vector_codecs, "FIT_MIN", 8)
    monkeypatch.setattr(vector_packs, "PACK_MIN", 2)
    monkeypatch.setattr(embedder, "PACK_DELTA_MIN", 0)


def settings(server: FakeEmbeddings, codec: str = "sq8") -> SearchSettings:
    return SearchSettings(
        provider="openai",
        api_key="sk-test",
        base_url=server.base_url,
        openai_model="fake",
        vector_codec=codec,
    )


def make_root(base: Path, files: int) -> MemoryRoot:
    for n in range(files):
        lines = [f"- note {n} line {i} about gardening tomatoes and basil" for i in range(4)]
        write(base, f"memory/topic-{n:03d}.md", "\n".join(lines) + "\n")
    write(base, "memory/2026-11-28.md", "- the user adopted a cat named Miso\n")
    return MemoryRoot.at(base)


def cache(svc: MemorySearch) -> sqlite3.Connection:
    assert svc._state is not None
    return svc._state.store.conn


def code_lengths(conn: sqlite3.Connection) -> set[int]:
    rows = conn.execute("SELECT length(codes) / (length(hashes) / 16) FROM vector_blocks")
    return {int(r[0]) for r in rows}


def test_a_small_index_keeps_float16(tmp_path: Path, embeddings_server: FakeEmbeddings) -> None:
    svc = MemorySearch(make_root(tmp_path / "r", 1), settings(embeddings_server))
    svc.sync()
    assert svc.status()["codec"] == "float16" and code_lengths(cache(svc)) == {2 * DIM}
    svc.close()


def test_a_large_enough_index_is_reencoded_once_as_8bit_codes(
    tmp_path: Path, embeddings_server: FakeEmbeddings, small_fit: None
) -> None:
    root = make_root(tmp_path / "r", 4)
    svc = MemorySearch(root, settings(embeddings_server))
    report = svc.sync()  # embeds as float16, then fits the ranges and re-encodes
    conn = cache(svc)
    assert svc.status()["codec"] == "sq8" and code_lengths(conn) == {DIM}
    assert conn.execute("SELECT codec FROM models").fetchone()[0] == "sq8"
    assert vector_codecs.tag(conn, 1) == "sq8/1"
    assert conn.execute("PRAGMA freelist_count").fetchone()[0] == 0  # the file shrank too
    hits = svc.search("cat named Miso", now=NOW)
    assert "Miso" in hits[0].snippet and hits[0].source == "hybrid"
    svc.close()
    embeddings_server.calls.clear()
    again = MemorySearch(root, settings(embeddings_server))
    hits = again.search("gardening tomatoes", now=NOW, min_score=0.0)
    assert hits and hits[0].source == "hybrid"
    assert embeddings_server.calls == [["gardening tomatoes"]]  # codes read, not embedded
    status = again.status()
    assert status["codec"] == "sq8" and status["vectors"] == report.chunks
    assert vector_codecs.tag(cache(again), 1) == "sq8/1"  # not fitted a second time
    again.close()


def test_frequent_clipping_widens_the_ranges_and_reencodes(
    tmp_path: Path,
    embeddings_server: FakeEmbeddings,
    small_fit: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(vector_codecs, "REFIT_MIN", 2)
    root = make_root(tmp_path / "r", 4)
    svc = MemorySearch(root, settings(embeddings_server))
    svc.sync()
    conn = cache(svc)
    before = vector_codecs.read(conn, 1)
    assert before is not None and before.fit == 1 and before.clipped == 0
    # words never seen: their hashed dimensions were 0 in every fitted vector
    lines = [f"- zebra{n} quokka{n} narwhal{n} wombat{n}" for n in range(6)]
    write(root.path, "memory/2026-11-29.md", "\n\n".join(lines) + "\n")
    svc.sync()
    after = vector_codecs.read(conn, 1)
    assert after is not None and after.fit == 2 and after.clipped == 0  # refitted
    dim = len(after.ranges) // 2
    assert np.all(after.ranges[dim:] >= before.ranges[dim:] - 1e-7)  # only ever wider
    assert np.any(after.ranges[dim:] > before.ranges[dim:])
    hits = svc.search("zebra3 quokka3 narwhal3 wombat3", now=NOW)
    assert "zebra3" in hits[0].snippet and hits[0].source == "hybrid"
    svc.close()


def test_another_process_reencoding_the_cache_is_followed(
    tmp_path: Path, embeddings_server: FakeEmbeddings, small_fit: None
) -> None:
    root = make_root(tmp_path / "r", 1)
    reader = MemorySearch(root, settings(embeddings_server))
    reader.search("gardening", now=NOW)
    assert reader.status()["codec"] == "float16"
    for n in range(1, 4):  # the index grows past FIT_MIN through another process
        lines = [f"- more {n} line {i} about roses and tulips" for i in range(4)]
        write(root.path, f"memory/topic-{n:03d}.md", "\n".join(lines) + "\n")
    writer = MemorySearch(root, settings(embeddings_server))
    writer.sync()
    assert writer.status()["codec"] == "sq8"
    writer.close()
    hits = reader.search("roses and tulips", now=NOW)
    assert "roses" in hits[0].snippet and hits[0].source == "hybrid"
    status = reader.status()
    assert status["codec"] == "sq8" and status["vectors"] == status["chunks"]
    reader.close()


def test_a_batch_encoded_under_an_old_fit_is_not_written(
    tmp_path: Path, embeddings_server: FakeEmbeddings, small_fit: None
) -> None:
    root = make_root(tmp_path / "r", 4)
    svc = MemorySearch(root, settings(embeddings_server))
    svc.sync()
    assert svc._state is not None
    store = svc._state.store
    blocks = store.conn.execute("SELECT COUNT(*) FROM vector_blocks").fetchone()[0]
    assert not store.put_codes(1, [(b"x" * 16, b"\0" * (2 * DIM))], tag="float16")
    assert store.conn.execute("SELECT COUNT(*) FROM vector_blocks").fetchone()[0] == blocks
    assert store.put_codes(1, [(b"x" * 16, b"\0" * DIM)], tag="sq8/1")
    svc.close()


def test_a_fixed_codec_setting_never_reencodes(
    tmp_path: Path, embeddings_server: FakeEmbeddings, small_fit: None
) -> None:
    root = make_root(tmp_path / "r", 4)
    svc = MemorySearch(root, settings(embeddings_server, "float16"))
    svc.sync()
    assert svc.status()["codec"] == "float16" and code_lengths(cache(svc)) == {2 * DIM}
    svc.close()
