"""The console's open-conflict endpoints: list them, resolve one (the owner's memory only)."""

from __future__ import annotations

from pathlib import Path

import pytest
from web_support import GROUP_KEY, Console, bot_scope, console_config, running_console, seed_group

from bot.messages import Scope

TWO_CITIES = (
    "# MEMORY\n\n## Facts\n"
    "- The user lives in Berlin [open conflict c1] "
    "<!-- src: memory/2026-11-29.md#L4; conflict: c1 -->\n"
    "- The user lives in Munich [open conflict c1] "
    "<!-- src: memory/2026-11-29.md#L5; conflict: c1 -->\n"
)


def with_conflict(console: Console) -> Path:
    root = console.bot.services.scopes.root_for(bot_scope())
    root.memory_md.write_text(TWO_CITIES, encoding="utf-8")
    return root.memory_md


def test_list_and_resolve_a_conflict(tmp_path: Path) -> None:
    with running_console(console_config(tmp_path)) as console:
        memory = with_conflict(console)
        client = console.client()
        listed = client.get("/api/conflicts").json()["conflicts"]
        assert listed == [
            {
                "id": "c1",
                "sides": [
                    {
                        "side": 1,
                        "text": "The user lives in Berlin",
                        "sources": ["memory/2026-11-29.md#L4"],
                    },
                    {
                        "side": 2,
                        "text": "The user lives in Munich",
                        "sources": ["memory/2026-11-29.md#L5"],
                    },
                ],
            }
        ]
        items = client.get("/api/memory").json()["items"]
        assert [i["conflict"] for i in items] == ["c1", "c1"]
        done = client.post("/api/conflicts/resolve", json={"id": "c1", "action": "keep", "side": 1})
        assert done.status_code == 200
        body = done.json()
        assert body["kept"] == ["The user lives in Berlin"]
        assert body["dropped"] == ["The user lives in Munich"]
        assert body["conflicts"] == [] and body["still_open"] is False
        assert body["message"].startswith("Conflict c1 resolved: kept 'The user lives in Berlin'")
        assert "Munich" not in memory.read_text(encoding="utf-8")
        archive = client.get("/api/archive").json()["items"]
        assert [(a["text"], a["reason"]) for a in archive] == [
            ("The user lives in Munich", "conflict-dropped")
        ]
        assert client.post("/api/chat", json={"text": "/memory undo"}).status_code == 200
        assert memory.read_text(encoding="utf-8") == TWO_CITIES  # undone


def test_bad_resolutions_are_one_line_and_change_nothing(tmp_path: Path) -> None:
    with running_console(console_config(tmp_path)) as console:
        memory = with_conflict(console)
        client = console.client()
        cases = [
            ({"id": "c9", "action": "keep", "side": 1}, 400, "no open conflict c9 in MEMORY.md"),
            ({"id": "c1", "action": "keep", "side": 5}, 400, "conflict c1 has sides 1 to 2"),
            ({"id": "c1", "action": "both", "side": 1}, 400, "resolve takes keep N, drop N"),
            ({"id": "c1", "action": "pick", "side": 1}, 422, "action: Input should be"),
            ({"id": "", "action": "keep", "side": 1}, 422, "id: String should have"),
        ]
        for body, status, detail in cases:
            answer = client.post("/api/conflicts/resolve", json=body)
            assert answer.status_code == status, body
            assert answer.json()["detail"].startswith(detail), answer.json()
        chinese = client.post(
            "/api/conflicts/resolve",
            json={"id": "c1", "action": "drop", "side": 3},
            headers={"Accept-Language": "zh-CN"},
        )
        assert chinese.json() == {"detail": "矛盾 c1 的选项是 1 到 2"}
        assert memory.read_text(encoding="utf-8") == TWO_CITIES


def test_another_chats_conflicts_are_read_only_and_a_password_guards_both(
    tmp_path: Path,
) -> None:
    with running_console(console_config(tmp_path, web_password="pw")) as console:
        seed_group(console)
        group = console.bot.services.scopes.root_for(Scope("telegram", "-42", is_group=True))
        group.memory_md.write_text(TWO_CITIES, encoding="utf-8")
        anonymous = console.client()
        assert anonymous.get("/api/conflicts").status_code == 401
        resolve = {"id": "c1", "action": "both"}
        assert anonymous.post("/api/conflicts/resolve", json=resolve).status_code == 401
        client = console.client(auth=("owner", "pw"))
        listed = client.get("/api/conflicts", params={"chat": GROUP_KEY}).json()["conflicts"]
        assert [c["id"] for c in listed] == ["c1"]
        assert client.get("/api/conflicts").json() == {"conflicts": []}  # the owner's: none
        refused = client.post("/api/conflicts/resolve", json=resolve)
        assert refused.status_code == 400  # the owner's memory has no conflict c1
        assert refused.json() == {"detail": "there is no open conflict in MEMORY.md"}
        assert group.memory_md.read_text(encoding="utf-8") == TWO_CITIES


@pytest.mark.browser
def test_resolving_a_conflict_in_chromium(tmp_path: Path, browser: object) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    with running_console(console_config(tmp_path)) as console:
        memory = with_conflict(console)
        page = browser.new_page()
        page.goto(f"{console.url}/#/memory")
        card = page.locator("#conflicts .conflict-card[data-id=c1]")
        expect(page.locator("#conflicts h3")).to_contain_text("1 open conflict")
        expect(card.locator(".side .text")).to_have_text(
            ["The user lives in Berlin", "The user lives in Munich"]
        )
        expect(page.locator("#memory-items li .open")).to_have_count(2)
        card.locator(".side", has_text="Munich").locator(".sources a").click()
        expect(page.locator("#source-title")).to_have_text("memory/2026-11-29.md#L5")
        card.locator(".side", has_text="Berlin").locator("button.resolve").click()
        expect(page.locator("#conflict-result")).to_contain_text("Conflict c1 resolved")
        expect(page.locator("#conflicts .conflict-card")).to_have_count(0)
        expect(page.locator("#memory-items")).not_to_contain_text("Munich")
        assert "Munich" not in memory.read_text(encoding="utf-8")
        page.close()
