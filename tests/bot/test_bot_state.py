"""Per-root bookkeeping and message times."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from bot_support import BotFactory, private

from bot.scope_state import changes, clear_changed, mark_changed, read_state
from memory.paths import MemoryRoot


def test_a_note_written_during_a_dream_keeps_the_root_changed(tmp_path: Path) -> None:
    root = MemoryRoot.at(tmp_path)
    mark_changed(root)
    seen = changes(root)  # the dream starts
    mark_changed(root)  # a trim writes a note while it runs
    clear_changed(root, seen)  # the dream finishes
    assert read_state(root).changed is True  # the next nightly dream still runs
    clear_changed(root, changes(root))
    assert read_state(root).changed is False


def test_platform_times_in_utc_become_the_configured_zone(make_bot: BotFactory) -> None:
    bot, _ = make_bot(timezone="America/Los_Angeles", agent_max_context_turns=2)
    sent = datetime(2026, 11, 30, 3, 52, tzinfo=UTC)  # 19:52 on the 29th in Los Angeles
    for text in ("I keep bees", "I grow tomatoes", "I grow basil", "I grow mint", "I run"):
        bot.handle(replace(private("telegram", "5", text), time=sent))
    root = bot.services.scopes.root_for(private("telegram", "5", "x").scope)
    assert [p.name for p in root.notes_dir.glob("2*.md")] == ["2026-11-29.md"]
    assert "(19:52)" in (root.notes_dir / "2026-11-29.md").read_text(encoding="utf-8")
