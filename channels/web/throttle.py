"""A brute-force brake for the console's password: wrong guesses make a client wait.

Per client address, the first ``free`` wrong passwords in a row cost nothing (typos); each
further one makes that client wait ``2 ** (n - free - 1)`` seconds after it (1, 2, 4, ...
up to ``max_delay``) before any new try is even checked, the right password included. A
right password clears the count. So 200 guesses take hours, not seconds, while a user who
mistypes twice never notices. Requests without credentials (a browser's first request,
before it asks for the password) are not guesses.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class _Record:
    failures: int
    last: float


class LoginThrottle:
    """Thread-safe; remembers at most ``max_clients`` addresses (the oldest go first)."""

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.monotonic,
        free: int = 3,
        max_delay: float = 60.0,
        max_clients: int = 10_000,
    ) -> None:
        self.clock = clock
        self.free = free
        self.max_delay = max_delay
        self.max_clients = max_clients
        self._records: OrderedDict[str, _Record] = OrderedDict()
        self._lock = threading.Lock()

    def delay(self, failures: int) -> float:
        """Seconds a client waits after its ``failures``-th wrong password in a row."""
        if failures <= self.free:
            return 0.0
        return float(min(2.0 ** (failures - self.free - 1), self.max_delay))

    def wait_for(self, client: str) -> float:
        """Seconds before ``client`` may try again (0 when it may try now)."""
        with self._lock:
            record = self._records.get(client)
        if record is None:
            return 0.0
        return max(0.0, record.last + self.delay(record.failures) - self.clock())

    def failed(self, client: str) -> None:
        with self._lock:
            record = self._records.pop(client, None) or _Record(0, 0.0)
            record.failures += 1
            record.last = self.clock()
            self._records[client] = record
            while len(self._records) > self.max_clients:
                self._records.popitem(last=False)

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._records.pop(client, None)
