"""WeChat end to end at itchat's dispatch seam, with the real bot (offline, no model)."""

from __future__ import annotations

from pathlib import Path
from zoneinfo import ZoneInfo

from wechat_support import FakeWebWeChat, deliver, logged_in_core, raw_text

from bot.builder import build_bot
from bot.config import BotConfig
from channels.wechat import WeChatChannel
from memory import clock

ZONE = ZoneInfo("Asia/Shanghai")


def test_wechat_private_and_group_end_to_end(tmp_path: Path) -> None:
    web = FakeWebWeChat()
    config = BotConfig(
        channel_type="wechat",
        agent_workspace=str(tmp_path / "ws"),
        timezone="Asia/Shanghai",
        embedding_provider="none",
        dream_engine="extractive",
        dreaming_enabled=False,
        single_chat_prefix=["bot"],
        group_name_white_list=["Hikers"],
    )
    core = logged_in_core(web)
    channel = WeChatChannel(config, client=core)
    bot = build_bot(config, channel=channel)
    bot.services.dreams.start()
    try:
        channel.register(bot)
        deliver(
            core,
            raw_text("@alice01", "bot 我的车牌号是沪A12345"),
            raw_text("@bob01", "I will bring the cake", group="@@hikers01"),
            raw_text("@bob01", "@CowBot\u2005who brings what?", group="@@hikers01"),
            raw_text("@bob01", "cow secret plans", group="@@random01"),  # not white-listed
            raw_text("@bob01", "@CowBot\u2005/memory dream 3", group="@@hikers01"),
            raw_text("@alice01", "@CowBot\u2005/memory dream 3", group="@@hikers01"),
        )
        assert bot.services.dreams.wait_idle(60)
        sent = [(s.to, s.content) for s in web.sent]
        # Alice wrote Chinese: the bot's own words are Chinese; the group speaks English
        assert sent[0][0] == "@alice01" and sent[0][1].startswith("[bot] 还没有配置模型")
        assert sent[1][0] == "@@hikers01" and sent[1][1].startswith("@Bob\nNo model is configured")
        assert sent[2] == (
            "@@hikers01",
            "@Bob\nSorry, only this chat's admins can change its memory.",
        )
        assert sent[3][1].startswith("@Alice (host)\nDream started")
        assert len(sent) == 5 and sent[4][1].startswith(("Dream done", "Dream skipped"))
        bot.services.nightly.run(clock.now(ZONE))
    finally:
        bot.shutdown()
        web.close()
    scopes = config.workspace / "scopes" / "wechat"
    notes = {p.parent.parent.name: p.read_text() for p in scopes.glob("*/memory/????-??-??.md")}
    [group_note] = [text for folder, text in notes.items() if folder.startswith("group-")]
    [private_note] = [text for folder, text in notes.items() if folder.startswith("user-")]
    assert "- Bob: I will bring the cake" in group_note and "沪A12345" not in group_note
    assert "沪A12345" in private_note and "cake" not in private_note
    assert "secret plans" not in "".join(notes.values())
    index = (config.workspace / "scopes" / "index.json").read_text(encoding="utf-8")
    assert '"wechat:group:Hikers"' in index and '"wechat:user:Ali"' in index
