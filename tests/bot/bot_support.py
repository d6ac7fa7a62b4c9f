"""Helpers for the bot suite: a test clock, a recording channel, message builders."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from bot.config import BotConfig
from bot.engine import Bot
from bot.messages import IncomingMessage, Scope
from channels.base import BotHandler, Channel

ZONE = ZoneInfo("Asia/Shanghai")
REPO = Path(__file__).resolve().parents[2]


def run_app(
    tmp_path: Path, stdin: str, *, env: dict[str, str] | None = None, **config: object
) -> subprocess.CompletedProcess[str]:
    """``app.py`` on the terminal channel, with ``stdin`` typed in and ``config`` over a
    workspace in ``tmp_path/ws`` (``env`` adds to the environment, e.g. the clock shift)."""
    data = {"agent_workspace": str(tmp_path / "ws"), "embedding_provider": "none", **config}
    path = tmp_path / "config.json"
    path.write_text(json.dumps(data))
    return subprocess.run(
        [sys.executable, str(REPO / "app.py"), "--config", str(path)],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


class RecordingChannel(Channel):
    """A channel whose unprompted sends are recorded (dream reports)."""

    name = "recording"

    def __init__(self) -> None:
        self.sent: list[tuple[Scope, str]] = []
        self.arrived = threading.Condition()

    def run(self, bot: BotHandler) -> None:
        return None

    def send(self, scope: Scope, text: str) -> None:
        with self.arrived:
            self.sent.append((scope, text))
            self.arrived.notify_all()

    def wait_for(self, count: int, timeout: float = 30) -> list[tuple[Scope, str]]:
        with self.arrived:
            assert self.arrived.wait_for(lambda: len(self.sent) >= count, timeout), self.sent
            return list(self.sent)


def base_config(tmp_path: Path, **overrides: Any) -> BotConfig:
    values: dict[str, Any] = {
        "agent_workspace": str(tmp_path / "ws"),
        "timezone": "Asia/Shanghai",
        "embedding_provider": "none",
        "dream_engine": "extractive",
    }
    values.update(overrides)
    return BotConfig(**values)


BotFactory = Callable[..., tuple[Bot, RecordingChannel]]


def private(platform: str, user: str, text: str, name: str = "") -> IncomingMessage:
    return IncomingMessage(Scope(platform, user, False, name), user, name or user, text)


def group(
    platform: str,
    chat: str,
    user: str,
    text: str,
    *,
    addressed: bool = True,
    chat_admin: bool = False,
    name: str = "",
) -> IncomingMessage:
    return IncomingMessage(
        Scope(platform, chat, True, f"group {chat}"),
        user,
        name or user,
        text,
        addressed=addressed,
        sender_is_chat_admin=chat_admin,
    )


def owner(text: str) -> IncomingMessage:
    return IncomingMessage(Scope("terminal", "owner", False, "terminal"), "owner", "owner", text)


def all_text(folder: Path) -> str:
    """Every file's text under ``folder`` (for leak checks)."""
    out = []
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            try:
                out.append(path.read_text(encoding="utf-8"))
            except UnicodeDecodeError:
                out.append(path.read_bytes().decode("latin-1"))
    return "\n".join(out)


def request_text(request: dict[str, Any]) -> str:
    return json.dumps(request, ensure_ascii=False)
