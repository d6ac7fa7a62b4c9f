"""Chat commands: ``/memory dream|status|search|undo|forget`` and ``/dreaming``.

Commands that change memory (dream, undo, forget, dreaming on/off) are for the scope's
admins; everyone in the chat may read status and search. A bad argument gets a one-line
usage reply. ``/memory forget`` shows what it would delete and waits for
``/memory forget confirm`` from the same person (within five minutes).
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta
from typing import Any, ClassVar

from bot.dream_worker import DreamJob
from bot.errors import StopPropagation
from bot.scope_state import dreaming_enabled, set_dreaming
from bot.triggers import manual
from memory.dream.model import MAX_DAYS, MIN_DAYS
from memory.errors import MemoryEngineError
from memory.usage import record_uses, uses_of_hits
from memory.wording import plural, quoted
from plugins.base import Plugin, on
from plugins.events import ChatContext, MessageReceived
from plugins.status_text import dreaming_text, status_text

log = logging.getLogger(__name__)

MEMORY_USAGE = (
    "Usage: /memory dream [N] | /memory status | /memory search <query> | "
    "/memory undo | /memory forget <text>"
)
DREAM_USAGE = f"Usage: /memory dream [N] (N = days of notes, {MIN_DAYS}..{MAX_DAYS})"
DREAMING_USAGE = "Usage: /dreaming status|on|off|help"
REFUSED = "Sorry, only this chat's admins can change its memory."
HELP = "\n".join(
    [
        "Commands (those marked * are for this chat's admins):",
        "/memory status: what this chat's memory holds, and its dreaming",
        "/memory search <query>: search this chat's memory",
        f"/memory dream [N]*: dream now over the last N days of notes ({MIN_DAYS}..{MAX_DAYS})",
        "/memory undo*: put MEMORY.md and the archive back to before the last dream",
        "/memory forget <text>*: delete every line that mentions <text> (asks to confirm)",
        "/dreaming status: nightly dreaming on or off, next run, last result",
        "/dreaming on | off*: turn this chat's nightly dream on or off",
        "/help: this list",
    ]
)
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
                ctx.reply = HELP
            elif words[0].lower() == "/memory":
                ctx.reply = self.memory(ctx, words[1:])
            else:
                ctx.reply = self.dreaming(ctx, words[1:])
        except MemoryEngineError as exc:
            ctx.reply = str(exc)
        raise StopPropagation

    # /memory -----------------------------------------------------------------------

    def memory(self, ctx: ChatContext, args: list[str]) -> str:
        sub = args[0].lower() if args else ""
        rest = args[1].strip() if len(args) > 1 else ""
        if sub == "status" and not rest:
            return status_text(self.services, ctx)
        if sub == "search":
            return self.search(ctx, rest) if rest else "Usage: /memory search <query>"
        if sub not in {"dream", "undo", "forget"} or (sub == "undo" and rest):
            return MEMORY_USAGE
        if not ctx.is_admin:
            return REFUSED
        if sub == "dream":
            return self.dream(ctx, rest)
        if sub == "undo":
            from memory.history import undo

            message = undo(ctx.root, now=ctx.now)
            return message[:1].upper() + message[1:]
        return self.forget(ctx, rest)

    def dream(self, ctx: ChatContext, arg: str) -> str:
        config = self.services.config
        days = config.dream_days
        if arg:
            if not arg.isdigit() or not MIN_DAYS <= int(arg) <= MAX_DAYS:
                return DREAM_USAGE
            days = int(arg)
        # Today's conversation so far belongs in the dream: put it in the note first.
        self.services.conversations.flush(ctx.scope, ctx.now)
        job = DreamJob.configured(config, ctx.scope, ctx.root, days=days)
        if not self.services.dreams.submit(job):
            return "A dream is already running for this chat; I will report when it is done."
        self.services.triggers.record(ctx.root, manual(), ctx.now)
        return (
            f"Dream started over the last {plural(days, 'day')} of notes; I will report when done."
        )

    def search(self, ctx: ChatContext, query: str) -> str:
        limit = int(self.config["search_results"])
        hits = self.services.search.search(ctx.root, query, limit=limit, min_score=0.0)
        record_uses(ctx.root, uses_of_hits(ctx.root, hits), when=ctx.now, via="search")
        if not hits:
            return f"No memory matches {quoted(query)}."
        lines = [f"Memory hits for {quoted(query)}:"]
        for n, hit in enumerate(hits, 1):
            where = f"{hit.path}#L{hit.start_line}"
            if hit.end_line != hit.start_line:
                where += f"-L{hit.end_line}"
            snippet = " ".join(str(hit.snippet).split())[:160]
            lines.append(f"{n}. [{hit.score:.2f}] {where}: {snippet}")
        return "\n".join(lines)

    def forget(self, ctx: ChatContext, text: str) -> str:
        from memory.forget import apply_forget, plan_forget

        key = (ctx.scope.key, ctx.message.sender_id)
        with self._lock:
            pending = self._forget.pop(key, None)
        if text.lower() in {"confirm", "cancel"}:
            if pending is None or ctx.now - pending[1] > CONFIRM_WINDOW:
                return "Nothing to confirm. Usage: /memory forget <text>"
            if text.lower() == "cancel":
                return "Forget cancelled; nothing was deleted."
            self.services.search.discard(ctx.root)
            removed = apply_forget(ctx.root, pending[0])
            self.services.search.discard(ctx.root)  # no search keeps the old index open
            turns = self.services.conversations.forget(ctx.scope, pending[0].text, apply=True)
            said = f" and {plural(turns, 'message')} from the conversation" if turns else ""
            return (
                f"Forgotten: {plural(removed, 'line')} deleted, including from the undo "
                f"history{said}."
            )
        if not text:
            return "Usage: /memory forget <text>"
        plan = plan_forget(ctx.root, text)
        turns = self.services.conversations.forget(ctx.scope, text, apply=False)
        if not plan.matches and not turns:
            return f"Nothing in this chat's memory matches {quoted(text)}."
        with self._lock:
            self._forget[key] = (plan, ctx.now)
        shown = "\n".join(
            f"- {path}:{line}: {body.strip()}" for path, line, body in plan.matches[:10]
        )
        more = f"\n(and {len(plan.matches) - 10} more)" if len(plan.matches) > 10 else ""
        said = (
            f"\n{plural(turns, 'message')} of the current conversation "
            f"{'mentions' if turns == 1 else 'mention'} it too."
            if turns
            else ""
        )
        return (
            f"{plan.summary()}\n{shown}{more}{said}\n"
            "Send /memory forget confirm within 5 minutes to delete them "
            "(/memory forget cancel to keep them)."
        )

    # /dreaming ---------------------------------------------------------------------

    def dreaming(self, ctx: ChatContext, args: list[str]) -> str:
        sub = " ".join(args).strip().lower() or "status"
        if sub == "help":
            return HELP
        if sub == "status":
            return dreaming_text(self.services, ctx.root)
        if sub not in {"on", "off"}:
            return DREAMING_USAGE
        if not ctx.is_admin:
            return REFUSED
        set_dreaming(ctx.root, sub == "on")
        state = "on" if dreaming_enabled(ctx.root, True) else "off"
        log.info("dreaming %s for %s", state, ctx.scope.key)
        return f"Nightly dreaming is now {state} for this chat."


PLUGIN = CommandsPlugin
