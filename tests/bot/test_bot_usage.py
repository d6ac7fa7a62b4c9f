"""The bot records each use of a memory item: in the prompt, as a search hit, by memory_get."""

from __future__ import annotations

from bot_support import BotFactory, owner

from memory.paths import MemoryRoot
from memory.provenance import SourceRef
from memory.usage import read_ledger
from tests.fakes.openai_server import FakeOpenAI

MEMORY = (
    "# MEMORY\n\n## Preferences\n"
    "- The user drinks oolong tea every afternoon <!-- src: memory/2026-11-20.md#L4 -->\n"
    "- The user plays the cello on Thursdays <!-- src: memory/2026-11-21.md#L3 -->\n"
)
ARCHIVE = (
    "# Memory Archive\n\nItems that left MEMORY.md.\n\n"
    "- The user grew tomatoes on the balcony <!-- src: memory/2026-09-02.md#L5; "
    "reason: cold; archived: 2026-11-01 -->\n"
)
TEA = (SourceRef("memory/2026-11-20.md", 4, 4),)
CELLO = (SourceRef("memory/2026-11-21.md", 3, 3),)
TOMATOES = (SourceRef("memory/2026-09-02.md", 5, 5),)


def seeded(root: MemoryRoot) -> None:
    root.memory_md.write_text(MEMORY, encoding="utf-8")
    root.archive.write_text(ARCHIVE, encoding="utf-8")


def vias(root: MemoryRoot, refs: tuple[SourceRef, ...]) -> list[tuple[str, str]]:
    ledger = read_ledger(root)
    lines = {(r.path, n) for r in refs for n in r.lines()}
    return [
        (u.via, u.tier)
        for u in ledger.uses
        if {(r.path, n) for r in u.refs for n in r.lines()} & lines
    ]


def test_the_prompt_the_tools_and_the_search_command_record_uses(
    make_bot: BotFactory, llm: FakeOpenAI
) -> None:
    bot, _ = make_bot(llm)
    root = bot.services.scopes.root_for(owner("x").scope)
    seeded(root)
    llm.tool_call("memory_search", {"query": "cello Thursdays", "min_score": 0})
    llm.tool_call("memory_get", {"path": "MEMORY.md", "start_line": 4, "num_lines": 1})
    llm.reply("Oolong, as always; and your tomatoes?")
    bot.handle(owner("Which oolong tea should I buy? The tomatoes on the balcony need water"))
    tea = vias(root, TEA)
    assert tea[0] == ("prompt", "core") and tea[-1] == ("get", "core")
    assert vias(root, TOMATOES) == [("prompt", "archive")]  # a hint is a use
    assert ("search", "core") in vias(root, CELLO)
    bot.handle(owner("/memory search cello"))
    assert vias(root, CELLO).count(("search", "core")) == 2
    assert all(u.day.isoformat() == "2026-11-29" for u in read_ledger(root).uses)


def test_a_message_about_nothing_in_memory_records_nothing(make_bot: BotFactory) -> None:
    bot, _ = make_bot()
    root = bot.services.scopes.root_for(owner("x").scope)
    seeded(root)
    bot.handle(owner("The weather is grey today"))
    assert read_ledger(root).uses == []
