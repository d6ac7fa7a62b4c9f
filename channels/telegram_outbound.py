"""Sending text to Telegram: split at the message limit, markdown fallback, retry with back-off.

``split_message`` is pure. ``send_text`` sends the pieces in order: each piece goes out with
legacy Markdown first; if Telegram rejects the entities it is sent again as plain text;
``RetryAfter`` waits as long as Telegram asks; ``NetworkError``/``TimedOut`` back off
exponentially. After ``max_attempts`` a piece is given up with :class:`SendFailed`.
"""

from __future__ import annotations

import asyncio
import datetime as dtm
import logging
import re
import warnings
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from telegram import Bot, ReplyParameters
from telegram.constants import MessageLimit, ParseMode
from telegram.error import BadRequest, NetworkError, RetryAfter, TelegramError, TimedOut
from telegram.warnings import PTBDeprecationWarning

log = logging.getLogger(__name__)

MAX_MESSAGE_CHARS: int = MessageLimit.MAX_TEXT_LENGTH  # 4096

Sleep = Callable[[float], Awaitable[None]]


class SendFailed(Exception):
    """A message could not be delivered after every retry; the message says why."""


@dataclass(frozen=True)
class RetryPolicy:
    """How ``send_text`` retries: ``base_delay * 2**n`` seconds, capped, ``max_attempts`` tries."""

    max_attempts: int = 6
    base_delay: float = 1.0
    max_delay: float = 60.0

    def delay(self, attempt: int) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (0-based)."""
        return min(self.max_delay, self.base_delay * (2**attempt))


def split_message(text: str, limit: int = MAX_MESSAGE_CHARS) -> list[str]:
    """Split ``text`` into pieces of at most ``limit`` characters, on line boundaries.

    Lines are kept whole where they fit; a single line longer than ``limit`` is cut at the
    last space before the limit, or hard at the limit when it has no space. Empty pieces are
    dropped, so blank text gives ``[]``.
    """
    if limit < 1:
        raise ValueError(f"limit must be positive, got {limit}")
    pieces: list[str] = []
    current = ""
    for line in text.splitlines(keepends=True):
        while len(line) > limit:
            if current:
                pieces.append(current)
                current = ""
            cut = line.rfind(" ", 0, limit)  # the space stays on this piece: <= limit
            cut = cut + 1 if cut > 0 else limit
            pieces.append(line[:cut])
            line = line[cut:]
        if len(current) + len(line) > limit:
            pieces.append(current)
            current = ""
        current += line
    if current:
        pieces.append(current)
    stripped = [piece.rstrip("\n") for piece in pieces]
    return [piece for piece in stripped if piece.strip()]


_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")


def to_legacy_markdown(text: str) -> str:
    """Rewrite CommonMark ``**bold**`` (what models write) as Telegram's legacy ``*bold*``."""
    return _BOLD.sub(r"*\1*", text)


def retry_after_seconds(exc: RetryAfter) -> float:
    """The wait Telegram asked for, in seconds (int or timedelta across PTB versions)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value = exc.retry_after
    if isinstance(value, dtm.timedelta):
        return value.total_seconds()
    return float(value)


def _is_entity_error(exc: BadRequest) -> bool:
    message = exc.message.lower()
    return "can't parse entities" in message or "can't find end of" in message


async def _send_piece(
    bot: Bot,
    chat_id: int | str,
    piece: str,
    reply_to: int | None,
    policy: RetryPolicy,
    sleep: Sleep,
) -> None:
    markdown: str | None = to_legacy_markdown(piece)
    reply = (
        ReplyParameters(message_id=reply_to, allow_sending_without_reply=True)
        if reply_to is not None
        else None
    )
    last_error: Exception | None = None
    for attempt in range(policy.max_attempts):
        try:
            if markdown is not None:
                await bot.send_message(
                    chat_id, markdown, parse_mode=ParseMode.MARKDOWN, reply_parameters=reply
                )
            else:
                await bot.send_message(chat_id, piece, reply_parameters=reply)
            return
        except RetryAfter as exc:
            wait = retry_after_seconds(exc)
            log.warning("Telegram rate limit for chat %s: waiting %.1f s", chat_id, wait)
            last_error = exc
            await sleep(wait)
        except BadRequest as exc:
            if markdown is None or not _is_entity_error(exc):
                raise SendFailed(f"Telegram refused the message: {exc.message}") from exc
            log.info("Telegram rejected the markdown (%s); sending plain text", exc.message)
            markdown = None
        except (NetworkError, TimedOut) as exc:  # TimedOut is a NetworkError; named for clarity
            wait = policy.delay(attempt)
            log.warning("Telegram send failed (%s); retrying in %.1f s", exc, wait)
            last_error = exc
            await sleep(wait)
        except TelegramError as exc:  # Forbidden (blocked by the user), ChatMigrated, ...
            raise SendFailed(f"Telegram refused the message: {exc.message}") from exc
    raise SendFailed(
        f"gave up sending to chat {chat_id} after {policy.max_attempts} attempts: {last_error}"
    )


async def send_text(
    bot: Bot,
    chat_id: int | str,
    text: str,
    *,
    reply_to: int | None = None,
    policy: RetryPolicy | None = None,
    sleep: Sleep = asyncio.sleep,
) -> int:
    """Send ``text`` to ``chat_id`` in as many messages as needed; return how many were sent.

    The first piece replies to ``reply_to`` when given. Raises :class:`SendFailed` when a
    piece cannot be delivered; pieces already sent stay sent.
    """
    pieces = split_message(text)
    for index, piece in enumerate(pieces):
        await _send_piece(
            bot,
            chat_id,
            piece,
            reply_to if index == 0 else None,
            policy or RetryPolicy(),
            sleep,
        )
    return len(pieces)
