"""The one commit of a dream cycle (and of ``promote --apply``): every file in one transaction.

Written together: MEMORY.md, the archive, the diary (with the story of the phases), the
phase reports, the short-term store, the state (input hash, last results) and the undo
snapshot, and in a dream cycle the day each cited line entered MEMORY.md (the tiers'
``tiers.json``). ``--dry-run`` stops before and returns the diff instead. After the commit a
recall store (and usage ledger) with unreadable or expired lines is repaired under its
writers' lock.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
from collections.abc import Sequence
from typing import Any

from memory.dream import diary, reports
from memory.dream.budget import memory_tokens
from memory.dream.context import DreamContext
from memory.dream.inputs import input_hash
from memory.dream.model import DreamReport, Proposal
from memory.dream.session_source import cursor_path, used_source, window_digest
from memory.dream.short_term import FILE as SHORT_TERM
from memory.dream.short_term import ShortTerm, store_path, text_digest, write_store
from memory.dream.state import append_event, stage_snapshot, state_text
from memory.dream.upkeep import digest as upkeep_digest
from memory.dream.upkeep import entered_text
from memory.dream.upkeep import state_relative as upkeep_state
from memory.memory_file import archive_entry, render_archive, render_memory
from memory.recall_store import KEEP_DAYS, RecallRead, repair
from memory.textfile import read_text
from memory.transaction import Fault, Transaction
from memory.usage import repair as repair_ledger


def stores(
    recalls: RecallRead, short_term_digest: str, upkeep: Sequence[str] = (), sessions: str = ""
) -> dict[str, str]:
    """The digests of the two stores, of the core's upkeep due (tier moves, the budget) and
    of the window's session logs: part of a dream's input hash."""
    return {
        "recalls": recalls.digest,
        "short_term": short_term_digest,
        "upkeep": upkeep_digest(upkeep),
        "sessions": sessions,
    }


def summary(report: DreamReport, stamp: str) -> dict[str, Any]:
    data = report.to_dict()
    data.pop("diary", None)
    return {"time": stamp, **data}


def phase_results(ctx: DreamContext, stamp: str) -> dict[str, Any]:
    """Each phase's last result, kept in the state for ``status --deep`` and the bot."""
    out: dict[str, Any] = {}
    light, rem, deep = ctx.state.light, ctx.state.rem, ctx.state.deep
    if light is not None:
        out["light"] = {
            "time": stamp,
            "candidates": len(light.candidates),
            "staged": light.staged,
            "dropped": light.dropped,
            "merged": light.merged,
        }
    if rem is not None:
        out["rem"] = {"time": stamp, "themes": len(rem.themes), "truths": len(rem.truths)}
    if deep is not None:
        out["deep"] = {"time": stamp, "ranked": deep.ranked, "promoted": deep.promoted}
    return out


def commit_cycle(
    ctx: DreamContext,
    proposal: Proposal,
    report: DreamReport,
    state: dict[str, Any],
    fault: Fault | None,
    *,
    kind: str = "dream",
) -> DreamReport:
    root, options, inputs, now = ctx.root, ctx.options, ctx.inputs, ctx.now
    today = now.date()
    zh = diary.notes_language(inputs) == "zh"
    new_memory = render_memory(inputs.memory, proposal.keep)
    report.tokens = memory_tokens(new_memory)
    entry = diary.entry(inputs, proposal, report, now, options.days)
    told = reports.story(ctx, zh)
    report.diary = entry + (
        f"\n### {'三个阶段' if zh else 'The three phases'}\n\n{told}\n" if told else ""
    )
    old_memory = "\n".join(inputs.lines["MEMORY.md"])
    old_memory += "\n" if old_memory else ""
    old_archive = read_text(root.archive)
    entries = [archive_entry(item, reason, today) for item, reason in proposal.archive]
    new_archive = render_archive(old_archive, entries)
    if options.dry_run:
        report.reason = "dry run: nothing written"
        report.diff = _diff("MEMORY.md", old_memory, new_memory) + _diff(
            "memory/archive.md", old_archive, new_archive
        )
        return report
    stamp = now.isoformat(timespec="seconds")
    store = ctx.state.light.store if ctx.state.light else ctx.short_term
    # Hash what the next dream will read (the notes, this new MEMORY.md, the stores as
    # written), so that a second dream over unchanged inputs is skipped.
    after = dataclasses.replace(
        inputs, lines={**inputs.lines, "MEMORY.md": new_memory.splitlines()}
    )
    rendered = store.render()
    logs = window_digest(root, today, options.days)
    digest = input_hash(
        after, report.engine, options, stores(ctx.recalls, text_digest(rendered), (), logs)
    )
    state = dict(state)
    state["last_success"] = {"time": stamp, "engine": report.engine, "hash": digest}
    state["last_run"] = summary(report, stamp)
    state["phases"] = {**state.get("phases", {}), **phase_results(ctx, stamp)}

    txn = Transaction(root)
    stage_snapshot(root, txn, {"time": stamp, "kind": kind, "engine": report.engine})
    txn.write("MEMORY.md", new_memory)
    txn.write(root.relative(root.archive), new_archive)
    diary_path = root.diary(today)
    txn.write(
        root.relative(diary_path),
        diary.append_entry(read_text(diary_path), today.isoformat(), report.diary),
    )
    _write_store(ctx, txn, store, rendered)
    for phase in ("light", "rem", "deep"):
        if getattr(ctx.state, phase) is not None:
            path = root.phase_report(phase, today)
            text = reports.report(read_text(path), phase, today.isoformat(), ctx, zh)
            txn.write(root.relative(path), text)
    txn.write(root.relative(root.state_dir / "state.json"), state_text(state))
    source = used_source(ctx.state.light.live.sources) if ctx.state.light else None
    if source is not None and (source.logs or cursor_path(root).exists()):
        txn.write(root.relative(cursor_path(root)), source.cursor_text())  # read this far
    if ctx.tiers is not None:  # the day each line entered MEMORY.md
        txn.write(upkeep_state(root), entered_text(proposal.keep, ctx.tiers.entered, today))
    txn.commit(fault)
    append_event(root, {"event": kind, **summary(report, stamp)})
    oldest = min((r.day for r in ctx.recalls.recalls), default=today)
    if ctx.recalls.bad_lines or (today - oldest).days > KEEP_DAYS:
        repair(root, today)
    if ctx.tiers is not None and ctx.tiers.ledger.needs_repair(today):
        repair_ledger(root, today)
    return report


def _write_store(ctx: DreamContext, txn: Transaction, store: ShortTerm, text: str | None) -> None:
    if ctx.short_term.problem:  # keep the file that could not be read, for inspection
        raw = (ctx.root.state_dir / SHORT_TERM).read_bytes()
        stamp = hashlib.sha1(raw).hexdigest()[:8]
        txn.write(f"{store_path(ctx.root)}.bad-{stamp}", raw.decode("utf-8", errors="replace"))
    write_store(ctx.root, txn, store, text)


def _diff(name: str, old: str, new: str) -> str:
    return "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{name}", f"b/{name}"
        )
    )
