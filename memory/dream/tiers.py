"""Tiers: when a core item is cold and an archive entry hot (pure).

An item's *activity* is the last day it was used (the usage ledger), recalled (the recall
store: a search hit on one of its lines), or said (the newest dated note or session log it
cites: a restatement merges into the item and adds its line), and the day it entered
MEMORY.md. A generated core item with no activity for ``cold_days`` is *cold*: the deep
phase demotes it to the archive with reason ``cold``. An archive entry used at least
``hot_uses`` times in the last ``hot_days`` days is *hot*: it returns to the core.
Hand-written items are never demoted (they never reach these functions).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta

from memory.paths import day_of
from memory.provenance import SourceRef


@dataclass(frozen=True)
class TierSettings:
    cold_days: int = 30
    hot_uses: int = 3
    hot_days: int = 14

    def hot_since(self, today: date) -> date:
        """The first day whose uses count towards hotness."""
        return today - timedelta(days=self.hot_days - 1)


@dataclass(frozen=True)
class Activity:
    """What the tiers look at for one item (every date optional)."""

    last_use: date | None = None
    recent_uses: int = 0  # uses since ``TierSettings.hot_since``
    last_recall: date | None = None
    last_said: date | None = None
    entered: date | None = None  # the day it (last) entered MEMORY.md

    @property
    def last_active(self) -> date | None:
        days = [d for d in (self.last_use, self.last_recall, self.last_said, self.entered) if d]
        return max(days, default=None)


def last_said(refs: Iterable[SourceRef]) -> date | None:
    """The newest day among the dated files ``refs`` cite (notes, session logs)."""
    return max((d for r in refs if (d := day_of(r.path)) is not None), default=None)


def is_cold(activity: Activity, today: date, settings: TierSettings) -> bool:
    last = activity.last_active
    return last is not None and (today - last).days >= settings.cold_days


def is_hot(activity: Activity, settings: TierSettings) -> bool:
    return settings.hot_uses > 0 and activity.recent_uses >= settings.hot_uses


def cold_reason(activity: Activity, today: date) -> str:
    """Why an item is cold, for the diary: ``no use, recall or mention for 31 days, since
    2026-10-29``."""
    last = activity.last_active
    if last is None:
        return "no use, recall or mention"
    return f"no use, recall or mention for {(today - last).days} days, since {last.isoformat()}"


def hot_reason(activity: Activity, settings: TierSettings) -> str:
    return f"used {activity.recent_uses} times in the last {settings.hot_days} days"
