"""The web console in a real headless Chromium (Debian's ``chromium``, driven by Playwright)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from web_support import GROUP_KEY, console_config, running_console, seed_group

from bot.messages import WEB_SCOPE, IncomingMessage, Scope
from memory.dream import DreamOptions, run_dream
from tests.fakes.openai_server import FakeOpenAI
from tests.search.conftest import FakeEmbeddings

pytestmark = pytest.mark.browser


def hold_until(event: threading.Event) -> Callable[[dict[str, Any]], None]:
    """A route for the fake model: every request waits for ``event``, then is answered."""

    def route(request: dict[str, Any]) -> None:
        event.wait(30)

    return route


def ready(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body.ready")


def test_console_chat_dream_diary_memory_sources_and_search(
    tmp_path: Path, browser: object, llm: FakeOpenAI
) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    config = console_config(tmp_path, open_ai_api_base=llm.url, open_ai_api_key="sk-test-browser")
    with running_console(config) as console:
        page = browser.new_page()
        ready(page, console.url)
        expect(page.locator("#dream-state")).to_contain_text("1 note")

        # sending shows progress: the reply is held until the page shows it is waiting
        held = threading.Event()
        llm.route = hold_until(held)
        llm.reply("Hello from the **model**")
        page.fill("#chat-input", "hello")
        page.press("#chat-input", "Enter")
        expect(page.locator("#chat-log .msg.pending")).to_contain_text("Thinking…")
        expect(page.locator("#chat-send")).to_be_disabled()
        held.set()
        reply = page.locator("#chat-log .msg.bot")
        expect(reply).to_have_text("Hello from the model", timeout=20000)  # jieba loads first
        expect(page.locator("#chat-log .msg.bot strong")).to_have_text("model")  # rendered
        expect(page.locator("#chat-log .msg.pending")).to_have_count(0)
        page.reload()  # the conversation survives a reload
        expect(page.locator("#chat-log .msg.user .text")).to_have_text("hello")
        expect(page.locator("#chat-log .msg.bot .markdown")).to_have_text("Hello from the model")
        expect(page.locator("#chat-log .msg time").first).to_have_text(re.compile(r"^30 Nov, "))

        page.fill("#dream-days", "2")
        page.click("#run-dream")
        expect(page.locator("#chat-log .msg.notice").first).to_contain_text("Dream started")
        expect(page.locator("#chat-log")).to_contain_text("Dream done", timeout=30000)
        expect(page.locator("#dream-state")).to_contain_text("last dream: done, 30 Nov, 10:00")
        expect(page.locator("#run-dream")).to_be_enabled()
        # the dream report in the chat is rendered Markdown, not raw marks
        report = page.locator("#chat-log .msg.notice", has_text="Dream done")
        assert "##" not in report.inner_text()

        page.click("nav a[data-tab=diary]")
        assert page.url.endswith("#/diary")
        title = page.locator("#diary-entries .diary-entry h3")
        expect(title).to_have_text("30 Nov")  # the local way, said once
        expect(page.locator("#diary-entries .diary-entry h4").first).to_contain_text("Deep Dream")
        assert "Dream Diary:" not in page.locator("#diary-entries").inner_text()

        page.click("nav a[data-tab=memory]")
        section = page.locator("#memory-items details.section", has_text="cello")
        expect(section.locator(".count")).to_have_text("1 item")
        section.locator(".sources a").first.click()  # the source, one click away
        expect(page.locator("#source-view")).to_contain_text("learning to play the cello")
        expect(page.locator("#source-title")).to_have_text("memory/2026-11-29.md#L5")

        page.click("nav a[data-tab=notes]")
        page.click("#note-dates a")
        assert page.url.endswith("#/notes/2026-11-29")
        expect(page.locator("#note-text h3")).to_have_text("Daily Summary (23:55)")

        page.click("nav a[data-tab=search]")
        page.evaluate(SAW_SEARCHING)
        page.fill("#search-input", "jasmine tea")
        page.press("#search-input", "Enter")
        expect(page).to_have_url(re.compile(r"#/search\?q=jasmine\+tea$"))
        first = page.locator("#search-hits li.hit").first
        expect(first).to_contain_text("jasmine tea")
        expect(first.locator(".badge")).to_have_text(
            re.compile(r"^(keyword|vector|keyword \+ vector)$")
        )
        expect(first.locator(".score")).to_have_text(re.compile(r"^\d\.\d\d$"))
        expect(page.locator("#index-state")).to_contain_text("Index:")
        assert page.evaluate("window.sawSearching") is True  # a spinner while it searched
        first.locator(".snippet").click()  # a hit opens its source
        expect(page.locator("#source-view")).to_contain_text("jasmine tea")
        page.reload()  # the search is its URL: reloaded, it runs again
        expect(page.locator("#search-input")).to_have_value("jasmine tea")
        expect(page.locator("#search-hits li.hit").first).to_contain_text("jasmine tea")
        page.close()


# Notes whether the search showed its spinner (however short the search was).
SAW_SEARCHING = """() => {
  window.sawSearching = false;
  new MutationObserver(() => {
    if (document.querySelector("#search-hits .busy") && document.querySelector("#search-button")
        .disabled) window.sawSearching = true;
  }).observe(document.getElementById("search-hits"), { childList: true, subtree: true });
}"""


def test_run_dream_is_disabled_while_a_dream_runs(
    tmp_path: Path, browser: object, llm: FakeOpenAI
) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    config = console_config(
        tmp_path, open_ai_api_base=llm.url, open_ai_api_key="sk-test-browser", dream_engine="llm"
    )
    held = threading.Event()
    llm.route = hold_until(held)  # the model thinks until told
    with running_console(config) as console:
        page = browser.new_page()
        ready(page, console.url)
        page.click("#run-dream")
        button = page.locator("#run-dream")
        expect(button).to_be_disabled()
        expect(button).to_contain_text("Dreaming…")
        expect(button.locator(".spinner")).to_be_visible()
        page.reload()  # a dream still running after a reload: still disabled
        expect(button).to_be_disabled()
        expect(button).to_contain_text("Dreaming…")
        held.set()
        expect(button).to_be_enabled(timeout=30000)
        expect(button).to_have_text("Run dream")
        page.close()


def test_console_asks_for_the_password(tmp_path: Path, browser: object) -> None:
    from playwright.sync_api import Browser

    assert isinstance(browser, Browser)
    with running_console(console_config(tmp_path, web_password="s3cret")) as console:
        context = browser.new_context(http_credentials={"username": "me", "password": "s3cret"})
        page = context.new_page()
        response = page.goto(console.url)
        assert response is not None and response.status == 200
        page.wait_for_selector("body.ready")
        context.close()
        anonymous = browser.new_page()
        assert anonymous.request.get(console.url).status == 401
        assert anonymous.request.get(f"{console.url}/api/memory").status == 401
        anonymous.close()


def test_console_switches_to_a_groups_memory_read_only(tmp_path: Path, browser: object) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    with running_console(console_config(tmp_path)) as console:
        seed_group(console)
        bot = console.bot
        group = Scope("telegram", "-42", is_group=True, title="Hikers")
        bot.handle(IncomingMessage(group, "7", "Lin", "I live in Hangzhou", False))
        bot.services.conversations.flush(group, bot.clock())
        root = bot.services.scopes.root_for(group)
        run_dream(root, DreamOptions(engine="extractive"), model=None, now=bot.clock())
        page = browser.new_page()
        ready(page, f"{console.url}/#/memory")
        expect(page.locator("#people")).to_be_empty()  # the owner's memory has no people
        page.goto(f"{console.url}/#/notes")
        expect(page.locator("#note-dates a")).to_have_text(["29 Nov"])
        expect(page.locator("#read-only")).to_be_hidden()
        expect(page.locator("#chat-picker option")).to_have_count(2)
        page.select_option("#chat-picker", GROUP_KEY)
        expect(page.locator("#note-dates a")).to_have_text(["30 Nov", "28 Nov"])
        assert page.url.endswith("#/notes?chat=telegram%3Agroup%3A-42")
        # read-only, and it says why
        expect(page.locator("#read-only")).to_contain_text("memory of Hikers")
        expect(page.locator("#read-only")).to_contain_text("read-only")
        expect(page.locator("#run-dream")).to_be_disabled()
        expect(page.locator("#run-dream")).to_have_attribute("title", re.compile("Read-only"))
        page.click("#note-dates a >> text=28 Nov")
        expect(page.locator("#note-text")).to_contain_text("we meet at 6 am")
        # the group's people: Lin's card, each line's source one click away
        page.click("nav a[data-tab=memory]")
        lin = page.locator("#people details.person[data-id='telegram:7']")
        expect(lin.locator("summary")).to_contain_text("Lin")
        expect(lin).to_contain_text("I live in Hangzhou")
        lin.locator(".sources a").first.click()
        expect(page.locator("#source-view")).to_contain_text("I live in Hangzhou")
        page.click("nav a[data-tab=notes]")
        page.click("#note-dates a >> text=28 Nov")
        page.reload()  # the group's view is its URL
        expect(page.locator("#chat-picker")).to_have_value(GROUP_KEY)
        expect(page.locator("#note-text")).to_contain_text("we meet at 6 am")
        page.close()


HOSTILE_NOTE = """# Daily Memory: 2026-11-29

