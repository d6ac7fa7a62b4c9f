"""The collaborators plugins get at construction: one typed bundle, built by the builder."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from bot.chat_language import ChatLanguages
from bot.config import BotConfig
from bot.messages import Scope
from bot.scopes import ScopeDirectory
from memory.llm import ChatModel

if TYPE_CHECKING:
    from bot.conversations import Conversations
    from bot.dream_worker import DreamWorker
    from bot.nightly import NightlyJob
    from bot.search_pool import SearchPool
    from bot.trigger_watch import TriggerWatch


@dataclass
class BotServices:
    config: BotConfig
    scopes: ScopeDirectory
    search: SearchPool
    conversations: Conversations  # sessions; flush and forget a chat's conversation
    dreams: DreamWorker
    nightly: NightlyJob
    triggers: TriggerWatch  # the idle and pressure triggers, and every decision's record
    model: ChatModel | None
    clock: Callable[[], datetime]
    send: Callable[[Scope, str], None]  # the one way to message a chat unprompted
    languages: ChatLanguages  # the language each chat is answered in
