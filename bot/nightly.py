"""The nightly job: shortly before midnight in the configured time zone, once a day.

The ``schedule`` package wakes a checker every ``poll_seconds``; the checker compares the
configured clock with today's due time (``nightly_time`` plus a per-start random spread of
up to ``nightly_spread_minutes``, as CowAgent spreads its daily flush), so time zones and
test clocks work the same way. The date of the last run is kept on disk: a bot started
after a missed night runs the job at once (a new workspace starts counting from now). A
last run recorded in the future (a clock that ran fast and was put back) is distrusted:
counting restarts from now, so the job never stops running.
"""

from __future__ import annotations

import json
import logging
import random
import threading
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import schedule

from memory.atomic import atomic_write_text

log = logging.getLogger(__name__)


class NightlyJob:
    """Calls ``run(now)`` once per day at the due time; catches up after a missed night."""

    def __init__(
        self,
        *,
        run: Callable[[datetime], object],
        clock: Callable[[], datetime],
        zone: ZoneInfo,
        at: str,
        spread_minutes: int,
        state_path: Path,
        poll_seconds: float = 20.0,
        rng: random.Random | None = None,
    ) -> None:
        self.run = run  # the pass itself (tests call it directly)
        self.clock = clock
        self.zone = zone
        hour, minute = (int(p) for p in at.split(":"))
        spread = (rng or random.Random()).randint(0, spread_minutes * 60)
        base = datetime.combine(date(2000, 1, 1), time(hour, minute)) + timedelta(seconds=spread)
        self.at = base.time()
        self.state_path = state_path
        self.poll_seconds = poll_seconds
        self._scheduler = schedule.Scheduler()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._running = threading.Lock()
        self._unsaved: date | None = None  # the last run, when the disk would not take it

    # when --------------------------------------------------------------------------

    def due_on(self, day: date) -> datetime:
        return datetime.combine(day, self.at, tzinfo=self.zone)

    def last_run(self) -> date | None:
        if self._unsaved is not None:
            return self._unsaved  # recorded while the disk would not take it
        try:
            return date.fromisoformat(json.loads(self.state_path.read_text())["last_run"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _record(self, day: date) -> None:
        """Record ``day`` as the last run; a disk that will not take it (full, read-only)
        leaves it remembered in this process, said in one line, and the loop goes on."""
        try:
            atomic_write_text(self.state_path, json.dumps({"last_run": day.isoformat()}))
        except OSError as exc:
            self._unsaved = day
            log.warning("nightly: cannot record the run of %s (%s); kept in memory", day, exc)
            return
        self._unsaved = None

    def latest_due(self, now: datetime) -> date:
        """The date of the most recent night whose due time has passed."""
        today = now.astimezone(self.zone).date()
        return today if now >= self.due_on(today) else today - timedelta(days=1)

    def _trusted_last(self, latest: date) -> date | None:
        """The last run, unless it lies after the latest due night: then the clock was
        fast when it was recorded (and has been put back), so it counts as tonight's."""
        last = self.last_run()
        if last is not None and last > latest:
            log.warning(
                "nightly: the last run (%s) is in the future; the clock was put back, so "
                "counting restarts from %s",
                last,
                latest,
            )
            return latest
        return last

    def next_run(self, now: datetime | None = None) -> datetime:
        now = now or self.clock()
        latest = self.latest_due(now)
        last = self._trusted_last(latest)
        if last is not None and last < latest:
            return now  # overdue: runs at the next check
        return self.due_on(latest + timedelta(days=1))

    # run ---------------------------------------------------------------------------

    def tick(self) -> bool:
        """Run the job if it is due (or overdue); True when it ran."""
        now = self.clock()
        latest = self.latest_due(now)
        last = self._trusted_last(latest)
        if last is None or last != self.last_run():  # new, or recorded by a fast clock
            self._record(latest)
            return False
        if last >= latest:
            return False
        if not self._running.acquire(blocking=False):
            return False
        try:
            log.info("nightly job for %s starting", latest)
            self.run(now)
            self._record(latest)
        except Exception:
            log.exception("nightly job for %s failed; it will be retried", latest)
            return False
        finally:
            self._running.release()
        return True

    def start(self) -> None:
        self._scheduler.every(max(1, round(self.poll_seconds))).seconds.do(self.tick)
        self._thread = threading.Thread(target=self._loop, name="nightly", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        self.tick()  # catch up at once after a missed night
        while not self._stop.wait(1.0):
            self._scheduler.run_pending()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
            self._thread = None
