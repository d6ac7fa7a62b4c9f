"""Who may change a scope's memory (pure function)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.messages import IncomingMessage
from bot.scopes import OWNER_PLATFORMS


def is_admin(message: IncomingMessage, admin_users: Iterable[str]) -> bool:
    """True for the scope's admins.

    They are the configured ``admin_users`` (a plain id, or ``platform:id``), the owner
    of a private chat (its own user; the terminal and web console user is the owner),
    and, in a group, senders the platform reports as the group's owner or admins.
    """
    scope = message.scope
    if scope.platform in OWNER_PLATFORMS or not scope.is_group:
        return True
    wanted = {message.sender_id, f"{scope.platform}:{message.sender_id}"}
    if any(entry.strip() in wanted for entry in admin_users):
        return True
    return message.sender_is_chat_admin