## Daily Summary (23:55)
- The user said <script>window.pwned = "script"</script> in a message
- An image: <img src=x onerror="window.pwned = 'img'"> and ![pic](x.png)
- A [trap](javascript:window.pwned='link') and **bold** with `code`
<iframe src="javascript:window.pwned='frame'"></iframe>
<!-- src: a comment that renders invisibly -->
"""


def test_no_html_or_script_from_a_memory_file_ever_runs(tmp_path: Path, browser: object) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    with running_console(console_config(tmp_path)) as console:
        root = console.bot.services.scopes.root_for(WEB_SCOPE)
        (root.notes_dir / "2026-11-29.md").write_text(HOSTILE_NOTE, encoding="utf-8")
        root.memory_md.write_text(
            "# MEMORY\n\n## Notes\n- <img src=y onerror=\"window.pwned='memory'\"> by hand\n",
            encoding="utf-8",
        )
        page = browser.new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        ready(page, f"{console.url}/#/notes/2026-11-29")  # a bookmarked note
        note = page.locator("#note-text")
        expect(note.locator("li")).to_have_count(3)
        expect(note).to_contain_text('<script>window.pwned = "script"</script>')  # as text
        expect(note).to_contain_text("<img src=x onerror=")
        expect(note.locator("strong")).to_have_text("bold")
        expect(note.locator("code")).to_have_text("code")
        assert note.locator("script, img, iframe").count() == 0
        trap = note.locator("li", has_text="trap")
        assert trap.locator("a").count() == 0  # a javascript: link stays text
        trap.click()
        assert "comment that renders" not in note.inner_text()
        page.goto(f"{console.url}/#/memory")
        expect(page.locator("#memory-items li")).to_contain_text("<img src=y onerror=")
        assert page.locator("#memory-items img").count() == 0
        page.goto(f"{console.url}/#/search?q=pwned")
        expect(page.locator("#search-hits li.hit").first).to_contain_text("pwned")
        assert page.locator("#search-hits script, #search-hits img").count() == 0
        assert page.evaluate("window.pwned") is None and dialogs == []
        page.close()


RIGHT_EDGES = "els => els.filter(e => e.offsetParent).map(e => e.getBoundingClientRect().right)"


def test_a_phone_in_chinese(tmp_path: Path, browser: object) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    # Vectors from an embeddings server that is bound but not yet serving: until it
    # starts, the new lines wait for their vectors (keyword search serves meanwhile).
    embeddings = FakeEmbeddings()
    config = console_config(
        tmp_path,
        embedding_provider="openai",
        open_ai_api_key="sk-test-embeddings",
        open_ai_api_base=embeddings.base_url,
    )
    with running_console(config) as console, embeddings.server:
        page = browser.new_page(viewport={"width": 360, "height": 740})
        ready(page, f"{console.url}/#/notes/2026-11-29")
        page.select_option("#language-picker", "zh")
        expect(page.locator("nav a[data-tab=memory]")).to_have_text("记忆")
        expect(page.locator("#run-dream")).to_have_text("开始做梦")
        expect(page.locator("#note-dates a")).to_have_text(["11月29日"])
        expect(page.locator("#dream-state")).to_contain_text("笔记 1 篇")
        assert page.evaluate("document.documentElement.lang") == "zh"
        page.reload()  # the choice is kept
        expect(page.locator("nav a[data-tab=search]")).to_have_text("搜索")
        for view in ("chat", "memory", "dreams", "search"):
            page.click(f"nav a[data-tab={view}]")
            page.wait_for_timeout(50)
            # nothing wider than the phone: no sideways scrolling, every control in view
            assert page.evaluate("document.documentElement.scrollWidth") <= 360, view
            for selector in ("header *", "nav a", "#run-dream", "#search-button", "#chat-send"):
                for box in page.eval_on_selector_all(selector, RIGHT_EDGES):
                    assert box <= 360, (view, selector, box)
        page.fill("#search-input", "cello")
        page.press("#search-input", "Enter")
        hit = page.locator("#search-hits li.hit").first
        expect(hit).to_contain_text("cello", timeout=30000)  # the first search loads jieba
        expect(page.locator("#search-hits .badge").first).to_have_text(
            re.compile(r"^(关键词|向量|关键词 \+ 向量)$")
        )
        # the vectors are on their way: the page says so, with a spinner, until they are in
        index = page.locator("#index-state")
        expect(index).to_have_class(re.compile(r"\bworking\b"))
        expect(index).to_contain_text("正在建立索引：还有 1 段在计算向量")
        embeddings.thread.start()
        expect(index).to_have_text("索引：1 个文件，1 段", timeout=15000)
        expect(index).not_to_have_class(re.compile(r"\bworking\b"))
        embeddings.server.shutdown()
        page.close()
