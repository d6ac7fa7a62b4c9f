"""The one boundary between the bot and a chat platform."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Protocol

from bot.messages import IncomingMessage, Scope


class BotHandler(Protocol):
    """The bot engine as a channel sees it."""

    def handle(self, message: IncomingMessage) -> list[str]:
        """Process one message; return the replies to send back to its chat (maybe none)."""
        ...


class Channel(ABC):
    """A chat platform adapter. The bot engine never knows which one it talks to."""

    name: str = "channel"

    @abstractmethod
    def run(self, bot: BotHandler) -> None:
        """Receive messages and pass them to ``bot`` until :meth:`stop` or end of input."""

    @abstractmethod
    def send(self, scope: Scope, text: str) -> None:
        """Send ``text`` to ``scope`` unprompted (a finished dream, say); thread-safe."""

    def stop(self) -> None:  # noqa: B027 - optional hook
        """Ask :meth:`run` to return; the default does nothing."""
