"""CowAgent's WeChat chat rules, as pure functions over itchat-uos message dicts.

- A private message is for the bot only when it starts with one of ``single_chat_prefix``
  (``""`` matches everything; an empty list answers nobody); the prefix is removed.
- A group message is considered only in a group whose name is in ``group_name_white_list``
  (or the list holds ``"ALL_GROUP"``); other groups are ignored entirely, not remembered.
- In a listed group the bot is addressed when @-mentioned (unless ``group_at_off``) or when
  the text starts with one of ``group_chat_prefix``; the mention and prefix are removed.
  Other messages there are remembered, not answered.
- Messages the logged-in account sent itself are ignored.

Web WeChat has no permanent ids: ``UserName`` (``@...``, ``@@...`` for groups) changes at
every login. A scope is therefore keyed by the most stable name WeChat gives
(:func:`stable_contact_id`), and :class:`channels.wechat_ids.SessionIds` keeps that key for
the whole login session even when a group is renamed meanwhile.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.config import BotConfig
from bot.messages import IncomingMessage, Scope

ALL_GROUPS = "ALL_GROUP"
MENTION_SPACE = "\u2005"  # WeChat puts a four-per-em space after an @-mention


@dataclass(frozen=True)
class WeChatRules:
    single_chat_prefix: tuple[str, ...]
    single_chat_reply_prefix: str
    group_chat_prefix: tuple[str, ...]
    group_name_white_list: tuple[str, ...]
    group_at_off: bool

    @classmethod
    def from_config(cls, config: BotConfig) -> WeChatRules:
        return cls(
            single_chat_prefix=tuple(config.single_chat_prefix),
            single_chat_reply_prefix=config.single_chat_reply_prefix,
            group_chat_prefix=tuple(config.group_chat_prefix),
            group_name_white_list=tuple(config.group_name_white_list),
            group_at_off=config.group_at_off,
        )


@dataclass(frozen=True)
class Me:
    """The logged-in account: its session ``UserName`` and its nickname."""

    user_name: str
    nick_name: str


def match_prefix(text: str, prefixes: Sequence[str]) -> str | None:
    """The first of ``prefixes`` that ``text`` starts with (CowAgent's ``check_prefix``)."""
    for prefix in prefixes:
        if text.startswith(prefix):
            return prefix
    return None


def group_allowed(group_name: str, white_list: Sequence[str]) -> bool:
    return ALL_GROUPS in white_list or group_name in white_list


def stable_contact_id(contact: Mapping[str, Any]) -> str:
    """The most lasting name of a contact: WeChat ID (``Alias``), remark, then nickname."""
    for key in ("Alias", "RemarkName", "NickName"):
        value = str(contact.get(key) or "").strip()
        if value:
            return value
    return str(contact.get("UserName") or "unknown")


def strip_mention(text: str, names: Sequence[str]) -> str:
    """Remove the first ``@name`` (followed by a space or the end) for any of ``names``."""
    for name in names:
        if not name:
            continue
        pattern = rf"@{re.escape(name)}(?:{MENTION_SPACE}| |$)"
        stripped, count = re.subn(pattern, "", text, count=1)
        if count:
            return stripped
    return text


def _time(msg: Mapping[str, Any]) -> datetime | None:
    created = msg.get("CreateTime")
    return datetime.fromtimestamp(int(created), UTC) if created else None


def _member(room: Mapping[str, Any], user_name: str) -> Mapping[str, Any] | None:
    for member in room.get("MemberList") or []:
        if member.get("UserName") == user_name:
            return member
    return None


def private_incoming(
    msg: Mapping[str, Any], me: Me, rules: WeChatRules, chat_id: str
) -> IncomingMessage | None:
    """A friend's text message, or None when it is not for the bot."""
    if msg.get("FromUserName") == me.user_name:
        return None
    content = str(msg.get("Content") or msg.get("Text") or "")
    prefix = match_prefix(content, rules.single_chat_prefix)
    if prefix is None:
        return None
    text = content[len(prefix) :].strip()
    if not text:
        return None
    user = msg.get("User") or {}
    name = str(user.get("RemarkName") or user.get("NickName") or chat_id)
    return IncomingMessage(
        scope=Scope("wechat", chat_id, is_group=False, title=name),
        sender_id=chat_id,
        sender_name=name,
        text=text,
        addressed=True,
        time=_time(msg),
        message_id=str(msg.get("MsgId") or "") or None,
    )


def member_id(friend: Mapping[str, Any] | None, nickname: str) -> str:
    """A group member's id for permissions: the WeChat ID or the remark the owner gave them
    when they are a friend; otherwise ``nick:NAME``, since anyone can take any nickname
    (so ``admin_users`` never matches a bare nickname by accident)."""
    for key in ("Alias", "RemarkName"):
        value = str((friend or {}).get(key) or "").strip()
        if value:
            return value
    return f"nick:{nickname}"


def group_incoming(
    msg: Mapping[str, Any],
    me: Me,
    rules: WeChatRules,
    chat_id: str,
    friend: Mapping[str, Any] | None = None,
) -> IncomingMessage | None:
    """A group text message from a white-listed group, addressed or not; else None."""
    room = msg.get("User") or {}
    group_name = str(room.get("NickName") or "")
    if not group_allowed(group_name, rules.group_name_white_list):
        return None
    actual = str(msg.get("ActualUserName") or "")
    if actual == me.user_name or msg.get("FromUserName") == me.user_name:
        return None
    text = str(msg.get("Content") or msg.get("Text") or "")
    addressed = False
    if msg.get("IsAt"):
        self_member = room.get("Self") or {}
        text = strip_mention(text, [str(self_member.get("DisplayName") or ""), me.nick_name])
        addressed = not rules.group_at_off
    prefix = match_prefix(text.lstrip(), rules.group_chat_prefix)
    if prefix is not None:
        text = text.lstrip()[len(prefix) :]
        addressed = True
    text = text.strip()
    if not text:
        return None
    member = _member(room, actual)
    speaker = str(msg.get("ActualNickName") or "") or (
        stable_contact_id(member) if member else actual
    )
    return IncomingMessage(
        scope=Scope("wechat", chat_id, is_group=True, title=group_name),
        sender_id=member_id(friend, speaker),
        sender_name=speaker,
        text=text,
        addressed=addressed,
        sender_is_chat_admin=bool(actual) and room.get("ChatRoomOwner") == actual,
        time=_time(msg),
        message_id=str(msg.get("MsgId") or "") or None,
    )


def decorate_reply(message: IncomingMessage, reply: str, rules: WeChatRules) -> str:
    """CowAgent's reply form: ``@speaker`` first in a group, the reply prefix in private."""
    if message.scope.is_group:
        return f"@{message.sender_name}\n{reply.strip()}"
    return f"{rules.single_chat_reply_prefix}{reply}"
