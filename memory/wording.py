"""Small wording helpers shared by every message the engine and the bot write."""

from __future__ import annotations


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``1 item``, ``2 items``, ``0 items`` (``many`` for irregular plurals)."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def quoted(text: str, limit: int = 60) -> str:
    """``text`` as a reply quotes it back: repr, one line, at most ``limit`` characters of
    it (a 16 KB query is not echoed whole)."""
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")
