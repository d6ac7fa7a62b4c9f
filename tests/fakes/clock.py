"""A settable clock for tests: no test reads the real date."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta


class FakeClock:
    """A settable clock; call it for the current (aware) time."""

    def __init__(self, start: datetime) -> None:
        self.now = start
        self._lock = threading.Lock()

    def __call__(self) -> datetime:
        with self._lock:
            return self.now

    def advance(self, **delta: float) -> None:
        with self._lock:
            self.now += timedelta(**delta)
