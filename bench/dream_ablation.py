"""Switching off one piece of the dream's judgement at a time, for the ablation rows."""

from __future__ import annotations

from collections.abc import Callable

PIECES: dict[str, str] = {}


def switch_off(names: list[str]) -> Callable[[], None]:
    """Switch off ``names``; returns the function that switches them back on."""
    return lambda: None
