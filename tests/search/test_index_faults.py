"""The search index is derived state: a broken, locked or outdated index never stops search
with a traceback; it is rebuilt (and says so), waited for, or answered around."""

from __future__ import annotations

import logging
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import FakeEmbeddings, write

from memory import cli
from memory.atomic import file_lock
from memory.paths import MemoryRoot
from memory.search import service as service_module
from memory.search.service import MemorySearch, SearchSettings
from memory.search.store import text_hash

REPO = Path(__file__).resolve().parents[2]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memory", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_garbage_index_is_set_aside_and_rebuilt_by_every_command(root: MemoryRoot) -> None:
    db = root.index_dir / "search.sqlite"
    for command in (["search", "静安区"], ["index"], ["index", "--rebuild"]):
        db.parent.mkdir(parents=True, exist_ok=True)
        db.write_bytes(b"this is not a database at all\n" * 200)
        done = run_cli(*command, "--workspace", str(root.path), "--provider", "none")
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
        assert done.stderr.count("\n") == 1 and "unreadable" in done.stderr, done.stderr
        assert (root.index_dir / "search.sqlite.unreadable").read_bytes().startswith(b"this is")
    assert "静安区" in run_cli("search", "静安区", "--workspace", str(root.path)).stdout


def test_an_index_truncated_in_the_middle_is_rebuilt(
    root: MemoryRoot, caplog: pytest.LogCaptureFixture
) -> None:
    svc = MemorySearch(root, SearchSettings(provider="none"))
    svc.sync()
    svc.close()
    db = root.index_dir / "search.sqlite"
    data = db.read_bytes()
    db.write_bytes(data[:100] + b"\0" * (len(data) - 100))
    with caplog.at_level(logging.WARNING):
        again = MemorySearch(root, SearchSettings(provider="none"))
        assert "静安区" in again.search("上海出差")[0].snippet
    assert "rebuilt" in caplog.text
    again.close()


