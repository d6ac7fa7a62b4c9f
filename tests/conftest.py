"""Fixtures shared by every suite."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.fakes.openai_server import FakeOpenAI

# Dreams judge by words in the suite (embedding every test's lines would cost minutes);
# tests/memory/test_mem_judgement.py switches embeddings back on where they matter.
os.environ.setdefault("COWDREAM_DREAM_EMBEDDINGS", "off")


@pytest.fixture
def llm() -> Iterator[FakeOpenAI]:
    """An OpenAI-compatible server on 127.0.0.1 with scripted answers."""
    server = FakeOpenAI().start()
    try:
        yield server
    finally:
        server.close()
