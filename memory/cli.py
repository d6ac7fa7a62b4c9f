"""``python -m memory``: dream, undo, flush, status, forget (and the search commands).

Errors go to stderr as one line with exit status 2 and write nothing.

A process imports only what its command needs: each command's modules are imported when
it runs, and only the command named by the first argument is registered (every command
only for help or an unknown name), so ``search`` never pays for the dream's modules.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, cast, get_args

from memory.config_file import load_config, text
from memory.errors import MemoryEngineError, UsageError
from memory.log_setup import configure_logging
from memory.paths import MemoryRoot

if TYPE_CHECKING:
    from memory.llm import ChatModel

EXIT_USAGE = 2
EXIT_FAILED = 1


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (``memory dream: error: ...``) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def days_type(text: str) -> int:
    from memory.dream.model import MAX_DAYS, MIN_DAYS

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--days must be a whole number from {MIN_DAYS} to {MAX_DAYS}, got {text!r}"
        ) from None
    if not MIN_DAYS <= value <= MAX_DAYS:
        raise argparse.ArgumentTypeError(
            f"--days must be from {MIN_DAYS} to {MAX_DAYS}, got {value}"
        )
    return value


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def common_options() -> Parser:
    common = Parser(add_help=False)
    common.add_argument(
        "--workspace",
        metavar="DIR",
        help="memory root (default: the config's agent_workspace, else ~/cow)",
    )
    common.add_argument(
        "--config", metavar="FILE", type=Path, help="the bot's config file (default: ./config.json)"
    )
    common.add_argument("--json", action="store_true", help="machine-readable output")
    common.add_argument(
        "--timezone",
        metavar="ZONE",
        help="IANA zone for dates (default: the config's timezone, else the machine's)",
    )
    return common


def build_parser(argv: Sequence[str] | None = None) -> Parser:
    """The parser. Only the command named by ``argv``'s first argument is registered (its
    modules are imported when it runs); every command when there is none or it is not one
    of theirs (help, an unknown name: argparse lists them all)."""
    common = common_options()
    parser = Parser(prog="memory", description="CowDream's memory engine")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    first = next(iter(argv or ()), None)
    chosen = [group for group in _GROUPS if first in group.names]
    for group in chosen or _GROUPS:
        group.register(sub, common)
    return parser


def _add_dream(sub: Any, common: Parser) -> None:
    from memory.dream.commands import threshold_flags
    from memory.dream.model import EngineName

    dream = sub.add_parser("dream", parents=[common], help="run Deep Dream")
    dream.add_argument(
        "--days", type=days_type, help="notes of the last N days (1-30; default: dream_days, 3)"
    )
    dream.add_argument("--force", action="store_true", help="dream even if nothing changed")
    dream.add_argument(
        "--engine", choices=list(get_args(EngineName)), help="default: dream_engine, auto"
    )
    dream.add_argument("--dry-run", action="store_true", help="print the diff, write nothing")
    dream.add_argument(
        "--max-items", type=positive_int, help="cap of MEMORY.md (default: dream_max_items, 30)"
    )
    threshold_flags(dream)
    dream.set_defaults(func=cmd_dream)


def _add_undo(sub: Any, common: Parser) -> None:
    sub.add_parser("undo", parents=[common], help="undo the last dream").set_defaults(func=cmd_undo)


def _add_flush(sub: Any, common: Parser) -> None:
    flush = sub.add_parser("flush", parents=[common], help="summarise a transcript into a note")
    flush.add_argument("file", type=Path, metavar="FILE.jsonl")
    flush.add_argument("--reason", choices=["trim", "daily", "overflow"], default="trim")
    flush.add_argument("--group", action="store_true", help="a group chat: name the speakers")
    flush.set_defaults(func=cmd_flush)


def _add_status(sub: Any, common: Parser) -> None:
    status = sub.add_parser("status", parents=[common], help="what the memory holds")
    status.add_argument(
        "--deep", action="store_true", help="also the dreaming phases and the search index"
    )
    status.set_defaults(func=cmd_status)


def _add_forget(sub: Any, common: Parser) -> None:
    forget = sub.add_parser("forget", parents=[common], help="delete lines mentioning TEXT")
    forget.add_argument("text")
    forget.add_argument("--yes", action="store_true", help="delete without asking")
    forget.set_defaults(func=cmd_forget)


def _add_dreaming(sub: Any, common: Parser) -> None:
    """The dreaming phases' commands (promote, promote-explain, rem-harness, rem-backfill)."""
    from memory.dream.commands import register

    register(sub, common)


