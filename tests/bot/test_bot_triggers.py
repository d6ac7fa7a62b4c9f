"""The triggers in the bot, with a fake clock: each gate, the dreams they start, the record."""

from __future__ import annotations

import json
from typing import Any

from bot_support import BotFactory, owner, private

from bot.engine import Bot
from memory.paths import MemoryRoot
from tests.fakes.clock import FakeClock

FACTS = [
    "I planted three rows of tomatoes in the community garden this spring",
    "My neighbour Ines lends me her wheelbarrow every Saturday morning",
    "The compost heap behind the shed needs turning every two weeks",
    "I grow basil, thyme and rosemary in pots on the balcony railing",
    "Our allotment society meets on the first Tuesday of each month",
    "I keep the seed catalogue from Harrow Seeds in the kitchen drawer",
]


def owner_root(bot: Bot) -> MemoryRoot:
    return bot.services.scopes.root_for(owner("x").scope)


def decisions(root: MemoryRoot) -> list[dict[str, Any]]:
    path = root.state_dir / "events.jsonl"
    if not path.exists():
        return []
    events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [e for e in events if e.get("event") == "trigger"]


def gates(root: MemoryRoot) -> list[tuple[str, str, str]]:
    return [(d["decision"], d["trigger"], d["gate"]) for d in decisions(root)]


def talk(bot: Bot, clock: FakeClock, times: int = 1) -> None:
    """The six facts, a message each, ``times`` over: about 0.8 KiB of session log a round
    (the bot's offline notices are no part of it)."""
    for _ in range(times):
        for fact in FACTS:
            bot.handle(owner(fact))
            clock.advance(seconds=20)


def tell_at_length(bot: Bot, clock: FakeClock, messages: int) -> None:
    """Long messages, all six facts in each: about 0.5 KiB of session log apiece."""
    for n in range(messages):
        bot.handle(owner(f"({n}) " + "; ".join(FACTS)))
        clock.advance(seconds=20)


def test_idle_then_min_hours_then_idle_again(make_bot: BotFactory, clock: FakeClock) -> None:
    bot, channel = make_bot(dream_min_new_kib=1)
    root, watch = owner_root(bot), bot.services.triggers
    talk(bot, clock, times=2)  # over 1 KiB
    assert watch.check() == []  # idle gate: the chat was active a moment ago
    assert watch.check() == []  # the same decision again is not recorded twice
    assert gates(root) == [("skip", "idle", "idle")]
    clock.advance(minutes=31)
    (job,) = watch.check()
    assert job.origin == "idle"
    ((scope, report),) = channel.wait_for(1)
    assert scope == owner("x").scope
    assert report.startswith("Dream after a quiet spell: Dream done (extractive)")
    assert "tomatoes" in root.memory_md.read_text(encoding="utf-8")
    assert decisions(root)[-1]["reason"].startswith("quiet for 31 min with ")

    talk(bot, clock, times=2)
    clock.advance(minutes=40)
    assert watch.check() == []  # min-hours gate: the last dream is 40 minutes old
    assert decisions(root)[-1]["gate"] == "min_hours"
    assert decisions(root)[-1]["reason"] == (
        "the last dream was 0.7 h ago; at least 24 h must pass"
    )
    clock.advance(hours=24)
    (again,) = watch.check()
    assert again.origin == "idle"
    channel.wait_for(2)
    assert gates(root) == [
        ("skip", "idle", "idle"),
        ("run", "idle", "idle"),
        ("skip", "idle", "min_hours"),
        ("run", "idle", "idle"),
    ]
    status = bot.handle(owner("/dreaming status"))[0]
    assert (
        "Last trigger decision (30 Nov, 15:19): idle dream started: quiet for "
        "24.7 h with " in status
    )


def test_volume_gate_needs_8_kib_of_new_material(make_bot: BotFactory, clock: FakeClock) -> None:
    bot, channel = make_bot()  # the default: 8 KiB
    root, watch = owner_root(bot), bot.services.triggers
    talk(bot, clock)
    clock.advance(minutes=45)
    assert watch.check() == []
    (last,) = decisions(root)
    assert last["gate"] == "volume"
    assert last["reason"].startswith("only ") and last["reason"].endswith("it needs 8 KiB")
    tell_at_length(bot, clock, 16)
    clock.advance(minutes=45)
    (job,) = watch.check()
    assert job.origin == "idle"
    channel.wait_for(1)


def test_pressure_dreams_an_over_budget_memory_once(make_bot: BotFactory, clock: FakeClock) -> None:
    bot, channel = make_bot(memory_token_budget=100)
    root, watch = owner_root(bot), bot.services.triggers
    talk(bot, clock)
    lines = "".join(f"- {fact}\n" for fact in FACTS * 3)  # hand-written: a dream keeps them
    root.memory_md.write_text(f"# MEMORY\n\n{lines}", encoding="utf-8")
    (job,) = watch.check()  # the chat is active and never dreamed: pressure waits for neither
    assert job.origin == "pressure"
    (sent,) = channel.wait_for(1)
    assert sent[1].startswith("Dream to bring MEMORY.md under its budget: ")
    assert decisions(root)[-1]["reason"].startswith("MEMORY.md holds about ")
    clock.advance(minutes=1)
    assert watch.check() == []  # the dream left this MEMORY.md: no second pressure dream
    assert gates(root)[-1] == ("skip", "idle", "idle")


def test_manual_dreams_bypass_every_gate_and_are_recorded(
    make_bot: BotFactory, clock: FakeClock
) -> None:
    bot, channel = make_bot()
    root = owner_root(bot)
    bot.handle(owner("I keep bees"))  # active, tiny, and a dream a minute ago would not stop it
    assert bot.handle(owner("/memory dream 1"))[0].startswith("Dream started")
    channel.wait_for(1)
    clock.advance(minutes=1)
    assert bot.handle(owner("/memory dream 1"))[0].startswith("Dream started")
    channel.wait_for(2)
    assert gates(root) == [("run", "manual", "manual"), ("run", "manual", "manual")]


def test_the_nightly_pass_records_its_decisions(make_bot: BotFactory) -> None:
    bot, _ = make_bot()
    bot.handle(owner("I keep bees"))
    bot.handle(private("telegram", "9", "I keep two goats on the farm"))
    bot.handle(owner("/dreaming off"))
    jobs = bot.services.nightly.run(bot.clock())
    assert [j.scope.key for j in jobs] == ["telegram:user:9"]
    assert gates(owner_root(bot)) == [("skip", "nightly", "off")]
    other = bot.services.scopes.root_for(private("telegram", "9", "x").scope)
    assert gates(other) == [("run", "nightly", "nightly")]
    bot.services.dreams.wait_idle(60)
