"""Conversations against the fake model server: replies, tools, trimming, overflow."""

from __future__ import annotations

import json

from bot_support import BotFactory, owner, private, request_text

from memory.paths import MemoryRoot
from tests.fakes.clock import FakeClock
from tests.fakes.openai_server import FakeOpenAI


def note_text(root: MemoryRoot, day: str = "2026-11-29") -> str:
    return (root.notes_dir / f"{day}.md").read_text(encoding="utf-8")


def test_reply_comes_from_the_model_with_memory_in_the_prompt(
    make_bot: BotFactory, llm: FakeOpenAI
) -> None:
    bot, _ = make_bot(llm)
    root = bot.services.scopes.root_for(owner("x").scope)
    root.memory_md.write_text(
        "# MEMORY\n\n- The user drinks oolong tea <!-- src: memory/2026-11-28.md#L3 -->\n"
    )
    llm.reply("Hello! Oolong again?")
    assert bot.handle(owner("hi")) == ["Hello! Oolong again?"]
    system = llm.chat_requests()[0]["messages"][0]["content"]
    assert "The user drinks oolong tea" in system
    assert "src:" not in system  # provenance comments stay out of the prompt
    names = [t["function"]["name"] for t in llm.chat_requests()[0]["tools"]]
    assert set(names) >= {"memory_search", "memory_get"}


def test_memory_search_tool_call_reaches_the_notes(make_bot: BotFactory, llm: FakeOpenAI) -> None:
    bot, _ = make_bot(llm)
    root = bot.services.scopes.root_for(owner("x").scope)
    (root.notes_dir / "2026-11-28.md").write_text(
        "# Daily Memory: 2026-11-28\n\n## Daily Summary (23:55)\n"
        "- The user's dentist appointment is on Friday at 9am\n"
    )
    llm.tool_call("memory_search", {"query": "dentist appointment"})
    llm.reply("Your dentist appointment is Friday at 9am.")
    assert bot.handle(owner("when is my dentist appointment?")) == [
        "Your dentist appointment is Friday at 9am."
    ]
    second = llm.chat_requests()[1]["messages"]
    tool_messages = [m for m in second if m["role"] == "tool"]
    assert len(tool_messages) == 1
    result = json.loads(tool_messages[0]["content"])
    assert "Friday at 9am" in json.dumps(result)
    assert "2026-11-28.md" in json.dumps(result)


def test_a_broken_tool_call_is_answered_with_an_error_not_a_crash(
    make_bot: BotFactory, llm: FakeOpenAI
) -> None:
    bot, _ = make_bot(llm)
    llm.tool_call("memory_get", {"path": "../../etc/passwd"})
    llm.tool_call("no_such_tool", {})
    llm.reply("done")
    assert bot.handle(owner("read something")) == ["done"]
    tools = [m for m in llm.chat_requests()[2]["messages"] if m["role"] == "tool"]
    assert "error" in json.loads(tools[0]["content"])
    assert json.loads(tools[1]["content"]) == {"error": "unknown tool 'no_such_tool'"}


def test_trimmed_context_goes_to_the_daily_note(
    make_bot: BotFactory, llm: FakeOpenAI, clock: FakeClock
) -> None:
    bot, _ = make_bot(llm, agent_max_context_turns=4)
    root = bot.services.scopes.root_for(owner("x").scope)
    llm.json_reply({"bullets": ["The user is moving to Hangzhou next month"]})
    said = [
        "I am moving to Hangzhou next month",
        "My sister is called Mei",
        "I prefer short answers",
        "I play the guitar",
        "I live near the river",
    ]
    for text in said:
        llm.reply("noted")
        bot.handle(owner(text))
        clock.advance(minutes=1)
    note = note_text(root)
    # the fifth message is over the limit of 4: the window is cut to 3 turns at once
    assert note.count("## Trimmed Context") == 1
    assert "## Trimmed Context (14:04)" in note
    assert "Hangzhou" in note
    summary_request = next(r for r in llm.requests if "response_format" in r)
    assert "Hangzhou" in request_text(summary_request)
    assert "Mei" in request_text(summary_request)  # trimmed in the same batch
    assert "short answers" not in request_text(summary_request)  # still in the window
    last = llm.chat_requests()[-1]["messages"]
    assert not any("Hangzhou" in m["content"] for m in last if m["role"] == "user")


