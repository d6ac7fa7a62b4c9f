"""The project's one clock: every date and time the code reads comes from here.

``COWDREAM_CLOCK_SHIFT_DAYS`` (a test-only seam) adds that many days to the real time in
every process that reads it, subprocesses included, so the suite can prove that no test
depends on today's date (CI runs it once at the real date and once 400 days ahead).
Elapsed-time measurements (timeouts, refresh windows) use ``time.monotonic`` and are
not dates, so they are not shifted.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from memory.errors import UsageError

SHIFT_ENV = "COWDREAM_CLOCK_SHIFT_DAYS"

Clock = Callable[[], datetime]
"""A source of aware datetimes (the bot passes one in; tests pass a fake)."""


def shift() -> timedelta:
    """The test-only shift from ``COWDREAM_CLOCK_SHIFT_DAYS`` (0 when unset)."""
    raw = os.environ.get(SHIFT_ENV, "").strip()
    if not raw:
        return timedelta(0)
    try:
        return timedelta(days=float(raw))
    except ValueError as exc:
        raise UsageError(f"{SHIFT_ENV} must be a number of days, not {raw!r}") from exc


def zone(name: str | None) -> ZoneInfo | None:
    """The IANA zone ``name``; None means the machine's local zone."""
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise UsageError(f"unknown timezone: {name!r}") from exc


def now(tz: ZoneInfo | None = None) -> datetime:
    """An aware ``datetime`` for now in ``tz`` (default: the machine's zone), shifted."""
    real = datetime.now(tz) if tz else datetime.now().astimezone()
    return real + shift()


def now_in(name: str | None = None) -> datetime:
    """An aware ``datetime`` for now in the zone named ``name``."""
    return now(zone(name))


def today(tz: ZoneInfo | None = None) -> date:
    """Today's date in ``tz`` (default: the machine's zone)."""
    return now(tz).date()


def system_clock(tz: ZoneInfo | None = None) -> Clock:
    """A clock reading :func:`now` in ``tz``."""
    return lambda: now(tz)
