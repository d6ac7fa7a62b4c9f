"""Every chat's conversation: sessions, trimming into daily notes, flushing, forgetting.

Built before the plugins (it only needs the event bus to hand trimmed turns to whoever
keeps them), so the plugins, the nightly job and the engine all share one instance and
nothing is late-bound. Each session is used under its own lock.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime

from bot.config import BotConfig
from bot.messages import Scope
from bot.scopes import ScopeDirectory
from bot.session import ChatTurn, Session
from bot.tokens import message_tokens
from bot.trimming import hard_trim, turns_to_trim
from memory import session_log
from memory.errors import MemoryEngineError
from memory.paths import MemoryRoot
from plugins.events import ContextTrimmed, Event, TrimReason

log = logging.getLogger(__name__)

Emit = Callable[[Event], Event]


class Conversations:
    """The sessions of every scope, and what leaves them for the daily notes."""

    def __init__(self, config: BotConfig, scopes: ScopeDirectory, emit: Emit) -> None:
        self.config = config
        self.scopes = scopes
        self.emit = emit
        self._sessions: dict[str, Session] = {}
        self._guard = threading.Lock()

    def session(self, scope: Scope) -> Session:
        with self._guard:
            session = self._sessions.get(scope.key)
            if session is None:
                path = self.scopes.session_path(scope)
                session = Session.load(path, scope.key, self.config.redaction)
                self._sessions[scope.key] = session
            return session

    def save_all(self) -> None:
        with self._guard:
            sessions = list(self._sessions.values())
        for session in sessions:
            with session.lock:
                session.save()

    def say(self, session: Session, root: MemoryRoot, turn: ChatTurn, when: datetime) -> str | None:
        """Add ``turn`` to the conversation and append it to the chat's session log at once
        (redacted); its log line, or None when the log could not be written (that is
        reported, and the chat goes on)."""
        session.append(turn)
        line = session_log.encode(when, turn.role, turn.content, turn.name, session.redaction)
        try:
            return session_log.append(root, when, [line]).ref
        except (MemoryEngineError, OSError) as exc:
            log.error("session log of %s not written: %s", session.scope_key, exc)
            return None

    # trimming --------------------------------------------------------------------------

    def trim(self, session: Session, scope: Scope, root: MemoryRoot, now: datetime) -> None:
        """Over the limits, summarise the oldest turns into the note, then drop them."""
        reserve = message_tokens(self.config.character_desc) + self.config.memory_prompt_max_chars
        count = turns_to_trim(
            session.window,
            max_turns=self.config.agent_max_context_turns,
            max_tokens=self.config.agent_max_context_tokens,
            reserve=min(reserve, self.config.agent_max_context_tokens // 2),
        )
        if count:
            _, unflushed = session.split_oldest(count)
            self.store(session, scope, root, unflushed, "trim", now)

    def overflow(self, session: Session, scope: Scope, root: MemoryRoot, now: datetime) -> None:
        """After the API said the context is too long: save what no note holds yet, then
        keep only the newest message."""
        if self.store(session, scope, root, session.pending, "overflow", now):
            session.mark_flushed()
        else:
            session.unflushed = 0  # the unflushed tail went to the backlog
        session.split_oldest(hard_trim(session.window))
        session.save()

    def store(
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
        self.emit(event)
        if event.handled:
            return True
        if event.errors:
            log.warning("turns of %s kept for a later flush: %s", scope.key, event.errors)
            known = set(map(id, session.backlog))
            session.backlog.extend(t for t in turns if id(t) not in known)
            return False
        return True  # nobody keeps trimmed context (memory plugin disabled)

    # flushing and forgetting -----------------------------------------------------------

    def flush(self, scope: Scope, now: datetime) -> MemoryRoot:
        """Summarise what no note holds yet of ``scope``'s conversation into today's note."""
        root = self.scopes.root_for(scope)
        session = self.session(scope)
        with session.lock:
            pending = session.pending
            if pending and self.store(session, scope, root, pending, "daily", now):
                session.mark_flushed()
            session.save()
        return root

    def forget(self, scope: Scope, text: str, *, apply: bool) -> int:
        """Count (and with ``apply`` remove) the turns that mention ``text``, so a forgotten
        fact is not written to a note again by a later flush."""
        needle = text.strip().casefold()
        session = self.session(scope)
        with session.lock:
            count = session.remove_matching(needle, apply=apply)
            if apply and count:
                session.save()
        return count
