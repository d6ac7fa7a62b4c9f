"""Fixtures for the channel tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.telegram_server import FakeTelegramServer


@pytest.fixture
def telegram_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeTelegramServer]:
    # python-telegram-bot 22.8 warns inside RetryAfter.__init__ unless the process opts in to
    # timedelta periods; opting in is what it asks for, and channels.telegram_outbound reads both.
    monkeypatch.setenv("PTB_TIMEDELTA", "true")
    server = FakeTelegramServer().start()
    try:
        yield server
    finally:
        server.close()
