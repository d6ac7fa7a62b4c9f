"""The opt-in answerability gate says "no hits" the same way in every surface of the bot:
the chat command, the model's ``memory_search`` tool, the offline reply and the web
console's search (the CLI and the tool function: ``tests/search/test_answerable.py``), and
whatever limit a surface asks for. Real bot, real index, the local model."""

from __future__ import annotations

import json

from bot_support import BotFactory, owner

from bot.console import ConsoleView
from bot.engine import Bot
from memory.paths import MemoryRoot
from tests.fakes.openai_server import FakeOpenAI
from tests.search.test_answerable import ASKED, NOTE  # a never-told fact, its look-alikes

ANSWERED = "豆豆几岁了？"
GATED = {"embedding_provider": "local", "memory_search_answerable": True}


def seed(bot: Bot, root: MemoryRoot) -> None:
    """The note written and embedded (a search before its vectors are in reads keywords
    only, which the gate lets through: on a loaded machine the first search's short wait
    for pending vectors may not be enough)."""
    root.notes_dir.mkdir(parents=True, exist_ok=True)
    (root.notes_dir / "2026-06-01.md").write_text(NOTE, encoding="utf-8")
    bot.services.search.status(root)  # opens the chat's search service
    service, _ = bot.services.search._services[str(root.path)]
    service.sync()
    service.wait_for_vectors(60)
    assert service.status()["pending"] == 0


def test_the_chat_command_the_console_and_every_limit_agree(make_bot: BotFactory) -> None:
    bot, _ = make_bot(**GATED)
    root = bot.services.scopes.root_for(owner("x").scope)
    seed(bot, root)
    assert bot.handle(owner(f"/memory search {ASKED}")) == [f"记忆里没有与 “{ASKED}” 相符的内容。"]
    (found,) = bot.handle(owner(f"/memory search {ANSWERED}"))
    assert "memory/2026-06-01.md#L" in found and "豆豆" in found
    view = ConsoleView(bot.services, root)
    assert view.search(ASKED) == []
    assert any("豆豆" in hit["snippet"] for hit in view.search(ANSWERED))
    pool = bot.services.search
    full = pool.search(root, ANSWERED, limit=10)
    for limit in (1, 2, 4, 6, 10):  # one verdict, one list, whatever a surface asks for
        assert pool.search(root, ASKED, limit=limit) == []
        assert pool.search(root, ANSWERED, limit=limit) == full[:limit]


def test_the_offline_reply_says_no_hits(make_bot: BotFactory) -> None:
    bot, _ = make_bot(**GATED)
    root = bot.services.scopes.root_for(owner("x").scope)
    seed(bot, root)
    (reply,) = bot.handle(owner(ASKED))
    assert reply.endswith("记忆里没有与这条消息相关的内容。")  # no look-alike shown
    (answered,) = bot.handle(owner(ANSWERED))
    assert "2026-06-01.md" in answered and "豆豆" in answered


def test_the_model_s_tool_gets_no_results(make_bot: BotFactory, llm: FakeOpenAI) -> None:
    bot, _ = make_bot(llm, **GATED)
    seed(bot, bot.services.scopes.root_for(owner("x").scope))
    llm.tool_call("memory_search", {"query": ASKED, "max_results": 3})
    llm.reply("I don't know.")
    assert bot.handle(owner(ASKED)) == ["I don't know."]
    (tool,) = [m for m in llm.chat_requests()[1]["messages"] if m["role"] == "tool"]
    assert json.loads(tool["content"])["results"] == []
