"""The dreaming subcommands of ``python -m memory``: ``promote``, ``promote-explain``,
``rem-harness`` and ``rem-backfill``; plus the threshold flags ``dream`` shares.

Thresholds come from the flags, else the config keys ``dream_min_score``,
``dream_min_recall_count`` and ``dream_min_unique_queries``, else 0.8 / 3 / 3.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from memory.cli import (
    EXIT_FAILED,
    Parser,
    config_of,
    days_type,
    emit,
    model_of,
    positive_int,
    root_of,
)
from memory.clock import now_in
from memory.dream.scoring import WEIGHTS, Thresholds
from memory.errors import UsageError
from memory.wording import plural

if TYPE_CHECKING:  # the commands import the dream's modules when they run, not when the
    # parser is built: every other command of ``python -m memory`` starts without them
    from memory.dream.model import DreamOptions
    from memory.dream.preview import Preview
    from memory.dream.promotion import Ranked

MAX_MIN_SCORE = 1.2  # a score is at most 1 plus a boost of 0.08
CONFIG_KEYS = {
    "min_score": "dream_min_score",
    "min_recall_count": "dream_min_recall_count",
    "min_unique_queries": "dream_min_unique_queries",
}


def score_type(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value <= MAX_MIN_SCORE:
        raise argparse.ArgumentTypeError(f"must be from 0 to {MAX_MIN_SCORE}, got {value}")
    return value


def threshold_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--min-score", type=score_type, help="promotion threshold (0.8)")
    parser.add_argument("--min-recall-count", type=positive_int, help="recalls needed (3)")
    parser.add_argument(
        "--min-unique-queries", type=positive_int, help="distinct queries or days needed (3)"
    )


def thresholds_of(args: argparse.Namespace, config: dict[str, Any]) -> Thresholds:
    """The flags, else the config keys, else the defaults; a bad config value is an error."""
    values: dict[str, Any] = {}
    for name, key in CONFIG_KEYS.items():
        flag = getattr(args, name, None)
        if flag is not None:
            values[name] = flag
        elif key in config:
            raw = config[key]
            try:
                value = score_type(str(raw)) if name == "min_score" else positive_int(str(raw))
            except argparse.ArgumentTypeError as exc:
                raise UsageError(f"config key {key}: {exc}") from None
            values[name] = value
    return Thresholds(**values)


def register(sub: Any, common: Parser) -> None:
    promote = sub.add_parser(
        "promote", parents=[common], help="rank staged candidates; --apply writes those that pass"
    )
    promote.add_argument("--apply", action="store_true", help="write the passing ones")
    promote.add_argument("--limit", type=positive_int, default=10, help="candidates (10)")
    promote.add_argument("--include-promoted", action="store_true", help="show promoted too")
    promote.add_argument("--days", type=days_type, default=None, help="notes of the last N days")
    promote.add_argument("--engine", choices=["auto", "llm", "extractive"], default="auto")
    threshold_flags(promote)
    promote.set_defaults(func=cmd_promote)

    explain = sub.add_parser(
        "promote-explain", parents=[common], help="why candidates matching QUERY would be promoted"
    )
    explain.add_argument("query")
    explain.add_argument("--days", type=days_type, default=None, help="notes of the last N days")
    threshold_flags(explain)
    explain.set_defaults(func=cmd_explain)

    harness = sub.add_parser(
        "rem-harness", parents=[common], help="preview light, REM and deep; writes nothing"
    )
    harness.add_argument("--days", type=days_type, default=None, help="days of notes (7)")
    harness.add_argument("--path", help="a folder of YYYY-MM-DD.md notes instead of the root's")
    threshold_flags(harness)
    harness.set_defaults(func=cmd_harness)

    fill = sub.add_parser(
        "rem-backfill", parents=[common], help="replay historical notes into the diary"
    )
    fill.add_argument("--path", help="a folder of YYYY-MM-DD.md notes inside the root")
    fill.add_argument("--stage-short-term", action="store_true", help="stage their candidates")
    fill.add_argument("--rollback", action="store_true", help="remove the backfill diary entries")
    fill.add_argument(
        "--rollback-short-term", action="store_true", help="remove the backfill-staged candidates"
    )
    fill.set_defaults(func=cmd_backfill)


def _options(args: argparse.Namespace, config: dict[str, Any], days: int) -> DreamOptions:
    from memory.dream.model import DreamOptions

    return DreamOptions(
        days=days,
        engine=getattr(args, "engine", "auto"),
        max_items=int(config.get("dream_max_items", 30)),
        thresholds=thresholds_of(args, config),
    )


def _now(args: argparse.Namespace, config: dict[str, Any]) -> Any:
    return now_in(args.timezone or config.get("timezone"))


def _thresholds(t: Thresholds) -> dict[str, Any]:
    return {
        "min_score": t.min_score,
        "min_recall_count": t.min_recall_count,
        "min_unique_queries": t.min_unique_queries,
    }


def _line(r: Ranked) -> str:
    mark = "✓" if r.passes else "·"
    refs = ", ".join(str(ref) for ref in r.candidate.refs[:3])
    recalls = plural(r.evidence.recall_count, "recall")
    queries = plural(r.evidence.unique_queries, "query", "queries")
    status = r.candidate.status
    return f"{mark} {r.score:.3f}  {r.candidate.text}  [{recalls}, {queries}; {status}] {refs}"


def cmd_promote(args: argparse.Namespace) -> int:
    from memory.dream.preview import apply_promotions, listed, run_preview

    config = config_of(args)
    root = root_of(args, config)
    options = _options(args, config, args.days or int(config.get("dream_days", 3)))
    now = _now(args, config)
    if args.apply:
        with model_of(config, args.engine != "extractive") as model:
            done = apply_promotions(
                root,
                options,
                now,
                model=model,
                limit=args.limit,
                include_promoted=args.include_promoted,
            )
        preview, applied = done.preview, done.applied
        failed = done.report.status == "failed"
    else:
        preview = run_preview(root, options, now)
        applied, failed = 0, False
    shown = listed(preview, args.limit, args.include_promoted)
    t = options.thresholds
    data = {
        "thresholds": _thresholds(t),
        "candidates": [r.to_dict(t) for r in shown],
        "applied": applied,
    }
    text = [
        f"thresholds: score ≥ {t.min_score}, recalls ≥ {t.min_recall_count}, "
        f"unique queries ≥ {t.min_unique_queries}"
    ]
    text += [_line(r) for r in shown] or ["no staged candidates"]
    if args.apply:
        reason = f" ({done.report.reason})" if done.report.reason else ""
        text.append(f"applied: {applied} promoted into MEMORY.md{reason}")
    emit(args, data, "\n".join(text))
    return EXIT_FAILED if failed else 0


def _explained(r: Ranked, t: Thresholds) -> str:
    c = r.candidate
    lines = [f"“{c.text}” (key {c.key}, {c.status}) " + ", ".join(str(x) for x in c.refs)]
    lines.append(f"  {'signal':<20} {'value':>6}   weight   contribution")
    parts = r.explain(t)["contributions"]
    values = r.signals.as_dict()
    for name, weight in WEIGHTS.items():
        lines.append(f"  {name:<20} {values[name]:>6.3f} × {weight:.2f}  = {parts[name]:.4f}")
    lines.append(f"  {'boost (light/REM)':<38}  + {r.boost:.4f}")
    lines.append(f"  {'score':<38}  = {r.score:.4f}")
    gates = r.explain(t)["thresholds"]
    for name, gate in gates.items():
        verdict = "met" if gate["met"] else "missed"
        lines.append(f"  {name} {gate['required']}: {verdict} ({gate['actual']})")
    lines.append("  → " + r.why(t))
    return "\n".join(lines)


def cmd_explain(args: argparse.Namespace) -> int:
    from memory.dream.preview import run_preview
    from memory.dream.promotion import matching

    config = config_of(args)
    root = root_of(args, config)
    options = _options(args, config, args.days or int(config.get("dream_days", 3)))
    preview = run_preview(root, options, _now(args, config))
    found = matching(preview.ranking, args.query)
    t = options.thresholds
    data = {
        "query": args.query,
        "thresholds": _thresholds(t),
        "weights": dict(WEIGHTS),
        "candidates": [r.explain(t) for r in found],
    }
    text = "\n\n".join(_explained(r, t) for r in found) or f"no candidate matches {args.query!r}"
    emit(args, data, text)
    return 0


def harness_data(preview: Preview) -> dict[str, Any]:
    light, rem = preview.ctx.state.light, preview.ctx.state.rem
    assert light is not None and rem is not None
    t = preview.ctx.options.thresholds
    return {
        "light": {"candidates": [c.contract() for c in light.candidates]},
        "rem": {
            "themes": [theme.to_dict() for theme in rem.themes],
            "truths": [truth.to_dict() for truth in rem.truths],
        },
        "deep": {"candidates": [r.to_dict(t) for r in preview.ranking]},
    }


def cmd_harness(args: argparse.Namespace) -> int:
    from pathlib import Path

    from memory.dream.preview import HARNESS_DAYS, run_preview

    config = config_of(args)
    root = root_of(args, config)
    days = args.days or HARNESS_DAYS
    options = _options(args, config, days)
    folder = Path(args.path) if args.path else None
    preview = run_preview(
        root, options, _now(args, config), folder=folder, days=args.days if folder else None
    )
    data = harness_data(preview)
    lines = [f"light: {len(data['light']['candidates'])} candidates"]
    lines += [
        f"  - {c['text']} ({c['recall_count']} recalls)" for c in data["light"]["candidates"][:20]
    ]
    lines.append(f"rem: {len(data['rem']['themes'])} themes, {len(data['rem']['truths'])} truths")
    lines += [
        f"  - theme {t['theme']} ({t['candidates']} candidates)" for t in data["rem"]["themes"]
    ]
    lines += [f"  - truth {t['text']}" for t in data["rem"]["truths"]]
    lines.append(f"deep: {len(preview.ranking)} ranked")
    lines += [f"  {_line(r)}" for r in preview.ranking[:20]]
    emit(args, data, "\n".join(lines))
    return 0


def cmd_backfill(args: argparse.Namespace) -> int:
    from pathlib import Path

    from memory.dream.backfill import backfill, rollback, rollback_short_term

    modes = [bool(args.path), args.rollback, args.rollback_short_term]
    if sum(modes) != 1:
        raise UsageError("give exactly one of --path DIR, --rollback, --rollback-short-term")
    if args.stage_short_term and not args.path:
        raise UsageError("--stage-short-term goes with --path DIR")
    config = config_of(args)
    root = root_of(args, config)
    if args.path:
        result = backfill(
            root, Path(args.path), _now(args, config), stage_short_term=args.stage_short_term
        )
        text = f"replayed {result.days} day(s): {result.entries} diary entries marked backfill" + (
            f", {result.staged} candidates staged" if args.stage_short_term else ""
        )
    elif args.rollback:
        result = rollback(root)
        text = f"removed {result.removed_entries} backfill diary entries"
        if result.missing:
            text += f"; not found (edited?): {', '.join(result.missing)}"
    else:
        result = rollback_short_term(root)
        text = f"removed {result.removed_candidates} backfill-staged candidates"
    emit(args, result.to_dict(), text)
    return 0
