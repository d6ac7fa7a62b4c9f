"""Resolving an open conflict of MEMORY.md (``/memory resolve``, the console).

A person keeps one side (``keep N``: the others leave), drops one (``drop N``: the rest
stay, still in conflict if two or more remain), or keeps both (``both``: every side stays,
unmarked, and carries ``settled: <id>`` so a later dream does not reopen it). A side that
leaves goes to the archive with reason ``conflict-dropped`` and its sources: its lines are
no evidence for later dreams, and it never returns by use alone. Nothing is invented: the
sides keep their own sources, and the diary tells who decided, when and what. One atomic
commit with an undo snapshot (``/memory undo`` puts MEMORY.md and the archive back).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal, cast

from memory import clock
from memory.conflicts import Conflict, open_conflicts, settled, with_conflict
from memory.dream import diary
from memory.dream.state import append_event, root_lock, stage_snapshot
from memory.errors import UsageError
from memory.memory_file import (
    MemoryItem,
    archive_entry,
    parse_memory,
    render_archive,
    render_memory,
)
from memory.paths import MemoryRoot
from memory.segment import has_cjk
from memory.textfile import read_text
from memory.transaction import Fault, Transaction

Action = Literal["keep", "drop", "both"]
ACTIONS: tuple[Action, ...] = ("keep", "drop", "both")
REASON = "conflict-dropped"


@dataclass(frozen=True)
class Resolution:
    id: str
    action: Action
    kept: tuple[MemoryItem, ...]
    dropped: tuple[MemoryItem, ...]
    still_open: bool = False  # ``drop`` left two or more sides in conflict


def find_conflict(conflicts: list[Conflict], cid: str) -> Conflict:
    """The conflict named ``cid`` ("c1", or just "1")."""
    if not conflicts:
        raise UsageError("there is no open conflict in MEMORY.md")
    wanted = cid.strip().lower()
    wanted = wanted if wanted.startswith("c") else f"c{wanted}"
    for conflict in conflicts:
        if conflict.id == wanted:
            return conflict
    known = ", ".join(c.id for c in conflicts)
    raise UsageError(f"no open conflict {cid.strip() or '?'} in MEMORY.md (open: {known})")


def check_choice(conflict: Conflict, action: str, side: int | None) -> Action:
    """``action`` and ``side`` checked against ``conflict``; a clear error otherwise."""
    if action not in ACTIONS:
        raise UsageError("resolve takes keep N, drop N or both")
    if action == "both":
        if side is not None:
            raise UsageError("resolve takes keep N, drop N or both")
        return "both"
    if side is None or not 1 <= side <= len(conflict.items):
        raise UsageError(f"conflict {conflict.id} has sides 1 to {len(conflict.items)}")
    return cast(Action, action)


def plan(conflict: Conflict, action: Action, side: int | None) -> Resolution:
    """What resolving ``conflict`` so does (pure)."""
    items = conflict.items
    if action == "both":
        return Resolution(conflict.id, action, tuple(settled(i, conflict.id) for i in items), ())
    assert side is not None
    chosen = items[side - 1]
    if action == "keep":
        others = tuple(i for i in items if i is not chosen)
        return Resolution(conflict.id, action, (with_conflict(chosen, ""),), others)
    rest = tuple(i for i in items if i is not chosen)
    still = len(rest) > 1
    kept = rest if still else tuple(with_conflict(i, "") for i in rest)
    return Resolution(conflict.id, action, kept, (chosen,), still_open=still)


def resolve(
    root: MemoryRoot,
    cid: str,
    action: str,
    side: int | None = None,
    *,
    now: datetime | None = None,
    by: str = "",
    fault: Fault | None = None,
) -> Resolution:
    """Resolve the open conflict ``cid`` of ``root``'s MEMORY.md in one undoable commit."""
    now = now or clock.now()
    with root_lock(root):
        old_memory = read_text(root.memory_md)
        doc = parse_memory(old_memory)
        conflict = find_conflict(open_conflicts(doc.items), cid)
        chosen = check_choice(conflict, action, side)
        result = plan(conflict, chosen, side)
        replaced = dict(_pairs(conflict, result))
        generated = [replaced.get(i, i) for i in doc.generated if i not in result.dropped]
        new_memory = render_memory(doc, generated)
        today = now.date()
        old_archive = read_text(root.archive)
        entries = [archive_entry(with_conflict(i, ""), REASON, today) for i in result.dropped]
        new_archive = render_archive(old_archive, entries)
        stamp = now.isoformat(timespec="seconds")
        diary_path = root.diary(today)
        zh = sum(has_cjk(i.text) for i in conflict.items) * 2 >= len(conflict.items)
        text = diary.append_entry(
            read_text(diary_path), today.isoformat(), entry(result, now, by, zh)
        )
        txn = Transaction(root)
        stage_snapshot(root, txn, {"time": stamp, "kind": "resolve", "conflict": conflict.id})
        txn.write("MEMORY.md", new_memory)
        txn.write(root.relative(root.archive), new_archive)
        txn.write(root.relative(diary_path), text)
        txn.commit(fault)
        append_event(
            root,
            {
                "event": "resolve",
                "time": stamp,
                "conflict": conflict.id,
                "action": chosen,
                "side": side,
                "by": by,
                "kept": [i.text for i in result.kept],
                "dropped": [i.text for i in result.dropped],
            },
        )
    return result


def _pairs(conflict: Conflict, result: Resolution) -> list[tuple[MemoryItem, MemoryItem]]:
    """Each side that stays, with what it becomes."""
    staying = [i for i in conflict.items if i not in result.dropped]
    return list(zip(staying, result.kept, strict=True))


def entry(result: Resolution, now: datetime, by: str, zh: bool) -> str:
    """The diary's section for a resolution: who, when, what stayed and what left, with
    the lines each side cites."""

    def side(item: MemoryItem) -> str:
        refs = "; ".join(str(r) for r in item.sources)
        return f"  - “{item.text}” ({refs})"

    who = f" ({by})" if by else ""
    if zh:
        head = f"## 解决矛盾 {result.id}（{now:%H:%M}{who}）"
        what = {"keep": "保留一方", "drop": "舍弃一方", "both": "两方都保留"}[result.action]
        lines = [head, "", f"一个人做了决定：{what}。", "", "- 保留："]
        lines += [side(i) for i in result.kept]
        if result.dropped:
            lines += ["- 移入归档（解决矛盾时舍弃）："] + [side(i) for i in result.dropped]
        if result.still_open:
            lines.append("- 其余各方仍有矛盾。")
        return "\n".join(lines) + "\n"
    done = {"keep": "kept one side", "drop": "dropped one side", "both": "kept both sides"}
    lines = [f"## Conflict {result.id} resolved ({now:%H:%M}{who})", ""]
    lines += [f"A person decided: {done[result.action]}.", "", "- Kept:"]
    lines += [side(i) for i in result.kept]
    if result.dropped:
        lines += ["- To the archive (dropped when the conflict was resolved):"]
        lines += [side(i) for i in result.dropped]
    if result.still_open:
        lines.append("- The remaining sides are still in conflict.")
    return "\n".join(lines) + "\n"
