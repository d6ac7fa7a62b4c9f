"""Running a dream cycle safely: lock, skip rules, the phases, accounting, one commit."""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from datetime import datetime

from memory.conflicts import open_conflicts
from memory.dream.commit import commit_cycle, stores, summary
from memory.dream.context import DreamContext
from memory.dream.grounding import Similarity
from memory.dream.inputs import gather, input_hash
from memory.dream.judgement import interruptible
from memory.dream.model import (
    MAX_DAYS,
    MIN_DAYS,
    DreamEngine,
    DreamInputs,
    DreamOptions,
    DreamReport,
    Proposal,
    new_items,
)
from memory.dream.registry import ENGINE_CHOICES, choose_engine, phases
from memory.dream.session_source import window_digest
from memory.dream.short_term import load_short_term
from memory.dream.state import append_event, load_state, root_lock, save_state
from memory.dream.text_memo import using as text_memo
from memory.dream.upkeep import TierView, upkeep_due
from memory.dream.verdicts import open_verdicts
from memory.errors import DreamRefused, ModelError, UsageError
from memory.llm import ChatModel
from memory.memory_file import cited_lines
from memory.paths import MemoryRoot
from memory.provenance import ref_lines
from memory.recall_store import read_recalls
from memory.transaction import Fault

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
        ctx = open_context(root, options, now, engine, model=model, cancel=cancel)
        ctx.tiers = TierView.read(
            root, options.tiers, now.date(), ctx.recalls.recalls, ctx.inputs.archive
        )
        report = _dream(ctx, fault)
        if options.people is not None and not options.dry_run:
            from memory.people.phase import people_pass  # people build on the dream's judges

            report.people = people_pass(ctx, options.people, model)
        return report


def open_context(
    root: MemoryRoot,
    options: DreamOptions,
    now: datetime,
    engine: DreamEngine,
    *,
    model: ChatModel | None = None,
    cancel: threading.Event | None = None,
) -> DreamContext:
    """Everything a cycle reads, read once (the caller holds the lock if it will write)."""
    inputs = gather(root, now.date(), options)
    ctx = DreamContext(
        root,
        options,
        now,
        engine,
        inputs,
        read_recalls(root),
        load_short_term(root),
        model=model if engine.name == "llm" else None,
        cancel=cancel,
    )
    ctx.inputs = dataclasses.replace(inputs, check=ctx.check)
    return ctx


def _due(ctx: DreamContext) -> list[str]:
    """The core's upkeep due today (tier moves, the budget): none outside a dream cycle."""
    if ctx.tiers is None:
        return []
    return upkeep_due(ctx.tiers, ctx.inputs, ctx.options.token_budget)


def _dream(ctx: DreamContext, fault: Fault | None) -> DreamReport:
    root, options, inputs = ctx.root, ctx.options, ctx.inputs
    report = DreamReport(status="skipped", engine=ctx.engine.name)
    state = load_state(root)
    due = _due(ctx)
    logs = window_digest(root, ctx.now.date(), options.days)
    store_digests = stores(ctx.recalls, ctx.short_term.loaded_digest, due, logs)
    digest = input_hash(inputs, ctx.engine.name, options, store_digests)
    if not inputs.notes and not due and not logs:
        report.reason = f"no daily notes in the last {options.days} day(s)"
    elif not options.force and state.get("last_success", {}).get("hash") == digest:
        when = state["last_success"].get("time", "?")
        report.reason = f"inputs unchanged since the last dream ({when})"
    else:
        try:
            with interruptible(ctx.check), text_memo(root.state_dir, save=not options.dry_run):
                for phase in phases():
                    ctx.check()
                    started, cpu = time.perf_counter(), time.process_time()
                    phase.run(ctx)
                    log.debug(
                        "phase %s: %.3f s (CPU %.3f s)",
                        phase.name,
                        time.perf_counter() - started,
                        time.process_time() - cpu,
                    )
            _save_verdicts(ctx)
            assert ctx.state.deep is not None, "the deep phase did not run"
            proposal = ctx.state.deep.proposal
            check_accounting(inputs, proposal)
        except (ModelError, DreamRefused) as exc:
            report.status, report.reason = "failed", str(exc)
        else:
            ctx.check()
            fill_report(report, ctx, proposal)
            return commit_cycle(ctx, proposal, report, state, fault)
    if not options.dry_run:
        _record(root, state, report, ctx.now)
    return report


def _save_verdicts(ctx: DreamContext) -> None:
    """Keep the pair verdicts the phases asked for (derived data, like the embeddings: a
    crash or a refused result leaves a cache that is right for any later dream)."""
    verdicts = open_verdicts(ctx.root.state_dir)
    if verdicts is not None and not ctx.options.dry_run:
        hits, misses = verdicts.counted()
        verdicts.save(prune=True)
        log.debug("verdicts: %d cached, %d judged", hits, misses)


def fill_report(report: DreamReport, ctx: DreamContext, proposal: Proposal) -> None:
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
    report.conflicts = len(open_conflicts(proposal.keep))
    light, rem, deep = ctx.state.light, ctx.state.rem, ctx.state.deep
    if light is not None:
        report.phases.light = {"candidates": len(light.candidates), "staged": light.staged}
    if rem is not None:
        report.phases.rem = {"themes": len(rem.themes), "truths": len(rem.truths)}
    if deep is not None:
        report.phases.deep = {"ranked": deep.ranked, "promoted": deep.promoted}


def _record(root: MemoryRoot, state: dict[str, object], report: DreamReport, now: datetime) -> None:
    stamp = now.isoformat(timespec="seconds")
    state = dict(state)
    state["last_run"] = summary(report, stamp)
    save_state(root, state)
    append_event(root, {"event": "dream", **summary(report, stamp)})
    if report.status == "failed":
        log.warning("dream on %s failed: %s", root.path, report.reason)
