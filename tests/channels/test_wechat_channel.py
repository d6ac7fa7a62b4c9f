"""The WeChat channel at itchat's dispatch seam: real itchat message shaping and dispatch."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tg_support import RecordingBot
from wechat_support import SELF, FakeWebWeChat, WebSent, deliver, logged_in_core, raw_text

from bot.config import BotConfig
from bot.messages import Scope
from channels.wechat import WeChatChannel, WeChatSendFailed


@pytest.fixture
def web() -> Iterator[FakeWebWeChat]:
    server = FakeWebWeChat()
    yield server
    server.close()


def make_channel(tmp_path: Path, web: FakeWebWeChat, bot: RecordingBot, **config: object):
    values: dict[str, object] = {
        "channel_type": "wechat",
        "agent_workspace": str(tmp_path),
        "single_chat_prefix": ["bot"],
        "single_chat_reply_prefix": "[bot] ",
        "group_chat_prefix": ["@bot", "cow,"],
        "group_name_white_list": ["Hikers"],
    }
    values.update(config)
    core = logged_in_core(web)
    channel = WeChatChannel(BotConfig(**values), client=core)  # type: ignore[arg-type]
    channel.register(bot)
    return channel, core


def test_private_text_with_prefix_is_answered(tmp_path: Path, web: FakeWebWeChat) -> None:
    bot = RecordingBot()
    _, core = make_channel(tmp_path, web, bot)
    deliver(core, raw_text("@alice01", "bot 明天提醒我带伞"))
    [msg] = bot.messages
    assert msg.scope == Scope("wechat", "Ali", is_group=False)
    assert (msg.scope.title, msg.sender_id, msg.sender_name) == ("Ali", "Ali", "Ali")
    assert (msg.text, msg.addressed) == ("明天提醒我带伞", True)
    assert msg.time is not None and msg.message_id
    assert web.sent == [WebSent("@alice01", "[bot] echo: 明天提醒我带伞")]


def test_private_text_without_prefix_is_ignored(tmp_path: Path, web: FakeWebWeChat) -> None:
    bot = RecordingBot()
    _, core = make_channel(tmp_path, web, bot)
    deliver(core, raw_text("@alice01", "are you coming tonight?"))
    assert bot.messages == [] and web.sent == []


def test_empty_prefix_answers_every_private_message(tmp_path: Path, web: FakeWebWeChat) -> None:
    bot = RecordingBot()
    _, core = make_channel(tmp_path, web, bot, single_chat_prefix=[""])
    deliver(core, raw_text("@dave01", "hello"))
    [msg] = bot.messages
    assert msg.scope.chat_id == "dave_w"  # the WeChat ID wins over the nickname
    assert web.sent == [WebSent("@dave01", "[bot] echo: hello")]


def test_own_messages_are_ignored(tmp_path: Path, web: FakeWebWeChat) -> None:
    bot = RecordingBot()
    _, core = make_channel(tmp_path, web, bot, single_chat_prefix=[""])
    deliver(core, raw_text(SELF, "note to self", to="@alice01"))
    deliver(core, raw_text(SELF, "@bot hi", group="@@hikers01"))
    assert bot.messages == [] and web.sent == []


def test_group_at_mention_is_answered_and_stripped(tmp_path: Path, web: FakeWebWeChat) -> None:
    bot = RecordingBot()
    _, core = make_channel(tmp_path, web, bot)
    deliver(core, raw_text("@bob01", "@CowBot\u2005周六去哪爬山？", group="@@hikers01"))
    [msg] = bot.messages
    assert msg.scope == Scope("wechat", "Hikers", is_group=True)
    assert (msg.text, msg.addressed, msg.sender_name, msg.sender_id) == (
        "周六去哪爬山？",
        True,
        "Bob",
        "nick:Bob",  # not a friend: a nickname grants nothing
    )
    assert not msg.sender_is_chat_admin
    assert web.sent == [WebSent("@@hikers01", "@Bob\necho: 周六去哪爬山？")]


def test_group_prefix_addresses_the_bot(tmp_path: Path, web: FakeWebWeChat) -> None:
    bot = RecordingBot()
    _, core = make_channel(tmp_path, web, bot)
    deliver(core, raw_text("@alice01", "cow, /memory dream 3", group="@@hikers01"))
    [msg] = bot.messages
    assert (msg.text, msg.addressed) == ("/memory dream 3", True)
    assert msg.sender_name == "Alice (host)"  # the group display name
    assert msg.sender_id == "Ali"  # a friend: the remark the owner gave her
    assert msg.sender_is_chat_admin  # the group owner, as itchat tells


def test_group_text_without_at_is_remembered_not_answered(
    tmp_path: Path, web: FakeWebWeChat
) -> None:
    bot = RecordingBot()
    _, core = make_channel(tmp_path, web, bot)
    deliver(core, raw_text("@bob01", "I will bring the map", group="@@hikers01"))
    [msg] = bot.messages
    assert (msg.text, msg.addressed) == ("I will bring the map", False)
    assert web.sent == []


def test_group_not_in_the_white_list_is_ignored(tmp_path: Path, web: FakeWebWeChat) -> None:
    bot = RecordingBot()
    _, core = make_channel(tmp_path, web, bot)
    deliver(
        core,
        raw_text("@bob01", "@CowBot\u2005hello?", group="@@random01"),
        raw_text("@bob01", "just chatting", group="@@random01"),
    )
    assert bot.messages == [] and web.sent == []


def test_all_group_lets_every_group_in(tmp_path: Path, web: FakeWebWeChat) -> None:
    bot = RecordingBot()
    _, core = make_channel(tmp_path, web, bot, group_name_white_list=["ALL_GROUP"])
    deliver(core, raw_text("@bob01", "@CowBot\u2005hello?", group="@@random01"))
    assert [m.scope.chat_id for m in bot.messages] == ["Random"]


def test_group_at_off_ignores_mentions(tmp_path: Path, web: FakeWebWeChat) -> None:
    bot = RecordingBot()
    _, core = make_channel(tmp_path, web, bot, group_at_off=True)
    deliver(core, raw_text("@bob01", "@CowBot\u2005hello?", group="@@hikers01"))
    assert [(m.text, m.addressed) for m in bot.messages] == [("hello?", False)]
    assert web.sent == []


def test_renamed_group_keeps_its_scope_within_a_login(tmp_path: Path, web: FakeWebWeChat) -> None:
    bot = RecordingBot()
    _, core = make_channel(tmp_path, web, bot, group_name_white_list=["ALL_GROUP"])
    deliver(core, raw_text("@bob01", "first", group="@@hikers01"))
    core.chatroomList[0]["NickName"] = "Hikers 2027"
    deliver(core, raw_text("@bob01", "second", group="@@hikers01"))
    assert [m.scope.chat_id for m in bot.messages] == ["Hikers", "Hikers"]
    assert bot.messages[1].scope.title == "Hikers 2027"


def test_a_failing_bot_gets_one_friendly_line(tmp_path: Path, web: FakeWebWeChat) -> None:
    def explode(message: object) -> list[str]:
        raise RuntimeError("model exploded")

    bot = RecordingBot(answer=explode)
    _, core = make_channel(tmp_path, web, bot)
    deliver(core, raw_text("@alice01", "bot hi"), raw_text("@alice01", "bot again"))
    assert len(web.sent) == 2
    assert all(
        "something went wrong" in s.content and "exploded" not in s.content for s in web.sent
    )


def test_send_reaches_a_chat_seen_this_login(tmp_path: Path, web: FakeWebWeChat) -> None:
    bot = RecordingBot()
    channel, core = make_channel(tmp_path, web, bot)
    deliver(core, raw_text("@bob01", "hi all", group="@@hikers01"))
    channel.send(Scope("wechat", "Hikers", True), "dream finished")
    channel.send(Scope("wechat", "Ali", False), "private news")  # found by name
    assert web.sent == [
        WebSent("@@hikers01", "dream finished"),
        WebSent("@alice01", "[bot] private news"),
    ]


def test_send_errors_are_clear(tmp_path: Path, web: FakeWebWeChat) -> None:
    bot = RecordingBot()
    channel, core = make_channel(tmp_path, web, bot)
    with pytest.raises(WeChatSendFailed, match="no WeChat chat named 'Nobody'"):
        channel.send(Scope("wechat", "Nobody", False), "hi")
    web.refuse = True
    with pytest.raises(WeChatSendFailed, match="refused"):
        channel.send(Scope("wechat", "Ali", False), "hi")
    core.alive = False
    with pytest.raises(WeChatSendFailed, match="not logged in"):
        channel.send(Scope("wechat", "Ali", False), "hi")


def test_two_friends_with_one_name_are_not_merged(tmp_path: Path, web: FakeWebWeChat) -> None:
    bot = RecordingBot()
    _, core = make_channel(tmp_path, web, bot)
    core.memberList.append({"UserName": "@wang1", "NickName": "小王"})
    core.memberList.append({"UserName": "@wang2", "NickName": "小王"})
    core.memberList.append({"UserName": "@li", "NickName": "小李"})
    deliver(core, raw_text("@wang1", "bot 我住在静安区"))
    deliver(core, raw_text("@wang2", "bot 我住在哪里？"))
    deliver(core, raw_text("@li", "bot 我住在徐汇区"))
    # neither 小王 may reach a memory the other could read; 小李 is served as usual
    assert [m.scope.chat_id for m in bot.messages] == ["小李"]


def test_a_nickname_never_makes_a_group_admin(tmp_path: Path, web: FakeWebWeChat) -> None:
    from channels.wechat_rules import member_id

    assert member_id(None, "Ali") == "nick:Ali"
    assert member_id({"NickName": "Ali"}, "Ali") == "nick:Ali"
    assert member_id({"RemarkName": "Ali"}, "whatever") == "Ali"
