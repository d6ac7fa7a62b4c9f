"""A running web console for tests: the real bot, uvicorn on 127.0.0.1, a fake model."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx

from bot.builder import build_bot
from bot.config import BotConfig
from bot.engine import Bot
from channels.web.server import WebChannel
from channels.web.throttle import LoginThrottle
from tests.fakes.clock import FakeClock

NOTE = (
    "# Daily Memory: 2026-11-29\n\n## Daily Summary (23:55)\n"
    "- The user prefers jasmine tea in the afternoon\n"
    "- The user is learning to play the cello\n"
)


@dataclass
class Console:
    bot: Bot
    channel: WebChannel
    url: str
    clients: list[httpx.Client] = field(default_factory=list)

    def client(self, **options: Any) -> httpx.Client:
        """An HTTP client for the console, closed when the console stops."""
        client = httpx.Client(base_url=self.url, timeout=30, **options)
        self.clients.append(client)
        return client


def console_config(tmp_path: Path, **overrides: Any) -> BotConfig:
    values: dict[str, Any] = {
        "channel_type": "web",
        "agent_workspace": str(tmp_path / "ws"),
        "timezone": "Asia/Shanghai",
        "embedding_provider": "none",
        "dream_engine": "extractive",
        "web_port": 9899,
    }
    values.update(overrides)
    return BotConfig(**values)


def console_clock() -> FakeClock:
    """The consoles' clock: the day after the seeded note, whatever today is."""
    return FakeClock(datetime(2026, 11, 30, 10, 0, tzinfo=ZoneInfo("Asia/Shanghai")))


@contextmanager
def running_console(
    config: BotConfig, clock: FakeClock | None = None, throttle: LoginThrottle | None = None
) -> Iterator[Console]:
    channel = WebChannel(config, port=0, throttle=throttle)
    bot = build_bot(config, channel=channel, clock=clock or console_clock())
    root = bot.services.scopes.root_for(bot_scope())
    root.notes_dir.mkdir(parents=True, exist_ok=True)
    (root.notes_dir / "2026-11-29.md").write_text(NOTE, encoding="utf-8")
    bot.start()
    thread = threading.Thread(target=channel.run, args=(bot,), daemon=True)
    thread.start()
    assert channel.started.wait(20), "the web console did not start"
    console = Console(bot, channel, f"http://127.0.0.1:{channel.bound_port}")
    try:
        yield console
    finally:
        for client in console.clients:
            client.close()
        channel.stop()
        thread.join(20)
        bot.shutdown()


def bot_scope() -> Any:
    from bot.messages import WEB_SCOPE

    return WEB_SCOPE


GROUP_KEY = "telegram:group:-42"


def seed_group(console: Console) -> None:
    """A group the bot has heard in, with one daily note of its own."""
    from bot.messages import IncomingMessage, Scope

    group = Scope("telegram", "-42", is_group=True, title="Hikers")
    console.bot.handle(IncomingMessage(group, "7", "Lin", "Saturday we climb Huangshan", False))
    root = console.bot.services.scopes.root_for(group)
    root.notes_dir.mkdir(parents=True, exist_ok=True)
    (root.notes_dir / "2026-11-28.md").write_text(
        "# Daily Memory: 2026-11-28\n\n## Daily Summary (23:55)\n- Lin: we meet at 6 am\n",
        encoding="utf-8",
    )
