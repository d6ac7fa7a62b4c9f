"""The session log: redacted appends, crash safety, concurrency, forget, search, grounding."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mem_support import at

from memory import session_log
from memory.dream.grounding import cited_text, verify
from memory.dream.inputs import gather
from memory.dream.model import DreamOptions
from memory.errors import StorageError
from memory.forget import apply_forget, plan_forget
from memory.paths import MemoryRoot
from memory.provenance import SourceRef
from memory.search.chunker import ChunkerConfig
from memory.search.service import MemorySearch, SearchSettings
from memory.search.tools import memory_get

REPO = Path(__file__).resolve().parents[2]
WHEN = at(29, 14, 5)


def say(root: MemoryRoot, content: str, role: str = "user", name: str | None = None) -> Path:
    return session_log.append(root, WHEN, [session_log.encode(WHEN, role, content, name)]).path


def lines_of(path: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_turn_is_one_redacted_line_in_the_file_of_its_day(root: MemoryRoot) -> None:
    path = say(root, "my api_key=sk-abcdefghijklmnopqrstuvwxyz, I live in Lyon")
    say(root, "Noted.", role="assistant")
    say(root, "明天去杭州", name="张三")
    assert path == root.path / "sessions" / "2026-11-29.jsonl"
    first, second, third = lines_of(path)
    assert first == {
        "time": "2026-11-29T14:05:00+08:00",
        "role": "user",
        "content": "my api_key=[REDACTED], I live in Lyon",
    }
    assert second["role"] == "assistant" and "name" not in second
    assert third["name"] == "张三" and third["content"] == "明天去杭州"
    fourth = session_log.append(root, WHEN, [session_log.encode(WHEN, "user", "four")])
    assert fourth.ref == "sessions/2026-11-29.jsonl#L4"
    assert "sk-abcdefghijklmnopqrstuvwxyz" not in path.read_text(encoding="utf-8")


def test_a_torn_last_line_is_cut_before_the_next_append(root: MemoryRoot) -> None:
    path = say(root, "first")
    with open(path, "ab") as handle:  # a writer killed half-way through its line
        handle.write(b'{"time": "2026-11-29T14:06:00+08:00", "role": "us')
    assert [t and t.content for t in session_log.read_turns(path)] == ["first"]
    say(root, "second")
    assert [t["content"] for t in lines_of(path)] == ["first", "second"]


def test_a_failed_write_leaves_the_file_as_it_was(
    root: MemoryRoot, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = say(root, "kept")
    before = path.read_bytes()
    real_write = os.write

    def half_then_full(fd: int, data: bytes | memoryview) -> int:
        if len(data) > 40:
            real_write(fd, bytes(data[:40]))
            return 40
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", half_then_full)
    with pytest.raises(StorageError, match="No space left"):
        say(root, "a long turn that does not fit on the full disk at all")
    monkeypatch.undo()
    assert path.read_bytes() == before


WRITER = """
import os, sys
from datetime import datetime
from zoneinfo import ZoneInfo
os.fsync = lambda fd: None  # the disk is not under test here: the locking is
from memory import session_log
from memory.paths import MemoryRoot
root = MemoryRoot.at(sys.argv[1])
writer, count = sys.argv[2], int(sys.argv[3])
when = datetime(2026, 11, 29, 14, 5, tzinfo=ZoneInfo("Asia/Shanghai"))
for n in range(count):
    text = f"writer {writer} turn {n} " + "字" * (n % 50)
    session_log.append(root, when, [session_log.encode(when, "user", text, f"w{writer}")])
