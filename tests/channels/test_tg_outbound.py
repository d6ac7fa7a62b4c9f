"""Splitting, markdown fallback and retries of Telegram replies, against the fake Bot API."""

from __future__ import annotations

import asyncio

import pytest
from telegram import Bot

from channels.telegram_outbound import (
    RetryPolicy,
    SendFailed,
    send_text,
    split_message,
    to_legacy_markdown,
)
from tests.fakes.telegram_server import FakeTelegramServer, Fault


def test_short_text_is_one_piece() -> None:
    assert split_message("hello\nworld") == ["hello\nworld"]


def test_blank_text_gives_no_piece() -> None:
    assert split_message(" \n\n ") == []


def test_split_keeps_lines_whole_and_under_the_limit() -> None:
    lines = [f"line {i:03d} " + "x" * 40 for i in range(300)]
    pieces = split_message("\n".join(lines), limit=4096)
    assert all(len(p) <= 4096 for p in pieces)
    assert len(pieces) == 4
    assert "\n".join(pieces).split("\n") == lines  # nothing lost, no line cut


def test_a_line_longer_than_the_limit_is_cut_at_a_space() -> None:
    pieces = split_message("aaaa bbbb cccc", limit=10)
    assert pieces == ["aaaa bbbb ", "cccc"]


def test_a_line_without_spaces_is_cut_hard() -> None:
    assert split_message("x" * 25, limit=10) == ["x" * 10, "x" * 10, "x" * 5]


def test_bad_limit_is_refused() -> None:
    with pytest.raises(ValueError, match="limit must be positive"):
        split_message("x", limit=0)


def test_commonmark_bold_becomes_legacy_bold() -> None:
    assert to_legacy_markdown("a **b c** d") == "a *b c* d"
    assert to_legacy_markdown("2 ** 3") == "2 ** 3"


class Sleeps:
    def __init__(self) -> None:
        self.calls: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


def send(server: FakeTelegramServer, text: str, **kwargs: object) -> int:
    async def go() -> int:
        async with Bot(server.token, base_url=server.base_url) as bot:
            return await send_text(bot, 42, text, **kwargs)  # type: ignore[arg-type]

    return asyncio.run(go())


def test_markdown_goes_out_as_markdown(telegram_server: FakeTelegramServer) -> None:
    assert send(telegram_server, "**done**: 3 items") == 1
    [sent] = telegram_server.sent
    assert (sent.text, sent.parse_mode) == ("*done*: 3 items", "Markdown")


def test_rejected_markdown_is_sent_as_plain_text(telegram_server: FakeTelegramServer) -> None:
    send(telegram_server, "see my_file_name.py and *this")
    [sent] = telegram_server.sent
    assert (sent.text, sent.parse_mode) == ("see my_file_name.py and *this", None)


def test_long_reply_is_sent_in_order_in_pieces(telegram_server: FakeTelegramServer) -> None:
    text = "\n".join(f"{i:04d} " + "y" * 95 for i in range(100))  # 10,099 characters
    assert send(telegram_server, text, reply_to=7) == 3
    sent = telegram_server.sent
    assert [len(s.text) <= 4096 for s in sent] == [True] * 3
    assert "\n".join(s.text for s in sent) == text
    assert [s.reply_to_message_id for s in sent] == [7, None, None]


def test_rate_limit_waits_as_long_as_telegram_asks(telegram_server: FakeTelegramServer) -> None:
    telegram_server.fail_next("sendMessage", Fault(429, "Too Many Requests", retry_after=3), 2)
    sleeps = Sleeps()
    send(telegram_server, "hi", sleep=sleeps)
    assert sleeps.calls == [3.0, 3.0]
    assert [s.text for s in telegram_server.sent] == ["hi"]


def test_network_errors_back_off_exponentially(telegram_server: FakeTelegramServer) -> None:
    telegram_server.fail_next("sendMessage", Fault(502, "Bad Gateway"), 3)
    sleeps = Sleeps()
    send(telegram_server, "hi", sleep=sleeps, policy=RetryPolicy(base_delay=0.5))
    assert sleeps.calls == [0.5, 1.0, 2.0]
    assert [s.text for s in telegram_server.sent] == ["hi"]


def test_gives_up_after_max_attempts(telegram_server: FakeTelegramServer) -> None:
    telegram_server.fail_next("sendMessage", Fault(502, "Bad Gateway"), 10)
    sleeps = Sleeps()
    with pytest.raises(SendFailed, match="after 3 attempts"):
        send(telegram_server, "hi", sleep=sleeps, policy=RetryPolicy(max_attempts=3))
    assert telegram_server.sent == []
    assert telegram_server.calls.count("sendMessage") == 3


def test_a_blocked_bot_is_reported_not_retried(telegram_server: FakeTelegramServer) -> None:
    telegram_server.fail_next("sendMessage", Fault(403, "Forbidden: bot was blocked by the user"))
    with pytest.raises(SendFailed, match="blocked by the user"):
        send(telegram_server, "hi", sleep=Sleeps())
    assert telegram_server.calls.count("sendMessage") == 1


def test_a_cut_at_a_space_right_after_the_limit_stays_within_it() -> None:
    from channels.telegram_outbound import split_message

    for text in ("a" * 4096 + " b", "a" * 4095 + "  b", "x " * 3000):
        assert all(len(piece) <= 4096 for piece in split_message(text))
