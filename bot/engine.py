"""The bot engine: one message in, replies out, with sessions, plugins and the model.

Per message: ``MessageReceived`` (a plugin may answer: commands) -> the message joins the
scope's conversation (trimmed into the daily note when over the limits) -> a group message
that did not address the bot stops here -> ``ContextHandled`` (memory and tools join the
prompt) -> the model -> ``ReplyDecorated`` -> ``ReplySent``. ``handle`` is thread-safe:
messages of one scope are processed in order, different scopes in parallel.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any

from bot.agent import ChatAgent, ContextOverflow
from bot.dream_worker import DreamJob, DreamOutcome, format_report
from bot.errors import ChatModelUnavailable
from bot.messages import IncomingMessage, Scope
from bot.permissions import is_admin
from bot.scope_state import (
    clear_changed,
    dreaming_enabled,
    read_state,
    record_dream,
)
from bot.services import BotServices
from bot.session import ChatTurn, Session
from bot.tokens import message_tokens
from bot.trimming import hard_trim, turns_to_trim
from channels.base import Channel
from memory.paths import MemoryRoot
from plugins.events import (
    ChatContext,
    ContextHandled,
    ContextTrimmed,
    MessageReceived,
    ReplyDecorated,
    ReplySent,
    TrimReason,
)
from plugins.manager import PluginManager

log = logging.getLogger(__name__)

OFFLINE_REPLY = (
    "No model is configured (set open_ai_api_key or open_ai_api_base in config.json), "
    "so I cannot answer; I recorded your message."
)


class Bot:
    """Implements ``BotHandler``; built by :func:`bot.builder.build_bot`."""

    def __init__(
        self,
        services: BotServices,
        plugins: PluginManager,
        agent: ChatAgent | None,
        channel: Channel,
    ) -> None:
        self.services = services
        self.config = services.config
        self.plugins = plugins
        self.agent = agent
        self.channel = channel
        self.clock: Callable[[], datetime] = services.clock
        self._sessions: dict[str, Session] = {}
        self._sessions_guard = threading.Lock()

    # lifecycle ---------------------------------------------------------------------

    def start(self) -> None:
        """Start the dream worker and the nightly schedule (which catches up at once)."""
        self.services.dreams.start()
        self.services.nightly.start()

    def shutdown(self) -> None:
        """Finish pending dreams, save every session, close plugins and indexes."""
        self.services.nightly.stop()
        self.services.dreams.stop()
        with self._sessions_guard:
            sessions = list(self._sessions.values())
        for session in sessions:
            with session.lock:
                session.save()
        self.plugins.close()
        self.services.search.close()

    # sessions ----------------------------------------------------------------------

    def session(self, scope: Scope) -> Session:
        with self._sessions_guard:
            session = self._sessions.get(scope.key)
            if session is None:
                path = self.services.scopes.session_path(scope)
                session = Session.load(path, scope.key, self.config.redaction)
                self._sessions[scope.key] = session
            return session

    # messages ----------------------------------------------------------------------

    def handle(self, message: IncomingMessage) -> list[str]:
        # Platforms stamp messages in UTC; notes and times follow the configured zone.
        now = (message.time or self.clock()).astimezone(self.config.zone)
        root = self.services.scopes.root_for(message.scope)
        ctx = ChatContext(message, root, is_admin(message, self.config.admin_users), now)
        self.plugins.emit(MessageReceived(ctx))
        if ctx.reply is not None:
            return self._deliver(ctx, ctx.reply)
        session = self.session(message.scope)
        with session.lock:
            name = message.sender_name or message.sender_id if message.scope.is_group else None
            session.append(ChatTurn.make("user", message.text, now, name))
            self._trim(session, message.scope, root, now)
            session.save()
            if not message.addressed:
                return []
            reply = self._answer(ctx, session)
            session.append(ChatTurn.make("assistant", reply, self.clock()))
            session.save()
        return self._deliver(ctx, reply)

    def _deliver(self, ctx: ChatContext, reply: str) -> list[str]:
        decorated = self.plugins.emit(ReplyDecorated(ctx, reply))
        assert isinstance(decorated, ReplyDecorated)
        replies = [decorated.reply] if decorated.reply else []
        self.plugins.emit(ReplySent(ctx, replies))
        return replies

    def _answer(self, ctx: ChatContext, session: Session) -> str:
        event = ContextHandled(ctx, list(session.window))
        self.plugins.emit(event)
        if ctx.reply is not None:
            return ctx.reply
        if self.agent is None:
            return OFFLINE_REPLY
        for attempt in (1, 2):
            try:
                return self.agent.answer(self._messages(event, session), event.tools)
            except ContextOverflow:
                if attempt == 2:
                    return "Sorry, this conversation no longer fits the model, even trimmed."
                log.warning("context overflow in %s; saving and trimming", ctx.scope.key)
                self._overflow(session, ctx)
            except ChatModelUnavailable as exc:
                log.warning("model unavailable: %s", exc, exc_info=exc.__cause__)
                return f"Sorry, I cannot answer right now: {exc}."
        return ""

    def _messages(self, event: ContextHandled, session: Session) -> list[dict[str, Any]]:
        system = "\n\n".join([self.config.character_desc, *event.system_blocks])
        messages: list[dict[str, Any]] = [{"role": "system", "content": system}]
        group = event.context.scope.is_group
        for turn in session.window:
            content = f"{turn.name}: {turn.content}" if group and turn.name else turn.content
            messages.append({"role": turn.role, "content": content})
        if event.hidden_blocks:
            hidden = "\n\n".join(event.hidden_blocks)
            messages.insert(len(messages) - 1, {"role": "system", "content": hidden})
        return messages

    # trimming and flushing ---------------------------------------------------------

    def _trim(self, session: Session, scope: Scope, root: MemoryRoot, now: datetime) -> None:
        reserve = message_tokens(self.config.character_desc) + self.config.memory_prompt_max_chars
        count = turns_to_trim(
            session.window,
            max_turns=self.config.agent_max_context_turns,
            max_tokens=self.config.agent_max_context_tokens,
            reserve=min(reserve, self.config.agent_max_context_tokens // 2),
        )
        if count:
            _, unflushed = session.split_oldest(count)
            self._store(session, scope, root, unflushed, "trim", now)

    def _overflow(self, session: Session, ctx: ChatContext) -> None:
        """Save what no note holds yet, then keep only the newest message."""
        if self._store(session, ctx.scope, ctx.root, session.pending, "overflow", ctx.now):
            session.mark_flushed()
        else:
            session.unflushed = 0  # the unflushed tail went to the backlog
        session.split_oldest(hard_trim(session.window))
        session.save()

    def _store(
        self,
        session: Session,
        scope: Scope,
        root: MemoryRoot,
        turns: list[ChatTurn],
        reason: TrimReason,
        now: datetime,
    ) -> bool:
        """Hand ``turns`` to the plugins that keep them; keep them in the backlog on failure."""
        if not turns:
            return True
        event = ContextTrimmed(scope, root, list(turns), reason, now)
        self.plugins.emit(event)
        if event.handled:
            return True
        if event.errors:
            log.warning("turns of %s kept for a later flush: %s", scope.key, event.errors)
            known = set(map(id, session.backlog))
            session.backlog.extend(t for t in turns if id(t) not in known)
            return False
        return True  # nobody keeps trimmed context (memory plugin disabled)

    # the nightly job ---------------------------------------------------------------

    def forget_turns(self, scope: Scope, text: str, *, apply: bool) -> int:
        """Count (and with ``apply`` remove) the conversation turns that mention ``text``,
        so a forgotten fact is not written to a note again by a later flush."""
        needle = text.strip().casefold()
        session = self.session(scope)
        with session.lock:
            count = session.remove_matching(needle, apply=apply)
            if apply and count:
                session.save()
        return count

    def flush_scope(self, scope: Scope, now: datetime) -> MemoryRoot:
        """Summarise what no note holds yet of ``scope``'s conversation into today's note."""
        root = self.services.scopes.root_for(scope)
        session = self.session(scope)
        with session.lock:
            pending = session.pending
            if pending and self._store(session, scope, root, pending, "daily", now):
                session.mark_flushed()
            session.save()
        return root

    def nightly(self, now: datetime) -> list[DreamJob]:
        """Flush every scope's new conversation, then queue a dream for each changed root."""
        roots: dict[str, tuple[Scope, MemoryRoot]] = {}
        for entry in self.services.scopes.entries():
            scope = self.services.scopes.scope_from_key(entry.key)
            if scope is None:
                continue
            root = self.flush_scope(scope, now)
            roots.setdefault(str(root.path), (scope, root))
        jobs = []
        for scope, root in roots.values():
            if not read_state(root).get("changed"):
                continue
            if not dreaming_enabled(root, self.config.dreaming_enabled):
                continue
            job = self.dream_job(scope, root, origin="nightly")
            if self.services.dreams.submit(job):
                jobs.append(job)
        return jobs

    def dream_job(
        self, scope: Scope, root: MemoryRoot, *, days: int | None = None, origin: Any = "command"
    ) -> DreamJob:
        return DreamJob(
            scope,
            root,
            days or self.config.dream_days,
            self.config.dream_max_items,
            self.config.dream_engine,
            origin=origin,
        )

    def dream_done(self, outcome: DreamOutcome) -> None:
        """Record a finished dream; tell the chat that asked for it."""
        root = outcome.job.root
        record_dream(root, outcome.report, outcome.finished)
        if outcome.report.get("status") in {"done", "skipped"}:
            clear_changed(root, outcome.changes_seen)
        log.info("dream for %s: %s", outcome.job.scope.key, outcome.report.get("status"))
        if outcome.job.origin == "command":
            self.channel.send(outcome.job.scope, format_report(outcome.report))
