"""``rem-backfill``: replay historical notes; the rollbacks remove exactly what it added.

``rem-backfill --path DIR`` replays each dated note of DIR (a folder inside the root) as
the light and REM phases would have seen it that night, and appends a diary entry
marked as backfill to ``memory/dreams/<that day>.md``, citing its lines. With
``--stage-short-term`` the grounded candidates of the replay also go into the short-term
store, marked ``backfill``. A ledger (``memory/.dreams/backfill.json``) keeps the exact text
each entry appended, so ``--rollback`` removes those entries and nothing else (a diary the
backfill created disappears again) and ``--rollback-short-term`` removes every candidate
marked ``backfill``. Each run is one transaction under the root's lock.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime, time
from pathlib import Path
from typing import Any

from memory.daily_notes import NoteLine
from memory.dream.context import DreamContext, DreamState
from memory.dream.evidence import DailyNotes, EvidenceSource
from memory.dream.light import stage
from memory.dream.model import DreamOptions
from memory.dream.preview import folder_notes
from memory.dream.registry import choose_engine
from memory.dream.rem import RemPhase
from memory.dream.runner import open_context
from memory.dream.short_term import ShortTerm, load_short_term, write_store
from memory.dream.state import root_lock
from memory.errors import UsageError
from memory.paths import MemoryRoot
from memory.recall_store import RecallRead
from memory.segment import has_cjk
from memory.textfile import read_text
from memory.transaction import Fault, Transaction

LEDGER = "backfill.json"
MARK = "<!-- backfill -->"


@dataclass
class BackfillResult:
    days: int = 0
    entries: int = 0
    staged: int = 0
    removed_entries: int = 0
    removed_candidates: int = 0
    missing: list[str] = field(default_factory=list)  # entries edited away since

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def ledger_path(root: MemoryRoot) -> Path:
    return root.state_dir / LEDGER


def _read_ledger(root: MemoryRoot) -> list[dict[str, Any]]:
    try:
        data = json.loads(ledger_path(root).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as exc:
        raise UsageError(
            f"the backfill ledger {LEDGER} is unreadable ({exc}); nothing done"
        ) from exc
    if not isinstance(data, list) or not all(isinstance(e, dict) for e in data):
        raise UsageError(f"the backfill ledger {LEDGER} is malformed; nothing done")
    return data


def _write_ledger(root: MemoryRoot, txn: Transaction, entries: list[dict[str, Any]]) -> None:
    relative = root.relative(ledger_path(root))
    if entries:
        txn.write(relative, json.dumps(entries, ensure_ascii=False, indent=1) + "\n")
    elif ledger_path(root).exists():
        txn.delete(relative)


def _entry(ctx: DreamContext, day: str, stamp: str) -> str:
    """The diary entry of one replayed night: what light and REM found, with sources."""
    light, rem = ctx.state.light, ctx.state.rem
    assert light is not None and rem is not None
    zh = sum(1 for n in ctx.inputs.notes if has_cjk(n.text)) * 2 >= len(ctx.inputs.notes)
    if zh:
        lines = [
            f"## 回放 {day}（{stamp} 补做）{MARK}",
            "",
            f"根据当天的笔记补做浅睡和快速眼动：{len(light.candidates)} 条候选，"
            f"{len(rem.themes)} 个主题，{len(rem.truths)} 条可能的长期事实。",
        ]
    else:
        lines = [
            f"## Backfill of {day} (replayed {stamp}) {MARK}",
            "",
            f"Light and REM replayed over that day's notes: {len(light.candidates)} "
            f"candidates, {len(rem.themes)} themes, {len(rem.truths)} possible lasting truths.",
        ]
    lines.append("")
    for cand in light.candidates[:10]:
        refs = ", ".join(str(r) for r in cand.refs[:3])
        lines.append(f"- “{cand.text}” <!-- src: {refs} -->")
    for theme in rem.themes[:5]:
        lines.append(f"- {'主题' if zh else 'Theme'}: {theme.label} ({len(theme.keys)})")
    return "\n".join(lines) + "\n"


def _replay(
    root: MemoryRoot, base: DreamContext, notes: list[NoteLine], folder: str, when: datetime
) -> DreamContext:
    """``base`` as it would have been at ``when``: that day's notes, the recalls up to it,
    an empty short-term store; then light and REM over it."""
    day = when.date()
    recalls = tuple(r for r in base.recalls.recalls if r.day <= day)
    ctx = dataclasses.replace(
        base,
        now=when,
        inputs=dataclasses.replace(base.inputs, notes=notes, today=day),
        recalls=RecallRead(recalls, 0, base.recalls.digest),
        short_term=ShortTerm(),
        state=DreamState(),
    )
    sources: list[EvidenceSource] = [DailyNotes(notes, folder)]
    ctx.state.light = stage(ctx, sources)
    RemPhase().run(ctx)
    return ctx


def backfill(
    root: MemoryRoot,
    folder: Path,
    now: datetime,
    *,
    stage_short_term: bool,
    fault: Fault | None = None,
) -> BackfillResult:
    resolved = folder.expanduser().resolve()
    if resolved != root.path and root.path not in resolved.parents:
        raise UsageError(f"--path must be a folder inside the memory root: {folder}")
    result = BackfillResult()
    with root_lock(root):
        ledger = _read_ledger(root)
        label, notes, files = folder_notes(root, resolved, None)
        options = DreamOptions(days=1, engine="extractive")
        base = open_context(root, options, now, choose_engine(options, None, None))
        base.inputs = dataclasses.replace(base.inputs, lines={**base.inputs.lines, **files})
        store = load_short_term(root)
        txn = Transaction(root)
        stamp = now.strftime("%Y-%m-%d %H:%M")
        diaries: dict[str, str] = {}
        for day in sorted({n.day for n in notes}):
            when = datetime.combine(day, time(23, 59), tzinfo=now.tzinfo)
            ctx = _replay(root, base, [n for n in notes if n.day == day], label, when)
            result.days += 1
            path = root.relative(root.diary(day))
            old = diaries.get(path, read_text(root.diary(day)))
            created = not old
            added = "" if old else f"# Dream Diary: {day.isoformat()}\n"
            added += (
                ("" if not old or old.endswith("\n") else "\n")
                + "\n"
                + _entry(ctx, day.isoformat(), stamp)
            )
            diaries[path] = old + added
            ledger.append({"path": path, "created": created, "text": added})
            result.entries += 1
            if stage_short_term:
                assert ctx.state.light is not None
                for cand in ctx.state.light.candidates:
                    key = "b" + hashlib.sha1(cand.key.encode()).hexdigest()[:11]
                    store.candidates[key] = dataclasses.replace(cand, key=key, origin="backfill")
                    result.staged += 1
        for path, text in diaries.items():
            txn.write(path, text)
        if stage_short_term:
            write_store(root, txn, store)
        _write_ledger(root, txn, ledger)
        txn.commit(fault)
    return result


def rollback(root: MemoryRoot, fault: Fault | None = None) -> BackfillResult:
    """Remove every backfill diary entry, restoring each diary as it was."""
    result = BackfillResult()
    with root_lock(root):
        ledger = _read_ledger(root)
        txn = Transaction(root)
        texts: dict[str, str] = {}
        for entry in reversed(ledger):
            path, added = str(entry["path"]), str(entry["text"])
            current = texts.get(path, read_text(root.resolve(path)))
            at = current.rfind(added)
            if at < 0:
                result.missing.append(path)
                continue
            texts[path] = current[:at] + current[at + len(added) :]
            result.removed_entries += 1
        for path, text in texts.items():
            if text:
                txn.write(path, text)
            else:
                txn.delete(path)
        _write_ledger(root, txn, [])
        txn.commit(fault)
    return result


def rollback_short_term(root: MemoryRoot, fault: Fault | None = None) -> BackfillResult:
    """Remove every candidate the backfill staged, and nothing else."""
    result = BackfillResult()
    with root_lock(root):
        store = load_short_term(root)
        if store.problem:
            raise UsageError(store.problem.replace("it is rebuilt from the notes", "nothing done"))
        for key in [k for k, c in store.candidates.items() if c.origin == "backfill"]:
            del store.candidates[key]
            result.removed_candidates += 1
        if result.removed_candidates:
            txn = Transaction(root)
            write_store(root, txn, store)
            txn.commit(fault)
    return result
