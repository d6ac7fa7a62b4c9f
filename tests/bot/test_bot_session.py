"""The session's bookkeeping of what the daily notes already hold."""

from __future__ import annotations

from pathlib import Path

from bot.session import ChatTurn, Session


def turn(text: str) -> ChatTurn:
    return ChatTurn("user", text)


def test_trimming_after_a_flush_hands_over_only_unflushed_turns(tmp_path: Path) -> None:
    session = Session(tmp_path / "s.json", "k")
    session.append(turn("My sister Lena lives in Oslo"))
    session.mark_flushed()  # a dream asked for in chat wrote it to the note
    for text in ("one", "two", "three"):
        session.append(turn(text))
    removed, unflushed = session.split_oldest(2)
    assert [t.content for t in removed] == ["My sister Lena lives in Oslo", "one"]
    assert [t.content for t in unflushed] == ["one"]
    assert [t.content for t in session.pending] == ["two", "three"]


def test_trimming_unflushed_turns_only(tmp_path: Path) -> None:
    session = Session(tmp_path / "s.json", "k")
    for text in ("a", "b", "c"):
        session.append(turn(text))
    removed, unflushed = session.split_oldest(2)
    assert removed == unflushed and [t.content for t in unflushed] == ["a", "b"]
    assert session.unflushed == 1