def _add_search(sub: Any, common: Parser) -> None:
    """index, search and eval."""
    try:
        from memory.search.commands import register
    except ModuleNotFoundError as exc:  # search not installed in this checkout
        if exc.name != "memory.search.commands":
            raise
        return
    register(sub)


@dataclass(frozen=True)
class _Group:
    """Commands registered together, by one function that imports their module."""

    names: frozenset[str]
    register: Callable[[Any, Parser], None]


_GROUPS = (  # in the order help lists them
    _Group(frozenset({"dream"}), _add_dream),
    _Group(frozenset({"undo"}), _add_undo),
    _Group(frozenset({"flush"}), _add_flush),
    _Group(frozenset({"status"}), _add_status),
    _Group(frozenset({"forget"}), _add_forget),
    _Group(frozenset({"promote", "promote-explain", "rem-harness", "rem-backfill"}), _add_dreaming),
    _Group(frozenset({"index", "search", "eval"}), _add_search),
)


# -- shared context ------------------------------------------------------------------


def config_of(args: argparse.Namespace) -> dict[str, Any]:
    """``--config FILE``, else ./config.json as the bot reads it, with ``COW_*`` overrides."""
    return load_config(args.config)


def root_of(
    args: argparse.Namespace, config: dict[str, Any], *, create: bool = False
) -> MemoryRoot:
    """The memory root: ``--workspace``, else the config's ``agent_workspace``, else ~/cow.

    It must be a folder that exists; only the configured default may be new when
    ``create`` allows it (flush makes it, status reports it empty). A ``--workspace``
    that does not exist is always an error."""
    where = args.workspace or text(config, "agent_workspace") or "~/cow"
    root = MemoryRoot.at(where)
    if root.path.exists() and not root.path.is_dir():
        raise UsageError(f"the workspace is not a folder: {root.path}")
    if not root.path.is_dir() and (args.workspace or not create):
        raise UsageError(f"no memory root at {root.path} (give --workspace DIR)")
    from memory.recovery import ensure_recovered

    ensure_recovered(root)
    return root


@contextlib.contextmanager
def model_of(config: dict[str, Any], wanted: bool = True) -> Iterator[ChatModel | None]:
    """The configured chat model for one command (``None`` when none is configured or
    ``wanted`` is false), its connections closed when the command is done."""
    from memory.llm import OpenAIChatModel, settings_from

    settings = settings_from(config) if wanted else None
    model = OpenAIChatModel(settings) if settings else None
    try:
        yield model
    finally:
        if model is not None:
            model.close()


def emit(args: argparse.Namespace, data: dict[str, Any], text: str) -> None:
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(text)


# -- commands ------------------------------------------------------------------------


def _count(config: Mapping[str, Any], key: str, default: int, least: int) -> int:
    """A whole-number config key (the bot's config checks the same bounds)."""
    value = config.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise UsageError(f"config {key}: expected a whole number of at least {least}")
    return value


def cmd_dream(args: argparse.Namespace) -> int:
    from memory.clock import now_in
    from memory.dream import DreamOptions, run_dream  # not paid by a search process
    from memory.dream.commands import thresholds_of
    from memory.dream.model import EngineName
    from memory.dream.tiers import TierSettings

    config = config_of(args)
    max_items = args.max_items or int(config.get("dream_max_items") or 30)
    try:
        days = args.days or days_type(str(config.get("dream_days") or 3))
    except argparse.ArgumentTypeError as exc:
        raise UsageError(f"config dream_days: {exc}") from None
    engine = args.engine or str(config.get("dream_engine") or "auto")
    if engine not in get_args(EngineName):
        raise UsageError(f"dream_engine must be one of {', '.join(get_args(EngineName))}")
    options = DreamOptions(
        days,
        args.force,
        cast(EngineName, engine),
        args.dry_run,
        max_items,
        thresholds_of(args, config),
        tiers=TierSettings(
            _count(config, "dream_cold_days", 30, 1),
            _count(config, "dream_hot_uses", 3, 0),
            _count(config, "dream_hot_days", 14, 1),
        ),
        token_budget=_count(config, "memory_token_budget", 2000, 100),
    )
    now = now_in(args.timezone or config.get("timezone"))
    with model_of(config, engine != "extractive") as model:
        report = run_dream(root_of(args, config), options, model=model, now=now)
    reason = report.reason
    if report.status == "skipped" and reason.startswith("inputs unchanged"):
        reason += "; use --force to dream anyway"
    head = f"{report.status}" + (f": {reason}" if reason else "")
    text = "\n".join(p for p in (head, report.diff, report.diary) if p)
    emit(args, report.to_dict(), text.rstrip())
    return EXIT_FAILED if report.status == "failed" else 0


