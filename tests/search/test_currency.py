"""What the citations of MEMORY.md and the archive tell search (:mod:`memory.search.currency`)."""

from datetime import date
from pathlib import Path

from conftest import write

from memory.memory_file import parse_archive, parse_memory
from memory.paths import MemoryRoot
from memory.search.currency import DREAM_DAYS, CurrencyReader, currency_of
from memory.search.store import FileRow

MEMORY = (
    "# MEMORY\n\n"
    "- 用户叫王芳，对花生过敏 <!-- src: memory/2026-11-17.md#L4 -->\n"  # line 3
    "- The user moved to Porto in November 2026 <!-- src: memory/2026-11-19.md#L4 -->\n"
    "- The user goes swimming <!-- src: memory/2026-11-19.md#L5; memory/2026-12-03.md#L4 -->\n"
    "- The user likes jazz <!-- src: memory/2026-10-01.md#L4 -->\n"  # line 6: too old
    "- Call mum on Sundays\n"  # hand-written
)
ARCHIVE = (
    "# Memory Archive\n\n"
    "- 用户住在杭州 <!-- src: memory/2026-11-17.md#L4; reason: superseded; "
    "archived: 2026-11-20 -->\n"
    "- The user lives in Berlin <!-- src: memory/2026-09-02.md#L4-L5; reason: superseded; "
    "archived: 2026-11-20 -->\n"
    "- The user drinks latte <!-- src: memory/2026-09-02.md#L5; reason: cold; "
    "archived: 2026-11-20 -->\n"
    "- An undated change <!-- src: notes.md#L1; reason: superseded -->\n"
)


def test_successors_are_the_items_the_retiring_dream_read_and_not_the_rest_of_a_line() -> None:
    currency = currency_of(parse_memory(MEMORY).generated, parse_archive(ARCHIVE))
    assert currency.superseded == {("memory/archive.md", n) for n in (3, 4, 6)}
    # line 5 of 09-02 is still cited (the cold latte entry); 11-17 L4 by the kept clause
    assert currency.replaced == {("memory/2026-09-02.md", 4), ("notes.md", 1)}
    # the Hangzhou entry: not the Wang Fang item (it cites the same line), nor jazz (older)
    assert currency.successors[("memory/archive.md", 3)] == {4, 5}
    # Berlin: the items citing a line of the 3 days the retiring dream read (not 11-17, jazz)
    assert currency.successors[("memory/archive.md", 4)] == {4, 5}
    assert currency.successors[("memory/2026-09-02.md", 4)] == {4, 5}
    assert ("memory/2026-09-02.md", 5) not in currency.successors
    # undated sources and no archive date bound nothing: every dated item may be the heir
    assert currency.successors[("memory/archive.md", 6)] == {3, 4, 5, 6}
    assert currency.as_of == {
        3: date(2026, 11, 17),
        4: date(2026, 11, 19),
        5: date(2026, 12, 3),
        6: date(2026, 10, 1),
    }


def test_the_window_is_the_dream_s_own() -> None:
    from memory.dream import DreamOptions

    assert DreamOptions().days == DREAM_DAYS


def test_a_note_chunk_with_a_live_line_is_not_the_old_wording() -> None:
    currency = currency_of(parse_memory(MEMORY).generated, parse_archive(ARCHIVE))
    assert currency.holds_replaced("memory/2026-09-02.md", 4, 4)
    assert not currency.holds_replaced("memory/2026-09-02.md", 4, 5)  # the latte line is live
    assert currency.successors_of("memory/2026-09-02.md", 3, 4) == {4, 5}
    assert currency.successors_of("memory/2026-09-02.md", 4, 5) == set()
    assert currency.successors_of("memory/archive.md", 3, 3) == {4, 5}
    assert currency.successors_of("memory/archive.md", 5, 5) == set()  # cold, not replaced


def test_the_reader_reads_again_only_when_a_file_changed(tmp_path: Path) -> None:
    write(tmp_path, "MEMORY.md", MEMORY)
    write(tmp_path, "memory/archive.md", ARCHIVE)
    reader = CurrencyReader(MemoryRoot.at(tmp_path))
    files = {"MEMORY.md": FileRow("a", 1, 1), "memory/archive.md": FileRow("b", 1, 1)}
    first = reader.read(files)
    assert first.successors and reader.read(files) is first
    write(tmp_path, "memory/archive.md", "# Memory Archive\n")
    assert reader.read(files) is first  # the index has not seen the change yet
    changed = reader.read({**files, "memory/archive.md": FileRow("c", 2, 2)})
    assert changed.superseded == frozenset() and changed.as_of == first.as_of
    assert reader.read({}).as_of == {}


def test_an_item_is_distilled_from_the_cited_line_that_answers_and_shares_its_words() -> None:
    currency = currency_of(parse_memory(MEMORY).generated, [])
    note = "memory/2026-11-19.md"
    chunk = "- User: I moved to Porto\n- User: I go swimming on Tuesdays"

    def says_porto(line: str) -> bool:
        return "Porto" in line

    # lines 4-5: only line 4 answers, and the Porto item shares "porto" with it
    assert currency.distilled_from(note, 4, 5, chunk, says_porto) == {4}
    # the swimming line sits beside the answer: it lends nothing
    assert currency.distilled_from(note, 4, 5, chunk, lambda line: "swimming" in line) == {5}
    assert currency.distilled_from(note, 4, 5, chunk, lambda line: False) == set()
    # a chunk of one line lends whatever made it relevant; the item must share a word
    assert currency.distilled_from(note, 5, 5, "- User: I go swimming", lambda _: False) == {5}
    assert currency.distilled_from(note, 5, 5, "- User: I ride a bike", lambda _: False) == set()
    # "用户" is everyone's word: the Wang Fang item shares nothing else with this line
    line = "- 用户: 我下周去上海出差"
    assert currency.distilled_from("memory/2026-11-17.md", 4, 4, line, lambda _: True) == set()
    # lines that are not the chunk's (a cut long line) lend nothing
    assert currency.distilled_from(note, 4, 5, "- User: I moved to Porto", says_porto) == set()
