"""The composition root: everything the bot needs, built and wired in one place, in order.

Each collaborator is built before the ones that use it, so nothing is late-bound: the
plugin manager (the event bus) first, then the conversations that emit into it, the dream
reporter, the dream worker, the triggers, the nightly job, the services bundle, and last
the plugins.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from bot.agent import ChatAgent
from bot.chat_language import ChatLanguages
from bot.config import BotConfig
from bot.conversations import Conversations
from bot.dream_reports import DreamReporter
from bot.dream_worker import DreamWorker
from bot.engine import Bot
from bot.nightly import NightlyJob
from bot.nightly_pass import NightlyPass
from bot.scopes import ScopeDirectory
from bot.search_pool import SearchPool
from bot.services import BotServices
from bot.trigger_watch import TriggerWatch
from channels.base import Channel
from memory.clock import system_clock
from memory.llm import ChatModel, LLMSettings, OpenAIChatModel
from plugins.manager import PluginManager

log = logging.getLogger(__name__)


def build_model(config: BotConfig) -> ChatModel | None:
    """The configured chat model, or None for the offline mode."""
    if not config.has_model:
        return None
    settings = LLMSettings(
        model=config.model,
        api_key=config.api_key(),
        base_url=config.open_ai_api_base,
        timeout=config.request_timeout,
    )
    return OpenAIChatModel(settings)


def build_bot(
    config: BotConfig,
    *,
    channel: Channel,
    clock: Callable[[], datetime] | None = None,
    nightly_poll_seconds: float = 20.0,
    trigger_poll_seconds: float = 30.0,
) -> Bot:
    """Build the bot for ``channel``; call ``start()`` before the channel runs."""
    zone = config.zone
    now: Callable[[], datetime] = clock or system_clock(zone)
    workspace = config.workspace
    workspace.mkdir(parents=True, exist_ok=True)
    model = build_model(config)
    agent = ChatAgent(model, max_steps=config.agent_max_steps) if model else None
    scopes = ScopeDirectory(workspace)
    scopes.recover_all()  # finish what a crashed dream, forget or flush left
    plugins = PluginManager(config.plugin_dir())
    languages = ChatLanguages(config.language)
    conversations = Conversations(config, scopes, plugins.emit)
    search = SearchPool(config)
    reporter = DreamReporter(config, scopes, channel.send, languages, changed=search.refresh)
    dreams = DreamWorker(model=model, clock=now, on_done=reporter)
    triggers = TriggerWatch(
        config, scopes, conversations, dreams, now, poll_seconds=trigger_poll_seconds
    )
    nightly = NightlyJob(
        run=NightlyPass(config, scopes, conversations, dreams, triggers),
        clock=now,
        zone=zone,
        at=config.nightly_time,
        spread_minutes=config.nightly_spread_minutes,
        state_path=workspace / "memory" / ".bot" / "nightly.json",
        poll_seconds=nightly_poll_seconds,
    )
    services = BotServices(
        config=config,
        scopes=scopes,
        search=search,
        conversations=conversations,
        dreams=dreams,
        nightly=nightly,
        triggers=triggers,
        model=model,
        clock=now,
        send=channel.send,
        languages=languages,
    )
    plugins.load_all(services)
    bot = Bot(services, plugins, agent)
    log.info(
        "bot ready: channel=%s model=%s workspace=%s plugins=%s",
        config.channel_type,
        config.model if model else "(offline)",
        workspace,
        ",".join(plugins.plugins) or "(none)",
    )
    return bot
