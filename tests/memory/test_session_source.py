"""Incremental ingestion of the session log: cursors, rewrites, truncation, torn lines."""

from __future__ import annotations

from datetime import datetime

from mem_support import at

from memory import session_log
from memory.dream.session_source import (
    Cursor,
    SessionLog,
    cursor_path,
    cursors_text,
    ingest,
    load_cursors,
)
from memory.forget import apply_forget, plan_forget
from memory.paths import MemoryRoot

DAY = at(29).date()


def say(
    root: MemoryRoot,
    content: str,
    role: str = "user",
    name: str | None = None,
    when: datetime | None = None,
) -> None:
    when = when or at(29, 10)
    session_log.append(root, when, [session_log.encode(when, role, content, name)])


def texts(lines: list) -> list[tuple[int, str]]:  # type: ignore[type-arg]
    return [(n.line, n.text) for n in lines]


def test_only_what_users_said_is_evidence_and_groups_keep_the_speaker(root: MemoryRoot) -> None:
    say(root, "I live in Lyon")
    say(root, "Lyon is lovely", role="assistant")
    say(root, "明天去杭州", name="张三")
    source = SessionLog(root, DAY, 3, cursors={})
    assert texts(list(source.lines())) == [(1, "I live in Lyon"), (3, "张三: 明天去杭州")]
    first = source.lines()[0]
    assert (first.path, first.day, first.ref) == (
        "sessions/2026-11-29.jsonl",
        DAY,
        "sessions/2026-11-29.jsonl#L1",
    )
    assert source.owns("sessions/2026-11-29.jsonl") and not source.owns("memory/2026-11-29.md")
    raw = session_log.log_path(root, DAY).read_text(encoding="utf-8").splitlines()
    assert [source.text(r) for r in raw] == ["I live in Lyon", None, "张三: 明天去杭州"]


def test_a_second_dream_reads_only_the_new_lines(root: MemoryRoot) -> None:
    say(root, "I live in Lyon")
    first = SessionLog(root, DAY, 3, cursors={})
    assert first.new_bytes > 0
    cursors = first.cursors()
    say(root, "I have two cats")
    second = SessionLog(root, DAY, 3, cursors=cursors)
    assert texts(list(second.lines())) == [(2, "I have two cats")]
    assert second.reread == []
    assert second.new_bytes == session_log.log_path(root, DAY).stat().st_size - (
        cursors["sessions/2026-11-29.jsonl"].size
    )
    third = SessionLog(root, DAY, 3, cursors=second.cursors())
    assert list(third.lines()) == [] and third.new_bytes == 0


def test_lines_that_live_candidates_cite_are_read_again(root: MemoryRoot) -> None:
    say(root, "I live in Lyon")
    say(root, "hello")
    cursors = SessionLog(root, DAY, 3, cursors={}).cursors()
    say(root, "I live in Lyon, near the river")
    again = SessionLog(root, DAY, 3, cursors=cursors, keep=[("sessions/2026-11-29.jsonl", 1)])
    assert texts(list(again.lines())) == [
        (1, "I live in Lyon"),
        (3, "I live in Lyon, near the river"),
    ]


def test_a_rewritten_log_is_read_again_from_the_start(root: MemoryRoot) -> None:
    say(root, "the surprise party for Zora is on Friday")
    say(root, "I live in Lyon")
    cursors = SessionLog(root, DAY, 3, cursors={}).cursors()
    apply_forget(root, plan_forget(root, "Zora"))
    again = SessionLog(root, DAY, 3, cursors=cursors)
    assert again.reread == ["sessions/2026-11-29.jsonl"]
    assert texts(list(again.lines())) == [(2, "I live in Lyon")]  # the numbering is kept


def test_a_truncated_log_is_read_again(root: MemoryRoot) -> None:
    for text in ("one fact", "two facts", "three facts"):
        say(root, text)
    cursors = SessionLog(root, DAY, 3, cursors={}).cursors()
    path = session_log.log_path(root, DAY)
    path.write_text(path.read_text(encoding="utf-8").splitlines(keepends=True)[0])
    again = SessionLog(root, DAY, 3, cursors=cursors)
    assert again.reread == ["sessions/2026-11-29.jsonl"]
    assert texts(list(again.lines())) == [(1, "one fact")]


def test_a_torn_last_line_waits_for_the_next_dream(root: MemoryRoot) -> None:
    say(root, "I live in Lyon")
    path = session_log.log_path(root, DAY)
    with open(path, "ab") as handle:
        handle.write(b'{"time": "2026-11-29T10:00:00+08:00", "role": "user", "content": "I ha')
    source = SessionLog(root, DAY, 3, cursors={})
    assert texts(list(source.lines())) == [(1, "I live in Lyon")]
    say(root, "I have two cats")  # the writer cuts the torn line first
    again = SessionLog(root, DAY, 3, cursors=source.cursors())
    assert again.reread == [] and texts(list(again.lines())) == [(2, "I have two cats")]


def test_only_the_window_is_read_and_cursors_round_trip(root: MemoryRoot) -> None:
    say(root, "old news", when=at(20, 9))
    say(root, "fresh news", when=at(28, 9))
    source = SessionLog(root, DAY, 3, cursors={})
    assert [n.text for n in source.lines()] == ["fresh news"]
    cursor_path(root).parent.mkdir(parents=True, exist_ok=True)
    cursor_path(root).write_text(source.cursor_text(), encoding="utf-8")
    assert load_cursors(root) == source.cursors()
    assert list(load_cursors(root)) == ["sessions/2026-11-28.jsonl"]
    cursor_path(root).write_text("{not json", encoding="utf-8")
    assert load_cursors(root) == {}


def test_ingest_of_a_missing_log_is_empty(root: MemoryRoot) -> None:
    item = ingest(root, DAY, Cursor())
    assert (item.fresh, item.reread, item.cursor, item.new_bytes) == ([], False, Cursor(), 0)
    assert cursors_text({}) == '{\n "cursors": {},\n "version": 1\n}\n'
