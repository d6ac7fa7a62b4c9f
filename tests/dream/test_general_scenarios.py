"""The dev scenarios written for styles the first eighteen lacked (d19 onward) stay usable:
each parses, is long enough to score, and labels changes, plans and chatter."""

from __future__ import annotations

import pytest

from bench.dream_scenarios import load

NEW = [s for s in load("dev") if s.name >= "d19"]


def test_there_are_new_styles() -> None:
    assert len(NEW) >= 6
    assert len({tuple(sorted(s.tags)) for s in NEW}) == len(NEW)


@pytest.mark.parametrize("scenario", NEW, ids=[s.name for s in NEW])
def test_scenario_is_labelled_throughout(scenario) -> None:  # type: ignore[no-untyped-def]
    assert scenario.bullets >= 59
    assert sum(len(f.olds) for f in scenario.facts.values()) >= 1  # a change
    assert any(f.kind == "plan" for f in scenario.facts.values())
    assert len(scenario.chatter) >= scenario.bullets // 3
    # every note day lies in the dream's window (a nightly scenario dreams on every note
    # day's evening, so each day lies in the window of its own night's dream)
    if scenario.mode == "once":
        assert all((scenario.today - day).days < scenario.days for day in scenario.notes)
