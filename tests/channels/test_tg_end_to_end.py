"""Telegram end to end: the fake Bot API server, the real channel and the real bot (offline).

No model is configured, so the bot answers with its offline reply and keeps everything it is
told; the nightly flush is called through the bot's API to write the daily notes.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from pydantic import SecretStr

from bot.builder import build_bot
from bot.config import BotConfig
from bot.engine import Bot
from channels.telegram import TelegramChannel
from channels.telegram_outbound import RetryPolicy
from memory import clock
from tests.fakes.telegram_server import BOT_USERNAME, FakeTelegramServer

ZONE = ZoneInfo("Asia/Shanghai")
GROUP, ALICE, BOB = -100777, 11, 22


@pytest.fixture
def live(tmp_path: Path, telegram_server: FakeTelegramServer) -> Iterator[tuple[Bot, Path]]:
    config = BotConfig(
        channel_type="telegram",
        telegram_token=SecretStr(telegram_server.token),
        telegram_api_base=telegram_server.base_url,
        agent_workspace=str(tmp_path / "ws"),
        timezone="Asia/Shanghai",
        embedding_provider="none",
        dream_engine="extractive",
        dreaming_enabled=False,  # no nightly dream: the admin's /memory dream has material
        group_chat_prefix=["bot,"],
    )
    channel = TelegramChannel(
        config, poll_timeout=1, retry=RetryPolicy(max_attempts=3, base_delay=0.01)
    )
    bot = build_bot(config, channel=channel)
    bot.services.dreams.start()
    thread = threading.Thread(target=channel.run, args=(bot,), daemon=True)
    thread.start()
    try:
        yield bot, config.workspace
    finally:
        channel.stop()
        thread.join(timeout=15)
        bot.shutdown()
    assert not thread.is_alive()


def note_of(folder: Path) -> str:
    notes = sorted((folder / "memory").glob("????-??-??.md"))
    assert len(notes) == 1, notes
    today = clock.now(ZONE).date().isoformat()
    assert notes[0].stem <= today
    return notes[0].read_text(encoding="utf-8")


def test_private_and_group_chats_end_to_end(
    live: tuple[Bot, Path], telegram_server: FakeTelegramServer
) -> None:
    bot, workspace = live
    telegram_server.creators[GROUP] = ALICE
    server = telegram_server

    # a private conversation
    server.push_message(
        chat_id=ALICE, user_id=ALICE, first_name="Alice", text="我下周三要去上海出差，住在静安区"
    )
    [reply] = server.wait_for_sent(1)
    # Alice writes Chinese, so the bot's own words are Chinese
    assert reply.chat_id == ALICE and "你的消息我已经记下了" in reply.text

    # a group: one remark for everyone, then a mention
    group = {"chat_id": GROUP, "chat_type": "supergroup", "chat_title": "Hikers"}
    server.push_message(user_id=BOB, first_name="Bob", text="I'm allergic to walnuts", **group)  # type: ignore[arg-type]
    mention = f"@{BOT_USERNAME} who brings what?"
    server.push_message(
        user_id=BOB,
        first_name="Bob",
        text=mention,
        entities=[{"type": "mention", "offset": 0, "length": len(BOT_USERNAME) + 1}],
        **group,  # type: ignore[arg-type]
    )
    sent = server.wait_for_sent(2)
    assert sent[1].chat_id == GROUP  # the mention was answered ...
    server.wait_until_consumed()
    assert len(server.sent) == 2  # ... the remark was not

    # the nightly flush (through the bot's API) writes each scope's daily note
    bot.services.nightly.run(clock.now(ZONE))
    private_note = note_of(workspace / "scopes" / "telegram" / f"user-{ALICE}")
    group_note = note_of(workspace / "scopes" / "telegram" / f"group-{GROUP}")
    assert "上海" in private_note and "walnuts" not in private_note
    assert "- Bob: I'm allergic to walnuts" in group_note
    assert "上海" not in group_note

    # /memory dream 3 in the group: refused for a member, run for the group's creator
    command = "/memory dream 3"
    entity = [{"type": "bot_command", "offset": 0, "length": len("/memory")}]
    server.push_message(user_id=BOB, first_name="Bob", text=command, entities=entity, **group)  # type: ignore[arg-type]
    refused = server.wait_for_sent(3)[2]
    assert refused.text == "Sorry, only this chat's admins can change its memory."
    server.push_message(user_id=ALICE, first_name="Alice", text=command, entities=entity, **group)  # type: ignore[arg-type]
    started, report = server.wait_for_sent(5)[3:5]
    assert started.text.startswith("Dream started over the last 3 days")
    assert report.chat_id == GROUP and report.text.startswith("Dream done")
    memory = (workspace / "scopes" / "telegram" / f"group-{GROUP}" / "MEMORY.md").read_text()
    assert "walnuts" in memory  # a member's fact; "I will bring the cake" is the chat's own

    # the scope map is visible to members
    server.push_message(
        user_id=BOB,
        first_name="Bob",
        text="/memory status",
        entities=[{"type": "bot_command", "offset": 0, "length": 7}],
        **group,  # type: ignore[arg-type]
    )
    status = server.wait_for_sent(6)[5]
    assert f"telegram:group:{GROUP}" in status.text
