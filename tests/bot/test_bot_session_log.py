"""The bot's session log: every turn of every chat, at once, in the chat's own root."""

from __future__ import annotations

import json
from pathlib import Path

from bot_support import BotFactory, all_text, group, owner, private

from memory.dream.state import root_lock
from memory.paths import MemoryRoot
from tests.fakes.clock import FakeClock
from tests.fakes.openai_server import FakeOpenAI


def logged(root: MemoryRoot, day: str = "2026-11-29") -> list[dict[str, str]]:
    path = root.path / "sessions" / f"{day}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_each_turn_is_logged_as_it_happens(make_bot: BotFactory, llm: FakeOpenAI) -> None:
    bot, _ = make_bot(llm)
    root = bot.services.scopes.root_for(owner("x").scope)
    llm.reply("Lyon is lovely.")
    bot.handle(owner("I moved to Lyon; my password is hunter22, keep it"))
    assert logged(root) == [
        {
            "time": "2026-11-29T14:00:00+08:00",
            "role": "user",
            "content": "I moved to Lyon; my password is [REDACTED], keep it",
        },
        {"time": "2026-11-29T14:00:00+08:00", "role": "assistant", "content": "Lyon is lovely."},
    ]
    assert not (root.notes_dir / "2026-11-29.md").exists()  # no flush was needed
    assert "hunter22" not in all_text(root.path / "sessions")


def test_groups_keep_the_speaker_and_every_chat_its_own_log(
    make_bot: BotFactory, clock: FakeClock
) -> None:
    bot, _ = make_bot()
    bot.handle(group("telegram", "-42", "7", "明天去爬山", addressed=False, name="张三"))
    clock.advance(minutes=3)
    bot.handle(private("telegram", "9", "I keep bees"))
    scopes = bot.services.scopes
    in_group = logged(scopes.root_for(group("telegram", "-42", "7", "x").scope))
    assert in_group == [
        {
            "time": "2026-11-29T14:00:00+08:00",
            "role": "user",
            "name": "张三",
            "content": "明天去爬山",
        }
    ]
    alone = logged(scopes.root_for(private("telegram", "9", "x").scope))
    assert alone[0]["content"] == "I keep bees"
    assert "bees" not in json.dumps(in_group) and "爬山" not in json.dumps(alone)
    owner_log = Path(bot.config.workspace) / "sessions"
    assert not owner_log.exists()


def test_commands_are_not_part_of_the_log(make_bot: BotFactory) -> None:
    bot, _ = make_bot()
    bot.handle(owner("/memory forget my locker code"))
    bot.handle(owner("/memory status"))
    root = bot.services.scopes.root_for(owner("x").scope)
    assert not (root.path / "sessions").exists()


def test_the_log_follows_the_day_of_the_chat_zone(make_bot: BotFactory, clock: FakeClock) -> None:
    bot, _ = make_bot()
    clock.advance(hours=10)  # 00:00 on the 30th in Shanghai
    bot.handle(owner("a new day"))
    root = bot.services.scopes.root_for(owner("x").scope)
    assert logged(root, "2026-11-30")[0]["content"] == "a new day"


def test_forget_reaches_the_log_and_the_conversation(make_bot: BotFactory) -> None:
    bot, _ = make_bot()
    bot.handle(owner("the surprise party for Zora is on Friday"))
    bot.handle(owner("I like tea"))
    preview = bot.handle(owner("/memory forget Zora"))[0]
    assert "sessions/2026-11-29.jsonl:1" in preview
    answer = bot.handle(owner("/memory forget confirm"))[0]
    assert answer.startswith("Forgotten: ")
    root = bot.services.scopes.root_for(owner("x").scope)
    turns = logged(root)
    assert len(turns) == 2  # offline, the bot's notices are no turns of the conversation
    assert turns[0]["content"] == "[forgotten]" and turns[1]["content"] == "I like tea"
    assert "Zora" not in all_text(root.path)


def test_a_forget_confirmed_while_a_dream_runs_waits_to_be_confirmed_again(
    make_bot: BotFactory,
) -> None:
    bot, _ = make_bot()
    bot.handle(owner("the surprise party for Zora is on Friday"))
    bot.handle(owner("/memory forget Zora"))
    root = bot.services.scopes.root_for(owner("x").scope)
    with root_lock(root):  # a dream holds this memory
        (answer,) = bot.handle(owner("/memory forget confirm"))
        assert answer.startswith("A dream or another memory task is running")
        assert "Zora" in all_text(root.path)  # nothing deleted
    (answer,) = bot.handle(owner("/memory forget confirm"))
    assert answer.startswith("Forgotten: ")
    assert "Zora" not in all_text(root.path)


def test_search_finds_an_earlier_message_but_never_the_one_being_answered(
    make_bot: BotFactory, llm: FakeOpenAI
) -> None:
    bot, _ = make_bot(llm)
    llm.reply("Noted.")
    bot.handle(owner("My sister Amelie moved to Grenoble"))
    llm.tool_call("memory_search", {"query": "Amelie Grenoble", "min_score": 0})
    llm.reply("In Grenoble.")
    assert bot.handle(owner("Where does Amelie live now, Grenoble?")) == ["In Grenoble."]
    tool = next(m for m in llm.chat_requests()[2]["messages"] if m["role"] == "tool")
    hits = json.loads(tool["content"])["results"]
    assert [(h["path"], h["start_line"]) for h in hits][:1] == [("sessions/2026-11-29.jsonl", 1)]
    assert all(h["start_line"] != 3 for h in hits)  # line 3 is the question itself


def test_offline_hits_never_quote_the_message_itself(make_bot: BotFactory) -> None:
    bot, _ = make_bot()
    (first,) = bot.handle(owner("My sister Amelie moved to Grenoble"))
    assert "No memory matches this message." in first
    (second,) = bot.handle(owner("My sister Amelie moved to Grenoble"))  # said again
    assert "sessions/2026-11-29.jsonl#L1" in second
    assert "sessions/2026-11-29.jsonl#L3" not in second
