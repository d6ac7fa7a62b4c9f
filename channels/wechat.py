"""The WeChat channel: a personal account through itchat-uos (web WeChat, UOS patch).

:meth:`WeChatChannel.run` logs in (a QR code in the terminal; with ``hot_reload`` the login
is saved under ``<agent_workspace>/.wechat/`` and reused at the next start), registers one
handler for private and group text messages with itchat's dispatcher, and serves until the
login is lost; then it logs in again with back-off (:mod:`channels.wechat_login`). The
chat rules are CowAgent's (:mod:`channels.wechat_rules`). Messages are handled one at a time
in itchat's dispatch thread, in the order WeChat delivered them.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from itchat.content import TEXT
from itchat.core import Core

from bot.chat_language import ChatLanguages
from bot.config import BotConfig
from bot.messages import IncomingMessage, Scope
from channels.base import BotHandler, Channel, handle_safely
from channels.wechat_ids import SessionIds
from channels.wechat_login import LoginBackoff, LoginFailed, LoginLoop
from channels.wechat_rules import Me, WeChatRules, decorate_reply, group_incoming, private_incoming

log = logging.getLogger(__name__)

QR_TERMINAL_WIDTH = 2  # itchat's enableCmdQR: 2 characters per module suits most terminals


class WeChatSendFailed(RuntimeError):
    """A message could not be sent (not logged in, unknown chat, or WeChat refused it)."""


class WeChatChannel(Channel):
    """Personal WeChat via itchat-uos; one logged-in account serves its chats and groups."""

    name = "wechat"

    def __init__(
        self,
        config: BotConfig,
        *,
        client: Core | None = None,
        login: Callable[[], None] | None = None,
        backoff: LoginBackoff | None = None,
    ) -> None:
        self._client = client if client is not None else Core()
        self._rules = WeChatRules.from_config(config)
        self._hot_reload = config.hot_reload
        self._state_dir = config.workspace / ".wechat"
        self._login_fn = login
        self._backoff = backoff
        self._ids = SessionIds()
        self._stop = threading.Event()
        self._send_lock = threading.Lock()
        self._registered = False
        self._languages = ChatLanguages(config.language)  # for the apology on a failure

    # --- Channel -------------------------------------------------------------------------

    def run(self, bot: BotHandler) -> None:
        """Log in and answer through ``bot`` until :meth:`stop`, logging in again when lost."""
        self.register(bot)
        LoginLoop(self._login, self._serve, stop=self._stop, backoff=self._backoff).run()

    def stop(self) -> None:
        self._stop.set()
        client = self._client
        if self._hot_reload and client.alive:
            with contextlib.suppress(Exception):
                self._dump_login()
        client.isLogging = False  # ends a pending QR login
        client.alive = False  # ends itchat's receive and dispatch loops

    def send(self, scope: Scope, text: str) -> None:
        """Send ``text`` to a chat seen during this login (or found by name); thread-safe."""
        if scope.platform != self.name:
            raise ValueError(f"scope {scope.key} is not a WeChat chat")
        if not self._client.alive:
            raise WeChatSendFailed("WeChat is not logged in")
        user_name = self._ids.user_name(scope.chat_id, scope.is_group) or self._find(scope)
        if user_name is None:
            raise WeChatSendFailed(f"no WeChat chat named {scope.title or scope.chat_id!r} found")
        body = text if scope.is_group else f"{self._rules.single_chat_reply_prefix}{text}"
        if not self._send_raw(user_name, body):
            raise WeChatSendFailed(f"WeChat refused the message to {scope.key}")

    # --- itchat's dispatch seam -----------------------------------------------------------

    def register(self, bot: BotHandler) -> None:
        """Register the text handler with the itchat client (once)."""
        if self._registered:
            return
        handler = self._make_handler(bot)
        self._client.msg_register([TEXT], isFriendChat=True, isGroupChat=True)(handler)
        self._registered = True

    def to_incoming(self, msg: Mapping[str, Any]) -> IncomingMessage | None:
        """Apply the chat rules to one itchat message."""
        storage = self._client.storageClass
        me = Me(user_name=str(storage.userName or ""), nick_name=str(storage.nickName or ""))
        user = msg.get("User") or {}
        is_group = "@@" in str(msg.get("FromUserName") or "") + str(msg.get("ToUserName") or "")
        friends = list(getattr(self._client, "memberList", None) or [])
        rooms = list(getattr(self._client, "chatroomList", None) or [])
        chat_id = self._ids.chat_id(user, is_group, rooms if is_group else friends)
        if chat_id is None:
            return None  # two chats share a name: never risk merging their memories
        if is_group:
            actual = str(msg.get("ActualUserName") or "")
            friend = next((f for f in friends if f.get("UserName") == actual), None)
            return group_incoming(msg, me, self._rules, chat_id, friend)
        return private_incoming(msg, me, self._rules, chat_id)

    def _make_handler(self, bot: BotHandler) -> Callable[[Mapping[str, Any]], None]:
        def on_text(msg: Mapping[str, Any]) -> None:
            incoming = self.to_incoming(msg)
            if incoming is None:
                return
            replies = handle_safely(bot, incoming, self._languages)
            target = str((msg.get("User") or {}).get("UserName") or "")
            for reply in replies:
                if not self._send_raw(target, decorate_reply(incoming, reply, self._rules)):
                    log.error("WeChat refused a reply to %s", incoming.scope.key)
            return None  # itchat sends a returned value itself; we have sent already

        return on_text

    # --- login ---------------------------------------------------------------------------

    def _login(self) -> None:
        self._ids.reset()
        if self._login_fn is not None:
            self._login_fn()
            return
        self._state_dir.mkdir(parents=True, exist_ok=True)
        qr_path = self._state_dir / "QR.png"
        log.info("WeChat: scan the QR code below with the WeChat app (Me > Scan) to log in")
        self._client.auto_login(
            hotReload=self._hot_reload,
            statusStorageDir=str(self._state_file),
            enableCmdQR=QR_TERMINAL_WIDTH,
            picDir=str(qr_path),
            loginCallback=self._logged_in,
        )
        with contextlib.suppress(OSError):
            qr_path.unlink()
        if not self._client.alive:
            raise LoginFailed(
                "the QR code was not confirmed, or web WeChat refused this account's login"
            )
        self._protect_state_file()

    def _logged_in(self) -> None:
        log.info("WeChat logged in as %s", self._client.storageClass.nickName)

    def _serve(self) -> None:
        """itchat's ``run`` loop, minus its swallowing of Ctrl-C (which reads as a lost login)."""
        client = self._client
        while client.alive and not self._stop.is_set():
            client.configured_reply()  # waits up to 1 s for the next message

    @property
    def _state_file(self) -> Path:
        return self._state_dir / "itchat.pkl"

    def _dump_login(self) -> None:
        self._client.dump_login_status(str(self._state_file))
        self._protect_state_file()

    def _protect_state_file(self) -> None:
        """The saved login holds session cookies: readable by the owner only."""
        with contextlib.suppress(OSError):
            os.chmod(self._state_file, 0o600)

    # --- sending -------------------------------------------------------------------------

    def _find(self, scope: Scope) -> str | None:
        name = scope.chat_id
        found = (
            self._client.search_chatrooms(name=name)
            if scope.is_group
            else self._client.search_friends(name=name)
        )
        for contact in found or []:
            if contact.get("UserName"):
                return str(contact["UserName"])
        return None

    def _send_raw(self, user_name: str, text: str) -> bool:
        with self._send_lock:
            try:
                result = self._client.send_msg(text, toUserName=user_name)
            except Exception as exc:  # requests errors: network down, session gone
                log.error("WeChat send to %s failed: %s", user_name, exc)
                return False
        return bool(result)
