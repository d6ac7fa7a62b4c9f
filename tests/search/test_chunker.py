from memory.provenance import strip_comments
from memory.search.chunker import (
    Chunk,
    ChunkerConfig,
    chunk_text,
    importance_of,
    split_long,
)


def test_bullets_group_with_neighbours_and_keep_line_numbers() -> None:
    text = "# Daily Memory: 2026-11-28\n\n## Trimmed Context\n\n- 一\n- 二\n- 三\n\n- 四\n"
    chunks = chunk_text("memory/2026-11-28.md", text, ChunkerConfig(max_lines=2, max_chars=100))
    assert [(c.start_line, c.end_line, c.text) for c in chunks] == [
        (5, 6, "- 一\n- 二"),
        (7, 7, "- 三"),
        (9, 9, "- 四"),
    ]


def test_headings_and_blank_lines_end_a_group() -> None:
    text = "- a line\n## Heading\n- another line\n"
    chunks = chunk_text("MEMORY.md", text, ChunkerConfig(max_lines=5, max_chars=100))
    assert [(c.start_line, c.end_line) for c in chunks] == [(1, 1), (3, 3)]


def test_provenance_comment_stripped_and_importance_kept() -> None:
    line = "- 用户偏好美式咖啡 <!-- src: memory/2026-11-28.md#L12; importance: 0.8 -->"
    [chunk] = chunk_text("MEMORY.md", "# MEMORY\n\n" + line + "\n")
    assert chunk == Chunk("MEMORY.md", 3, 3, "- 用户偏好美式咖啡", 0.8)
    assert strip_comments(line) == "- 用户偏好美式咖啡"
    assert importance_of("- x <!-- src: a; importance: 7 -->") == 1.0
    assert importance_of("- x <!-- src: memory/a.md#L1 -->") is None


def test_long_cjk_line_is_cut_into_pieces_citing_the_same_line() -> None:
    line = "- " + "长" * 1000
    chunks = chunk_text("memory/2026-01-01.md", "x\n" + line, ChunkerConfig(max_chars=300))
    assert chunks[0].text == "x"
    pieces = chunks[1:]
    assert len(pieces) == 4
    assert all(c.start_line == c.end_line == 2 for c in pieces)
    assert "".join(c.text for c in pieces) == line
    assert max(len(c.text) for c in pieces) <= 300


def test_long_line_prefers_spaces() -> None:
    assert split_long("aaaa bbbb cccc", 9) == ["aaaa bbbb", "cccc"]


def test_surrogate_pairs_and_joiners_are_never_split() -> None:
    family = "👨\u200d👩\u200d👧"
    text = "😀𠀋" * 50 + family * 20
    pieces = split_long(text, 7)
    assert "".join(pieces) == text
    for piece in pieces:
        piece.encode("utf-8")  # no lone surrogates
        assert not piece.startswith("\u200d") and not piece.endswith("\u200d")


def test_memory_and_archive_items_are_one_chunk_each() -> None:
    text = "# MEMORY\n\n## Facts\n- one\n- two\n  continued\n- three\n"
    chunks = chunk_text("MEMORY.md", text, ChunkerConfig(max_lines=2, max_chars=100))
    assert [(c.start_line, c.end_line) for c in chunks] == [(4, 4), (5, 6), (7, 7)]


def test_archive_title_and_intro_are_not_indexed() -> None:
    text = (
        "# Memory Archive\n\nItems that left MEMORY.md: why, when, and their sources. "
        "Still searchable.\n\n- 用户以前喝拿铁 <!-- src: memory/2026-06-02.md#L5; "
        "reason: superseded; archived: 2026-07-01 -->\n"
    )
    chunks = chunk_text("memory/archive.md", text)
    assert [(c.start_line, c.text) for c in chunks] == [(5, "- 用户以前喝拿铁")]
