"""The one boundary between the bot and a chat platform."""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from bot.chat_language import ChatLanguages
from bot.messages import IncomingMessage, Scope

if TYPE_CHECKING:
    from bot.console import ChatEntry, ConsoleTurn, ConsoleView

log = logging.getLogger(__name__)


class BotHandler(Protocol):
    """The bot engine as a channel sees it."""

    def handle(self, message: IncomingMessage) -> list[str]:
        """Process one message; return the replies to send back to its chat (maybe none)."""
        ...


@runtime_checkable
class ConsoleBot(BotHandler, Protocol):
    """What the web console needs beyond messages: read-only views of the chats' memory."""

    def console_view(self, chat: str | None) -> ConsoleView:
        """The owner's memory (``None``) or another chat's, by scope key (read only)."""
        ...

    def console_chats(self) -> list[ChatEntry]:
        """The other chats the bot keeps memory for."""
        ...

    def console_history(self) -> list[ConsoleTurn]:
        """The owner's console conversation so far (it survives a reload and a restart)."""
        ...


def handle_safely(bot: BotHandler, message: IncomingMessage, languages: ChatLanguages) -> list[str]:
    """``bot.handle`` for a platform channel: a failure is logged with its traceback and
    the chat gets one apologetic line (in the configured language, else the message's),
    never silence or a crash of the channel."""
    try:
        return bot.handle(message)
    except Exception:
        log.exception("the bot failed on a message in %s", message.scope.key)
        if not message.addressed:
            return []
        code = languages.fixed() or languages.detect(message.text)
        return [languages.languages.translator(code).t("failure")]


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
