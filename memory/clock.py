"""Time in the configured timezone."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from memory.errors import UsageError


def zone(name: str | None) -> ZoneInfo | None:
    """The IANA zone ``name``; None means the machine's local zone."""
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise UsageError(f"unknown timezone: {name!r}") from exc


def now_in(name: str | None = None) -> datetime:
    """An aware ``datetime`` for now in zone ``name`` (default: the machine's zone)."""
    tz = zone(name)
    return datetime.now(tz) if tz else datetime.now().astimezone()
