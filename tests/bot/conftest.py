"""Fixtures for the bot suite."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from bot_support import ZONE, BotFactory, RecordingChannel, base_config

from bot.builder import build_bot
from bot.engine import Bot
from tests.fakes.clock import FakeClock
from tests.fakes.openai_server import FakeOpenAI


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2026, 11, 29, 14, 0, tzinfo=ZONE))


@pytest.fixture
def make_bot(tmp_path: Path, clock: FakeClock) -> Iterator[BotFactory]:
    bots: list[Bot] = []

    def factory(llm: FakeOpenAI | None = None, **overrides: Any) -> tuple[Bot, RecordingChannel]:
        if llm is not None:
            overrides.setdefault("open_ai_api_base", llm.url)
            overrides.setdefault("open_ai_api_key", "sk-test-secret-123")
        channel = RecordingChannel()
        bot = build_bot(base_config(tmp_path, **overrides), channel=channel, clock=clock)
        bot.services.dreams.start()
        bots.append(bot)
        return bot, channel

    yield factory
    for bot in bots:
        bot.shutdown()
