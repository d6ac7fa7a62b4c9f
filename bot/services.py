"""The collaborators plugins get at construction: one typed bundle, built by the builder."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from bot.config import BotConfig
from bot.messages import Scope
from bot.scopes import ScopeDirectory
from memory.llm import ChatModel

if TYPE_CHECKING:
    from bot.dream_worker import DreamWorker
    from bot.nightly import NightlyJob
    from bot.search_pool import SearchPool


@dataclass
class BotServices:
    config: BotConfig
    scopes: ScopeDirectory
    search: SearchPool
    dreams: DreamWorker
    nightly: NightlyJob
    model: ChatModel | None
    clock: Callable[[], datetime]
    send: Callable[[Scope, str], None]
    # Write what no daily note holds yet of a scope's conversation (before a dream).
    flush_scope: Callable[[Scope, datetime], None]
    # Count, or remove, the conversation turns of a scope that mention a text (forget).
    forget_turns: Callable[[Scope, str, bool], int]
