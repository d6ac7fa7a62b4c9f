"""The evidence layer end to end through the terminal channel (``app.py``, stdin/stdout):
the session log searched before any flush, secrets kept out of it, an open conflict kept,
shown and resolved, and the tiers moving an unused item out and a used entry back."""

from __future__ import annotations

import json
import os
from pathlib import Path

from bot_support import ZONE, all_text, run_app

from memory import clock
from memory.clock import SHIFT_ENV
from tests.fakes.openai_server import FakeOpenAI

CONFIG = {"dream_engine": "extractive", "timezone": "Asia/Shanghai"}


def later(days: int) -> dict[str, str]:
    """The environment of an app run ``days`` after the test's own today."""
    base = float(os.environ.get(SHIFT_ENV, "").strip() or 0)
    return {SHIFT_ENV: str(base + days)}


def test_a_fact_said_a_minute_ago_is_found_by_memory_search(
    tmp_path: Path, llm: FakeOpenAI
) -> None:
    llm.reply("Noted.")
    llm.tool_call("memory_search", {"query": "Harbour garage car level"})
    llm.reply("On level 3 of the Harbour garage.")
    result = run_app(
        tmp_path,
        "I parked the car on level 3 of the Harbour garage\nWhere did I leave the car?\n",
        open_ai_api_base=llm.url,
        open_ai_api_key="sk-evidence-test",
        **CONFIG,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[:2] == ["Noted.", "On level 3 of the Harbour garage."]
    tool = [m for m in llm.chat_requests()[-1]["messages"] if m["role"] == "tool"]
    hits = json.loads(tool[0]["content"])["results"]
    day = clock.now(ZONE).date().isoformat()
    assert hits and hits[0]["path"] == f"sessions/{day}.jsonl"  # no note: the log itself
    assert "Harbour garage" in hits[0]["snippet"]
    assert all("Where did I leave" not in h["snippet"] for h in hits)  # not the question


def test_a_secret_never_reaches_the_session_log(tmp_path: Path) -> None:
    secret_key, password = "sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a", "hunter22"
    said = f"my API key is {secret_key}\nMy password is {password}\n"
    result = run_app(tmp_path, said, **CONFIG)
    assert result.returncode == 0, result.stderr
    logs = all_text(tmp_path / "ws" / "sessions")
    assert logs.count("[REDACTED]") == 2
    for secret in (secret_key, password):
        assert secret not in all_text(tmp_path / "ws")
        assert secret not in result.stdout + result.stderr


def test_two_cities_in_one_day_are_kept_marked_shown_and_resolved(tmp_path: Path) -> None:
    first = run_app(tmp_path, "I live in Berlin\nI live in Munich\n/memory dream\n", **CONFIG)
    assert first.returncode == 0, first.stderr
    assert "- Open conflicts (both kept until a person decides: /memory resolve): 1" in (
        first.stdout
    )
    memory = (tmp_path / "ws" / "MEMORY.md").read_text(encoding="utf-8")
    assert "- The user lives in Berlin [open conflict c1] <!-- src: memory/" in memory
    assert "- The user lives in Munich [open conflict c1] <!-- src: memory/" in memory

    second = run_app(
        tmp_path, "/memory status\n/memory resolve c1 keep 2\n/memory status\n", **CONFIG
    )
    assert second.returncode == 0, second.stderr
    out = second.stdout
    shown = "c1: 1) 'The user lives in Berlin' 2) 'The user lives in Munich'"
    assert out.count("Open conflicts: 1 (every side kept until someone decides") == 1
    assert shown in out
    assert (
        "Conflict c1 resolved: kept 'The user lives in Munich'; 'The user lives in Berlin' "
        "moved to the archive. /memory undo puts it back."
    ) in out
    memory = (tmp_path / "ws" / "MEMORY.md").read_text(encoding="utf-8")
    assert "The user lives in Munich <!-- src: memory/" in memory
    assert "Berlin" not in memory and "open conflict" not in memory
    archive = (tmp_path / "ws" / "memory" / "archive.md").read_text(encoding="utf-8")
    assert "- The user lives in Berlin <!-- src: memory/" in archive
    assert "reason: conflict-dropped" in archive


def test_an_unused_item_goes_cold_and_a_used_archive_entry_returns(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    day = clock.now(ZONE).date().isoformat()
    (ws / "memory" / f"{day}.md").write_text(
        f"# Daily Memory: {day}\n\n## Daily Summary (23:55)\n"
        "- The user keeps bees on the roof\n- The user plays the cello in an orchestra\n",
        encoding="utf-8",
    )
    config = {**CONFIG, "dream_cold_days": 3, "dream_hot_uses": 2}
    assert run_app(tmp_path, "/memory dream\n", **config).returncode == 0
    memory = (ws / "MEMORY.md").read_text(encoding="utf-8")
    assert "bees" in memory and "cello" in memory

    # Two days on the cello is looked up; four days on the night's dream (caught up as
    # the bot starts) finds the bees unused for four days, the cello for two.
    used = run_app(tmp_path, "/memory search cello orchestra\n", env=later(2), **config)
    assert used.returncode == 0, used.stderr
    cold = run_app(tmp_path, "", env=later(4), **config)
    assert cold.returncode == 0, cold.stderr
    memory = (ws / "MEMORY.md").read_text(encoding="utf-8")
    assert "cello" in memory and "bees" not in memory
    archive = (ws / "memory" / "archive.md").read_text(encoding="utf-8")
    assert "- The user keeps bees on the roof <!-- src: memory/" in archive
    assert "reason: cold" in archive
    assert "Nightly dream: Dream done (extractive): 1 item in MEMORY.md (1 archived)" in (
        cold.stdout
    )
    assert "no use, recall or mention for 4 days" in cold.stdout  # the diary says why

    # Asked about twice, the archived bees are hot: the next dream brings them back.
    hot = run_app(
        tmp_path, "/memory search bees roof\n" * 2 + "/memory dream\n", env=later(4), **config
    )
    assert hot.returncode == 0, hot.stderr
    memory = (ws / "MEMORY.md").read_text(encoding="utf-8")
    assert "- The user keeps bees on the roof <!-- src: memory/" in memory
    assert "- Back from the archive: 1" in hot.stdout
