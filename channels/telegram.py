"""The Telegram channel: python-telegram-bot's ``Application`` with long polling.

Every text message (commands included) in a private chat or a group the bot is in becomes
an :class:`IncomingMessage` (see :mod:`channels.telegram_inbound` for the addressing rules).
The bot engine runs in a worker thread (``asyncio.to_thread``) so a slow model call does not
block the event loop; updates are handled one at a time, in order. Replies are split and
retried by :mod:`channels.telegram_outbound`. Transient failures never end :meth:`run`: the
start-up retries with back-off until Telegram answers, polling errors are retried by
python-telegram-bot's own back-off loop, and a reply that cannot be delivered is logged.
Only a rejected token ends :meth:`run`, with :class:`TelegramStartError`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import threading
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from telegram import Update
from telegram.error import InvalidToken, TelegramError
from telegram.ext import Application, ApplicationBuilder, ContextTypes, MessageHandler, filters

from bot.chat_language import ChatLanguages
from bot.config import BotConfig
from bot.errors import ConfigError
from bot.messages import IncomingMessage, Scope
from channels.base import BotHandler, Channel, handle_safely
from channels.telegram_admins import ChatAdminCache
from channels.telegram_inbound import BotIdentity, to_incoming
from channels.telegram_outbound import RetryPolicy, SendFailed, send_text

log = logging.getLogger(__name__)


class TelegramStartError(ConfigError):
    """The channel cannot start: an empty or rejected token, or an unusable proxy setting."""


class ChannelNotRunning(RuntimeError):
    """:meth:`TelegramChannel.send` was called while the channel is not connected."""


class TelegramChannel(Channel):
    """Long-polling Telegram adapter; one instance serves every chat of one bot token."""

    name = "telegram"

    def __init__(
        self,
        config: BotConfig,
        *,
        poll_timeout: int = 30,
        retry: RetryPolicy | None = None,
        admin_ttl: float = 600.0,
    ) -> None:
        token = config.telegram_token.get_secret_value().strip() if config.telegram_token else ""
        if not token:
            raise TelegramStartError("telegram_token is empty: set it to the token from @BotFather")
        self._token = token
        self._proxy = config.telegram_proxy or None
        self._api_base = config.telegram_api_base
        self._prefixes = list(config.group_chat_prefix)
        self._poll_timeout = poll_timeout
        self._retry = retry or RetryPolicy()
        self._admin_ttl = admin_ttl
        self._application = self._build_application()  # fails fast on a bad proxy
        self._connected: Application | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._stop_requested = threading.Event()
        self._me: BotIdentity | None = None
        self._admins: ChatAdminCache | None = None
        self._languages = ChatLanguages(config.language)  # for the apology on a failure

    # --- Channel -------------------------------------------------------------------------

    def run(self, bot: BotHandler) -> None:
        """Poll Telegram and answer through ``bot`` until :meth:`stop`."""
        asyncio.run(self._main(bot))

    def stop(self) -> None:
        """Ask :meth:`run` to finish; safe from any thread, before or during :meth:`run`."""
        self._stop_requested.set()
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None and not loop.is_closed():
            loop.call_soon_threadsafe(stopping.set)

    def send(self, scope: Scope, text: str) -> None:
        """Send ``text`` to the chat of ``scope``; blocks until sent unless called on the loop."""
        if scope.platform != self.name:
            raise ValueError(f"scope {scope.key} is not a Telegram chat")
        loop, app = self._loop, self._connected
        if loop is None or app is None or loop.is_closed():
            raise ChannelNotRunning("the Telegram channel is not running")
        coro = send_text(app.bot, int(scope.chat_id), text, policy=self._retry)
        if self._on_loop_thread(loop):
            loop.create_task(self._deliver_logged(coro))
            return
        asyncio.run_coroutine_threadsafe(coro, loop).result()

    # --- life cycle ----------------------------------------------------------------------

    def _build_application(self) -> Application:
        builder = ApplicationBuilder().token(self._token).base_url(self._api_base)
        if self._proxy:
            builder = builder.proxy(self._proxy).get_updates_proxy(self._proxy)
        try:
            return builder.build()
        except RuntimeError as exc:  # e.g. a socks5:// proxy without httpx[socks] installed
            raise TelegramStartError(f"telegram_proxy cannot be used: {exc}") from exc

    async def _main(self, bot: BotHandler) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        if self._stop_requested.is_set():
            return
        app = self._application
        app.add_handler(
            MessageHandler(filters.UpdateType.MESSAGE & filters.TEXT, self._make_handler(bot))
        )
        app.add_error_handler(self._on_error)
        try:
            if not await self._connect(app):
                return
            self._connected = app
            await app.start()
            assert app.updater is not None
            await app.updater.start_polling(
                timeout=self._poll_timeout,
                allowed_updates=[Update.MESSAGE],
                bootstrap_retries=-1,
                error_callback=self._on_polling_error,
            )
            log.info("Telegram channel polling as @%s", self._me.username if self._me else "?")
            await self._stopping.wait()
        finally:
            await self._shutdown(app)

    async def _connect(self, app: Application) -> bool:
        """``initialize`` (calls getMe) with back-off; False when stopped before it worked."""
        attempt = 0
        while not self._stop_requested.is_set():
            try:
                await app.initialize()
            except InvalidToken:  # its message quotes the token: keep it out of logs
                raise TelegramStartError(
                    "Telegram rejected telegram_token: check the token from @BotFather and "
                    f"telegram_api_base ({self._api_base})"
                ) from None
            except TelegramError as exc:  # NetworkError, TimedOut, RetryAfter, ...
                wait = self._retry.delay(attempt)
                log.warning("cannot reach Telegram (%s); retrying in %.0f s", exc, wait)
                attempt += 1
                assert self._stopping is not None
                try:
                    await asyncio.wait_for(self._stopping.wait(), timeout=wait)
                except TimeoutError:
                    continue
                return False
            else:
                self._me = BotIdentity(id=app.bot.id, username=app.bot.username)
                if not app.bot.can_read_all_group_messages:
                    log.warning(
                        "@%s has privacy mode on: in groups it only sees commands, mentions and "
                        "replies, so group memory misses the rest; turn it off in @BotFather "
                        "(/setprivacy -> Disable) and re-add the bot to its groups",
                        app.bot.username,
                    )
                self._admins = ChatAdminCache(app.bot, ttl=self._admin_ttl)
                return True
        return False

    async def _shutdown(self, app: Application) -> None:
        self._connected = None
        if app.updater is not None and app.updater.running:
            await app.updater.stop()
        if app.running:
            await app.stop()
        await app.shutdown()

    # --- messages ------------------------------------------------------------------------

    def _make_handler(
        self, bot: BotHandler
    ) -> Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]:
        async def on_message(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            message = update.message
            if message is None or self._me is None:
                return
            incoming = to_incoming(message, self._me, self._prefixes)
            if incoming is None:
                return
            incoming = await self._with_admin_status(incoming)
            replies = await asyncio.to_thread(handle_safely, bot, incoming, self._languages)
            reply_to = message.message_id if incoming.scope.is_group else None
            for reply in replies:
                await self._deliver_logged(
                    send_text(
                        context.bot, message.chat.id, reply, reply_to=reply_to, policy=self._retry
                    )
                )
                reply_to = None

        return on_message

    async def _with_admin_status(self, incoming: IncomingMessage) -> IncomingMessage:
        """Ask Telegram whether the sender administers the group (addressed messages only)."""
        if not (incoming.scope.is_group and incoming.addressed) or incoming.sender_is_chat_admin:
            return incoming
        if self._admins is None:
            return incoming
        admin = await self._admins.is_admin(int(incoming.scope.chat_id), int(incoming.sender_id))
        return dataclasses.replace(incoming, sender_is_chat_admin=admin)

    @staticmethod
    async def _deliver_logged(coro: Awaitable[int]) -> None:
        try:
            await coro
        except SendFailed as exc:
            log.error("reply not delivered: %s", exc)

    @staticmethod
    def _on_loop_thread(loop: asyncio.AbstractEventLoop) -> bool:
        try:
            return asyncio.get_running_loop() is loop
        except RuntimeError:
            return False

    @staticmethod
    def _on_polling_error(exc: TelegramError) -> None:
        log.warning("Telegram polling error (will retry): %s", exc)

    @staticmethod
    async def _on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("unhandled error in the Telegram channel", exc_info=context.error)
