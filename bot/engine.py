"""The bot engine: one message in, replies out, with sessions, plugins and the model.

Per message: ``MessageReceived`` (a plugin may answer: commands) -> the message joins the
scope's conversation (trimmed into the daily note when over the limits) -> a group message
that did not address the bot stops here -> ``ContextHandled`` (memory and tools join the
prompt) -> the model -> ``ReplyDecorated`` -> ``ReplySent``. ``handle`` is thread-safe:
messages of one scope are processed in order, different scopes in parallel.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from bot.agent import ChatAgent
from bot.console import ChatEntry, ConsoleTurn, ConsoleView
from bot.conversations import Conversations
from bot.messages import WEB_SCOPE, IncomingMessage
from bot.people import speaker_label
from bot.permissions import is_admin
from bot.services import BotServices
from bot.session import ChatTurn, Session
from memory.errors import ContextOverflow, ModelError, UsageError
from plugins.events import (
    ChatContext,
    ContextHandled,
    MessageReceived,
    ReplyDecorated,
    ReplySent,
)
from plugins.manager import PluginManager

log = logging.getLogger(__name__)
SHUTDOWN_DREAM_WAIT = 60.0  # seconds shutdown waits for queued dreams before interrupting


class Bot:
    """Implements ``BotHandler``; built by :func:`bot.builder.build_bot`."""

    def __init__(
        self, services: BotServices, plugins: PluginManager, agent: ChatAgent | None
    ) -> None:
        self.services = services
        self.config = services.config
        self.plugins = plugins
        self.agent = agent
        self.clock: Callable[[], datetime] = services.clock
        self.conversations: Conversations = services.conversations

    # lifecycle ---------------------------------------------------------------------

    def start(self) -> None:
        """Start the dream worker, the nightly schedule (which catches up at once) and the
        idle and pressure triggers."""
        self.services.dreams.start()
        self.services.nightly.start()
        self.services.triggers.start()

    def shutdown(self) -> None:
        """Finish pending dreams, save every session, close plugins and indexes."""
        self.services.nightly.stop()
        self.services.triggers.stop()
        self.services.dreams.stop(SHUTDOWN_DREAM_WAIT)
        self.conversations.save_all()
        self.plugins.close()
        self.services.search.close()

    # the web console ---------------------------------------------------------------

    def console_view(self, chat: str | None) -> ConsoleView:
        """The owner's memory, or (read only) the chat with scope key ``chat``."""
        scopes = self.services.scopes
        if not chat:
            return ConsoleView(self.services, scopes.root_for(WEB_SCOPE))
        scope = scopes.scope_from_key(chat)
        if scope is None or scopes.entry(chat) is None:
            raise UsageError(f"no chat {chat!r} in this workspace")
        return ConsoleView(self.services, scopes.root_for(scope))

    def console_history(self) -> list[ConsoleTurn]:
        session = self.conversations.session(WEB_SCOPE)
        with session.lock:
            return [ConsoleTurn(t.role, t.content, t.time) for t in session.window]

    def console_chats(self) -> list[ChatEntry]:
        entries = self.services.scopes.entries()
        return [ChatEntry(e.key, e.title, e.folder) for e in entries if e.folder != "."]

    # messages ----------------------------------------------------------------------

    def handle(self, message: IncomingMessage) -> list[str]:
        # Platforms stamp messages in UTC; notes and times follow the configured zone.
        now = (message.time or self.clock()).astimezone(self.config.zone)
        root = self.services.scopes.root_for(message.scope)
        lang = self.services.languages.for_message(message, root, now)
        ctx = ChatContext(message, root, is_admin(message, self.config.admin_users), now, lang)
        self.plugins.emit(MessageReceived(ctx))
        if ctx.reply is not None:
            return self._deliver(ctx, ctx.reply)
        session = self.conversations.session(message.scope)
        with session.lock:
            name = speaker_label(message, root, now, self.config.people_enabled)
            said = ChatTurn.make("user", message.text, now, name)
            ctx.logged = self.conversations.say(session, root, said, now)
            self.conversations.trim(session, message.scope, root, now)
            session.save()
            if not message.addressed:
                return []
            reply, spoken = self._answer(ctx, session)
            if spoken:  # the bot's own notices are no part of the conversation
                answered = self.clock().astimezone(self.config.zone)
                self.conversations.say(
                    session, root, ChatTurn.make("assistant", reply, answered), answered
                )
            if not session.save():
                reply += "\n" + ctx.lang.t("reply.not_saved", error=session.save_error)
        return self._deliver(ctx, reply)

    def _deliver(self, ctx: ChatContext, reply: str) -> list[str]:
        decorated = self.plugins.emit(ReplyDecorated(ctx, reply))
        assert isinstance(decorated, ReplyDecorated)
        replies = [decorated.reply] if decorated.reply else []
        self.plugins.emit(ReplySent(ctx, replies))
        return replies

    def _answer(self, ctx: ChatContext, session: Session) -> tuple[str, bool]:
        """The reply, and whether the model said it. Anything else is the bot's notice (no
        model, with its memory hits; the model failed; the context is still too long): it
        is told, but it is no turn of the conversation, so neither the session log, the
        notes, memory search nor the model's next prompt sees it."""
        event = ContextHandled(ctx, list(session.window))
        self.plugins.emit(event)
        if ctx.reply is not None:
            return ctx.reply, False
        if self.agent is None:
            return ctx.lang.t("reply.offline"), False
        for attempt in (1, 2):
            try:
                return self.agent.answer(self._messages(event, session), event.tools), True
            except ContextOverflow:
                if attempt == 2:
                    return ctx.lang.t("reply.too_long"), False
                log.warning("context overflow in %s; saving and trimming", ctx.scope.key)
                self.conversations.overflow(session, ctx.scope, ctx.root, ctx.now)
            except ModelError as exc:
                log.warning("model unavailable: %s", exc, exc_info=exc.__cause__)
                return ctx.lang.t("reply.model_error", error=exc), False
        return "", False

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