def cmd_undo(args: argparse.Namespace) -> int:
    from memory.history import undo

    message = undo(root_of(args, config_of(args)))
    emit(args, {"status": "done", "message": message}, message)
    return 0


def cmd_flush(args: argparse.Namespace) -> int:
    from memory.clock import now_in
    from memory.flush import flush_turns
    from memory.redact import Redaction
    from memory.transcript import read_jsonl
    from memory.wording import plural

    config = config_of(args)
    turns = read_jsonl(args.file)
    now = now_in(args.timezone or config.get("timezone"))
    with model_of(config) as model:
        result = flush_turns(
            root_of(args, config, create=True),
            turns,
            args.reason,
            model=model,
            now=now,
            group=args.group,
            redaction=Redaction(phone_numbers=bool(config.get("redact_phone_numbers"))),
        )
    where = str(result.path) if result.path else None
    data = {"path": where, "bullets": result.bullets, "engine": result.engine}
    wrote = f"wrote {plural(len(result.bullets), 'bullet')} to {where}"
    text = wrote if where else "nothing worth keeping"
    emit(args, data, text)
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    from memory.clock import now_in, zone
    from memory.status import (
        NIGHTLY_TIME,
        collect_status,
        dreaming_enabled,
        dreaming_overview,
        format_status,
        next_nightly,
    )

    config = config_of(args)
    root = root_of(args, config, create=True)
    zone(args.timezone or config.get("timezone"))  # a bad zone is an error here too
    status = collect_status(root)
    if args.deep:
        now = now_in(args.timezone or config.get("timezone"))
        enabled = dreaming_enabled(root, bool(config.get("dreaming_enabled", True)))
        at = str(config.get("nightly_time") or NIGHTLY_TIME)
        status["dreaming"] = dreaming_overview(
            root, now, enabled=enabled, next_run=next_nightly(now, at) if enabled else None
        )
        status["index"] = _index_status(root, config)
    emit(args, status, format_status(status))
    return 0


def _index_status(root: MemoryRoot, config: dict[str, Any]) -> Any:
    try:
        from memory.search.service import MemorySearch, SearchSettings
    except ModuleNotFoundError:
        return "search is not installed"
    settings = SearchSettings(
        provider=config.get("embedding_provider", "auto"),
        api_key=config.get("open_ai_api_key"),
        base_url=config.get("open_ai_api_base"),
    )
    svc = MemorySearch(root, settings)
    try:
        return svc.status()
    finally:
        svc.close()


def cmd_forget(args: argparse.Namespace) -> int:
    from memory.forget import apply_forget, plan_forget
    from memory.wording import plural

    root = root_of(args, config_of(args))
    plan = plan_forget(root, args.text)
    if not plan.matches:
        emit(args, {"removed": 0}, plan.summary())
        return 0
    if not args.yes:
        if not sys.stdin.isatty():
            raise UsageError(f"{plan.summary()}; add --yes to delete them")
        for path, line, text in plan.matches:
            print(f"{path}:{line}: {text}")
        if input(f"{plan.summary()}. Delete them? [y/N] ").strip().lower() not in ("y", "yes"):
            emit(args, {"removed": 0}, "nothing deleted")
            return 0
    removed = apply_forget(root, plan)
    emit(args, {"removed": removed}, f"forgot {plural(removed, 'line')}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    configure_logging(
        logging.WARNING,
        [os.environ.get("OPENAI_API_KEY", "")],
        fmt="%(levelname)s %(name)s: %(message)s",
    )
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except MemoryEngineError as exc:
        print(f"memory {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `python -m memory status | head -1`: the reader left
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes stdout
        return 0
    except OSError as exc:  # the disk or the OS refused (full, read-only): one line
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"memory {args.command}: error: {exc.strerror or exc}{where}", file=sys.stderr)
        return EXIT_USAGE
