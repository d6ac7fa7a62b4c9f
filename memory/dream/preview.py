"""``rem-harness``, ``promote`` and ``promote-explain`` (read only) and ``promote --apply``.

The previews run the light and REM phases and the deep phase's scoring in memory: no
lock, no file written, not even a lock file. ``promote --apply`` runs the same phases
under the root's lock, then the deep phase over the prior items and the candidates that
pass, and commits like a dream (one transaction, undoable).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path

from memory.daily_notes import NoteLine, parse_note_text
from memory.dream.commit import commit_cycle
from memory.dream.context import DreamContext, Phase
from memory.dream.deep import DeepPhase
from memory.dream.evidence import DailyNotes, EvidenceSource
from memory.dream.light import LightPhase, SourceFactory
from memory.dream.model import DreamEngine, DreamOptions, DreamReport
from memory.dream.promotion import RANKED_STATUSES, Ranked, rank
from memory.dream.registry import choose_engine, evidence_sources
from memory.dream.rem import RemPhase
from memory.dream.runner import check_accounting, fill_report, open_context, validate
from memory.dream.state import load_state, root_lock
from memory.errors import DreamRefused, ModelError, UsageError
from memory.llm import ChatModel
from memory.paths import NOTE_NAME, MemoryRoot
from memory.textfile import read_optional
from memory.transaction import Fault

HARNESS_DAYS = 7  # rem-harness previews a week of notes, as REM looks back


@dataclass
class Preview:
    ctx: DreamContext
    ranking: list[Ranked] = field(default_factory=list)


def folder_notes(
    root: MemoryRoot, folder: Path, days: int | None
) -> tuple[str, list[NoteLine], dict[str, list[str]]]:
    """The dated notes of ``folder`` (the ``days`` most recent, or all): its label (the path
    relative to the root when inside it), their lines, and each file's text."""
    folder = folder.expanduser().resolve()
    if not folder.is_dir():
        raise UsageError(f"not a folder: {folder}")
    try:
        label = root.relative(folder)
    except ValueError:
        label = folder.as_posix()
    dated = []
    for child in sorted(folder.iterdir()):
        match = NOTE_NAME.match(child.name)
        if match and child.is_file():
            try:
                dated.append((date(*map(int, match.groups())), child))
            except ValueError:
                continue
    if days is not None:
        dated = dated[-days:]
    notes: list[NoteLine] = []
    files: dict[str, list[str]] = {}
    for day, path in dated:
        text = read_optional(path)
        if text is None:
            continue
        relative = f"{label}/{path.name}"
        files[relative] = text.splitlines()
        notes.extend(parse_note_text(text, relative, day))
    return label, notes, files


def _sources(folder: str) -> SourceFactory:
    def make(ctx: DreamContext) -> list[EvidenceSource]:
        return [DailyNotes(ctx.inputs.notes, folder)]

    return make


def run_preview(
    root: MemoryRoot,
    options: DreamOptions,
    now: datetime,
    *,
    folder: Path | None = None,
    days: int | None = None,
    engine: DreamEngine | None = None,
) -> Preview:
    """Light, REM and the deep ranking over ``root`` (or the notes of ``folder``); nothing
    is written."""
    validate(options)
    sources: SourceFactory = evidence_sources
    if folder is not None:
        label, notes, files = folder_notes(root, folder, days)
        # Historical notes are previewed as of their last night, not as stale today.
        last = max((n.day for n in notes), default=now.date())
        now = min(now, datetime.combine(last, time(23, 59), tzinfo=now.tzinfo))
    ctx = open_context(root, options, now, engine or choose_engine(options, None, None))
    if folder is not None:
        ctx.inputs = dataclasses.replace(
            ctx.inputs, notes=notes, lines={**ctx.inputs.lines, **files}
        )
        sources = _sources(label)
    phases: list[Phase] = [LightPhase(sources), RemPhase()]
    for phase in phases:
        phase.run(ctx)
    assert ctx.state.light is not None
    light = ctx.state.light
    ranking = rank(light.store, light.evidence, now.date(), options.thresholds, RANKED_STATUSES)
    return Preview(ctx, ranking)


def listed(preview: Preview, limit: int, include_promoted: bool) -> list[Ranked]:
    """What ``promote`` shows: best first, the promoted ones only when asked for."""
    shown = [r for r in preview.ranking if include_promoted or r.candidate.status != "promoted"]
    return shown[:limit]


@dataclass
class Applied:
    report: DreamReport
    applied: int
    preview: Preview


def apply_promotions(
    root: MemoryRoot,
    options: DreamOptions,
    now: datetime,
    *,
    model: ChatModel | None,
    limit: int,
    include_promoted: bool,
    fault: Fault | None = None,
) -> Applied:
    """Write the listed candidates that pass into MEMORY.md, as a dream would."""
    validate(options)
    engine = choose_engine(options, model, None)
    with root_lock(root):
        ctx = open_context(root, options, now, engine, model=None)
        for phase in (LightPhase(evidence_sources), RemPhase()):
            phase.run(ctx)
        assert ctx.state.light is not None
        light = ctx.state.light
        ranking = rank(light.store, light.evidence, now.date(), options.thresholds)
        preview = Preview(ctx, ranking)
        chosen = {r.key for r in listed(preview, limit, include_promoted) if r.passes}
        report = DreamReport(status="skipped", engine=engine.name)
        if not chosen:
            report.reason = "no candidate passes the thresholds"
            return Applied(report, 0, preview)
        DeepPhase(promoted_only=True, keys=chosen).run(ctx)
        deep = ctx.state.deep
        assert deep is not None and deep.decisions is not None
        try:
            check_accounting(ctx.inputs, deep.proposal)
        except (DreamRefused, ModelError) as exc:
            report.status, report.reason = "failed", str(exc)
            return Applied(report, 0, preview)
        fill_report(report, ctx, deep.proposal)
        applied = len(deep.decisions.promoted)
        if not options.dry_run:
            commit_cycle(ctx, deep.proposal, report, load_state(root), fault, kind="promote")
        return Applied(report, applied, preview)