def test_a_huge_limit_is_a_usage_error(
    root: MemoryRoot, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(["search", "上海", "--limit", str(10**30), "--workspace", str(root.path)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--limit" in err, err


def test_a_search_answers_while_another_program_holds_the_database(
    root: MemoryRoot, caplog: pytest.LogCaptureFixture
) -> None:
    first = MemorySearch(root, SearchSettings(provider="none"))
    first.sync()
    first.close()
    other = sqlite3.connect(root.index_dir / "search.sqlite", isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    svc = MemorySearch(root, SearchSettings(provider="none"))  # as a new CLI process would
    try:
        note = root.path / "memory/2026-11-28.md"
        note.write_text(note.read_text("utf-8") + "- 用户开始学习滑雪\n", "utf-8")
        started = time.monotonic()
        with caplog.at_level(logging.WARNING):
            hits = svc.search("上海出差")
        assert time.monotonic() - started < 5
        assert "静安区" in hits[0].snippet  # answered from what the index holds
        assert "another process" in caplog.text
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert "滑雪" in svc.search("滑雪")[0].snippet  # and catches up once it is free
    svc.close()


def test_index_waits_for_another_writer_then_fails_with_one_line(
    root: MemoryRoot, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service_module, "LOCK_WAIT_S", 0.3)
    held, release = threading.Event(), threading.Event()

    def writer() -> None:
        with file_lock(root.index_dir / ".lock"):
            held.set()
            release.wait(10)

    thread = threading.Thread(target=writer)
    thread.start()
    held.wait(10)
    try:
        code = cli.main(["index", "--workspace", str(root.path), "--provider", "none"])
    finally:
        release.set()
        thread.join()
    err = capsys.readouterr().err
    assert code == 2 and err.strip().endswith("try again") and "Traceback" not in err, err
    assert cli.main(["index", "--workspace", str(root.path), "--provider", "none"]) == 0


def test_an_older_index_is_rebuilt_keeping_its_embedding_cache(
    root: MemoryRoot, embeddings_server: FakeEmbeddings
) -> None:
    settings = SearchSettings(
        provider="openai",
        api_key="sk-test",
        base_url=embeddings_server.base_url,
        openai_model="fake-embed",
    )
    first = MemorySearch(root, settings)
    first.sync()
    state = first._state
    assert state is not None
    assert state.vectors.model is not None
    chunks = state.store.chunks_after(0)
    codes = state.store.cached(state.vectors.model, [c.text_hash for c in chunks])
    rows = [(c.text, codes[c.text_hash]) for c in chunks]
    first.close()
    import numpy as np

    (root.index_dir / "search.sqlite").unlink()
    old = sqlite3.connect(root.index_dir / "search.sqlite")
    old.executescript(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE chunks (id INTEGER PRIMARY KEY, path TEXT, text TEXT);"
        "CREATE TABLE embeddings (model_key TEXT NOT NULL, text_hash TEXT NOT NULL,"
        " dim INTEGER NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (model_key, text_hash));"
    )
    for text, code in rows:
        vector = np.frombuffer(code, np.float16).astype(np.float32)
        digest = text_hash(text).hex() + "0" * 32  # layout 1 kept the whole SHA-256 in hex
        old.execute(
            "INSERT INTO embeddings VALUES ('openai:fake-embed', ?, ?, ?)",
            (digest, len(vector), vector.tobytes()),
        )
    old.commit()
    old.close()
    embeddings_server.calls.clear()
    again = MemorySearch(root, settings)
    report = again.sync()
    assert report.rebuilt and report.vectors == report.chunks == len(rows)
    assert embeddings_server.calls == []
    assert not (root.index_dir / "search.sqlite.old").exists()
    again.close()


def test_an_empty_index_folder_file_is_not_confused_with_a_database(tmp_path: Path) -> None:
    base = tmp_path / "r"
    write(base, "memory/2026-11-28.md", "- 用户喜欢爬山\n")
    (base / "memory/.index").mkdir(parents=True)
    (base / "memory/.index/search.sqlite").write_bytes(b"")
    svc = MemorySearch(MemoryRoot.at(base), SearchSettings(provider="none"))
    assert svc.search("爬山")[0].path == "memory/2026-11-28.md"
    svc.close()


def test_damage_found_while_searching_rebuilds_the_index(
    root: MemoryRoot, caplog: pytest.LogCaptureFixture
) -> None:
    svc = MemorySearch(root, SearchSettings(provider="none"))
    svc.sync()
    svc.close()
    path = root.index_dir / "search.sqlite"
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    [page] = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'chunks'").fetchone()
    size = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    with open(path, "r+b") as handle:  # the chunks table's root page: garbage
        handle.seek((page - 1) * size)
        handle.write(b"\xa5" * size)
    with caplog.at_level(logging.WARNING):
        again = MemorySearch(root, SearchSettings(provider="none"))
        hits = again.search("上海出差")
    assert "静安区" in hits[0].snippet and "damaged" in caplog.text
    again.close()


def test_a_layout_3_index_is_rebuilt_keeping_its_float16_cache(
    root: MemoryRoot, embeddings_server: FakeEmbeddings
) -> None:
    """Layouts 2 and 3 kept one row of float16 codes a text (``embeddings.vector``)."""
    settings = SearchSettings(
        provider="openai",
        api_key="sk-test",
        base_url=embeddings_server.base_url,
        openai_model="fake-embed",
    )
    first = MemorySearch(root, settings)
    chunks = first.sync().chunks
    state = first._state
    assert state is not None and state.vectors.model is not None
    model = state.vectors.model
    stored = state.store.chunks_after(0)
    codes = state.store.cached(model, [c.text_hash for c in stored])
    first.close()
    db = sqlite3.connect(root.index_dir / "search.sqlite")
    db.executescript(
        "DROP TABLE embeddings; DROP TABLE vector_blocks;"
        "CREATE TABLE embeddings (id INTEGER PRIMARY KEY, model INTEGER NOT NULL,"
        " text_hash BLOB NOT NULL, vector BLOB NOT NULL, UNIQUE (model, text_hash));"
        "UPDATE meta SET value = '3' WHERE key = 'schema';"
    )
    db.executemany(
        "INSERT INTO embeddings(model, text_hash, vector) VALUES (?, ?, ?)",
        [(model, digest, code) for digest, code in codes.items()],
    )
    db.commit()
    db.close()
    embeddings_server.calls.clear()
    again = MemorySearch(root, settings)
    report = again.sync()
    assert report.rebuilt and report.vectors == report.chunks == chunks
    assert embeddings_server.calls == []
    again.close()
