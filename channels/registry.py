"""The one place that maps ``channel_type`` to a channel class (imported lazily)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from bot.config import BotConfig
from bot.errors import ConfigError
from channels.base import Channel

CHANNELS: dict[str, str] = {
    "terminal": "channels.terminal:TerminalChannel",
    "web": "channels.web.server:WebChannel",
    "telegram": "channels.telegram:TelegramChannel",
    "wechat": "channels.wechat:WeChatChannel",
}


def channel_class(channel_type: str) -> Callable[..., Channel]:
    target = CHANNELS.get(channel_type)
    if target is None:
        raise ConfigError(f"unknown channel_type {channel_type!r} (one of {sorted(CHANNELS)})")
    module, _, name = target.partition(":")
    try:
        cls: Callable[..., Channel] = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"channel {channel_type!r} is not available: {exc}") from exc
    return cls


def create_channel(config: BotConfig, **extra: Any) -> Channel:
    """The configured channel. Terminal takes only the language; the others ``config``."""
    cls = channel_class(config.channel_type)
    if config.channel_type == "terminal":
        return cls(language=config.language, **extra)
    return cls(config, **extra)
