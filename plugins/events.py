"""Typed events that plugins register for, in the order the bot emits them.

MessageReceived  a message arrived; a plugin may answer it (commands) and stop it
ContextHandled   the conversation is ready for the model; plugins add prompt blocks
                 and tools, or answer themselves
ReplyDecorated   a reply is about to go out; plugins may rewrite its text
ReplySent        the replies were handed back to the channel
ContextTrimmed   turns leave a conversation (trim, overflow, daily job); a plugin that
                 stores them sets ``handled``
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from bot.i18n import Translator
from bot.messages import IncomingMessage, Scope
from bot.session import ChatTurn
from memory.paths import MemoryRoot

TrimReason = Literal["trim", "daily", "overflow"]


@dataclass
class ChatContext:
    """One incoming message with what the bot knows about its scope."""

    message: IncomingMessage
    root: MemoryRoot
    is_admin: bool
    now: datetime
    lang: Translator  # the chat's language: every reply of the bot's own goes through it
    reply: str | None = None  # set by a plugin that answers the message itself
    logged: str | None = None  # the message's session-log line ("sessions/DATE.jsonl#Ln")

    @property
    def scope(self) -> Scope:
        return self.message.scope


@dataclass
class Tool:
    """A function the model may call: its OpenAI schema and the code that runs it."""

    schema: dict[str, Any]
    run: Callable[[dict[str, Any]], dict[str, Any]]

    @property
    def name(self) -> str:
        return str(self.schema["function"]["name"])


@dataclass
class Event:
    """Base of every event; ``errors`` collects the plugins that raised while handling it."""

    errors: list[str] = field(default_factory=list, init=False)


@dataclass
class MessageReceived(Event):
    context: ChatContext


@dataclass
class ContextHandled(Event):
    context: ChatContext
    history: list[ChatTurn]
    system_blocks: list[str] = field(default_factory=list)
    hidden_blocks: list[str] = field(default_factory=list)
    tools: list[Tool] = field(default_factory=list)


@dataclass
class ReplyDecorated(Event):
    context: ChatContext
    reply: str


@dataclass
class ReplySent(Event):
    context: ChatContext
    replies: list[str]


@dataclass
class ContextTrimmed(Event):
    scope: Scope
    root: MemoryRoot
    turns: list[ChatTurn]
    reason: TrimReason
    now: datetime
    handled: bool = False
    summary: list[str] = field(default_factory=list)
