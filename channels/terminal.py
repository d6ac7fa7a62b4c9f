"""The terminal channel: one message per line on standard input, replies on standard output.

The terminal user is the bot's owner. At end of input ``run`` returns; the app then
finishes pending work (dreams report here) before it exits, so it works in scripts:
``printf '/memory status\\n' | python app.py``.
"""

from __future__ import annotations

import io
import os
import sys
import threading
from collections.abc import Mapping
from typing import TextIO

from bot.i18n import FALLBACK, Languages
from bot.messages import IncomingMessage, Scope
from channels.base import BotHandler, Channel
from memory.textfile import clean_text

OWNER_SCOPE = Scope("terminal", "owner", False, "terminal")


class TerminalChannel(Channel):
    name = "terminal"

    def __init__(
        self,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        prompt: bool = False,
        greeting: bool | None = None,
        language: str = "auto",
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        for stream in (self.stdin, self.stdout):  # bytes that are not text never stop the bot
            if isinstance(stream, io.TextIOWrapper):
                stream.reconfigure(errors="replace")
        self.prompt = prompt
        # A person at a terminal is greeted; a script piping lines in gets replies only.
        self.greeting = _is_tty(self.stdin) if greeting is None else greeting
        self.language = greeting_language(language, os.environ if environ is None else environ)
        self._lock = threading.Lock()
        self._stop = threading.Event()

    def run(self, bot: BotHandler) -> None:
        if self.greeting:
            self._write(Languages().translator(self.language).t("terminal.greeting"))
        while not self._stop.is_set():
            if self.prompt:
                self._write("> ", newline=False)
            line = self.stdin.readline()
            if not line:
                return
            text = clean_text(line).strip()
            if not text:
                continue
            message = IncomingMessage(
                OWNER_SCOPE, "owner", "owner", text, time=None, message_id=None
            )
            for reply in bot.handle(message):
                self._write(reply)

    def send(self, scope: Scope, text: str) -> None:
        self._write(text)

    def _write(self, text: str, *, newline: bool = True) -> None:
        with self._lock:
            self.stdout.write(text + ("\n" if newline else ""))
            self.stdout.flush()

    def stop(self) -> None:
        self._stop.set()


def greeting_language(setting: str, environ: Mapping[str, str]) -> str:
    """The configured language, or with ``auto`` the terminal's own (``LANG=zh_CN.UTF-8``)."""
    if setting != "auto":
        return setting
    languages = Languages()
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        code = languages.supported(environ.get(name))
        if code:
            return code
    return FALLBACK


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
