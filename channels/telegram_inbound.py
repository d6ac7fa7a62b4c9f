"""Turning a Telegram message into an :class:`IncomingMessage`: scope, speaker, addressing.

Pure functions over python-telegram-bot's ``Message`` objects (no network). In a group the
bot is addressed when the message

- is a bot command without a ``@suffix`` or with this bot's ``@suffix`` (a command for
  another bot is ignored altogether),
- mentions the bot (``@username`` or a text mention of its user id),
- replies to one of the bot's messages, or
- starts with one of the configured ``group_chat_prefix`` strings.

The mention, the command suffix and the prefix are removed from the text the bot sees.
Private chats are always addressed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from telegram import Chat, Message, MessageEntity

from bot.messages import IncomingMessage, Scope

GROUP_CHAT_TYPES = frozenset({Chat.GROUP, Chat.SUPERGROUP})


@dataclass(frozen=True)
class BotIdentity:
    """Who the bot is on Telegram, from ``getMe``."""

    id: int
    username: str  # without the leading "@"


def scope_of(chat: Chat) -> Scope | None:
    """The memory scope of ``chat``: keyed by chat id, titled for people; None for channels."""
    if chat.type == Chat.PRIVATE:
        title = chat.full_name or (f"@{chat.username}" if chat.username else str(chat.id))
        return Scope("telegram", str(chat.id), is_group=False, title=title)
    if chat.type in GROUP_CHAT_TYPES:
        return Scope("telegram", str(chat.id), is_group=True, title=chat.title or str(chat.id))
    return None


def _strip_span(text: str, span: str) -> str:
    """Remove the first ``span`` with the blanks and one comma/colon that follow it."""
    return re.sub(re.escape(span) + r"[,:，：]?[ \t\u00a0]*", "", text, count=1)


def _command_target(message: Message, me: BotIdentity) -> tuple[bool, str] | None:
    """For a message that starts with a bot command: (is ours, text with our suffix removed)."""
    for entity, token in message.parse_entities([MessageEntity.BOT_COMMAND]).items():
        if entity.offset != 0:
            continue
        _, _, target = token.partition("@")
        if target and target.lower() != me.username.lower():
            return None
        text = message.text or ""
        if target:
            text = text.replace(f"@{target}", "", 1)
        return True, text
    return False, message.text or ""


def _strip_mentions(message: Message, me: BotIdentity, text: str) -> tuple[bool, str]:
    mentioned = False
    entities = message.parse_entities([MessageEntity.MENTION, MessageEntity.TEXT_MENTION])
    for entity, span in entities.items():
        is_me = (
            entity.type == MessageEntity.MENTION and span.lower() == f"@{me.username.lower()}"
        ) or (entity.type == MessageEntity.TEXT_MENTION and entity.user and entity.user.id == me.id)
        if is_me:
            mentioned = True
            text = _strip_span(text, span)
    return mentioned, text


def _strip_prefix(text: str, prefixes: Sequence[str]) -> tuple[bool, str]:
    for prefix in prefixes:
        if text.startswith(prefix):
            return True, text[len(prefix) :]
    return False, text


def to_incoming(
    message: Message, me: BotIdentity, group_prefixes: Sequence[str]
) -> IncomingMessage | None:
    """The :class:`IncomingMessage` for a text ``message``, or None when it is not for us.

    ``sender_is_chat_admin`` is only set here for anonymous group admins (who post as the
    group itself); the channel asks Telegram about everyone else.
    """
    scope = scope_of(message.chat)
    if scope is None or message.text is None:
        return None
    command = _command_target(message, me)
    if command is None:
        return None
    is_command, text = command
    if not scope.is_group:
        addressed = True
    else:
        mentioned, text = _strip_mentions(message, me, text)
        replied = bool(
            message.reply_to_message
            and message.reply_to_message.from_user
            and message.reply_to_message.from_user.id == me.id
        )
        prefixed, text = (False, text) if is_command else _strip_prefix(text, group_prefixes)
        addressed = is_command or mentioned or replied or prefixed
    text = text.strip()
    if not text:
        return None
    anonymous_admin = message.sender_chat is not None and message.sender_chat.id == message.chat.id
    user = message.from_user
    if anonymous_admin or user is None:
        sender_id, sender_name = str(message.chat.id), message.chat.title or "admin"
    else:
        sender_id, sender_name = str(user.id), user.full_name
    return IncomingMessage(
        scope=scope,
        sender_id=sender_id,
        sender_name=sender_name,
        text=text,
        addressed=addressed,
        sender_is_chat_admin=anonymous_admin,
        time=message.date,
        message_id=str(message.message_id),
    )
