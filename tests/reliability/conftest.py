"""Fixtures for the reliability suite: the bot suite's bot factory and fixed clock."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

for suite in ("bot", "web"):  # their helpers (bot_support, web_support) are used here too
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / suite))

from tests.bot.conftest import clock, make_bot  # noqa: E402

__all__ = ["clock", "make_bot"]


@pytest.fixture(autouse=True)
def keep_root_logging() -> Iterator[None]:
    """``memory.cli.main`` run in-process routes logging to the test's captured stderr;
    put the handlers back so later warnings do not go to a closed stream."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
