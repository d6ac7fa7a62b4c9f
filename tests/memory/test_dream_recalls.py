"""The recall store: hits recorded with their note lines, concurrent writers lose nothing,
unreadable lines are counted and set aside, never fatal."""

from __future__ import annotations

import multiprocessing
import threading
from dataclasses import dataclass
from datetime import date

from mem_support import NOW, at, note

from memory.paths import MemoryRoot
from memory.provenance import SourceRef
from memory.recall_store import read_recalls, record_hits, repair, store_path


@dataclass(frozen=True)
class FakeHit:
    path: str
    start_line: int
    end_line: int
    score: float


def test_note_hits_are_recorded_with_query_day_and_score(root: MemoryRoot) -> None:
    note(root, at(28), "用户喜欢美式咖啡")
    hits = [
        FakeHit("memory/2026-11-28.md", 4, 4, 0.72),
        {"path": "memory/2026-11-28.md", "start_line": 3, "end_line": 4, "score": 0.5},
    ]
    assert record_hits(root, "咖啡", hits, when=NOW, via="cli") == 2
    read = read_recalls(root)
    assert read.bad_lines == 0
    first, second = read.recalls
    assert (first.query, first.day, first.score, first.via) == ("咖啡", NOW.date(), 0.72, "cli")
    assert first.refs == (SourceRef("memory/2026-11-28.md", 4, 4),)
    assert second.refs == (SourceRef("memory/2026-11-28.md", 3, 4),)


def test_memory_md_hits_become_the_items_sources(root: MemoryRoot) -> None:
    root.path.mkdir(parents=True, exist_ok=True)
    root.memory_md.write_text(
        "# MEMORY\n\n## Preferences\n"
        "- 用户喜欢美式咖啡 <!-- src: memory/2026-11-28.md#L4; memory/2026-11-29.md#L6 -->\n"
        "- hand-written, no sources\n",
        encoding="utf-8",
    )
    assert record_hits(root, "coffee", [FakeHit("MEMORY.md", 4, 5, 0.9)], when=NOW, via="tool")
    (recall,) = read_recalls(root).recalls
    assert recall.refs == (
        SourceRef("memory/2026-11-28.md", 4, 4),
        SourceRef("memory/2026-11-29.md", 6, 6),
    )
    # a hit on a hand-written item alone stands for no note line: nothing to record
    assert record_hits(root, "x", [FakeHit("MEMORY.md", 5, 5, 0.9)], when=NOW, via="tool") == 0


def test_queries_are_redacted(root: MemoryRoot) -> None:
    note(root, at(28), "the wifi is called CowNet")
    query = "wifi password: hunter2hunter2 sk-abcdefghijklmnopqrstuvwx"
    record_hits(root, query, [FakeHit("memory/2026-11-28.md", 4, 4, 0.5)], when=NOW, via="cli")
    stored = store_path(root).read_text(encoding="utf-8")
    assert "hunter2hunter2" not in stored and "sk-abcdefghijklmnop" not in stored


def _write_many(path: str, worker: int, count: int) -> None:
    root = MemoryRoot.at(path)
    for n in range(count):
        hit = FakeHit("memory/2026-11-28.md", n + 1, n + 1, 0.5)
        record_hits(root, f"q{worker}-{n}", [hit, hit], when=NOW, via="cli")


def test_concurrent_writers_lose_nothing(root: MemoryRoot) -> None:
    root.path.mkdir(parents=True, exist_ok=True)
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_write_many, args=(str(root.path), w, 60)) for w in range(3)]
    threads = [threading.Thread(target=_write_many, args=(str(root.path), 9, 60))]
    for p in procs:
        p.start()
    for t in threads:
        t.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    for t in threads:
        t.join(60)
    read = read_recalls(root)
    assert read.bad_lines == 0
    assert len(read.recalls) == 4 * 60 * 2
    assert len({r.query for r in read.recalls}) == 4 * 60


def test_unreadable_lines_are_counted_then_set_aside(root: MemoryRoot) -> None:
    note(root, at(28), "用户喜欢美式咖啡")
    record_hits(root, "咖啡", [FakeHit("memory/2026-11-28.md", 4, 4, 0.7)], when=NOW, via="cli")
    with open(store_path(root), "ab") as handle:
        handle.write(b'{"time": "torn\n\xff\xfe garbage\n{"refs": ["../x"]}\n')
    record_hits(root, "美式", [FakeHit("memory/2026-11-28.md", 4, 4, 0.6)], when=NOW, via="cli")
    read = read_recalls(root)
    assert [r.query for r in read.recalls] == ["咖啡", "美式"]
    assert read.bad_lines == 3
    assert repair(root, NOW.date()) == 3
    assert read_recalls(root).bad_lines == 0
    assert [r.query for r in read_recalls(root).recalls] == ["咖啡", "美式"]
    assert store_path(root).with_name("recalls.jsonl.bad").read_bytes().count(b"\n") == 3


def test_repair_drops_recalls_older_than_the_retention(root: MemoryRoot) -> None:
    note(root, at(28), "用户喜欢美式咖啡")
    record_hits(
        root, "old", [FakeHit("memory/2026-11-28.md", 4, 4, 0.7)], when=at(1, month=3), via="cli"
    )
    record_hits(root, "new", [FakeHit("memory/2026-11-28.md", 4, 4, 0.7)], when=NOW, via="cli")
    assert repair(root, date(2026, 11, 29)) == 1
    assert [r.query for r in read_recalls(root).recalls] == ["new"]
    assert repair(root, date(2026, 11, 29)) == 0  # nothing left to do: the file is untouched
