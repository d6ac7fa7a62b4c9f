"""The composition root: everything the bot needs, built and wired in one place."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from bot.agent import ChatAgent
from bot.config import BotConfig
from bot.dream_worker import DreamOutcome, DreamWorker
from bot.engine import Bot
from bot.messages import Scope
from bot.nightly import NightlyJob
from bot.scopes import ScopeDirectory
from bot.search_pool import SearchPool
from bot.services import BotServices
from channels.base import Channel
from memory.clock import system_clock
from memory.llm import ChatModel, LLMSettings, OpenAIChatModel
from plugins.manager import PluginManager

log = logging.getLogger(__name__)


def build_model(config: BotConfig) -> OpenAIChatModel | None:
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
) -> Bot:
    """Build the bot for ``channel``; call ``start()`` before the channel runs."""
    zone = config.zone
    now: Callable[[], datetime] = clock or system_clock(zone)
    workspace = config.workspace
    workspace.mkdir(parents=True, exist_ok=True)
    model = build_model(config)
    chat_model: ChatModel | None = model
    agent = (
        ChatAgent(model.client, model.model, max_steps=config.agent_max_steps) if model else None
    )

    pending: list[Bot] = []  # the bot, once built: the callbacks below need it

    def dream_done(outcome: DreamOutcome) -> None:
        pending[0].dream_done(outcome)

    def nightly_run(when: datetime) -> None:
        pending[0].nightly(when)

    def flush_scope(scope: Scope, when: datetime) -> None:
        pending[0].flush_scope(scope, when)

    def forget_turns(scope: Scope, text: str, apply: bool) -> int:
        return pending[0].forget_turns(scope, text, apply=apply)

    scopes = ScopeDirectory(workspace)
    scopes.recover_all()  # finish what a crashed dream, forget or flush left
    services = BotServices(
        config=config,
        scopes=scopes,
        search=SearchPool(config),
        dreams=DreamWorker(model=chat_model, clock=now, on_done=dream_done),
        nightly=NightlyJob(
            run=nightly_run,
            clock=now,
            zone=zone,
            at=config.nightly_time,
            spread_minutes=config.nightly_spread_minutes,
            state_path=workspace / "memory" / ".bot" / "nightly.json",
            poll_seconds=nightly_poll_seconds,
        ),
        model=chat_model,
        clock=now,
        send=channel.send,
        flush_scope=flush_scope,
        forget_turns=forget_turns,
    )
    plugins = PluginManager(config.plugin_dir(), services)
    plugins.load_all()
    bot = Bot(services, plugins, agent, channel)
    pending.append(bot)
    log.info(
        "bot ready: channel=%s model=%s workspace=%s plugins=%s",
        config.channel_type,
        config.model if model else "(offline)",
        workspace,
        ",".join(plugins.plugins) or "(none)",
    )
    return bot
