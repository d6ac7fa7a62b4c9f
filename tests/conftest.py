"""Fixtures shared by every suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.openai_server import FakeOpenAI


@pytest.fixture
def llm() -> Iterator[FakeOpenAI]:
    """An OpenAI-compatible server on 127.0.0.1 with scripted answers."""
    server = FakeOpenAI().start()
    try:
        yield server
    finally:
        server.close()
