"""The ``index``, ``search`` and ``eval`` subcommands of ``python -m memory``.

``register(subparsers)`` adds them; each sets ``func(args) -> int``. Errors print one line
to stderr and return 2, having written nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path
from typing import Any

from memory.config_file import load_config
from memory.errors import MemoryEngineError, UsageError
from memory.paths import MemoryRoot
from memory.recovery import ensure_recovered
from memory.search.config import settings_from
from memory.search.embeddings.registry import PROVIDERS
from memory.search.ranking import DEFAULT_MIN_SCORE
from memory.search.service import Hit, MemorySearch


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from exc


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from exc
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {value}")
    return value


def _score(text: str) -> float:
    try:
        value = float(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from exc
    if not 0.0 <= value <= 10.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 10: {value}")
    return value


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--workspace", help="memory root (default: agent_workspace of --config, else ~/cow)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--config", help="CowAgent config.json (open_ai_api_key, ...)")
    parser.add_argument("--provider", choices=PROVIDERS, help="embedding provider override")


def register(subparsers: Any) -> None:
    index = subparsers.add_parser("index", help="bring the search index up to date")
    _common(index)
    index.add_argument("--rebuild", action="store_true", help="rebuild from scratch")
    index.set_defaults(func=_guard(run_index))

    search = subparsers.add_parser("search", help="hybrid memory search")
    _common(search)
    search.add_argument("query", nargs="?", help="what to look for")
    search.add_argument("--limit", type=_positive, default=6)
    search.add_argument("--min-score", type=_score, default=DEFAULT_MIN_SCORE)
    search.add_argument("--now", type=_day, help="date recency is measured from")
    search.add_argument("--batch", help="file with one query a line; prints one JSON array a line")
    search.add_argument(
        "--no-record", action="store_true", help="do not record the hits in the recall store"
    )
    search.set_defaults(func=_guard(run_search))

    ev = subparsers.add_parser("eval", help="evaluate retrieval on LoCoMo-style datasets")
    _common(ev)
    ev.add_argument("datasets", nargs="*", help="roots with qa.jsonl, or folders of them")
    ev.add_argument("--work", help="folder for copies and indexes (default: temporary)")
    ev.add_argument("--min-score", type=_score, default=DEFAULT_MIN_SCORE)
    ev.add_argument("--now", type=_day, help="override each dataset's last_date")
    ev.add_argument(
        "--skip-no-match",
        action="store_true",
        help="skip the no-match measure (questions asked with their evidence removed)",
    )
    ev.set_defaults(func=_guard(run_eval))


def _guard(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def guarded(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except MemoryEngineError as exc:
            print(f"memory {getattr(args, 'command', 'search')}: error: {exc}", file=sys.stderr)
            return 2

    return guarded


def _service(args: argparse.Namespace) -> MemorySearch:
    config = load_config(args.config)
    workspace = Path(args.workspace or config.get("agent_workspace") or "~/cow").expanduser()
    if not workspace.is_dir():
        raise UsageError(f"workspace is not a directory: {workspace}")
    settings = settings_from(config, os.environ, provider=args.provider)
    root = MemoryRoot.at(workspace)
    ensure_recovered(root)  # a crashed commit is finished before the index reads files
    return MemorySearch(root, settings)


def _progress(args: argparse.Namespace) -> Callable[[str], None] | None:
    if not sys.stderr.isatty():
        return None
    return lambda message: print(message, file=sys.stderr)


def run_index(args: argparse.Namespace) -> int:
    service = _service(args)
    try:
        report = service.sync(_progress(args), rebuild=args.rebuild)
    finally:
        service.close()
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False))
    else:
        print(
            f"{report.chunks} chunks; {report.files_changed} files indexed, "
            f"{report.files_removed} removed, {report.files_unchanged} unchanged; "
            f"vectors {report.vectors} ({report.provider}, {report.state})"
            + (f": {report.reason}" if report.reason else "")
        )
    return 0


def _print_hits(hits: list[Hit]) -> None:
    if not hits:
        print("no matches")
    for hit in hits:
        print(f"{hit.path}#L{hit.start_line}-L{hit.end_line}  {hit.score:.3f}  {hit.source}")
        for line in hit.snippet.splitlines():
            print(f"    {line}")


def run_search(args: argparse.Namespace) -> int:
    if bool(args.query) == bool(args.batch):
        raise UsageError("give either QUERY or --batch FILE")
    queries = [args.query]
    if args.batch:
        try:
            lines = Path(args.batch).read_text("utf-8").splitlines()
        except OSError as exc:
            raise UsageError(f"cannot read batch file {args.batch}: {exc.strerror}") from exc
        queries = [q.strip() for q in lines]  # one output line per input line
    service = _service(args)
    try:
        for query in queries:
            if not query:  # a blank line answers with no hits, keeping lines aligned
                print("[]", flush=True)
                continue
            hits = service.search(query, limit=args.limit, min_score=args.min_score, now=args.now)
            if not (args.batch or args.no_record):
                record_recall(service.root, query, hits, args)
            if args.batch or args.json:
                print(json.dumps([h.to_dict() for h in hits], ensure_ascii=False), flush=True)
            else:
                _print_hits(hits)
    finally:
        service.close()
    return 0


def record_recall(root: MemoryRoot, query: str, hits: list[Hit], args: argparse.Namespace) -> None:
    """The dream's recall store keeps what search showed (on ``--now``'s day if given)."""
    from memory.clock import now_in
    from memory.recall_store import record_hits

    when = now_in(load_config(args.config).get("timezone"))
    if args.now:
        when = datetime.combine(args.now, when.timetz())
    record_hits(root, query, hits, when=when, via="cli")


def run_eval(args: argparse.Namespace) -> int:
    from memory.search.eval import evaluate

    datasets = [Path(d) for d in args.datasets] or [
        p for p in (Path("bench/data/zh"), Path("../shared/datasets/locomo-dev")) if p.is_dir()
    ]
    if not datasets:
        raise UsageError("no dataset given and no default dataset found")
    settings = settings_from(load_config(args.config), os.environ, provider=args.provider)
    results = {}
    with tempfile.TemporaryDirectory(prefix="memory-eval-") as scratch:
        for dataset in datasets:
            if not dataset.is_dir():
                raise UsageError(f"dataset is not a directory: {dataset}")
            work = Path(args.work or scratch) / dataset.resolve().name
            results[str(dataset)] = evaluate(
                dataset,
                settings,
                work,
                min_score=args.min_score,
                now=args.now,
                progress=_progress(args),
                no_match=not args.skip_no_match,
            )
    if args.json:
        print(json.dumps(results, ensure_ascii=False))
    else:
        for name, result in results.items():
            roots = result.pop("roots")
            print(name)
            for key, value in result.items():
                print(f"  {key:24} {value}")
            print(f"  roots: {', '.join(roots)}")
    return 0
