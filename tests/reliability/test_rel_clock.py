"""The clock going back: a nightly job whose last run lies in the future (a clock that ran
fast, then was corrected) is distrusted, so the job keeps running every night."""

from __future__ import annotations

import json
import logging
import random
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

from bot.nightly import NightlyJob
from tests.fakes.clock import FakeClock
from tests.memory.mem_support import SHANGHAI


def test_a_last_run_in_the_future_is_distrusted(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    state = tmp_path / "nightly.json"
    state.write_text(json.dumps({"last_run": "2027-03-01"}), encoding="utf-8")  # clock ran fast
    clock = FakeClock(datetime(2026, 11, 29, 12, 0, tzinfo=SHANGHAI))
    runs: list[datetime] = []
    nightly = NightlyJob(
        run=runs.append,
        clock=clock,
        zone=SHANGHAI,
        at="23:55",
        spread_minutes=0,
        state_path=state,
        rng=random.Random(1),
    )
    with caplog.at_level(logging.WARNING):
        assert nightly.next_run() == nightly.due_on(date(2026, 11, 29))
        assert not nightly.tick()
    assert any("in the future" in r.getMessage() for r in caplog.records)
    for night in range(30):
        clock.now = nightly.due_on(date(2026, 11, 29) + timedelta(days=night)) + timedelta(
            minutes=1
        )
        assert nightly.tick(), night
        assert nightly.next_run() == nightly.due_on(clock.now.date() + timedelta(days=1))
    assert len(runs) == 30
    assert nightly.last_run() == date(2026, 12, 28)
