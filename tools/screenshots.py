"""Screenshots of the web console for the README, taken in headless Chromium.

    python tools/screenshots.py [--out docs/screenshots] [--chromium /usr/bin/chromium]

Builds a demo workspace in a temporary folder (four days of daily notes and each evening
a ``/memory dream`` through the real bot and dream engine, without a model), serves the
real console on 127.0.0.1 and saves:

- ``console-dreams.png``: the Dreams view on a desktop, in English (the timeline);
- ``console-phone-zh.png``: the Memory view on a 360 px phone, in Chinese.

The demo's dates are fixed (late November 2026), so the pictures do not change with the
day they are taken. Needs ``playwright`` (requirements-dev.txt), Debian's ``chromium`` and
a Chinese font (``apt-get install fonts-wqy-microhei``).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import threading
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot.builder import build_bot  # noqa: E402
from bot.config import BotConfig  # noqa: E402
from bot.engine import Bot  # noqa: E402
from bot.messages import WEB_SCOPE, IncomingMessage  # noqa: E402
from channels.web.server import WebChannel  # noqa: E402

ZONE = ZoneInfo("Asia/Shanghai")
NOTES = {
    "2026-11-26": [
        "The user prefers jasmine tea in the afternoon",
        "The user lives in Hangzhou with two cats, Mochi and Tofu",
        "The user is learning to play the cello",
    ],
    "2026-11-27": [
        "The user's cello lesson is every Thursday at 7 pm",
        "用户对花生过敏，点外卖时要提醒",
        "The user prefers jasmine tea in the afternoon, no sugar",
    ],
    "2026-11-28": [
        "用户下周三要去上海出差，住在静安区",
        "The user's sister Lin visits at Christmas",
        "The user is reading The Three-Body Problem",
    ],
    "2026-11-29": [
        "The user's cello lesson moved to Friday at 6 pm",
        "The user finished The Three-Body Problem and started The Dark Forest",
        "The user asked to keep answers short",
    ],
}


class DemoClock:
    """The demo's clock: set by hand, so the pictures do not depend on today."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now


def owner_says(bot: Bot, text: str) -> None:
    bot.handle(IncomingMessage(WEB_SCOPE, "owner", "owner", text, language="en"))


def demo_memory(bot: Bot, clock: DemoClock) -> None:
    """Four days of notes, and each evening a dream through the bot, as an owner asks."""
    root = bot.services.scopes.root_for(WEB_SCOPE)
    root.notes_dir.mkdir(parents=True, exist_ok=True)
    for day, lines in NOTES.items():
        bullets = "".join(f"- {line}\n" for line in lines)
        text = f"# Daily Memory: {day}\n\n## Daily Summary (21:50)\n{bullets}"
        (root.notes_dir / f"{day}.md").write_text(text, encoding="utf-8")
        clock.now = datetime.fromisoformat(f"{day}T22:30:00").replace(tzinfo=ZONE)
        owner_says(bot, "/memory dream 2")
        if not bot.services.dreams.wait_idle(120):
            raise SystemExit(f"the dream of {day} did not finish")


def shoot(out: Path, chromium: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with tempfile.TemporaryDirectory() as scratch:
        config = BotConfig(
            channel_type="web",
            agent_workspace=str(Path(scratch) / "ws"),
            timezone="Asia/Shanghai",
            embedding_provider="none",
            dream_engine="extractive",
            memory_token_budget=300,  # small, so the timeline's budget bars show
        )
        clock = DemoClock(datetime(2026, 11, 26, 9, 0, tzinfo=ZONE))
        channel = WebChannel(config, port=0)
        bot = build_bot(config, channel=channel, clock=clock)
        bot.start()
        thread = threading.Thread(target=channel.run, args=(bot,), daemon=True)
        try:
            demo_memory(bot, clock)
            clock.now = datetime(2026, 11, 30, 9, 30, tzinfo=ZONE)
            owner_says(bot, "/memory status")
            thread.start()
            if not channel.started.wait(30):
                raise SystemExit("the console did not start")
            url = f"http://127.0.0.1:{channel.bound_port}"
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=chromium, args=["--no-sandbox", "--disable-dev-shm-usage"]
                )
                desktop = browser.new_page(viewport={"width": 1180, "height": 860})
                desktop.goto(f"{url}/#/dreams")
                desktop.wait_for_selector("#dreams-timeline svg g.dream")
                desktop.screenshot(path=str(out / "console-dreams.png"))
                phone = browser.new_page(viewport={"width": 360, "height": 760})
                phone.goto(f"{url}/#/memory")
                phone.wait_for_selector("#memory-items details.section")
                phone.select_option("#language-picker", "zh")
                # drawn again in Chinese: the status line and the sections' counts
                expect(phone.locator("#dream-state")).to_contain_text("笔记")
                expect(phone.locator("#memory-items .count").first).to_contain_text("条")
                phone.screenshot(path=str(out / "console-phone-zh.png"))
                browser.close()
        finally:
            channel.stop()
            if thread.is_alive():
                thread.join(20)
            bot.shutdown()
    print(f"saved {out / 'console-dreams.png'} and {out / 'console-phone-zh.png'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "screenshots")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    shoot(args.out, args.chromium)


if __name__ == "__main__":
    main()
