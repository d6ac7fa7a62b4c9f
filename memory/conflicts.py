"""Open conflicts in MEMORY.md: two (or more) current statements about the same thing that
disagree, where nothing said which replaced which.

Each side stays in MEMORY.md, marked: the provenance comment carries ``conflict: c1`` and
the bullet shows ``[open conflict c1]`` after its text, so the model sees the mark in the
prompt (and is told to ask rather than guess). A person settles it with ``/memory
resolve`` (:mod:`memory.resolve`): keep one side, keep both (each then carries
``settled: c1``, so a later dream does not reopen it), or drop one. This module holds the
pure parts: reading the conflicts of a document, numbering new ones, unmarking a conflict
left with one side.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from memory.memory_file import CONFLICT, SETTLED, MemoryItem

_ID = re.compile(r"^c(\d+)$")
PROMPT_NOTE = (
    "Items marked [open conflict …] contradict each other and nobody has said which is "
    "right: do not pick one; if it matters, ask the user which is true."
)


@dataclass(frozen=True)
class Conflict:
    """One open conflict: its id and its sides, in MEMORY.md's order."""

    id: str
    items: tuple[MemoryItem, ...]


def open_conflicts(items: Iterable[MemoryItem]) -> list[Conflict]:
    """The conflicts among ``items`` with at least two sides, by number; each conflict's
    sides in the order they were said (their first source), numbered from 1 so."""
    groups: dict[str, list[MemoryItem]] = {}
    for item in items:
        if item.conflict:
            groups.setdefault(item.conflict, []).append(item)
    found = [
        Conflict(cid, tuple(sorted(sides, key=_said_first)))
        for cid, sides in groups.items()
        if len(sides) > 1
    ]
    return sorted(found, key=lambda c: id_order(c.id))


def _said_first(item: MemoryItem) -> tuple[str, int]:
    first = min(item.sources, default=None)
    return (first.path, first.start) if first else ("", 0)


def conflicts_json(conflicts: Iterable[Conflict]) -> list[dict[str, object]]:
    """``status``'s ``conflicts``: each id with its sides (numbered from 1) and sources."""
    return [
        {
            "id": c.id,
            "sides": [
                {"side": n, "text": i.text, "sources": [str(r) for r in i.sources]}
                for n, i in enumerate(c.items, start=1)
            ],
        }
        for c in conflicts
    ]


def id_order(cid: str) -> tuple[int, str]:
    match = _ID.match(cid)
    return (int(match.group(1)) if match else 1 << 30, cid)


def with_conflict(item: MemoryItem, cid: str) -> MemoryItem:
    """``item`` marked as a side of ``cid`` (unmarked when ``cid`` is "")."""
    fields = tuple((k, v) for k, v in item.fields if k != CONFLICT)
    if cid:
        fields += ((CONFLICT, cid),)
    return item if fields == item.fields else replace(item, fields=fields)


def settled(item: MemoryItem, cid: str) -> MemoryItem:
    """``item`` unmarked, remembering that a person kept it beside the other sides of ``cid``."""
    fields = tuple((k, v) for k, v in item.fields if k not in (CONFLICT, SETTLED))
    return replace(item, fields=(*fields, (SETTLED, cid)))


def settled_ids(items: Iterable[MemoryItem]) -> set[str]:
    return {v for item in items for k, v in item.fields if k == SETTLED}


def unmark_lonely(items: Sequence[MemoryItem]) -> list[MemoryItem]:
    """``items`` with the mark taken off a conflict left with one side (the other side was
    superseded, archived or cut)."""
    sides: dict[str, int] = {}
    for item in items:
        if item.conflict:
            sides[item.conflict] = sides.get(item.conflict, 0) + 1
    return [with_conflict(i, "") if i.conflict and sides[i.conflict] < 2 else i for i in items]


def assign_ids(groups: Sequence[Sequence[Sequence[str]]], taken: Iterable[str] = ()) -> list[str]:
    """An id for each group of sides, given the ids its sides already carry: a group keeps
    the lowest id one of its sides had (unless an earlier group took it), else gets the next
    free ``cN`` (never one in ``taken``: the ids in use or settled in the document)."""
    used = set(taken)
    claimed: set[str] = set()
    out: list[str] = []
    pending: list[int] = []
    for n, group in enumerate(groups):
        had = sorted({cid for side in group for cid in side if cid} - claimed, key=id_order)
        out.append(had[0] if had else "")
        if had:
            claimed.add(had[0])
        else:
            pending.append(n)
    used |= claimed
    number = 1
    for n in pending:
        while f"c{number}" in used:
            number += 1
        out[n] = f"c{number}"
        used.add(out[n])
    return out
