"""The Telegram channel end to end against the fake Bot API server, with a recording bot."""

from __future__ import annotations

import logging
import threading
import time

import pytest
from pydantic import SecretStr
from tg_support import RecordingBot, running_channel, telegram_config

from bot.config import BotConfig
from bot.errors import ConfigError
from bot.messages import Scope
from channels.telegram import ChannelNotRunning, TelegramChannel, TelegramStartError
from tests.fakes.telegram_server import BOT_ID, BOT_USERNAME, FakeTelegramServer, Fault

GROUP = -100200
ALICE, BOB = 11, 22


def mention(text: str, name: str = f"@{BOT_USERNAME}") -> dict[str, object]:
    return {"type": "mention", "offset": text.index(name), "length": len(name)}


def command(text: str) -> dict[str, object]:
    return {"type": "bot_command", "offset": 0, "length": len(text.split()[0])}


def test_private_message_is_answered(telegram_server: FakeTelegramServer) -> None:
    bot = RecordingBot()
    with running_channel(telegram_server, bot):
        telegram_server.push_message(
            chat_id=ALICE, user_id=ALICE, text="hello there", first_name="Alice", last_name="Li"
        )
        [sent] = telegram_server.wait_for_sent(1)
    [msg] = bot.messages
    assert msg.scope == Scope("telegram", str(ALICE), is_group=False)
    assert msg.scope.key == f"telegram:user:{ALICE}"
    assert msg.scope.title == "Alice Li"
    assert (msg.sender_id, msg.sender_name, msg.text) == (str(ALICE), "Alice Li", "hello there")
    assert msg.addressed and not msg.sender_is_chat_admin
    assert msg.time is not None and msg.message_id is not None
    assert (sent.chat_id, sent.text, sent.reply_to_message_id) == (ALICE, "echo: hello there", None)


def test_group_addressing_rules(telegram_server: FakeTelegramServer) -> None:
    bot = RecordingBot()
    group = {"chat_id": GROUP, "chat_type": "supergroup", "chat_title": "Hikers"}
    texts = [
        "nice weather today",  # remembered only
        f"@{BOT_USERNAME} what is the plan?",  # mention
        "bot, remind me of the route",  # prefix
        "sounds good",  # reply to the bot
        "/memory status",  # command without suffix
        f"/memory@{BOT_USERNAME} search route",  # command for us
        "/start@other_bot",  # command for another bot: ignored
    ]
    with running_channel(telegram_server, bot):
        for text in texts:
            entities = []
            if text.startswith(f"@{BOT_USERNAME}"):
                entities = [mention(text)]
            elif text.startswith("/"):
                entities = [command(text)]
            telegram_server.push_message(
                user_id=BOB,
                first_name="Bob",
                text=text,
                entities=entities,
                reply_to_bot=text == "sounds good",
                **group,  # type: ignore[arg-type]
            )
        telegram_server.wait_for_sent(5)
        telegram_server.wait_until_consumed()
        time.sleep(0.2)
    seen = [(m.text, m.addressed) for m in bot.messages]
    assert seen == [
        ("nice weather today", False),
        ("what is the plan?", True),
        ("remind me of the route", True),
        ("sounds good", True),
        ("/memory status", True),
        ("/memory search route", True),
    ]
    assert {m.scope for m in bot.messages} == {Scope("telegram", str(GROUP), is_group=True)}
    assert bot.messages[0].scope.title == "Hikers"
    assert all(m.sender_name == "Bob" for m in bot.messages)
    sent = telegram_server.sent
    assert [s.text for s in sent] == [f"echo: {t}" for t, a in seen if a]
    assert all(s.chat_id == GROUP and s.reply_to_message_id is not None for s in sent)


def test_group_admin_status_comes_from_telegram(telegram_server: FakeTelegramServer) -> None:
    telegram_server.creators[GROUP] = ALICE
    telegram_server.admins[GROUP] = {BOB}
    bot = RecordingBot()
    carol = 33
    with running_channel(telegram_server, bot):
        for user in (ALICE, BOB, carol, carol):
            telegram_server.push_message(
                chat_id=GROUP,
                chat_type="group",
                user_id=user,
                text="/memory dream 3",
                entities=[command("/memory dream 3")],
            )
        telegram_server.wait_for_sent(4)
    assert [m.sender_is_chat_admin for m in bot.messages] == [True, True, False, False]
    assert telegram_server.calls.count("getChatAdministrators") == 1  # cached per group


def test_unaddressed_group_messages_do_not_ask_for_admins(
    telegram_server: FakeTelegramServer,
) -> None:
    bot = RecordingBot()
    with running_channel(telegram_server, bot):
        telegram_server.push_message(chat_id=GROUP, chat_type="group", user_id=BOB, text="hi all")
        bot.wait_for(1)
    assert "getChatAdministrators" not in telegram_server.calls
    assert telegram_server.sent == []


def test_long_reply_is_split_at_the_telegram_limit(telegram_server: FakeTelegramServer) -> None:
    reply = "\n".join(f"point {i}: " + "z" * 80 for i in range(120))
    bot = RecordingBot(answer=lambda m: [reply])
    with running_channel(telegram_server, bot):
        telegram_server.push_message(chat_id=ALICE, user_id=ALICE, text="tell me everything")
        sent = telegram_server.wait_for_sent(3)
    assert all(len(s.text) <= 4096 for s in sent)
    assert "\n".join(s.text for s in sent) == reply


