"""One chat scope's conversation: the context window, and what is not yet in a note.

``window`` is what the model sees. ``unflushed`` counts the newest turns of the window that
no daily note holds yet; ``backlog`` keeps turns that left the window while their flush
failed, so nothing said is lost. The whole state is saved to a JSON file after every
change, so a restart resumes the conversation and the next daily job still flushes it.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.tokens import message_tokens
from memory.atomic import atomic_write_text
from memory.redact import DEFAULT, Redaction, redact
from memory.textfile import clean_text

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ChatTurn:
    """A message in a conversation; ``name`` is the speaker in a group."""

    role: str  # "user" | "assistant"
    content: str
    time: str | None = None  # ISO 8601 with offset
    name: str | None = None

    @property
    def tokens(self) -> int:
        return message_tokens(self.content) + (1 if self.name else 0)

    @classmethod
    def make(
        cls, role: str, content: str, when: datetime | None, name: str | None = None
    ) -> ChatTurn:
        return cls(role, content, when.isoformat(timespec="seconds") if when else None, name)


def _stored(turn: ChatTurn, redaction: Redaction) -> dict[str, Any]:
    """A turn as saved to disk: secrets never reach the file."""
    return {**asdict(turn), "content": redact(clean_text(turn.content), redaction)}


@dataclass
class Session:
    """The conversation of one scope, persisted at ``path``."""

    path: Path
    scope_key: str
    window: list[ChatTurn] = field(default_factory=list)
    unflushed: int = 0
    backlog: list[ChatTurn] = field(default_factory=list)
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    redaction: Redaction = DEFAULT
    save_error: str | None = field(default=None, repr=False)  # why the last save failed

    @classmethod
    def load(cls, path: Path, scope_key: str, redaction: Redaction = DEFAULT) -> Session:
        session = cls(path, scope_key, redaction=redaction)
        if not path.exists():
            return session
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            session.window = [ChatTurn(**t) for t in data.get("window", [])]
            session.backlog = [ChatTurn(**t) for t in data.get("backlog", [])]
            session.unflushed = min(int(data.get("unflushed", 0)), len(session.window))
        except (OSError, ValueError, TypeError) as exc:
            broken = path.with_suffix(".broken")
            path.replace(broken)
            log.error("session file %s unreadable (%s); kept as %s", path, exc, broken.name)
        return session

    def save(self) -> bool:
        """Write the state; False (logged, and kept in ``save_error``) when the disk refuses:
        the conversation goes on in memory and the next save tries again."""
        data: dict[str, Any] = {
            "scope": self.scope_key,
            "window": [_stored(t, self.redaction) for t in self.window],
            "unflushed": self.unflushed,
            "backlog": [_stored(t, self.redaction) for t in self.backlog],
        }
        try:
            atomic_write_text(self.path, json.dumps(data, ensure_ascii=False, indent=1))
        except OSError as exc:
            if self.save_error is None:
                log.error("cannot save the conversation %s: %s", self.path, exc)
            self.save_error = exc.strerror or str(exc)
            return False
        self.save_error = None
        return True

    def append(self, turn: ChatTurn) -> None:
        self.window.append(turn)
        self.unflushed += 1

    @property
    def pending(self) -> list[ChatTurn]:
        """Turns no daily note holds yet: the backlog, then the window's unflushed tail."""
        tail = self.window[len(self.window) - self.unflushed :] if self.unflushed else []
        return [*self.backlog, *tail]

    def remove_matching(self, needle: str, *, apply: bool) -> int:
        """Turns whose text contains ``needle`` (case-folded); removed when ``apply``."""
        hits = [t for t in [*self.backlog, *self.window] if needle in t.content.casefold()]
        if apply and hits:
            tail = self.window[len(self.window) - self.unflushed :] if self.unflushed else []
            self.unflushed -= sum(1 for t in tail if needle in t.content.casefold())
            self.window = [t for t in self.window if needle not in t.content.casefold()]
            self.backlog = [t for t in self.backlog if needle not in t.content.casefold()]
        return len(hits)

    def mark_flushed(self) -> None:
        self.backlog.clear()
        self.unflushed = 0

    def tokens(self) -> int:
        return sum(t.tokens for t in self.window)

    def split_oldest(self, count: int) -> tuple[list[ChatTurn], list[ChatTurn]]:
        """Remove the ``count`` oldest turns; return (all removed, the removed unflushed)."""
        flushed = len(self.window) - self.unflushed  # the flushed turns come first
        removed = self.window[:count]
        self.window = self.window[count:]
        new_unflushed = removed[min(len(removed), flushed) :]
        self.unflushed -= len(new_unflushed)
        return removed, new_unflushed
