"""The console's people endpoint: a group's members and one card with its sources."""

from __future__ import annotations

from pathlib import Path

from bot.messages import IncomingMessage, Scope
from memory.dream import DreamOptions, run_dream
from tests.web.web_support import GROUP_KEY, console_config, running_console


def test_people_of_a_group_and_a_card_with_sources(tmp_path: Path) -> None:
    with running_console(console_config(tmp_path)) as console:
        group = Scope("telegram", "-42", is_group=True, title="Hikers")
        bot = console.bot
        bot.handle(IncomingMessage(group, "7", "Lin", "I live in Hangzhou", False))
        bot.handle(IncomingMessage(group, "8", "Mo", "Lin is getting married in May", False))
        bot.services.conversations.flush(group, bot.clock())
        root = bot.services.scopes.root_for(group)
        run_dream(root, DreamOptions(engine="extractive"), model=None, now=bot.clock())
        client = console.client()

        people = client.get("/api/people", params={"chat": GROUP_KEY}).json()["people"]
        assert [p["name"] for p in people] == ["Lin", "Mo"]
        lin = people[0]
        assert lin["id"] == "telegram:7" and lin["open"] == 0
        assert {c["text"] for c in lin["card"]} == {
            "Lin: I live in Hangzhou",
            "Mo: Lin is getting married in May",
        }
        assert all(c["sources"][0].startswith("memory/2026-11-30.md#L") for c in lin["card"])

        card = client.get("/api/people", params={"chat": GROUP_KEY, "name": "lin"}).json()
        assert card["slug"] == "telegram-7" and len(card["card"]) == 2
        source = client.get(
            "/api/source", params={"chat": GROUP_KEY, "ref": card["card"][0]["sources"][0]}
        )
        assert source.status_code == 200

        # the owner's own memory has no people; an unknown name is a clear 400
        assert client.get("/api/people").json() == {"people": []}
        missing = client.get("/api/people", params={"chat": GROUP_KEY, "name": "Zed"})
        assert missing.status_code == 400 and "Zed" in missing.text
