"""Context filling: widen the chosen hits with neighbouring lines, within a character budget.

A hit is one chunk; in a conversation (``- Name: ...`` turns) the line just before or after
it often completes it (the question a reply answers, the reply a question gets). Notes
bullets stand alone and are left as they are. Hits are widened in rank order, alternately
with the previous and the next line of the same paragraph, while the running total of
snippet characters stays within ``per_hit_chars`` times the hit's rank: unused room of a
short early hit flows to later ones, and the top k hits never exceed ``k * per_hit_chars``.
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
    """``hits`` with neighbouring lines added to their spans and snippets."""
    taken = {(h.path, n) for h in hits for n in range(h.start_line, h.end_line + 1)}
    out: list[H] = []
    used = 0
    for rank, hit in enumerate(hits, start=1):
        budget = rank * per_hit_chars
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
