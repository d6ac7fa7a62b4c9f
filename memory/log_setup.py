"""Logging for the bot and the CLI: one stderr handler whose output never holds a secret.

Libraries log URLs and headers (httpx and httpcore every request, python-telegram-bot its
``/bot<token>/`` endpoints, openai its requests, urllib3, uvicorn). Rather than trust each
of them, the one handler's formatter scrubs the whole formatted record, traceback
included: the configured secrets verbatim, and anything :func:`memory.redact.redact`
recognises (keys, bearer tokens, URL credentials), plus Telegram's ``/bot<token>`` form.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterable
from typing import TextIO

from memory.redact import MASK, redact

# The token inside a Bot API URL (".../bot123:ABC/getUpdates"): redact()'s token pattern
# wants a word boundary before the digits, which "bot123" does not have.
_BOT_URL_TOKEN = re.compile(r"(?<=/bot)\d+:[A-Za-z0-9_\-]+")

# Libraries that log every request URL at INFO: quiet unless the user asks for DEBUG.
# faiss's loader logs a ModuleNotFoundError at INFO when the CPU lacks AVX512: not news.
CHATTY = (
    "httpx",
    "httpcore",
    "urllib3",
    "openai",
    "telegram",
    "apscheduler",
    "uvicorn",
    "faiss",
)

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def scrub(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with each of ``secrets`` and every recognised secret masked."""
    for secret in sorted({s for s in secrets if s}, key=len, reverse=True):
        text = text.replace(secret, MASK)
    return redact(_BOT_URL_TOKEN.sub(MASK, text))


class ScrubbingFormatter(logging.Formatter):
    """A formatter whose every line (message, arguments, traceback) is scrubbed."""

    def __init__(self, fmt: str, secrets: Iterable[str]) -> None:
        super().__init__(fmt)
        self.secrets = tuple(s for s in secrets if s)

    def format(self, record: logging.LogRecord) -> str:
        return scrub(super().format(record), self.secrets)


def configure_logging(
    level: int | str,
    secrets: Iterable[str] = (),
    *,
    fmt: str = FORMAT,
    stream: TextIO | None = None,
) -> logging.Handler:
    """Route every logger to one scrubbing stderr handler at ``level``; return it."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(ScrubbingFormatter(fmt, secrets))
    root = logging.getLogger()
    for old in list(root.handlers):  # ours from an earlier call; others' stay
        if isinstance(old.formatter, ScrubbingFormatter):
            root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    numeric = logging.getLevelName(level) if isinstance(level, str) else level
    quiet = isinstance(numeric, int) and numeric > logging.DEBUG
    for name in CHATTY:
        logger = logging.getLogger(name)
        logger.setLevel(logging.WARNING if quiet else logging.NOTSET)
        for own in list(logger.handlers):  # e.g. uvicorn's: everything goes through ours
            logger.removeHandler(own)
        logger.propagate = True
    return handler