"""


def test_eight_writers_lose_and_interleave_nothing(root: MemoryRoot) -> None:
    turns = 1000
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(root.path), str(n), str(turns)], cwd=REPO
        )
        for n in range(8)
    ]
    assert [w.wait(timeout=120) for w in writers] == [0] * 8
    stored = session_log.read_turns(session_log.log_path(root, WHEN.date()))
    assert len(stored) == 8 * turns and None not in stored
    for n in range(8):
        mine = [t.content for t in stored if t is not None and t.name == f"w{n}"]
        assert mine == [f"writer {n} turn {i} " + "字" * (i % 50) for i in range(turns)]


def test_a_killed_writer_never_breaks_the_file(root: MemoryRoot) -> None:
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(root.path), "k", "100000"], cwd=REPO
    )
    path = session_log.log_path(root, WHEN.date())
    deadline = time.monotonic() + 60
    while (not path.exists() or path.stat().st_size < 20_000) and time.monotonic() < deadline:
        time.sleep(0.01)
    writer.send_signal(signal.SIGKILL)
    writer.wait(timeout=30)
    say(root, "after the crash")
    stored = session_log.read_turns(path)
    assert None not in stored
    assert stored[-1] is not None and stored[-1].content == "after the crash"
    numbers = [int(t.content.split()[3]) for t in stored[:-1] if t is not None]
    assert numbers == list(range(len(numbers)))


def test_forget_tombstones_session_lines_and_keeps_the_numbering(root: MemoryRoot) -> None:
    say(root, "I live in Lyon")
    say(root, "the surprise party for Zora is on Friday")
    say(root, "Zora must not know", name="Bo")
    plan = plan_forget(root, "Zora")
    assert [(p, n) for p, n, _ in plan.matches] == [
        ("sessions/2026-11-29.jsonl", 2),
        ("sessions/2026-11-29.jsonl", 3),
    ]
    assert apply_forget(root, plan) == 2
    path = session_log.log_path(root, WHEN.date())
    stored = lines_of(path)
    assert [t["content"] for t in stored] == ["I live in Lyon", "[forgotten]", "[forgotten]"]
    assert "Zora" not in path.read_text(encoding="utf-8")
    assert "Bo" not in path.read_text(encoding="utf-8")
    assert plan_forget(root, "Zora").matches == []
    say(root, "appended after the forget")
    assert len(lines_of(path)) == 4


def test_search_finds_a_turn_before_any_note_and_cites_its_line(root: MemoryRoot) -> None:
    say(root, "hello")
    say(root, "My sister Amelie moved to Grenoble last spring")
    service = MemorySearch(root, SearchSettings(provider="none", timezone="Asia/Shanghai"))
    try:
        hits = service.search("where does Amelie live", limit=3, min_score=0.0)
    finally:
        service.close()
    assert hits and (hits[0].path, hits[0].start_line, hits[0].end_line) == (
        "sessions/2026-11-29.jsonl",
        2,
        2,
    )
    assert hits[0].snippet.startswith("14:05 user: My sister Amelie moved to Grenoble")
    got = memory_get(root, "sessions/2026-11-29.jsonl", 2, 1)
    assert got["text"] == "14:05 user: My sister Amelie moved to Grenoble last spring"


def test_search_can_leave_the_session_log_out(root: MemoryRoot) -> None:
    say(root, "My sister Amelie moved to Grenoble last spring")
    settings = SearchSettings(provider="none", chunker=ChunkerConfig(sessions=False))
    service = MemorySearch(root, settings)
    try:
        assert service.search("Amelie Grenoble", limit=3, min_score=0.0) == []
    finally:
        service.close()


def test_grounding_resolves_session_lines(root: MemoryRoot) -> None:
    say(root, "明天去杭州出差", name="张三")
    say(root, "I live in Lyon")
    inputs = gather(root, WHEN.date(), DreamOptions())
    lines = session_log.folder(root) / "2026-11-29.jsonl"
    inputs.lines["sessions/2026-11-29.jsonl"] = lines.read_text(encoding="utf-8").splitlines()
    ref = SourceRef("sessions/2026-11-29.jsonl", 1, 1)
    assert cited_text([ref], inputs) == (["张三: 明天去杭州出差"], None)
    assert verify("张三明天去杭州出差", [ref], inputs).ok
    assert not verify("The user lives in Paris", [SourceRef(ref.path, 2, 2)], inputs).ok
    missing = verify("I live in Lyon", [SourceRef(ref.path, 3, 3)], inputs)
    assert missing.reason == "cites a line that does not exist: sessions/2026-11-29.jsonl#L3"


def test_forget_takes_the_words_out_of_the_search_index(root: MemoryRoot) -> None:
    say(root, "the surprise party for Zora is at the gym")
    service = MemorySearch(root, SearchSettings(provider="none"))
    try:
        assert service.search("surprise party", limit=3, min_score=0.0)
    finally:
        service.close()
    assert b"Zora" in (root.index_dir / "search.sqlite").read_bytes()
    apply_forget(root, plan_forget(root, "Zora"))
    assert not root.index_dir.exists()
    service = MemorySearch(root, SearchSettings(provider="none"))
    try:
        assert service.search("surprise party", limit=3, min_score=0.0) == []
    finally:
        service.close()
