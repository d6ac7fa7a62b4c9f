"""The idle and pressure triggers: one test per gate, exact reasons (pure decisions)."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta

from bot_support import ZONE

from bot.i18n import Languages
from bot.trigger_reasons import PATTERNS, reason_text
from bot.triggers import ChatActivity, Decision, TriggerSettings, decide, kib, manual, nightly

NOW = datetime(2026, 11, 29, 15, 0, tzinfo=ZONE)
SETTINGS = TriggerSettings(idle_minutes=30, min_hours=24, min_new_bytes=8192, token_budget=2000)
READY = ChatActivity(
    last_turn=NOW - timedelta(minutes=45),
    last_dream=NOW - timedelta(hours=30),
    new_bytes=9000,
    tokens=1500,
    memory_changed=False,
)


def test_a_quiet_chat_with_enough_new_material_dreams() -> None:
    assert decide(NOW, READY, SETTINGS) == Decision(
        True, "idle", "idle", "quiet for 45 min with 8.8 KiB of new material"
    )


def test_idle_gate_an_active_chat_waits() -> None:
    busy_talking = replace(READY, last_turn=NOW - timedelta(minutes=12))
    assert decide(NOW, busy_talking, SETTINGS) == Decision(
        False, "idle", "idle", "the chat was active 12 min ago; it needs 30 quiet minutes"
    )
    exactly = replace(READY, last_turn=NOW - timedelta(minutes=30))
    assert decide(NOW, exactly, SETTINGS).run
    long_ago = replace(READY, last_turn=NOW - timedelta(hours=26, minutes=6))
    assert decide(NOW, long_ago, SETTINGS).reason == "quiet for 26.1 h with 8.8 KiB of new material"
    silent = replace(READY, last_turn=None)
    assert decide(NOW, silent, SETTINGS).reason == "nothing was said in this chat yet"
    off = replace(SETTINGS, idle_minutes=0)
    assert decide(NOW, READY, off) == Decision(
        False, "idle", "idle", "the idle trigger is off (dream_idle_minutes 0)"
    )


def test_min_hours_gate_a_recent_dream_waits() -> None:
    recent = replace(READY, last_dream=NOW - timedelta(hours=5, minutes=30))
    assert decide(NOW, recent, SETTINGS) == Decision(
        False, "idle", "min_hours", "the last dream was 5.5 h ago; at least 24 h must pass"
    )
    assert decide(NOW, replace(READY, last_dream=NOW - timedelta(hours=24)), SETTINGS).run
    assert decide(NOW, replace(READY, last_dream=None), SETTINGS).run  # never dreamed


def test_volume_gate_too_little_new_material_waits() -> None:
    little = replace(READY, new_bytes=2150)
    assert decide(NOW, little, SETTINGS) == Decision(
        False,
        "idle",
        "volume",
        "only 2.1 KiB of new notes and conversation since the last dream; it needs 8 KiB",
    )
    assert decide(NOW, replace(READY, new_bytes=8192), SETTINGS).run


def test_pressure_gate_over_budget_dreams_at_once() -> None:
    over = replace(
        READY,
        tokens=2400,
        memory_changed=True,
        last_turn=NOW - timedelta(minutes=1),  # the chat is busy, the last dream recent:
        last_dream=NOW - timedelta(hours=1),  # pressure waits for neither
        new_bytes=0,
    )
    assert decide(NOW, over, SETTINGS) == Decision(
        True, "pressure", "pressure", "MEMORY.md holds about 2400 tokens, over its budget of 2000"
    )
    # The last dream already left this MEMORY.md (it could not do better): the idle gates
    # decide as usual.
    seen = replace(over, memory_changed=False)
    assert decide(NOW, seen, SETTINGS).gate == "idle"
    assert not decide(NOW, replace(over, tokens=2000), SETTINGS).run  # at the budget is fine


def test_off_and_busy_come_first_and_manual_bypasses_every_gate() -> None:
    assert decide(NOW, replace(READY, enabled=False), SETTINGS) == Decision(
        False, "idle", "off", "dreaming is off for this chat"
    )
    assert decide(NOW, replace(READY, busy=True), SETTINGS).gate == "busy"
    assert manual() == Decision(
        True, "manual", "manual", "asked for by an admin: every gate is bypassed"
    )


def test_kib_and_event_shape() -> None:
    assert [kib(n) for n in (0, 2150, 8192, 200 * 1024 + 7)] == [
        "0 KiB",
        "2.1 KiB",
        "8 KiB",
        "200 KiB",
    ]
    assert manual().to_event(NOW) == {
        "event": "trigger",
        "time": "2026-11-29T15:00:00+08:00",
        "decision": "run",
        "trigger": "manual",
        "gate": "manual",
        "reason": "asked for by an admin: every gate is bypassed",
    }


def test_every_reason_is_said_in_the_chats_language() -> None:
    said = [
        decide(NOW, READY, SETTINGS),
        decide(NOW, replace(READY, last_turn=NOW - timedelta(hours=26, minutes=6)), SETTINGS),
        decide(NOW, replace(READY, last_turn=NOW - timedelta(minutes=12)), SETTINGS),
        decide(NOW, replace(READY, last_turn=None), SETTINGS),
        decide(NOW, READY, replace(SETTINGS, idle_minutes=0)),
        decide(NOW, replace(READY, last_dream=NOW - timedelta(hours=5, minutes=30)), SETTINGS),
        decide(NOW, replace(READY, new_bytes=2150), SETTINGS),
        decide(NOW, replace(READY, tokens=2400, memory_changed=True), SETTINGS),
        decide(NOW, replace(READY, enabled=False), SETTINGS),
        decide(NOW, replace(READY, busy=True), SETTINGS),
        manual(),
        *(nightly(outcome) for outcome in ("nightly", "off", "unchanged", "busy")),
    ]
    reasons = {d.reason for d in said}
    matched = {key for key, pattern in PATTERNS.items() for r in reasons if pattern.fullmatch(r)}
    assert matched == set(PATTERNS)  # every shape is one the gates really write
    languages = Languages()
    en, zh = languages.translator("en"), languages.translator("zh")
    for reason in reasons:
        assert reason_text(en, reason) == reason
        chinese = reason_text(zh, reason)
        assert chinese != reason and not re.search(r"[a-z]{4,} [a-z]{4,}", chinese), chinese
        assert re.findall(r"\d+(?:\.\d+)?", chinese) == re.findall(r"\d+(?:\.\d+)?", reason)
    assert reason_text(zh, "the chat was active 12 min ago; it needs 30 quiet minutes") == (
        "聊天 12 分钟前还在进行；需要安静 30 分钟"
    )
    assert reason_text(zh, "something else") == "something else"
