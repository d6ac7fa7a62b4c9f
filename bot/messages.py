"""What crosses the channel boundary: chat scopes and incoming messages."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class Scope:
    """One chat whose memory is kept apart from every other chat's.

    Identity is ``platform`` + ``chat_id`` + ``is_group``; ``title`` is a display name only,
    so a renamed group keeps its memory and the same person on two platforms stays two
    scopes.
    """

    platform: str  # "terminal", "web", "telegram", "wechat"
    chat_id: str
    is_group: bool = False
    title: str = field(default="", compare=False, hash=False)

    @property
    def key(self) -> str:
        kind = "group" if self.is_group else "user"
        return f"{self.platform}:{kind}:{self.chat_id}"


@dataclass(frozen=True)
class IncomingMessage:
    """A text message as a channel adapter hands it to the bot.

    The adapter has already stripped any prefix or @-mention that addressed the bot.
    ``addressed`` is always True in a private chat; in a group it says whether the bot was
    mentioned, replied to or called by a prefix (only then does the bot answer; otherwise
    the message is only remembered).
    """

    scope: Scope
    sender_id: str
    sender_name: str
    text: str
    addressed: bool = True
    sender_is_chat_admin: bool = False  # group owner/admin, where the platform tells
    time: datetime | None = None
    message_id: str | None = None
    language: str | None = None  # chosen by the sender for the bot's words (the console)


WEB_SCOPE = Scope("web", "owner", False, "web console")
"""The web console's chat: the owner's, like the terminal's."""