def test_small_windows_trim_in_batches(
    make_bot: BotFactory, llm: FakeOpenAI, clock: FakeClock
) -> None:
    """Each message over a small limit must not make a section of its own."""
    bot, _ = make_bot(llm, agent_max_context_turns=4)
    root = bot.services.scopes.root_for(owner("x").scope)
    for n in range(12):
        llm.json_reply({"bullets": [f"A fact worth keeping, batch {n}"]})
    for n in range(12):
        llm.reply("noted")
        bot.handle(owner(f"fact number {n} is worth keeping"))
        clock.advance(minutes=1)
    sections = note_text(root).count("## Trimmed Context")
    assert sections == 4  # 12 messages, 4 allowed: 4 batches of two, not 8 singles


def test_context_overflow_is_saved_trimmed_and_retried_once(
    make_bot: BotFactory, llm: FakeOpenAI
) -> None:
    bot, _ = make_bot(llm)
    root = bot.services.scopes.root_for(owner("x").scope)
    llm.reply("ok 1")
    bot.handle(owner("My passport number ends in 4471 and expires in March"))
    llm.overflow()
    llm.json_reply({"bullets": ["The user's passport number ends in 4471, expires in March"]})
    llm.reply("recovered")
    assert bot.handle(owner("what else should I know?")) == ["recovered"]
    note = note_text(root)
    assert "## Context Overflow Recovery" in note
    assert "4471" in note
    chat = llm.chat_requests()
    assert len(chat[1]["messages"]) > len(chat[2]["messages"])
    users = [m["content"] for m in chat[2]["messages"] if m["role"] == "user"]
    assert users == ["what else should I know?"]


def test_a_second_overflow_gives_a_clear_reply(make_bot: BotFactory, llm: FakeOpenAI) -> None:
    bot, _ = make_bot(llm)
    llm.overflow().overflow()
    (reply,) = bot.handle(owner("x" * 50))
    assert "no longer fits" in reply


def test_model_failure_is_one_friendly_line(make_bot: BotFactory, llm: FakeOpenAI) -> None:
    bot, _ = make_bot(llm)
    llm.error(500, "upstream exploded").error(500, "upstream exploded")
    (reply,) = bot.handle(owner("hello"))
    assert reply.startswith("Sorry, I cannot answer right now")
    assert "\n" not in reply


def test_offline_mode_records_and_shows_memory_hits(make_bot: BotFactory) -> None:
    bot, _ = make_bot()
    root = bot.services.scopes.root_for(owner("x").scope)
    (root.notes_dir / "2026-11-28.md").write_text(
        "# Daily Memory: 2026-11-28\n\n## Daily Summary (23:55)\n"
        "- The user's cat is named Tofu and eats salmon\n"
    )
    (reply,) = bot.handle(owner("what does Tofu eat?"))
    assert "No model is configured" in reply
    assert "2026-11-28.md" in reply and "salmon" in reply
    session = bot.conversations.session(owner("x").scope)
    assert [t.content for t in session.window] == ["what does Tofu eat?"]
    # the notice is told, not remembered: the next message's hits never quote it
    (again,) = bot.handle(owner("what does Tofu eat?"))
    assert "salmon" in again and "No model is configured" not in again.split("\n", 1)[1]
    logged = (root.path / "sessions" / "2026-11-29.jsonl").read_text(encoding="utf-8")
    assert "No model is configured" not in logged


def test_secrets_never_reach_the_notes(make_bot: BotFactory, llm: FakeOpenAI) -> None:
    bot, _ = make_bot(llm, agent_max_context_turns=2)
    root = bot.services.scopes.root_for(private("telegram", "7", "x").scope)
    for text in ["my key is sk-abcdefghijklmnopqrstuvwx1234", "fine", "and again"]:
        llm.reply("ok")
        bot.handle(private("telegram", "7", text))
    notes = "".join(p.read_text() for p in root.notes_dir.glob("*.md"))
    assert "sk-abcdefghijklmnopqrstuvwx1234" not in notes
    assert "sk-test-secret-123" not in request_text({"n": notes})


def test_secrets_never_reach_the_saved_conversation(make_bot: BotFactory) -> None:
    bot, _ = make_bot()
    bot.handle(private("telegram", "8", "my api key is sk-abcdefghijklmnopqrstuvwxyz123456"))
    session = bot.conversations.session(private("telegram", "8", "x").scope)
    saved = session.path.read_text(encoding="utf-8")
    assert "sk-abcdefghijklmnopqrstuvwxyz123456" not in saved
    assert "[REDACTED]" in saved
