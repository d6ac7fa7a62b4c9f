"""Keeping a WeChat login alive: log in, serve until the login is lost, back off, repeat.

A failed login (no network, QR code never confirmed, account refused by web WeChat) and a
lost login are each reported with one clear log line and retried after an exponential
back-off (``base_delay * 2**n``, capped at ``max_delay``). A login that was lost soon after
it succeeded (before ``stable_after`` seconds) counts as a failure too, so a session that
keeps dropping cannot make the loop spin.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)


class LoginFailed(Exception):
    """WeChat did not complete the login; the message says why in one line."""


@dataclass(frozen=True)
class LoginBackoff:
    base_delay: float = 5.0
    max_delay: float = 600.0
    stable_after: float = 300.0

    def delay(self, failures: int) -> float:
        """Seconds to wait after ``failures`` consecutive failures (``failures >= 1``)."""
        return min(self.max_delay, self.base_delay * (2 ** max(0, failures - 1)))


class LoginLoop:
    """Runs ``login`` then ``serve`` until ``stop`` is set.

    ``login`` raises on failure; ``serve`` blocks while the login lasts and returns when it
    is lost (or when asked to stop). ``wait(seconds)`` sleeps and returns early, True, when
    stopping; ``clock`` measures how long a login lasted.
    """

    def __init__(
        self,
        login: Callable[[], None],
        serve: Callable[[], None],
        *,
        stop: threading.Event,
        backoff: LoginBackoff | None = None,
        wait: Callable[[float], bool] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._login = login
        self._serve = serve
        self._stop = stop
        self._backoff = backoff or LoginBackoff()
        self._wait = wait or stop.wait
        self._clock = clock
        self.logins = 0  # successful logins, for status and tests

    def run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                self._login()
            except (Exception, SystemExit) as exc:  # itchat calls sys.exit() when offline
                failures += 1
                delay = self._backoff.delay(failures)
                reason = str(exc) or type(exc).__name__
                if isinstance(exc, SystemExit):
                    reason = "cannot reach the WeChat servers"
                log.error("WeChat login failed: %s; trying again in %.0f s", reason, delay)
                if self._wait(delay):
                    return
                continue
            if self._stop.is_set():
                return
            self.logins += 1
            started = self._clock()
            self._serve()
            if self._stop.is_set():
                return
            lasted = self._clock() - started
            failures = 0 if lasted >= self._backoff.stable_after else failures + 1
            delay = self._backoff.delay(max(1, failures))
            log.warning(
                "WeChat login lost after %.0f s (logged out on the phone, or web WeChat dropped "
                "the session); logging in again in %.0f s",
                lasted,
                delay,
            )
            if self._wait(delay):
                return
