"""Shared test helpers for the Telegram channel tests: settings, a recording bot, a runner."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from bot.config import BotConfig
from bot.messages import IncomingMessage
from channels.telegram import TelegramChannel
from channels.telegram_outbound import RetryPolicy
from tests.fakes.telegram_server import FakeTelegramServer


def telegram_config(server: FakeTelegramServer, **overrides: Any) -> BotConfig:
    """A real BotConfig pointing at the fake Bot API server."""
    values: dict[str, Any] = {
        "channel_type": "telegram",
        "telegram_token": server.token,
        "telegram_api_base": server.base_url,
        "group_chat_prefix": ["bot,"],
    }
    values.update(overrides)
    return BotConfig(**values)


class RecordingBot:
    """A BotHandler test double: records every message; answers the addressed ones."""

    def __init__(self, answer: Callable[[IncomingMessage], list[str]] | None = None) -> None:
        self.messages: list[IncomingMessage] = []
        self._answer = answer or (lambda m: [f"echo: {m.text}"] if m.addressed else [])
        self._cond = threading.Condition()

    def handle(self, message: IncomingMessage) -> list[str]:
        with self._cond:
            self.messages.append(message)
            self._cond.notify_all()
        return self._answer(message)

    def wait_for(self, count: int, timeout: float = 10.0) -> list[IncomingMessage]:
        with self._cond:
            if not self._cond.wait_for(lambda: len(self.messages) >= count, timeout):
                raise AssertionError(f"expected {count} messages, got {self.messages!r}")
            return list(self.messages)


@contextmanager
def running_channel(
    server: FakeTelegramServer, bot: object, **settings: Any
) -> Iterator[TelegramChannel]:
    """Run a TelegramChannel against ``server`` in a thread; stop it on exit."""
    channel = TelegramChannel(
        telegram_config(server, **settings),
        poll_timeout=1,
        retry=RetryPolicy(max_attempts=4, base_delay=0.01, max_delay=0.05),
    )
    errors: list[BaseException] = []

    def target() -> None:
        try:
            channel.run(bot)  # type: ignore[arg-type]
        except BaseException as exc:  # surfaced by the test below
            errors.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    try:
        yield channel
    finally:
        channel.stop()
        thread.join(timeout=15)
        assert not thread.is_alive(), "the Telegram channel did not stop"
        if errors:
            raise errors[0]
