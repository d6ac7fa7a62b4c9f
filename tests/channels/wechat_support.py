"""WeChat test support: a web-WeChat send endpoint on 127.0.0.1 and a logged-in itchat Core.

Incoming messages are built the way itchat-uos builds them: a raw ``webwxsync`` message dict
goes through itchat's own ``produce_msg`` (which resolves the group member, ``ActualNickName``
and ``IsAt`` from the contact lists) into ``Core.msgList``, and ``Core.configured_reply``
dispatches it to the registered handler. Replies go out through itchat's ``send_msg`` over
HTTP to :class:`FakeWebWeChat`, which records them.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from typing import Any

from itchat.components.messages import produce_msg
from itchat.core import Core

from tests.fakes.http import JsonHandler, LocalServer

SELF = "@self0001"
SELF_NICK = "CowBot"
_ids = itertools.count(1)


@dataclass
class WebSent:
    to: str
    content: str


class FakeWebWeChat:
    """Answers ``webwxsendmsg`` like web WeChat and records each message; ``refuse`` fails them."""

    def __init__(self) -> None:
        self.sent: list[WebSent] = []
        self.refuse = False
        outer = self

        class Handler(JsonHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])) or b"{}")
                ret = 1 if outer.refuse else 0
                if self.path.startswith("/webwxsendmsg") and not outer.refuse:
                    msg = body["Msg"]
                    outer.sent.append(WebSent(msg["ToUserName"], msg["Content"]))
                self.send_json(200, {"BaseResponse": {"Ret": ret, "ErrMsg": ""}})

        self._server = LocalServer(Handler).start()

    @property
    def url(self) -> str:
        return self._server.url

    def close(self) -> None:
        self._server.close()


def logged_in_core(web: FakeWebWeChat) -> Core:
    """An itchat Core in the state a login leaves it: own account, friends, groups."""
    core = Core()
    core.storageClass.userName = SELF
    core.storageClass.nickName = SELF_NICK
    core.loginInfo = {"url": web.url, "BaseRequest": {"Uin": 1, "Sid": "s", "Skey": ""}}
    core.alive = True
    core.memberList.append({"UserName": SELF, "NickName": SELF_NICK})
    core.memberList.append({"UserName": "@alice01", "NickName": "Alice", "RemarkName": "Ali"})
    core.memberList.append({"UserName": "@dave01", "NickName": "Dave", "Alias": "dave_w"})
    members = [
        {"UserName": SELF, "NickName": SELF_NICK, "DisplayName": ""},
        {"UserName": "@alice01", "NickName": "Alice", "DisplayName": "Alice (host)"},
        {"UserName": "@bob01", "NickName": "Bob", "DisplayName": ""},
    ]
    for user_name, name in (("@@hikers01", "Hikers"), ("@@random01", "Random")):
        core.chatroomList.append(
            {
                "UserName": user_name,
                "NickName": name,
                "MemberList": members,
                "Self": dict(members[0]),
                "ChatRoomOwner": "@alice01",
            }
        )
    return core


def raw_text(sender: str, text: str, *, group: str | None = None, to: str = SELF) -> dict[str, Any]:
    """A text message as ``webwxsync`` delivers it (``AddMsgList`` entry)."""
    msg_id = next(_ids)
    return {
        "MsgId": str(msg_id),
        "NewMsgId": msg_id,
        "FromUserName": group or sender,
        "ToUserName": to,
        "MsgType": 1,
        "Content": f"{sender}:<br/>{text}" if group else text,
        "Url": "",
        "CreateTime": 1764470000 + msg_id,
        "Status": 3,
    }


def deliver(core: Core, *raw: dict[str, Any]) -> None:
    """Shape ``raw`` with itchat's ``produce_msg`` and dispatch each through itchat."""
    for msg in produce_msg(core, list(raw)):
        core.msgList.put(msg)
    for _ in raw:
        core.configured_reply()
