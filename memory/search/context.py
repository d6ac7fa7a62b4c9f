"""Context filling: widen the chosen hits with neighbouring lines, within a character budget.

A hit is one chunk; in a conversation (``- Name: ...`` turns) the line just before or after
it often completes it (the question a reply answers, the reply a question gets). Notes
bullets stand alone and are left as they are. Hits are widened in rank order, alternately
with the previous and the next line of the same paragraph, while the running total of
snippet characters stays within ``per_hit_chars`` times the hit's rank: unused room of a
short early hit flows to later ones.

A later hit of turns that touches or overlaps an earlier one (two chunks of one passage, or
a chunk the earlier hit's widening already reached) joins it instead of taking a place of
its own, when the lines it adds fit within the room of the next place: the passage is shown
once, and the place goes to the next passage (a question whose evidence is spread over
several sessions gets more of them into the top 5). A joined hit's lines are not counted
against a rank of their own, so the top k may hold up to one hit's worth of characters more
than ``k * per_hit_chars``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from memory.provenance import Span
from memory.search.chunker import is_turn


class HitLike(Span, Protocol):
    @property
    def snippet(self) -> str: ...


H = TypeVar("H", bound=HitLike)


class LineSource(Protocol):
    def line_at(self, path: str, line: int) -> str | None: ...


def widen(hits: Sequence[H], lines: LineSource, per_hit_chars: int) -> list[H]:
    """``hits`` with neighbouring lines added to their spans and snippets; a later hit of
    turns that touches or overlaps an earlier one joins it (one passage, one hit)."""
    taken = {(h.path, n) for h in hits for n in range(h.start_line, h.end_line + 1)}
    out: list[H] = []
    used = 0
    for hit in hits:
        joined = _join(out, hit, lines)
        if joined is not None:
            index, passage = joined
            added = len(passage.snippet) - len(out[index].snippet)
            if used + added <= (len(out) + 1) * per_hit_chars:
                out[index] = passage
                used += added
                continue
        budget = (len(out) + 1) * per_hit_chars
        start, end, text = hit.start_line, hit.end_line, hit.snippet
        used += len(text)
        fixed = text.endswith("…") or not is_turn(text)
        blocked = {"before": fixed, "after": fixed}
        while not all(blocked.values()):
            for side in ("before", "after"):
                if blocked[side]:
                    continue
                number = start - 1 if side == "before" else end + 1
                line = None if (hit.path, number) in taken else lines.line_at(hit.path, number)
                if line is None or used + len(line) + 1 > budget:
                    blocked[side] = True
                    continue
                taken.add((hit.path, number))
                used += len(line) + 1
                if side == "before":
                    start, text = number, f"{line}\n{text}"
                else:
                    end, text = number, f"{text}\n{line}"
        widened: Any = replace(hit, start_line=start, end_line=end, snippet=text)  # type: ignore[type-var]
        out.append(widened)
    return out


def _join(out: Sequence[H], hit: H, lines: LineSource) -> tuple[int, H] | None:
    """The first hit of ``out`` whose turns ``hit``'s touch or overlap, and the passage
    of both (every line between them indexed, none cut); ``None`` when there is none."""
    if hit.snippet.endswith("…") or not is_turn(hit.snippet):
        return None
    for index, other in enumerate(out):
        if (
            other.path != hit.path
            or other.snippet.endswith("…")
            or not is_turn(other.snippet)
            or hit.start_line > other.end_line + 1
            or other.start_line > hit.end_line + 1
        ):
            continue
        start, end = min(hit.start_line, other.start_line), max(hit.end_line, other.end_line)
        texts = [lines.line_at(hit.path, n) for n in range(start, end + 1)]
        if any(t is None for t in texts):
            return None
        text = "\n".join(t for t in texts if t is not None)
        passage: Any = replace(other, start_line=start, end_line=end, snippet=text)  # type: ignore[type-var]
        return index, passage
    return None
