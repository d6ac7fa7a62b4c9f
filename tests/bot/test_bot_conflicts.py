"""Open conflicts in the chat: the prompt's mark and advice, status, /memory resolve."""

from __future__ import annotations

from bot_support import BotFactory, group, owner

from memory.conflicts import PROMPT_NOTE
from memory.paths import MemoryRoot
from tests.fakes.openai_server import FakeOpenAI

TWO_CITIES = (
    "# MEMORY\n\n## Facts\n"
    "- The user lives in Berlin [open conflict c1] "
    "<!-- src: memory/2026-11-29.md#L4; conflict: c1 -->\n"
    "- The user lives in Munich [open conflict c1] "
    "<!-- src: memory/2026-11-29.md#L5; conflict: c1 -->\n"
    "- The user keeps bees <!-- src: memory/2026-11-29.md#L6 -->\n"
)


def seeded(root: MemoryRoot, text: str = TWO_CITIES) -> None:
    root.path.mkdir(parents=True, exist_ok=True)
    root.memory_md.write_text(text, encoding="utf-8")


def test_the_model_sees_the_marks_and_is_told_to_ask(make_bot: BotFactory, llm: FakeOpenAI) -> None:
    bot, _ = make_bot(llm)
    seeded(bot.services.scopes.root_for(owner("x").scope))
    llm.reply("Which city do you live in now, Berlin or Munich?")
    bot.handle(owner("Recommend a museum near my home"))
    system = llm.chat_requests()[0]["messages"][0]["content"]
    assert "- The user lives in Berlin [open conflict c1]" in system
    assert "- The user lives in Munich [open conflict c1]" in system
    assert PROMPT_NOTE in system and "<!--" not in system


def test_no_mark_no_advice(make_bot: BotFactory, llm: FakeOpenAI) -> None:
    bot, _ = make_bot(llm)
    seeded(bot.services.scopes.root_for(owner("x").scope), "# MEMORY\n\n- The user keeps bees\n")
    llm.reply("Bees!")
    bot.handle(owner("What do I keep?"))
    assert PROMPT_NOTE not in llm.chat_requests()[0]["messages"][0]["content"]


def test_status_and_resolve_in_a_group(make_bot: BotFactory) -> None:
    bot, _ = make_bot(admin_users=["telegram:7"])
    root = bot.services.scopes.root_for(group("telegram", "-5", "7", "x").scope)
    seeded(root)
    status = bot.handle(group("telegram", "-5", "8", "/memory status"))[0]
    assert "Open conflicts: 1 (every side kept until someone decides; /memory resolve)" in status
    assert "c1: 1) 'The user lives in Berlin' 2) 'The user lives in Munich'" in status
    listed = bot.handle(group("telegram", "-5", "8", "/memory resolve"))[0]
    assert listed.splitlines()[0] == (
        "Open conflicts in MEMORY.md (every side is kept until someone decides):"
    )
    refused = bot.handle(group("telegram", "-5", "8", "/memory resolve c1 keep 1"))[0]
    assert refused == "Sorry, only this chat's admins can change its memory."
    for bad in ("c1 keep one", "c1", "c1 keep 1 2"):
        reply = bot.handle(group("telegram", "-5", "7", f"/memory resolve {bad}"))[0]
        assert reply.startswith("Usage: /memory resolve"), bad
    for wrong in ("c1 keep 3", "c1 keep"):
        reply = bot.handle(group("telegram", "-5", "7", f"/memory resolve {wrong}"))[0]
        assert reply == "conflict c1 has sides 1 to 2"
    assert root.memory_md.read_text(encoding="utf-8") == TWO_CITIES
    done = bot.handle(group("telegram", "-5", "7", "/memory resolve 1 both"))[0]
    assert done == (
        "Conflict c1 resolved: both kept ('The user lives in Berlin', 'The user lives in "
        "Munich'); later dreams will not reopen it. /memory undo puts it back."
    )
    assert "open conflict" not in root.memory_md.read_text(encoding="utf-8")
    diary = next(root.diary_dir.glob("*.md")).read_text(encoding="utf-8")
    assert "## Conflict c1 resolved (14:00 (7))" in diary
    assert bot.handle(group("telegram", "-5", "8", "/memory resolve"))[0] == (
        "There is no open conflict in MEMORY.md."
    )
    undone = bot.handle(group("telegram", "-5", "7", "/memory undo"))[0]
    assert undone.startswith(
        "Undone: MEMORY.md and the archive are back to before the conflict resolution of"
    )
    assert root.memory_md.read_text(encoding="utf-8") == TWO_CITIES


def test_resolve_in_chinese(make_bot: BotFactory) -> None:
    bot, _ = make_bot(language="zh")
    seeded(bot.services.scopes.root_for(owner("x").scope))
    assert bot.handle(owner("/memory resolve c9 keep 1"))[0] == (
        "MEMORY.md 里没有未决的矛盾 c9（未决的有：c1）"
    )
    done = bot.handle(owner("/memory resolve c1 drop 1"))[0]
    assert done.startswith("矛盾 c1 已解决：") and "移入归档" in done
