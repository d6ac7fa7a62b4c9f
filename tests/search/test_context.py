"""Context widening and the joining of touching hits, with exact spans and budgets."""

from __future__ import annotations

from dataclasses import dataclass

from memory.search.context import widen

PATH = "memory/2026-11-20.md"
LINES = {n: f"- A: line {n:02d} says something" for n in range(5, 20)}  # 28 characters each


@dataclass(frozen=True)
class H:
    path: str
    start_line: int
    end_line: int
    snippet: str


class Lines:
    def line_at(self, path: str, line: int) -> str | None:
        return LINES.get(line) if path == PATH else None


def hit(start: int, end: int) -> H:
    return H(PATH, start, end, "\n".join(LINES[n] for n in range(start, end + 1)))


def test_a_touching_hit_joins_the_earlier_one_and_frees_its_place() -> None:
    out = widen([hit(8, 9), hit(10, 11), hit(15, 15)], Lines(), 60)
    # 8-9 (57 characters) cannot widen within 60; 10-11 joins it (57 more, within 2 x 60)
    assert [(h.start_line, h.end_line) for h in out] == [(8, 11), (15, 15)]
    assert out[0].snippet == "\n".join(LINES[n] for n in range(8, 12))


def test_a_join_that_does_not_fit_the_next_place_keeps_its_own() -> None:
    out = widen([hit(8, 9), hit(10, 11)], Lines(), 50)
    assert [(h.start_line, h.end_line) for h in out] == [(8, 9), (10, 11)]


def test_a_hit_inside_an_earlier_widened_one_adds_nothing() -> None:
    out = widen([hit(10, 10), hit(11, 11), hit(17, 17)], Lines(), 200)
    assert out[0].start_line <= 10 and out[0].end_line >= 11
    assert len(out) == 2 and out[1].start_line <= 17 <= out[1].end_line


def test_notes_bullets_and_other_files_never_join() -> None:
    note = H(PATH, 5, 5, "- 用户住在杭州")
    other = H("memory/2026-11-21.md", 6, 6, "- A: hello there")
    out = widen([note, H(PATH, 6, 6, "- 用户喜欢茶"), other], Lines(), 100)
    assert [(h.path, h.start_line, h.end_line) for h in out] == [
        (PATH, 5, 5),
        (PATH, 6, 6),
        ("memory/2026-11-21.md", 6, 6),
    ]
