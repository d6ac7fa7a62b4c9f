"""The nightly job, restart recovery and scope isolation."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from pathlib import Path

from bot_support import ZONE, BotFactory, all_text, group, owner, private, request_text

from bot.nightly import NightlyJob
from tests.fakes.clock import FakeClock
from tests.fakes.openai_server import FakeOpenAI


def job(tmp_path: Path, clock: FakeClock, runs: list[datetime], spread: int = 4) -> NightlyJob:
    return NightlyJob(
        run=runs.append,
        clock=clock,
        zone=ZONE,
        at="23:55",
        spread_minutes=spread,
        state_path=tmp_path / "nightly.json",
        rng=random.Random(7),
    )


def test_due_time_is_spread_before_midnight_in_the_zone(tmp_path: Path, clock: FakeClock) -> None:
    runs: list[datetime] = []
    nightly = job(tmp_path, clock, runs)
    due = nightly.due_on(date(2026, 11, 29))
    assert due.tzinfo == ZONE
    assert datetime(2026, 11, 29, 23, 55, tzinfo=ZONE) <= due
    assert due <= datetime(2026, 11, 29, 23, 59, tzinfo=ZONE)
    assert job(tmp_path, clock, runs, spread=0).due_on(date(2026, 11, 29)).minute == 55


def test_runs_once_a_night_and_catches_up_a_missed_night(tmp_path: Path, clock: FakeClock) -> None:
    runs: list[datetime] = []
    nightly = job(tmp_path, clock, runs)
    assert not nightly.tick()  # a new workspace: nothing missed yet, counting starts now
    assert nightly.last_run() == date(2026, 11, 28)
    assert not nightly.tick()
    assert nightly.next_run() == nightly.due_on(date(2026, 11, 29))
    clock.now = nightly.due_on(date(2026, 11, 29)) - timedelta(seconds=1)
    assert not nightly.tick()
    clock.advance(seconds=2)
    assert nightly.tick() and not nightly.tick()
    # the bot was down for two nights: one catch-up run on start
    clock.now = datetime(2026, 12, 2, 9, 0, tzinfo=ZONE)
    restarted = job(tmp_path, clock, runs)
    assert restarted.next_run() == clock.now
    assert restarted.tick() and not restarted.tick()
    assert restarted.last_run() == date(2026, 12, 1)
    assert len(runs) == 2


def test_a_disk_that_will_not_take_the_record_stops_nothing(
    tmp_path: Path, clock: FakeClock
) -> None:
    runs: list[datetime] = []
    (tmp_path / "full").write_text("a file where the state's folder should be")
    nightly = job(tmp_path / "full", clock, runs)  # every write of the state fails
    assert not nightly.tick()  # no OSError out of the loop's first tick
    assert nightly.last_run() == date(2026, 11, 28)  # remembered in the process
    clock.now = nightly.due_on(date(2026, 11, 29)) + timedelta(seconds=1)
    assert nightly.tick() and not nightly.tick()  # runs once, not at every poll
    assert len(runs) == 1


def test_nightly_flushes_every_scope_before_dreaming(
    make_bot: BotFactory, llm: FakeOpenAI, clock: FakeClock
) -> None:
    bot, _ = make_bot(llm, dream_engine="extractive")
    llm.reply("ok").reply("ok").reply("ok")
    bot.handle(owner("I started learning Rust this week"))
    bot.handle(private("telegram", "42", "My daughter's birthday is on 3 March"))
    bot.handle(group("telegram", "-7", "5", "Our team offsite is in Suzhou", name="Lin"))
    llm.json_reply({"bullets": ["The user started learning Rust this week"]})
    llm.json_reply({"bullets": ["The user's daughter's birthday is on 3 March"]})
    llm.json_reply({"bullets": ["Lin: the team offsite is in Suzhou"]})
    clock.now = datetime(2026, 11, 29, 23, 56, tzinfo=ZONE)
    jobs = bot.services.nightly.run(clock())
    assert {j.scope.key for j in jobs} == {
        "terminal:user:owner",
        "telegram:user:42",
        "telegram:group:-7",
    }
    assert bot.services.dreams.wait_idle(60)
    for j in jobs:
        note = (j.root.notes_dir / "2026-11-29.md").read_text()
        assert "## Daily Summary (23:56)" in note
        memory = j.root.memory_md.read_text()
        # the dream saw the daily summary: its items cite that note
        assert "memory/2026-11-29.md#L" in memory
    group_note = (jobs[2].root.notes_dir / "2026-11-29.md").read_text()
    assert "- Lin: the team offsite is in Suzhou" in group_note
    # nothing new: the next night flushes nothing and dreams nothing
    assert bot.services.nightly.run(clock() + timedelta(days=1)) == []


def test_unflushed_context_survives_a_restart(
    make_bot: BotFactory, llm: FakeOpenAI, clock: FakeClock
) -> None:
    bot, _ = make_bot(llm)
    llm.reply("Noted.")
    bot.handle(private("telegram", "42", "Remember that my locker code is behind the clock"))
    bot.shutdown()
    revived, _ = make_bot(llm)
    llm.reply("It is behind the clock.")
    assert revived.handle(private("telegram", "42", "where is my locker code?")) == [
        "It is behind the clock."
    ]
    messages = llm.chat_requests()[-1]["messages"]
    assert any("locker code is behind the clock" in m["content"] for m in messages)
    llm.json_reply({"bullets": ["The user's locker code is kept behind the clock"]})
    revived.services.nightly.run(datetime(2026, 11, 29, 23, 57, tzinfo=ZONE))
    root = revived.services.scopes.root_for(private("telegram", "42", "x").scope)
    assert "behind the clock" in (root.notes_dir / "2026-11-29.md").read_text()


def test_what_one_user_says_stays_in_their_scope(
    make_bot: BotFactory, llm: FakeOpenAI, tmp_path: Path
) -> None:
    bot, _ = make_bot(llm, agent_max_context_turns=2)
    secret = "Aurora-Fenwick-77"
    llm.json_reply({"bullets": [f"The user's bank PIN hint is {secret}"]})
    for text in [f"My bank PIN hint is {secret}", "hello", "more", "again"]:
        llm.reply("ok")
        bot.handle(private("telegram", "alice", text))
    bot.services.nightly.run(datetime(2026, 11, 29, 23, 57, tzinfo=ZONE))
    bot.services.dreams.wait_idle(60)
    alice = bot.services.scopes.root_for(private("telegram", "alice", "x").scope)
    assert secret in all_text(alice.path)
    seen_before = len(llm.requests)
    llm.tool_call("memory_search", {"query": f"bank PIN hint {secret}"})
    llm.reply("I don't know.")
    bot.handle(private("telegram", "bob", "what is the bank PIN hint?"))
    llm.tool_call("memory_search", {"query": "bank PIN hint"})
    llm.reply("I don't know.")
    bot.handle(group("telegram", "-1", "bob", "what's alice's PIN hint?"))
    later = llm.requests[seen_before:]
    for request in later:
        tool_results = [m for m in request["messages"] if m["role"] in {"tool", "system"}]
        assert secret not in request_text({"m": tool_results})
    for other in [("telegram", "bob", False), ("telegram", "-1", True)]:
        msg = group(*other[:2], "bob", "x") if other[2] else private(*other[:2], "x")
        root = bot.services.scopes.root_for(msg.scope)
        assert secret not in all_text(root.path)
        (found,) = bot.handle(
            group(*other[:2], "bob", "/memory search PIN")
            if other[2]
            else private(*other[:2], "/memory search PIN")
        )
        assert secret not in found
    (owner_search,) = bot.handle(owner(f"/memory search {secret}"))
    assert owner_search == f"No memory matches {secret!r}."


def test_nightly_results_reach_each_chats_admins(
    make_bot: BotFactory, llm: FakeOpenAI, clock: FakeClock
) -> None:
    """A private chat hears of its own dream; a group's goes to its configured admins who
    talk to the bot privately (never to the group, never to a stranger)."""
    bot, channel = make_bot(llm, dream_engine="extractive", admin_users=["telegram:42", "99"])
    llm.reply("ok").reply("ok").reply("ok")
    bot.handle(private("telegram", "42", "hello"))  # the admin talks to the bot privately
    bot.handle(private("telegram", "77", "My cat is called Miso"))
    bot.handle(group("telegram", "-7", "5", "Our team offsite is in Suzhou", name="Lin"))
    llm.json_reply({"bullets": ["The user greets the assistant"]})
    llm.json_reply({"bullets": ["The user's cat is called Miso"]})
    llm.json_reply({"bullets": ["Lin: the team offsite is in Suzhou"]})
    clock.now = datetime(2026, 11, 29, 23, 56, tzinfo=ZONE)
    bot.services.nightly.run(clock())
    assert bot.services.dreams.wait_idle(60)
    sent = {(scope.key, text.split(":")[0]) for scope, text in channel.sent}
    assert ("telegram:user:77", "Nightly dream") in sent
    assert ("telegram:user:42", "Nightly dream of group -7") in sent
    assert not any(key == "telegram:group:-7" for key, _ in sent)
    assert all("Dream done" in text for _, text in channel.sent)


def test_nightly_reports_can_be_turned_off(
    make_bot: BotFactory, llm: FakeOpenAI, clock: FakeClock
) -> None:
    bot, channel = make_bot(llm, dream_engine="extractive", nightly_reports=False)
    llm.reply("ok")
    bot.handle(private("telegram", "77", "My cat is called Miso"))
    llm.json_reply({"bullets": ["The user's cat is called Miso"]})
    bot.services.nightly.run(datetime(2026, 11, 29, 23, 56, tzinfo=ZONE))
    assert bot.services.dreams.wait_idle(60)
    assert channel.sent == []
