"""A Telegram Bot API server on 127.0.0.1 for tests: the HTTP protocol python-telegram-bot speaks.

It answers ``getMe``, ``deleteWebhook``, long-polled ``getUpdates`` (serving the updates a
test scripts with :meth:`FakeTelegramServer.push_message`), ``getChatMember`` and
``getChatAdministrators`` (from :attr:`FakeTelegramServer.admins`), and records every
``sendMessage``. Faults are injected per method with :meth:`FakeTelegramServer.fail_next`:
a 429 with ``retry_after`` (python-telegram-bot raises ``RetryAfter``), a 502 (``NetworkError``)
or a 400 (``BadRequest``). Like the real server, ``sendMessage`` with a ``parse_mode`` answers
400 "can't parse entities" when the text has an unbalanced ``*``, ``_`` or backtick.

Point python-telegram-bot at it with ``ApplicationBuilder().base_url(server.base_url)``.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import parse_qsl

from memory import clock
from tests.fakes.http import JsonHandler, LocalServer

BOT_ID = 7000
BOT_USERNAME = "cowdream_bot"


@dataclass
class Fault:
    status: int
    description: str
    retry_after: int | None = None


@dataclass
class SentMessage:
    chat_id: int
    text: str
    parse_mode: str | None
    reply_to_message_id: int | None
    params: dict[str, Any] = field(repr=False)


def _markdown_is_balanced(text: str) -> bool:
    """Telegram's legacy Markdown rejects an entity that is opened and never closed."""
    body = text.replace("```", "")
    return all(body.count(mark) % 2 == 0 for mark in ("*", "_", "`"))


