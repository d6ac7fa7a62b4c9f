"""Fixtures for the reliability suite: the bot suite's bot factory and fixed clock."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bot"))

from tests.bot.conftest import clock, make_bot

__all__ = ["clock", "make_bot"]
