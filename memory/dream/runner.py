"""Running a Deep Dream safely: lock, skip rules, engine, accounting, one atomic commit."""

from __future__ import annotations

import dataclasses
import difflib
import logging
import threading
from datetime import datetime

from memory.dream import diary
from memory.dream.budget import memory_tokens
from memory.dream.context import DreamContext
from memory.dream.grounding import Similarity
from memory.dream.inputs import gather, input_hash
from memory.dream.model import (
    MAX_DAYS,
    MIN_DAYS,
    DreamInputs,
    DreamOptions,
    DreamReport,
    Proposal,
    new_items,
)
from memory.dream.registry import ENGINE_CHOICES, choose_engine, phases
from memory.dream.state import (
    append_event,
    load_state,
    root_lock,
    save_state,
    stage_snapshot,
    state_text,
)
from memory.dream.upkeep import TierView, entered_text, upkeep_due
from memory.dream.upkeep import digest as upkeep_digest
from memory.dream.upkeep import state_relative as upkeep_state
from memory.errors import DreamRefused, ModelError, UsageError
from memory.llm import ChatModel
from memory.memory_file import archive_entry, cited_lines, render_archive, render_memory
from memory.paths import MemoryRoot
from memory.provenance import ref_lines
from memory.recall_store import read_recalls
from memory.textfile import read_text
from memory.transaction import Fault, Transaction
from memory.usage import repair as repair_ledger

log = logging.getLogger(__name__)


def validate(options: DreamOptions) -> None:
    if not MIN_DAYS <= options.days <= MAX_DAYS:
        raise UsageError(f"--days must be between {MIN_DAYS} and {MAX_DAYS}, got {options.days}")
    if options.max_items < 1:
        raise UsageError(f"max_items must be at least 1, got {options.max_items}")
    if options.engine not in ENGINE_CHOICES:
        raise UsageError(f"unknown engine {options.engine!r}: use {', '.join(ENGINE_CHOICES)}")


def check_accounting(inputs: DreamInputs, proposal: Proposal) -> None:
    """Refuse a result that drops prior items without keeping or archiving them."""
    placed = proposal.keep + [item for item, _ in proposal.archive]
    lines = cited_lines(placed)
    texts = {i.text for i in placed}
    lost = [
        old for old in inputs.prior if old.text not in texts and not ref_lines(old.sources) <= lines
    ]
    if lost:
        raise DreamRefused(
            f"refused: the result would lose {len(lost)} prior item(s), e.g. {lost[0].text!r}"
        )


def run_dream(
    root: MemoryRoot,
    options: DreamOptions,
    *,
    model: ChatModel | None,
    now: datetime,
    similarity: Similarity | None = None,
    fault: Fault | None = None,
    cancel: threading.Event | None = None,
) -> DreamReport:
    """Run one dream cycle (the phases in order) on ``root``. Raises :class:`Busy` when one
    already runs there, :class:`UsageError` for bad options and :class:`DreamInterrupted`
    when ``cancel`` is set before the commit; model failures come back as
    ``status="failed"``."""
    validate(options)
    engine = choose_engine(options, model, similarity)
    with root_lock(root):
        inputs = gather(root, now.date(), options)
        recalls = read_recalls(root)
        tiers = TierView.read(root, options.tiers, now.date(), recalls.recalls)
        ctx = DreamContext(root, options, now, engine, inputs, recalls, cancel=cancel, tiers=tiers)
        return _dream(ctx, fault)


def _stores(ctx: DreamContext, due: list[str]) -> dict[str, str]:
    """The digests of the stores a dream reads, and of the core's upkeep due today."""
    return {"recalls": ctx.recalls.digest, "upkeep": upkeep_digest(due)}


def _due(ctx: DreamContext) -> list[str]:
    if ctx.tiers is None:
        return []
    return upkeep_due(ctx.tiers, ctx.inputs, ctx.options.token_budget)


