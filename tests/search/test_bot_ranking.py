"""Ranking problems found running the bot, through :class:`MemorySearch`: one-word session
turns ("谢谢", "thanks!", "好的") are no hits, and a MEMORY.md item written in the third
person ("The user is Lena, a nurse") takes on the relevance of the user's own words it was
distilled from when those words answer the question ("where do I work?")."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

from conftest import write

from memory.paths import MemoryRoot
from memory.search.chunker import chunk_text, is_chatter_turn
from memory.search.service import Hit, MemorySearch, SearchSettings
from memory.session_log import encode

DAY = date(2026, 11, 28)
ACKS = ["谢谢", "thanks!", "好的", "ok", "不客气！"]
MEMORY = (
    "# MEMORY\n\n"
    "- The user is Lena, a nurse at St. Mary's hospital <!-- src: memory/2026-11-20.md#L4 -->\n"
    "- The user goes swimming every Tuesday <!-- src: memory/2026-11-20.md#L6 -->\n"
    "- The user prefers green tea <!-- src: memory/2026-11-20.md#L9 -->\n"
)
NOTE = (
    "# Daily Memory: 2026-11-20\n\n## Trimmed Context (10:00)\n"
    "- User: I'm Lena, I work as a nurse at St. Mary's hospital\n"  # line 4
    "- User: my daughter Mia starts school next week\n"
    "- User: I go swimming every Tuesday\n"  # line 6, one chunk with line 7
    "- User: I am allergic to peanuts\n"
    "\n- User: I prefer green tea\n"  # line 9
)


def _root(tmp_path: Path) -> MemoryRoot:
    write(tmp_path, "MEMORY.md", MEMORY)
    write(tmp_path, "memory/2026-11-20.md", NOTE)
    at = [datetime(2026, 11, 28, 9, minute) for minute in range(10)]
    turns = [
        encode(at[0], "user", "谢谢"),
        encode(at[1], "assistant", "不客气！"),
        encode(at[2], "user", "my cat Miso is sick, thanks!"),
        encode(at[3], "user", "thanks!"),
        encode(at[4], "user", "好的"),
        encode(at[5], "user", "ok"),
    ]
    write(tmp_path, f"sessions/{DAY}.jsonl", "".join(t + "\n" for t in turns))
    return MemoryRoot.at(tmp_path)


def _search(root: MemoryRoot, query: str, provider: str = "none") -> list[Hit]:
    service = MemorySearch(root, SearchSettings(provider=provider))
    try:
        service.sync()
        return service.search(query, limit=6, now=DAY)
    finally:
        service.close()


def _spoken(hit: Hit) -> str:
    return hit.snippet.split(": ", 1)[-1]


def test_acknowledgements_are_not_hits(tmp_path: Path) -> None:
    root = _root(tmp_path)
    hits = _search(root, "thanks")
    assert [h.snippet for h in hits] == ["09:02 user: my cat Miso is sick, thanks!"]
    hits = _search(root, "谢谢 好的 ok")
    assert not any(_spoken(h) in ACKS for h in hits)


def test_acknowledgements_are_no_hits_of_a_small_memory_with_vectors(tmp_path: Path) -> None:
    hits = _search(_root(tmp_path), "how is my cat doing?", provider="local")
    assert hits and "Miso" in hits[0].snippet
    assert not any(_spoken(h) in ACKS for h in hits)


def test_a_chunk_of_only_acknowledgements_is_not_indexed() -> None:
    text = "## S\n- A: thanks!\n- B: 好的\n\n- A: ok\n- B: I moved to Porto\n"
    chunks = chunk_text("memory/2026-11-20.md", text)
    assert [(c.start_line, c.end_line) for c in chunks] == [(5, 6)]
    assert is_chatter_turn("- [D1:3] Mel: Thanks, Caroline!") is False  # a name is a word
    assert is_chatter_turn("- 用户: 好的，谢谢") is True
    assert is_chatter_turn("thanks") is False  # not a turn


def test_an_item_takes_the_relevance_of_the_words_it_was_distilled_from(tmp_path: Path) -> None:
    hits = _search(_root(tmp_path), "where do I work?")
    assert hits[0].path == "MEMORY.md" and "Lena, a nurse" in hits[0].snippet
    assert hits[1].path == "memory/2026-11-20.md" and hits[1].start_line == 4


def test_a_cited_line_beside_the_match_lends_nothing(tmp_path: Path) -> None:
    hits = _search(_root(tmp_path), "what am I allergic to?")
    assert hits[0].path == "memory/2026-11-20.md" and "peanuts" in hits[0].snippet
    assert not any("swimming" in h.snippet and h.path == "MEMORY.md" for h in hits)


def test_an_item_first_with_the_local_model(tmp_path: Path) -> None:
    hits = _search(_root(tmp_path), "where do I work?", provider="local")
    assert hits[0].path == "MEMORY.md" and "Lena, a nurse" in hits[0].snippet


def _hits_beside_turn(tmp_path: Path, spoken: str) -> list[Hit]:
    """The hits for "nurse hospital" when the session log holds only ``spoken``."""
    root = _root(tmp_path)
    turn = encode(datetime(2026, 11, 28, 9), "user", spoken)
    write(tmp_path, f"sessions/{DAY}.jsonl", turn + "\n")
    return _search(root, "nurse hospital")


def test_a_turn_a_daily_note_quotes_is_shown_once(tmp_path: Path) -> None:
    spoken = "I'm Lena, I work as a nurse at St. Mary's hospital"
    hits = _hits_beside_turn(tmp_path, spoken)
    assert any(h.path == "memory/2026-11-20.md" and spoken in h.snippet for h in hits)
    assert not any(h.path.startswith("sessions/") for h in hits)


def test_a_turn_worded_differently_by_the_note_stays(tmp_path: Path) -> None:
    hits = _hits_beside_turn(tmp_path, "the hospital moved my nurse shifts to nights")
    assert [h.path for h in hits if h.path.startswith("sessions/")] == [f"sessions/{DAY}.jsonl"]
