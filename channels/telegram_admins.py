"""Who administers a Telegram group, asked with ``getChatAdministrators`` and cached.

One call per group per ``ttl`` seconds, whoever speaks. When Telegram cannot be asked (a
network error, a bot that is not a member any more), the last known answer is kept; with
none, nobody counts as admin, which only ever withholds rights.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from telegram import Bot
from telegram.error import TelegramError

log = logging.getLogger(__name__)


class ChatAdminCache:
    """Caches the set of admin user ids (creator included) of each group chat."""

    def __init__(
        self, bot: Bot, ttl: float = 600.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._bot = bot
        self._ttl = ttl
        self._clock = clock
        self._admins: dict[int, tuple[float, frozenset[int]]] = {}
        self._lock = asyncio.Lock()

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        """Whether ``user_id`` is the creator or an administrator of ``chat_id``."""
        return user_id in await self.admins(chat_id)

    async def admins(self, chat_id: int) -> frozenset[int]:
        async with self._lock:
            cached = self._admins.get(chat_id)
            now = self._clock()
            if cached is not None and now - cached[0] < self._ttl:
                return cached[1]
            try:
                members = await self._bot.get_chat_administrators(chat_id)
            except TelegramError as exc:
                log.warning("could not ask Telegram for the admins of chat %s: %s", chat_id, exc)
                return cached[1] if cached is not None else frozenset()
            ids = frozenset(m.user.id for m in members if m.status in ("creator", "administrator"))
            self._admins[chat_id] = (now, ids)
            return ids

    def forget(self, chat_id: int) -> None:
        """Drop what is known about ``chat_id`` (say, after a ``chat_member`` change)."""
        self._admins.pop(chat_id, None)
