"""Who a group member is across messages: the stable person id of a sender.

Telegram: the user id (``telegram:42``), which survives every rename. WeChat: the WeChat
ID or the remark the owner gave a friend (``wechat:<id>``); a member who is not a friend
has only a nickname, which anyone can copy, so they get no person (their lines are
remembered under a label nobody else is given, but no card is kept for them). The terminal
and the web console are the owner's (``owner``).
"""

from __future__ import annotations

from datetime import datetime

from bot.messages import IncomingMessage
from bot.scopes import OWNER_PLATFORMS
from memory.paths import MemoryRoot
from memory.people.directory import OWNER_ID, Person, load_directory, record_sighting
from memory.people.limits import PeoplePolicy, people_on

NICKNAME_ONLY = "nick:"  # channels.wechat_rules.member_id's prefix for a bare nickname


def person_id(message: IncomingMessage) -> str | None:
    """The stable id of the sender, or None when the platform gives no lasting one."""
    platform = message.scope.platform
    if platform in OWNER_PLATFORMS:
        return OWNER_ID
    sender = message.sender_id.strip()
    if not sender or sender.startswith(NICKNAME_ONLY):
        return None
    return f"{platform}:{sender}"


def speaker_label(
    message: IncomingMessage, root: MemoryRoot, now: datetime, policy: PeoplePolicy | bool
) -> str | None:
    """The name the sender's lines carry in the notes: in a chat that keeps people
    knowledge, their label in the chat's directory (recorded now); otherwise their
    display name in a group, and None in a private chat."""
    shown = message.sender_name or message.sender_id
    if not people_on(policy, message.scope.is_group):
        return shown if message.scope.is_group else None
    return record_sighting(root, person_id(message), shown, now)


def speaker(message: IncomingMessage, root: MemoryRoot) -> Person | None:
    """The sender's person in ``root``'s directory, if they have one."""
    wanted = person_id(message)
    return None if wanted is None else load_directory(root).by_id(wanted)
