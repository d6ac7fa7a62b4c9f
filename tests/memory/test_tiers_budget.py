"""Tiers and the token budget as pure functions: exact numbers."""

from __future__ import annotations

from datetime import date

from memory.dream.budget import Fit, fit_budget, memory_tokens
from memory.dream.tiers import (
    Activity,
    TierSettings,
    cold_reason,
    hot_reason,
    is_cold,
    is_hot,
    last_said,
)
from memory.memory_file import MemoryItem, parse_memory
from memory.provenance import SourceRef

TODAY = date(2026, 12, 30)
SETTINGS = TierSettings(cold_days=30, hot_uses=3, hot_days=14)


def test_the_last_activity_is_the_newest_of_use_recall_mention_and_entry() -> None:
    activity = Activity(
        last_use=date(2026, 11, 2),
        last_recall=date(2026, 11, 20),
        last_said=date(2026, 10, 1),
        entered=date(2026, 9, 1),
    )
    assert activity.last_active == date(2026, 11, 20)
    assert Activity().last_active is None
    refs = [
        SourceRef("memory/2026-11-03.md", 4, 4),
        SourceRef("sessions/2026-11-09.jsonl", 2, 2),
        SourceRef("MEMORY.md", 1, 1),
    ]
    assert last_said(refs) == date(2026, 11, 9)
    assert last_said([SourceRef("memory/archive.md", 3, 3)]) is None


def test_cold_at_exactly_cold_days_and_not_a_day_before() -> None:
    assert is_cold(Activity(last_use=date(2026, 11, 30)), TODAY, SETTINGS)  # 30 days
    assert not is_cold(Activity(last_use=date(2026, 12, 1)), TODAY, SETTINGS)  # 29 days
    assert not is_cold(Activity(), TODAY, SETTINGS)  # nothing known: never cold
    assert cold_reason(Activity(last_recall=date(2026, 11, 29)), TODAY) == (
        "no use, recall or mention for 31 days, since 2026-11-29"
    )


def test_hot_at_hot_uses_within_hot_days() -> None:
    assert SETTINGS.hot_since(TODAY) == date(2026, 12, 17)  # 14 days, today included
    assert is_hot(Activity(recent_uses=3), SETTINGS)
    assert not is_hot(Activity(recent_uses=2), SETTINGS)
    assert not is_hot(Activity(recent_uses=99), TierSettings(hot_uses=0))  # 0: never
    assert hot_reason(Activity(recent_uses=4), SETTINGS) == "used 4 times in the last 14 days"


def test_memory_tokens_counts_what_the_prompt_gets() -> None:
    text = (
        "# MEMORY\n\n## Preferences\n"
        "- 用户偏好美式咖啡 <!-- src: memory/2026-11-28.md#L12 -->\n"
        "- The user runs every Sunday morning <!-- src: memory/2026-11-28.md#L13 -->\n"
    )
    # "# MEMORY" 2, "## Preferences" 4, "- " 1 + 7 CJK, "- The user ..." 10; 3 line breaks
    assert memory_tokens(text) == 2 + 4 + 8 + 10 + 3
    assert memory_tokens("") == 0


def _items(*texts: str) -> list[MemoryItem]:
    return [
        MemoryItem(text, (SourceRef(f"memory/2026-12-{n + 1:02d}.md", 1, 1),), "Facts")
        for n, text in enumerate(texts)
    ]


def _last(item: MemoryItem) -> tuple[date | None, str]:
    day = date.fromisoformat(item.sources[0].path[7:17])
    return day, f"last active {day.isoformat()}"


def test_under_the_budget_nothing_moves() -> None:
    doc = parse_memory("# MEMORY\n")
    items = _items("The user keeps bees", "The user lives in Lyon")
    fit = fit_budget(doc, items, 100, _last)
    # "# MEMORY" 2, "## Facts" 2, the items 6 and 6, 3 line breaks
    assert fit == Fit(items, [], [], 19, 19, 100) and not fit.moved


def test_over_the_budget_the_coldest_go_first_until_under_80_percent() -> None:
    doc = parse_memory("# MEMORY\n\n- A line written by hand stays\n")
    items = _items(*(f"The user said fact number {n} about the garden" for n in range(8)))
    before = memory_tokens(
        "# MEMORY\n\n- A line written by hand stays\n\n## Facts\n"
        + "".join(f"- {i.text}\n" for i in items)
    )
    assert before == 118
    fit = fit_budget(doc, items, 100, _last)
    assert [i.text for i, _ in fit.demoted] == [
        "The user said fact number 0 about the garden",
        "The user said fact number 1 about the garden",
        "The user said fact number 2 about the garden",
    ]
    assert fit.demoted[0][1] == "last active 2026-12-01"
    assert (fit.before, fit.after, fit.tightened) == (118, 79, [])
    assert fit.after <= 80 and fit.keep == items[3:]


def test_an_item_far_longer_than_the_rest_is_tightened_before_the_coldest_goes() -> None:
    doc = parse_memory("# MEMORY\n")
    long = (
        "The user described the whole allotment plan: tomatoes along the south fence, "
        "beans on the trellis by the shed, squash in the corner bed, herbs in pots near "
        "the gate, a compost heap behind the water butt, and a bench under the apple tree "
        "where the neighbours meet for tea on Sunday afternoons in the summer months."
    )
    items = _items("The user keeps bees", long, "The user lives in Lyon")
    fit = fit_budget(doc, items, 80, _last)
    ((old, new),) = fit.tightened  # 79 tokens, the average 30: cut to 60 at a clause
    assert old.text == long and new.sources == old.sources
    assert new.text == long[: long.index(", and a bench")]
    assert [i.text for i, _ in fit.demoted] == ["The user keeps bees"]  # still over: coldest
    assert (fit.before, fit.after) == (99, 64)
    assert [i.text for i in fit.keep] == [new.text, "The user lives in Lyon"]


def test_hand_written_lines_alone_over_the_budget_stop_the_fit() -> None:
    doc = parse_memory("# MEMORY\n\n" + "".join(f"- hand-written line {n}\n" for n in range(40)))
    items = _items("The user keeps bees")
    fit = fit_budget(doc, items, 100, _last)
    assert fit.keep == [] and [i for i, _ in fit.demoted] == items
    assert fit.after > 80  # what a person wrote is never moved