class FakeTelegramServer:
    """Threaded Bot API server; start with :meth:`start`, stop with :meth:`close`."""

    def __init__(self, token: str = "123:TEST") -> None:
        self.token = token
        self.admins: dict[int, set[int]] = {}  # chat id -> user ids with admin status
        self.creators: dict[int, int] = {}  # chat id -> creator user id
        self.privacy_mode = False  # True: getMe says the bot cannot read all group messages
        self.sent: list[SentMessage] = []
        self.calls: list[str] = []
        self._updates: list[dict[str, Any]] = []
        self._faults: dict[str, deque[Fault]] = {}
        self._cond = threading.Condition()
        self._next_update_id = 1
        self._next_message_id = 1000
        self._closing = False
        self._server = LocalServer(self._handler_class())

    @property
    def base_url(self) -> str:
        return f"{self._server.url}/bot"

    def start(self) -> FakeTelegramServer:
        self._server.start()
        return self

    def close(self) -> None:
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        self._server.close()

    # --- scripting -----------------------------------------------------------------------

    def push_message(
        self,
        *,
        chat_id: int,
        user_id: int,
        text: str,
        first_name: str = "User",
        last_name: str | None = None,
        username: str | None = None,
        chat_type: str = "private",
        chat_title: str | None = None,
        entities: list[dict[str, Any]] | None = None,
        reply_to_bot: bool = False,
        date: datetime | None = None,
    ) -> int:
        """Queue a ``message`` update for ``getUpdates``; return its message id. ``date``
        stamps it (a test's fake clock); else the clock's now."""
        sender: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": first_name}
        if last_name:
            sender["last_name"] = last_name
        if username:
            sender["username"] = username
        chat: dict[str, Any] = {"id": chat_id, "type": chat_type}
        if chat_type == "private":
            chat["first_name"] = first_name
            if last_name:
                chat["last_name"] = last_name
        else:
            chat["title"] = chat_title or f"group {chat_id}"
        with self._cond:
            message_id = self._next_message_id
            self._next_message_id += 1
            message: dict[str, Any] = {
                "message_id": message_id,
                "date": int((date or clock.now()).timestamp()),
                "chat": chat,
                "from": sender,
                "text": text,
            }
            if entities:
                message["entities"] = entities
            if reply_to_bot:
                message["reply_to_message"] = {
                    "message_id": message_id - 1,
                    "date": int((date or clock.now()).timestamp()),
                    "chat": chat,
                    "from": self._bot_user(),
                    "text": "earlier bot reply",
                }
            self._updates.append({"update_id": self._next_update_id, "message": message})
            self._next_update_id += 1
            self._cond.notify_all()
        return message_id

    def fail_next(self, method: str, fault: Fault, times: int = 1) -> None:
        """Answer the next ``times`` calls of ``method`` with ``fault``."""
        with self._cond:
            self._faults.setdefault(method, deque()).extend([fault] * times)

    def wait_for_sent(self, count: int, timeout: float = 10.0) -> list[SentMessage]:
        """Block until at least ``count`` messages were sent; return them all."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while len(self.sent) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"expected {count} sent messages, got {self.sent!r}")
                self._cond.wait(left)
            return list(self.sent)

    def wait_until_consumed(self, timeout: float = 10.0) -> None:
        """Block until ``getUpdates`` has confirmed every pushed update (offset moved past)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._updates:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"updates not consumed: {self._updates!r}")
                self._cond.wait(left)

    # --- the API -------------------------------------------------------------------------

    def _bot_user(self) -> dict[str, Any]:
        return {
            "id": BOT_ID,
            "is_bot": True,
            "first_name": "CowDream",
            "username": BOT_USERNAME,
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": False,
        }

    def _member(self, chat_id: int, user_id: int) -> dict[str, Any]:
        user = {"id": user_id, "is_bot": False, "first_name": f"user{user_id}"}
        if self.creators.get(chat_id) == user_id:
            return {"status": "creator", "user": user, "is_anonymous": False}
        if user_id in self.admins.get(chat_id, set()):
            return {
                "status": "administrator",
                "user": user,
                "can_be_edited": False,
                "is_anonymous": False,
                "can_manage_chat": True,
                "can_delete_messages": True,
                "can_manage_video_chats": True,
                "can_restrict_members": True,
                "can_promote_members": False,
                "can_change_info": True,
                "can_invite_users": True,
                "can_post_stories": False,
                "can_edit_stories": False,
                "can_delete_stories": False,
            }
        return {"status": "member", "user": user}

    def _get_updates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        offset = int(params.get("offset", 0) or 0)
        timeout = min(float(params.get("timeout", 0) or 0), 5.0)
        deadline = time.monotonic() + timeout
        with self._cond:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
            self._cond.notify_all()
            while not self._updates and not self._closing:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._cond.wait(left)
            return list(self._updates)

    def _send_message(self, params: dict[str, Any]) -> dict[str, Any]:
        reply = params.get("reply_parameters")
        reply_id = json.loads(reply)["message_id"] if reply else None
        with self._cond:
            message_id = self._next_message_id
            self._next_message_id += 1
            self.sent.append(
                SentMessage(
                    chat_id=int(params["chat_id"]),
                    text=str(params["text"]),
                    parse_mode=params.get("parse_mode"),
                    reply_to_message_id=reply_id,
                    params=params,
                )
            )
            self._cond.notify_all()
        return {
            "message_id": message_id,
            "date": int(clock.now().timestamp()),
            "chat": {"id": int(params["chat_id"]), "type": "private", "first_name": "x"},
            "from": self._bot_user(),
            "text": params["text"],
        }

    def dispatch(self, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self._cond:
            self.calls.append(method)
            faults = self._faults.get(method)
            fault = faults.popleft() if faults else None
        if fault is not None:
            body: dict[str, Any] = {
                "ok": False,
                "error_code": fault.status,
                "description": fault.description,
            }
            if fault.retry_after is not None:
                body["parameters"] = {"retry_after": fault.retry_after}
            return fault.status, body
        if method == "getMe":
            return 200, {"ok": True, "result": self._bot_user()}
        if method in ("deleteWebhook", "close", "logOut"):
            return 200, {"ok": True, "result": True}
        if method == "getUpdates":
            return 200, {"ok": True, "result": self._get_updates(params)}
        if method == "getChatMember":
            member = self._member(int(params["chat_id"]), int(params["user_id"]))
            return 200, {"ok": True, "result": member}
        if method == "getChatAdministrators":
            chat_id = int(params["chat_id"])
            ids = set(self.admins.get(chat_id, set()))
            if chat_id in self.creators:
                ids.add(self.creators[chat_id])
            return 200, {"ok": True, "result": [self._member(chat_id, u) for u in sorted(ids)]}
        if method == "sendMessage":
            if params.get("parse_mode") and not _markdown_is_balanced(str(params["text"])):
                return 400, {
                    "ok": False,
                    "error_code": 400,
                    "description": "Bad Request: can't parse entities: "
                    "can't find end of the entity starting at byte offset 3",
                }
            return 200, {"ok": True, "result": self._send_message(params)}
        return 404, {"ok": False, "error_code": 404, "description": "Not Found"}

    def _handler_class(self) -> type[JsonHandler]:
        server = self

        class Handler(JsonHandler):
            def do_POST(self) -> None:
                prefix = f"/bot{server.token}/"
                if not self.path.startswith(prefix):
                    self._reply(
                        401, {"ok": False, "error_code": 401, "description": "Unauthorized"}
                    )
                    return
                length = int(self.headers.get("Content-Length", "0") or 0)
                raw = self.rfile.read(length).decode("utf-8") if length else ""
                if "json" in (self.headers.get("Content-Type") or ""):
                    params = json.loads(raw or "{}")
                else:
                    params = dict(parse_qsl(raw, keep_blank_values=True))
                status, body = server.dispatch(self.path[len(prefix) :], params)
                self._reply(status, body)

            do_GET = do_POST

            def _reply(self, status: int, body: dict[str, Any]) -> None:
                self.send_json(status, body)

        return Handler
