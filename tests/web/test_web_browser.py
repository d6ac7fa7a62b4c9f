"""The web console in a real headless Chromium (Debian's ``chromium``, driven by Playwright)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from web_support import GROUP_KEY, console_config, running_console, seed_group

from tests.fakes.openai_server import FakeOpenAI

pytestmark = pytest.mark.browser


def test_console_chat_dream_diary_memory_sources_and_search(
    tmp_path: Path, browser: object, llm: FakeOpenAI
) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    config = console_config(tmp_path, open_ai_api_base=llm.url, open_ai_api_key="sk-test-browser")
    with running_console(config) as console:
        page = browser.new_page()
        page.goto(console.url)
        expect(page.locator("#dream-state")).to_contain_text("1 notes")

        llm.reply("Hello from the model")
        page.fill("#chat-input", "hello")
        page.press("#chat-input", "Enter")
        expect(page.locator("#chat-log .msg.bot")).to_have_text("Hello from the model")
        page.reload()  # the conversation survives a reload
        expect(page.locator("#chat-log .msg.user")).to_have_text("hello")
        expect(page.locator("#chat-log .msg.bot")).to_have_text("Hello from the model")

        page.fill("#dream-days", "2")
        page.click("#run-dream")
        expect(page.locator("#chat-log .msg.notice").first).to_contain_text("Dream started")
        expect(page.locator("#chat-log")).to_contain_text("Dream done", timeout=30000)
        expect(page.locator("#dream-state")).to_contain_text("last: done")

        page.click("nav button[data-tab=diary]")
        expect(page.locator("#diary-entries .diary-entry h3")).to_have_text(
            re.compile(r"^\d{4}-\d{2}-\d{2}$")
        )
        expect(page.locator("#diary-entries")).to_contain_text("Deep Dream")

        page.click("nav button[data-tab=memory]")
        item = page.locator("#memory-items li", has_text="cello")
        expect(item).to_have_count(1)
        item.locator(".sources a").first.click()
        expect(page.locator("#source-view")).to_contain_text("learning to play the cello")

        page.click("nav button[data-tab=notes]")
        page.click("#note-dates a")
        expect(page.locator("#note-text")).to_contain_text("## Daily Summary (23:55)")

        page.click("nav button[data-tab=search]")
        page.fill("#search-input", "jasmine tea")
        page.press("#search-input", "Enter")
        first = page.locator("#search-hits li").first
        expect(first).to_contain_text("jasmine tea")
        expect(page.locator("#search-hits")).to_contain_text("memory/2026-11-29.md#L")
        expect(first.locator(".score")).to_have_text(re.compile(r"^\d\.\d\d$"))
        page.close()


def test_console_asks_for_the_password(tmp_path: Path, browser: object) -> None:
    from playwright.sync_api import Browser

    assert isinstance(browser, Browser)
    with running_console(console_config(tmp_path, web_password="s3cret")) as console:
        context = browser.new_context(http_credentials={"username": "me", "password": "s3cret"})
        page = context.new_page()
        response = page.goto(console.url)
        assert response is not None and response.status == 200
        context.close()
        anonymous = browser.new_page()
        assert anonymous.request.get(console.url).status == 401
        assert anonymous.request.get(f"{console.url}/api/memory").status == 401
        anonymous.close()


def test_console_switches_to_a_groups_memory(tmp_path: Path, browser: object) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    with running_console(console_config(tmp_path)) as console:
        seed_group(console)
        page = browser.new_page()
        page.goto(console.url)
        page.click("nav button[data-tab=notes]")
        expect(page.locator("#note-dates a")).to_have_text(["2026-11-29"])
        expect(page.locator("#chat-picker option")).to_have_count(2)
        page.select_option("#chat-picker", GROUP_KEY)
        expect(page.locator("#note-dates a")).to_have_text(["2026-11-28"])
        expect(page.locator("#run-dream")).to_be_disabled()
        page.click("#note-dates a")
        expect(page.locator("#note-text")).to_contain_text("we meet at 6 am")
        page.close()
