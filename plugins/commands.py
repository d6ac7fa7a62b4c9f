"""Chat commands: ``/memory dream|status|search|undo|forget|people`` and ``/dreaming``.

Commands that change memory (dream, undo, forget, dreaming on/off) are for the scope's
admins; everyone in the chat may read status and search. A bad argument gets a one-line
usage reply. ``/memory forget`` shows what it would delete and waits for
``/memory forget confirm`` from the same person (within five minutes).
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, ClassVar

from bot.dream_worker import DreamJob
from bot.engine_messages import engine_text
from bot.errors import StopPropagation
from bot.i18n import Translator
from bot.scope_state import dreaming_enabled, set_dreaming
from bot.triggers import manual
from memory.dream.model import MAX_DAYS, MIN_DAYS
from memory.errors import Busy, MemoryEngineError
from memory.usage import record_uses, uses_of_hits
from plugins.base import Plugin, on
from plugins.events import ChatContext, MessageReceived
from plugins.people_text import people_command
from plugins.status_text import conflicts_text, dreaming_text, resolution_text, status_text

if TYPE_CHECKING:
    from memory.forget import ForgetPlan

log = logging.getLogger(__name__)

HELP_LINES = (
    "help.title",
    "help.status",
    "help.search",
    "help.dream",
    "help.undo",
    "help.forget",
    "help.resolve",
    "help.people",
    "help.people_rebuild",
    "help.people_forget",
    "help.dreaming_status",
    "help.dreaming_switch",
    "help.help",
)


def help_text(tr: Translator) -> str:
    return "\n".join(tr.t(key, min=MIN_DAYS, max=MAX_DAYS) for key in HELP_LINES)


CONFIRM_WINDOW = timedelta(minutes=5)


class CommandsPlugin(Plugin):
    name = "commands"
    description = "The /memory and /dreaming chat commands"
    default_config: ClassVar[dict[str, Any]] = {"search_results": 5}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._forget: dict[tuple[str, str], tuple[Any, datetime]] = {}
        self._lock = threading.Lock()

    @on(MessageReceived, priority=1000)
    def dispatch(self, event: MessageReceived) -> None:
        ctx = event.context
        if not ctx.message.addressed:
            return
        words = ctx.message.text.strip().split(maxsplit=2)
        if not words or words[0].lower() not in {"/memory", "/dreaming", "/help"}:
            return
        try:
            if words[0].lower() == "/help":
                ctx.reply = help_text(ctx.lang)
            elif words[0].lower() == "/memory":
                ctx.reply = self.memory(ctx, words[1:])
            else:
                ctx.reply = self.dreaming(ctx, words[1:])
        except MemoryEngineError as exc:
            ctx.reply = engine_text(ctx.lang, str(exc))
        raise StopPropagation

    # /memory -----------------------------------------------------------------------

    def memory(self, ctx: ChatContext, args: list[str]) -> str:
        tr = ctx.lang
        sub = args[0].lower() if args else ""
        rest = args[1].strip() if len(args) > 1 else ""
        if sub == "status" and not rest:
            return status_text(self.services, ctx)
        if sub == "search":
            return self.search(ctx, rest) if rest else tr.t("commands.usage_search")
        if sub == "resolve" and not rest:
            return conflicts_text(ctx.root, tr)
        if sub == "people":
            return people_command(self.services, ctx, rest)
        if sub not in {"dream", "undo", "forget", "resolve"} or (sub == "undo" and rest):
            return tr.t("commands.usage")
        if not ctx.is_admin:
            return tr.t("commands.refused")
        if sub == "dream":
            return self.dream(ctx, rest)
        if sub == "resolve":
            return self.resolve(ctx, rest)
        if sub == "undo":
            from memory.history import undo

            message = engine_text(tr, undo(ctx.root, now=ctx.now))
            return message[:1].upper() + message[1:]
        return self.forget(ctx, rest)

    def dream(self, ctx: ChatContext, arg: str) -> str:
        tr = ctx.lang
        config = self.services.config
        days = config.dream_days
        if arg:
            if not arg.isdigit() or not MIN_DAYS <= int(arg) <= MAX_DAYS:
                return tr.t("commands.usage_dream", min=MIN_DAYS, max=MAX_DAYS)
            days = int(arg)
        # Today's conversation so far belongs in the dream: put it in the note first.
        self.services.conversations.flush(ctx.scope, ctx.now)
        job = DreamJob.configured(config, ctx.scope, ctx.root, days=days)
        if not self.services.dreams.submit(job):
            return tr.t("dream.busy")
        self.services.triggers.record(ctx.root, manual(), ctx.now)
        return tr.t("dream.started", days=tr.t("count.day", n=days))

    def resolve(self, ctx: ChatContext, arg: str) -> str:
        """``/memory resolve <id> keep N | drop N | both``."""
        from memory.resolve import resolve

        tr = ctx.lang
        parts = arg.split()
        if len(parts) not in (2, 3) or (len(parts) == 3 and not parts[2].isdigit()):
            return tr.t("commands.usage_resolve")
        side = int(parts[2]) if len(parts) == 3 else None
        by = ctx.message.sender_name or ctx.message.sender_id
        done = resolve(ctx.root, parts[0], parts[1].lower(), side, now=ctx.now, by=by)
        self.services.search.discard(ctx.root)  # MEMORY.md and the archive changed
        return resolution_text(done, tr)

    def search(self, ctx: ChatContext, query: str) -> str:
        limit = int(self.config["search_results"])
        hits = self.services.search.search(ctx.root, query, limit=limit)
        record_uses(ctx.root, uses_of_hits(ctx.root, hits), when=ctx.now, via="search")
        tr = ctx.lang
        if not hits:
            return tr.t("search.none", query=tr.quote(query))
        lines = [tr.t("search.head", query=tr.quote(query))]
        for n, hit in enumerate(hits, 1):
            where = f"{hit.path}#L{hit.start_line}"
            if hit.end_line != hit.start_line:
                where += f"-L{hit.end_line}"
            snippet = " ".join(str(hit.snippet).split())[:160]
            lines.append(f"{n}. [{hit.score:.2f}] {where}: {snippet}")
        return "\n".join(lines)

    def forget(self, ctx: ChatContext, text: str) -> str:
        from memory.forget import apply_forget, plan_forget

        tr = ctx.lang
        key = (ctx.scope.key, ctx.message.sender_id)
        with self._lock:
            pending = self._forget.pop(key, None)
        if text.lower() in {"confirm", "cancel"}:
            if pending is None or ctx.now - pending[1] > CONFIRM_WINDOW:
                return tr.t("forget.nothing_pending")
            if text.lower() == "cancel":
                return tr.t("forget.cancelled")
            self.services.search.discard(ctx.root)
            try:
                removed = apply_forget(ctx.root, pending[0])
            except Busy:  # a dream holds the memory: the forget waits to be confirmed again
                with self._lock:
                    self._forget.setdefault(key, pending)
                return tr.t("forget.busy")
            self.services.search.discard(ctx.root)  # no search keeps the old index open
            turns = self.services.conversations.forget(ctx.scope, pending[0].text, apply=True)
            messages = tr.t("count.message", n=turns)
            said = tr.t("forget.done_said", messages=messages) if turns else ""
            return tr.t("forget.done", lines=tr.t("count.line", n=removed), said=said)
        if not text:
            return tr.t("commands.usage_forget")
        plan = plan_forget(ctx.root, text)
        turns = self.services.conversations.forget(ctx.scope, text, apply=False)
        if not plan.matches and not turns:
            return tr.t("forget.no_match", text=tr.quote(text))
        with self._lock:
            self._forget[key] = (plan, ctx.now)
        shown = "\n".join(
            f"- {path}:{line}: {body.strip()}" for path, line, body in plan.matches[:10]
        )
        more = len(plan.matches) - 10
        more_line = "\n" + tr.t("forget.more", n=more) if more > 0 else ""
        messages = tr.t("count.message", n=turns)
        said = "\n" + tr.t("forget.said", n=turns, messages=messages) if turns else ""
        return f"{forget_summary(tr, plan)}\n{shown}{more_line}{said}\n{tr.t('forget.confirm')}"

    # /dreaming ---------------------------------------------------------------------

    def dreaming(self, ctx: ChatContext, args: list[str]) -> str:
        sub = " ".join(args).strip().lower() or "status"
        tr = ctx.lang
        if sub == "help":
            return help_text(tr)
        if sub == "status":
            return dreaming_text(self.services, ctx.root, tr)
        if sub not in {"on", "off"}:
            return tr.t("commands.usage_dreaming")
        if not ctx.is_admin:
            return tr.t("commands.refused")
        set_dreaming(ctx.root, sub == "on")
        state = "on" if dreaming_enabled(ctx.root, True) else "off"
        log.info("dreaming %s for %s", state, ctx.scope.key)
        return tr.t("dreaming.now", state=tr.t(f"state.{state}"))


def forget_summary(tr: Translator, plan: ForgetPlan) -> str:
    """How many lines in how many files mention the text."""
    if not plan.matches:
        return tr.t("forget.summary_none", text=tr.quote(plan.text))
    lines, files = len(plan.matches), len(plan.files)
    return tr.t(
        "forget.summary",
        n=lines,
        lines=tr.t("count.line", n=lines),
        files=tr.t("count.file", n=files),
        text=tr.quote(plan.text),
    )


PLUGIN = CommandsPlugin
