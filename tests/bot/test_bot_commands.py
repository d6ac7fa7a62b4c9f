"""Chat commands and who may run them."""

from __future__ import annotations

import re

from bot_support import BotFactory, group, owner, private

from memory.paths import MemoryRoot
from tests.fakes.clock import FakeClock
from tests.fakes.openai_server import FakeOpenAI

NOTE = (
    "# Daily Memory: 2026-11-29\n\n## Daily Summary (23:55)\n"
    "- The user prefers jasmine tea in the afternoon\n"
    "- The user is learning to play the cello\n"
)


def seed(root: MemoryRoot, text: str = NOTE, day: str = "2026-11-29") -> None:
    root.notes_dir.mkdir(parents=True, exist_ok=True)
    (root.notes_dir / f"{day}.md").write_text(text, encoding="utf-8")


def test_group_member_is_refused_and_admins_may_dream(make_bot: BotFactory) -> None:
    bot, channel = make_bot(admin_users=["telegram:900"])
    root = bot.services.scopes.root_for(group("telegram", "-5", "1", "x").scope)
    seed(root)
    refused = bot.handle(group("telegram", "-5", "1", "/memory dream 3"))
    assert refused == ["Sorry, only this chat's admins can change its memory."]
    assert not root.memory_md.exists()
    started = bot.handle(group("telegram", "-5", "900", "/memory dream 3"))
    assert started[0].startswith("Dream started over the last 3 days")
    ((scope, report),) = channel.wait_for(1)
    assert scope.key == "telegram:group:-5"
    assert report.startswith("Dream done (extractive): 2 items")
    assert "jasmine" in root.memory_md.read_text()
    by_chat_admin = bot.handle(group("telegram", "-5", "2", "/memory dream", chat_admin=True))
    assert by_chat_admin[0].startswith("Dream started")
    assert channel.wait_for(2)[1][1].startswith(("Dream done", "Dream skipped"))


def test_members_may_read_status_and_search(make_bot: BotFactory) -> None:
    bot, _ = make_bot()
    root = bot.services.scopes.root_for(group("telegram", "-5", "1", "x").scope)
    seed(root)
    (status,) = bot.handle(group("telegram", "-5", "1", "/memory status"))
    assert "telegram:group:-5 (group -5): scopes/telegram/group--5" in status
    assert "daily notes: 1" in status
    (found,) = bot.handle(group("telegram", "-5", "1", "/memory search cello"))
    assert "memory/2026-11-29.md#L" in found and "cello" in found
    (dreaming,) = bot.handle(group("telegram", "-5", "1", "/dreaming status"))
    assert re.match(r"Nightly dreaming: on\nNext run: 29 Nov, 23:5\d \(Asia/Shanghai\)", dreaming)
    assert bot.handle(group("telegram", "-5", "1", "/dreaming off")) == [
        "Sorry, only this chat's admins can change its memory."
    ]


def test_bad_arguments_get_one_line_usage(make_bot: BotFactory) -> None:
    bot, _ = make_bot()
    for text, usage in [
        ("/memory dream 0", "Usage: /memory dream [N] (N = days of notes, 1..30)"),
        ("/memory dream many", "Usage: /memory dream [N] (N = days of notes, 1..30)"),
        ("/memory dream 31", "Usage: /memory dream [N] (N = days of notes, 1..30)"),
        ("/memory frobnicate", None),
        ("/memory", None),
        ("/memory search", "Usage: /memory search <query>"),
        ("/memory forget", "Usage: /memory forget <text>"),
        ("/dreaming sometimes", "Usage: /dreaming status|on|off|help"),
    ]:
        (reply,) = bot.handle(owner(text))
        assert "\n" not in reply, text
        assert reply == usage if usage else reply.startswith("Usage: /memory dream [N] |")


def test_private_owner_toggles_dreaming(make_bot: BotFactory) -> None:
    bot, _ = make_bot()
    assert bot.handle(private("wechat", "wx_1", "/dreaming off")) == [
        "Nightly dreaming is now off for this chat."
    ]
    (status,) = bot.handle(private("wechat", "wx_1", "/dreaming status"))
    assert status.startswith("Nightly dreaming: off")
    (other,) = bot.handle(private("wechat", "wx_2", "/dreaming status"))
    assert other.startswith("Nightly dreaming: on")
    assert "/dreaming on | off" in bot.handle(owner("/dreaming help"))[0]


def test_forget_asks_for_confirmation_then_deletes(make_bot: BotFactory) -> None:
    bot, _ = make_bot()
    root = bot.services.scopes.root_for(owner("x").scope)
    seed(root)
    (plan,) = bot.handle(owner("/memory forget cello"))
    assert "1 line in 1 file mentions 'cello'" in plan
    assert "/memory forget confirm" in plan
    assert "cello" in (root.notes_dir / "2026-11-29.md").read_text()
    (done,) = bot.handle(owner("/memory forget confirm"))
    assert done.startswith("Forgotten: 1 line deleted")
    note = (root.notes_dir / "2026-11-29.md").read_text()
    assert "cello" not in note and "jasmine" in note
    assert bot.handle(owner("/memory forget confirm"))[0].startswith("Nothing to confirm")
    # a forgotten fact, or a word never said, finds nothing (no unrelated lines either)
    assert bot.handle(owner("/memory search cello")) == ["No memory matches 'cello'."]
    assert bot.handle(owner("/memory search xyzzy")) == ["No memory matches 'xyzzy'."]