def _dream(ctx: DreamContext, fault: Fault | None) -> DreamReport:
    root, options, inputs = ctx.root, ctx.options, ctx.inputs
    report = DreamReport(status="skipped", engine=ctx.engine.name)
    state = load_state(root)
    due = _due(ctx)
    digest = input_hash(inputs, ctx.engine.name, options, _stores(ctx, due))
    if not inputs.notes and not due:
        report.reason = f"no daily notes in the last {options.days} day(s)"
    elif not options.force and state.get("last_success", {}).get("hash") == digest:
        when = state["last_success"].get("time", "?")
        report.reason = f"inputs unchanged since the last dream ({when})"
    else:
        try:
            for phase in phases():
                ctx.check()
                phase.run(ctx)
            assert ctx.state.deep is not None, "the deep phase did not run"
            proposal = ctx.state.deep.proposal
            check_accounting(inputs, proposal)
        except (ModelError, DreamRefused) as exc:
            report.status, report.reason = "failed", str(exc)
        else:
            ctx.check()
            _fill(report, ctx, proposal)
            return _write(ctx, proposal, report, state, fault)
    if not options.dry_run:
        _record(root, state, report, ctx.now)
    return report


def _fill(report: DreamReport, ctx: DreamContext, proposal: Proposal) -> None:
    inputs = ctx.inputs
    report.status = "done"
    report.items = len(inputs.handwritten) + len(proposal.keep)
    report.merged = proposal.merged
    report.superseded = len(proposal.superseded)
    report.archived = len(proposal.archive)
    report.rejected = len(proposal.rejected)
    report.returned = len(proposal.returned)
    back = cited_lines(item for item, _ in proposal.returned)  # not new: back from the archive
    fresh = new_items(inputs.prior, proposal.keep)
    report.added = sum(1 for i in fresh if not ref_lines(i.sources) <= back)
    deep = ctx.state.deep
    if deep is not None:
        report.phases.deep = {"ranked": deep.ranked, "promoted": deep.promoted}


def _write(
    ctx: DreamContext,
    proposal: Proposal,
    report: DreamReport,
    state: dict[str, object],
    fault: Fault | None,
) -> DreamReport:
    root, options, inputs, now = ctx.root, ctx.options, ctx.inputs, ctx.now
    today = now.date()
    new_memory = render_memory(inputs.memory, proposal.keep)
    report.tokens = memory_tokens(new_memory)
    report.diary = diary.entry(inputs, proposal, report, now, options.days)
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
    diary_path = root.diary(today)
    old_diary = read_text(diary_path)
    stamp = now.isoformat(timespec="seconds")
    # Hash what the next dream will read (the notes and this new MEMORY.md), so that a
    # second dream over unchanged notes is skipped.
    after = dataclasses.replace(
        inputs, lines={**inputs.lines, "MEMORY.md": new_memory.splitlines()}
    )
    digest = input_hash(after, report.engine, options, _stores(ctx, []))  # moves done
    state = dict(state)
    state["last_success"] = {"time": stamp, "engine": report.engine, "hash": digest}
    state["last_run"] = _summary(report, stamp)

    txn = Transaction(root)
    stage_snapshot(root, txn, {"time": stamp, "kind": "dream", "engine": report.engine})
    txn.write("MEMORY.md", new_memory)
    txn.write(root.relative(root.archive), new_archive)
    txn.write(
        root.relative(diary_path), diary.append_entry(old_diary, today.isoformat(), report.diary)
    )
    txn.write(root.relative(root.state_dir / "state.json"), state_text(state))
    if ctx.tiers is not None:
        txn.write(upkeep_state(root), entered_text(proposal.keep, ctx.tiers.entered, today))
    txn.commit(fault)
    append_event(root, {"event": "dream", **_summary(report, stamp)})
    if ctx.tiers is not None and ctx.tiers.ledger.needs_repair(today):
        repair_ledger(root, today)
    return report


def _summary(report: DreamReport, stamp: str) -> dict[str, object]:
    data = report.to_dict()
    data.pop("diary", None)
    return {"time": stamp, **data}


def _record(root: MemoryRoot, state: dict[str, object], report: DreamReport, now: datetime) -> None:
    stamp = now.isoformat(timespec="seconds")
    state = dict(state)
    state["last_run"] = _summary(report, stamp)
    save_state(root, state)
    append_event(root, {"event": "dream", **_summary(report, stamp)})
    if report.status == "failed":
        log.warning("dream on %s failed: %s", root.path, report.reason)


def _diff(name: str, old: str, new: str) -> str:
    return "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{name}", f"b/{name}"
        )
    )
