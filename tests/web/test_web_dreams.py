"""The console's Dreams view: state, phases, counts, next run, the diary rendered, and a
backfill lane whose button removes only the backfill-staged entries (API and Chromium)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from web_support import GROUP_KEY, Console, console_config, running_console, seed_group

from memory.dream.backfill import backfill

HISTORY = (
    "# Daily Memory: 2026-10-03\n\n## Daily Summary (23:55)\n"
    "- The user kept bees on the roof that autumn\n"
)


def prepare(console: Console) -> None:
    """A dream over the seeded note, then a backfill of an old note, staged."""
    from channels.web.app import WEB_SCOPE

    root = console.bot.services.scopes.root_for(WEB_SCOPE)
    folder = root.notes_dir / "history"
    folder.mkdir()
    (folder / "2026-10-03.md").write_text(HISTORY, encoding="utf-8")
    now = datetime(2026, 11, 30, 10, 0, tzinfo=ZoneInfo("Asia/Shanghai"))
    assert backfill(root, folder, now, stage_short_term=True).staged == 1
    client = console.client()
    assert client.post("/api/dream", json={"days": 2}).status_code == 200
    assert console.bot.services.dreams.wait_idle(60)


def test_dreams_api_and_removing_backfill_staged_entries(tmp_path: Path) -> None:
    with running_console(console_config(tmp_path)) as console:
        prepare(console)
        client = console.client()
        info = client.get("/api/dreams").json()
        assert info["enabled"] is True and info["next_run"]
        assert set(info["phases"]) == {"light", "rem", "deep"}
        assert info["phases"]["light"]["candidates"] == 2
        assert info["short_term"]["staged"] >= 2 and "promoted_today" in info
        assert info["diary"][0]["text"].startswith("## Deep Dream")
        (staged,) = info["backfill"]["candidates"]
        assert staged["text"] == "The user kept bees on the roof that autumn"
        (replayed,) = info["backfill"]["entries"]
        assert "<!-- backfill -->" in replayed["text"]
        (dream,) = info["timeline"]["dreams"]  # what the dream recorded, for the timeline
        assert dream["status"] == "done" and dream["kind"] == "dream"
        assert (dream["items"], dream["added"], dream["archived"]) == (2, 2, 0)
        assert isinstance(dream["tokens"], int) and dream["tokens"] > 10
        assert client.post("/api/dreams/backfill/remove").json()["removed_candidates"] == 1
        after = client.get("/api/dreams").json()
        assert after["backfill"]["candidates"] == [] and len(after["backfill"]["entries"]) == 1
        assert after["short_term"]["staged"] == info["short_term"]["staged"] - 1


@pytest.mark.browser
def test_dreams_view_in_chromium(tmp_path: Path, browser: object) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    with running_console(console_config(tmp_path)) as console:
        prepare(console)
        seed_group(console)
        page = browser.new_page()
        page.goto(f"{console.url}/#/dreams")
        expect(page.locator("#dreams-state")).to_contain_text("Nightly dreaming is on; next run")
        expect(page.locator("#dreams-phases tbody tr")).to_have_count(3)
        expect(page.locator("#dreams-phases tr[data-phase=light]")).to_contain_text("2 candidates")
        expect(page.locator("#dreams-phases tr[data-phase=rem]")).to_contain_text("truths")
        expect(page.locator("#dreams-phases tr[data-phase=deep]")).to_contain_text("promoted")
        expect(page.locator("#dreams-counts")).to_contain_text("Staged candidates:")
        expect(page.locator("#dreams-counts")).to_contain_text("promoted today:")
        # the timeline: one dream, its bar of what it did and MEMORY.md's tokens
        dream = page.locator("#dreams-timeline svg g.dream")
        expect(dream).to_have_count(1)
        expect(dream.locator("rect.bar.added")).to_have_count(1)
        expect(dream.locator("rect.tokens")).to_have_count(1)
        assert "added: 2" in dream.locator("title").text_content()
        expect(page.locator("#dreams-timeline .legend")).to_contain_text("superseded")
        # the diary rendered: headings and bullets, no markdown marks, no comments
        expect(page.locator("#dreams-diary h4").first).to_contain_text("Deep Dream")
        expect(page.locator("#dreams-diary li").first).to_be_visible()
        assert "<!--" not in page.locator("#dreams-diary").inner_text()
        lane = page.locator("#backfill-lane")
        expect(lane.locator("#backfill-candidates li")).to_have_text(
            ["The user kept bees on the roof that autumn (memory/history/2026-10-03.md#L4; staged)"]
        )
        expect(lane.locator("#backfill-diary")).to_contain_text("Backfill of 2026-10-03")
        expect(page.locator("#dreams-diary")).not_to_contain_text("Backfill of 2026-10-03")
        page.click("#backfill-remove")
        expect(page.locator("#backfill-result")).to_have_text("removed 1 backfill-staged entry")
        expect(lane.locator("#backfill-candidates li")).to_have_count(0)
        expect(lane.locator("#backfill-diary")).to_contain_text("Backfill of 2026-10-03")
        expect(page.locator("#backfill-remove")).to_be_disabled()
        # another chat's memory is read-only here
        page.select_option("#chat-picker", GROUP_KEY)
        expect(page.locator("#dreams-state")).to_contain_text("Nightly dreaming is on")
        expect(page.locator("#backfill-remove")).to_be_disabled()
        page.close()