def test_forget_cancel_and_expiry(make_bot: BotFactory, clock: FakeClock) -> None:
    bot, _ = make_bot()
    root = bot.services.scopes.root_for(owner("x").scope)
    seed(root)
    bot.handle(owner("/memory forget jasmine"))
    assert bot.handle(owner("/memory forget cancel")) == ["Forget cancelled; nothing was deleted."]
    assert "jasmine" in (root.notes_dir / "2026-11-29.md").read_text()
    assert bot.handle(owner("/memory forget nothing-like-this"))[0].startswith("Nothing in")


def test_undo_restores_memory_before_the_dream(make_bot: BotFactory) -> None:
    bot, channel = make_bot()
    root = bot.services.scopes.root_for(owner("x").scope)
    seed(root)
    assert bot.handle(owner("/memory undo"))[0]  # nothing to undo: a one-line message
    bot.handle(owner("/memory dream 1"))
    channel.wait_for(1)
    assert "cello" in root.memory_md.read_text()
    (undone,) = bot.handle(owner("/memory undo"))
    assert undone.startswith("Undone:")
    assert "cello" not in (root.memory_md.read_text() if root.memory_md.exists() else "")


def test_commands_are_not_part_of_the_conversation(make_bot: BotFactory, llm: FakeOpenAI) -> None:
    bot, _ = make_bot(llm)
    bot.handle(owner("/memory status"))
    assert llm.requests == []
    assert bot.conversations.session(owner("x").scope).window == []


def test_unaddressed_group_messages_are_remembered_not_answered(
    make_bot: BotFactory, llm: FakeOpenAI
) -> None:
    bot, _ = make_bot(llm)
    assert bot.handle(group("telegram", "-9", "1", "I bring the cake", addressed=False)) == []
    assert bot.handle(group("telegram", "-9", "1", "/memory dream", addressed=False)) == []
    llm.reply("Great, Ann brings the cake.")
    assert bot.handle(group("telegram", "-9", "2", "who brings what?", name="Bob")) == [
        "Great, Ann brings the cake."
    ]
    users = [m["content"] for m in llm.chat_requests()[0]["messages"] if m["role"] == "user"]
    assert users == ["1: I bring the cake", "1: /memory dream", "Bob: who brings what?"]


def test_a_dream_on_command_includes_todays_conversation(make_bot: BotFactory) -> None:
    bot, channel = make_bot()
    root = bot.services.scopes.root_for(private("telegram", "7", "x").scope)
    bot.handle(private("telegram", "7", "I always take the 7:40 train to work"))
    assert not root.notes_dir.exists() or not list(root.notes_dir.glob("2*.md"))
    started = bot.handle(private("telegram", "7", "/memory dream 1"))
    assert started[0].startswith("Dream started")
    ((_, report),) = channel.wait_for(1)
    assert report.startswith("Dream done (extractive): 1 item in MEMORY.md")
    assert "7:40 train" in root.memory_md.read_text(encoding="utf-8")


def test_forget_also_removes_the_words_from_the_conversation(make_bot: BotFactory) -> None:
    bot, _ = make_bot()
    root = bot.services.scopes.root_for(owner("x").scope)
    bot.handle(owner("My locker code is in the blue notebook"))
    bot.handle(owner("I like hiking on weekends"))
    (plan,) = bot.handle(owner("/memory forget blue notebook"))
    assert "1 message of the current conversation mentions it" in plan
    (done,) = bot.handle(owner("/memory forget confirm"))
    assert "1 message from the conversation" in done
    bot.conversations.flush(owner("x").scope, bot.clock())
    note = "".join(p.read_text(encoding="utf-8") for p in root.notes_dir.glob("2*.md"))
    assert "hiking" in note and "blue notebook" not in note
    saved = bot.conversations.session(owner("x").scope).path.read_text(encoding="utf-8")
    assert "blue notebook" not in saved


def test_status_after_undo_and_after_a_skip(make_bot: BotFactory, clock: FakeClock) -> None:
    """Undo shows in the status; a later skip never hides the last real result."""
    bot, channel = make_bot(dream_engine="extractive")
    root = bot.services.scopes.root_for(owner("x").scope)
    root.notes_dir.mkdir(parents=True, exist_ok=True)
    (root.notes_dir / "2026-11-29.md").write_text(
        "# Daily Memory: 2026-11-29\n\n## Daily Summary (10:00)\n- The user keeps bees\n"
    )
    bot.handle(owner("/memory dream 2"))
    channel.wait_for(1)
    assert "Last dream: done at 29 Nov, 14:00: 1 item, +1" in "\n".join(
        bot.handle(owner("/dreaming status"))
    )
    bot.handle(owner("/memory dream 2"))  # nothing new
    (_, skipped) = channel.wait_for(2)[1]
    assert skipped.startswith("Dream skipped")
    status = bot.handle(owner("/dreaming status"))[0]
    assert "Last dream: done at" in status and "Since then: skipped at" in status
    clock.advance(minutes=5)
    assert bot.handle(owner("/memory undo"))[0].startswith("Undone")
    status = bot.handle(owner("/dreaming status"))[0]
    assert "(undone at 29 Nov, 14:05)" in status


def test_help_lists_every_command(make_bot: BotFactory) -> None:
    bot, _ = make_bot()
    (text,) = bot.handle(owner("/help"))
    for command in (
        "/memory status",
        "/memory search",
        "/memory dream",
        "/memory undo",
        "/memory forget",
        "/dreaming status",
        "/dreaming on | off",
        "/help",
    ):
        assert command in text
    assert bot.handle(owner("/dreaming help")) == [text]