def test_rate_limit_and_network_errors_do_not_lose_the_reply(
    telegram_server: FakeTelegramServer,
) -> None:
    telegram_server.fail_next("sendMessage", Fault(429, "Too Many Requests", retry_after=1))
    telegram_server.fail_next("sendMessage", Fault(502, "Bad Gateway"))
    bot = RecordingBot()
    with running_channel(telegram_server, bot):
        telegram_server.push_message(chat_id=ALICE, user_id=ALICE, text="still there?")
        [sent] = telegram_server.wait_for_sent(1)
    assert sent.text == "echo: still there?"
    assert telegram_server.calls.count("sendMessage") == 3


def test_a_failing_bot_gets_one_friendly_line_and_the_channel_lives_on(
    telegram_server: FakeTelegramServer,
) -> None:
    def answer(message: object) -> list[str]:
        if getattr(message, "text", "") == "boom":
            raise RuntimeError("model exploded")
        return ["fine"]

    bot = RecordingBot(answer=answer)
    with running_channel(telegram_server, bot):
        telegram_server.push_message(chat_id=ALICE, user_id=ALICE, text="boom")
        telegram_server.push_message(chat_id=ALICE, user_id=ALICE, text="and now?")
        sent = telegram_server.wait_for_sent(2)
    assert sent[0].text.startswith("Sorry, something went wrong")
    assert "exploded" not in sent[0].text
    assert sent[1].text == "fine"


def test_start_up_retries_until_telegram_answers(telegram_server: FakeTelegramServer) -> None:
    telegram_server.fail_next("getMe", Fault(502, "Bad Gateway"), 2)
    bot = RecordingBot()
    with running_channel(telegram_server, bot):
        telegram_server.push_message(chat_id=ALICE, user_id=ALICE, text="hi")
        telegram_server.wait_for_sent(1)
    assert telegram_server.calls[:3] == ["getMe", "getMe", "getMe"]


def test_a_rejected_token_stops_with_a_clear_error(telegram_server: FakeTelegramServer) -> None:
    config = telegram_config(telegram_server, telegram_token="999:WRONG")
    with pytest.raises(TelegramStartError, match="rejected telegram_token") as info:
        TelegramChannel(config).run(RecordingBot())
    assert "WRONG" not in str(info.value)


def test_an_empty_token_is_refused_at_construction() -> None:
    config = BotConfig(channel_type="telegram", telegram_token=SecretStr(" "))
    with pytest.raises(TelegramStartError, match="telegram_token is empty"):
        TelegramChannel(config)


def test_send_from_another_thread(telegram_server: FakeTelegramServer) -> None:
    bot = RecordingBot()
    with running_channel(telegram_server, bot) as channel:
        telegram_server.push_message(chat_id=ALICE, user_id=ALICE, text="hi")
        telegram_server.wait_for_sent(1)
        worker = threading.Thread(
            target=channel.send, args=(Scope("telegram", str(GROUP), True), "dream finished")
        )
        worker.start()
        worker.join(timeout=10)
        sent = telegram_server.wait_for_sent(2)
    assert (sent[1].chat_id, sent[1].text) == (GROUP, "dream finished")


def test_send_when_not_running_is_a_clear_error(telegram_server: FakeTelegramServer) -> None:
    config = telegram_config(telegram_server)
    with pytest.raises(ChannelNotRunning, match="not running"):
        TelegramChannel(config).send(Scope("telegram", "1"), "hi")


def test_the_bot_user_is_known(telegram_server: FakeTelegramServer) -> None:
    bot = RecordingBot()
    with running_channel(telegram_server, bot):
        telegram_server.push_message(
            chat_id=GROUP,
            chat_type="group",
            user_id=BOB,
            text="thanks CowDream",
            entities=[
                {
                    "type": "text_mention",
                    "offset": 7,
                    "length": 8,
                    "user": {"id": BOT_ID, "is_bot": True, "first_name": "CowDream"},
                }
            ],
        )
        telegram_server.wait_for_sent(1)
    assert [(m.text, m.addressed) for m in bot.messages] == [("thanks", True)]


def test_a_socks_proxy_without_its_extra_is_a_config_error() -> None:
    config = BotConfig(
        channel_type="telegram",
        telegram_token=SecretStr("1:abc"),
        telegram_proxy="socks5://user:hunter2@127.0.0.1:1080",
    )
    with pytest.raises(ConfigError, match="telegram_proxy cannot be used") as info:
        TelegramChannel(config)
    assert "hunter2" not in str(info.value)


def test_privacy_mode_is_reported_at_start(
    telegram_server: FakeTelegramServer, caplog: pytest.LogCaptureFixture
) -> None:
    telegram_server.privacy_mode = True
    with (
        caplog.at_level(logging.WARNING, logger="channels.telegram"),
        running_channel(telegram_server, RecordingBot()),
    ):
        telegram_server.push_message(chat_id=ALICE, user_id=ALICE, text="hi")
        telegram_server.wait_for_sent(1)
    assert any("privacy mode on" in r.getMessage() for r in caplog.records)
