"""People knowledge end to end: four members of a Telegram group over several days, through
the fake Bot API server, the real channel, the real bot and a fake clock.

The model (the fake OpenAI-compatible server) writes the daily notes from the transcript
as the speakers said it and answers "ok"; the dream is the extractive one.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from bot.builder import build_bot
from bot.config import BotConfig
from bot.engine import Bot
from bot.messages import Scope
from channels.telegram import TelegramChannel
from channels.telegram_outbound import RetryPolicy
from memory.paths import MemoryRoot
from memory.people.directory import load_directory
from memory.people.files import read_person
from tests.bot.bot_support import ZONE, all_text
from tests.fakes.clock import FakeClock
from tests.fakes.openai_server import FakeOpenAI, Request, completion
from tests.fakes.telegram_server import BOT_USERNAME, FakeTelegramServer

HIKERS, CHESS = -100900, -100901
LI, WANG, ZHANG, ANNA, WANG2 = 1, 2, 3, 4, 5
DAY1 = datetime(2026, 11, 28, 10, 0, tzinfo=ZONE)


def flush_as_said(request: Request) -> Any:
    """The daily-note model: one bullet per member's line, as said (never the bot's)."""
    messages = request.get("messages") or []
    if not messages or not str(messages[0].get("content", "")).startswith("You keep a chat"):
        return None
    lines = str(messages[-1]["content"]).splitlines()
    bullets = [line for line in lines if ": " in line and not line.startswith("assistant:")]
    return completion(json.dumps({"bullets": bullets}, ensure_ascii=False))


@pytest.fixture
def live(
    tmp_path: Path, telegram_server: FakeTelegramServer, llm: FakeOpenAI
) -> Iterator[tuple[Bot, FakeClock]]:
    llm.route = flush_as_said
    config = BotConfig(
        channel_type="telegram",
        telegram_token=SecretStr(telegram_server.token),
        telegram_api_base=telegram_server.base_url,
        open_ai_api_base=llm.url,
        open_ai_api_key="sk-test-people",
        agent_workspace=str(tmp_path / "ws"),
        timezone="Asia/Shanghai",
        embedding_provider="none",
        dream_engine="extractive",
        nightly_reports=False,
        group_chat_prefix=["bot,"],
        people_max_entries=4,
        people_max_entry_chars=60,
    )
    clock = FakeClock(DAY1)
    channel = TelegramChannel(
        config, poll_timeout=1, retry=RetryPolicy(max_attempts=3, base_delay=0.01)
    )
    bot = build_bot(config, channel=channel, clock=clock)
    bot.services.dreams.start()
    thread = threading.Thread(target=channel.run, args=(bot,), daemon=True)
    thread.start()
    try:
        yield bot, clock
    finally:
        channel.stop()
        thread.join(timeout=15)
        bot.shutdown()
    assert not thread.is_alive()


class Group:
    """Members speaking in one group at the fake clock's time."""

    def __init__(self, server: FakeTelegramServer, clock: FakeClock, chat: int, title: str):
        self.server, self.clock, self.chat, self.title = server, clock, chat, title

    def say(
        self, user: int, name: str, text: str, entities: list[dict[str, Any]] | None = None
    ) -> None:
        self.clock.now += timedelta(minutes=1)
        self.server.push_message(
            chat_id=self.chat,
            user_id=user,
            first_name=name,
            text=text,
            chat_type="supergroup",
            chat_title=self.title,
            entities=entities,
            date=self.clock.now,
        )

    def ask(self, user: int, name: str, text: str) -> str:
        """A message to the bot; its reply (every earlier message was handled by then)."""
        before = len(self.server.sent)
        if text.startswith("/"):
            entities = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
        else:
            text = f"@{BOT_USERNAME} {text}"
            entities = [{"type": "mention", "offset": 0, "length": len(BOT_USERNAME) + 1}]
        self.say(user, name, text, entities)
        return self.server.wait_for_sent(before + 1)[before].text


def night(bot: Bot, clock: FakeClock) -> None:
    """The nightly job at 23:56: every chat's notes flushed, then dreamed."""
    day = clock.now.date()
    clock.now = datetime(day.year, day.month, day.day, 23, 56, tzinfo=ZONE)
    bot.services.nightly.run(clock())
    assert bot.services.dreams.wait_idle(60)
    clock.now = datetime(day.year, day.month, day.day, 9, 0, tzinfo=ZONE) + timedelta(days=1)


def last_system_prompt(llm: FakeOpenAI) -> str:
    chats = [r for r in llm.chat_requests() if r.get("messages")]
    return str(chats[-1]["messages"][0]["content"])


def test_four_members_over_several_days(
    live: tuple[Bot, FakeClock], telegram_server: FakeTelegramServer, llm: FakeOpenAI
) -> None:
    bot, clock = live
    server = telegram_server
    server.creators[HIKERS] = WANG
    hikers = Group(server, clock, HIKERS, "Hikers")
    chess = Group(server, clock, CHESS, "Chess club")

    # day 1: each says something about themselves; 王芳 says something about 李四
    hikers.say(LI, "李四", "我家在南山区")
    hikers.say(WANG, "王芳", "我在腾讯工作")
    hikers.say(WANG, "王芳", "李四下个月结婚")
    hikers.say(ZHANG, "张伟", "我周末通常去爬山")
    hikers.say(ANNA, "Anna", "My daughter is called Mia")
    hikers.ask(ANNA, "Anna", "what do you know about me?")
    # the same 李四 (one Telegram user) in another group
    chess.say(LI, "李四", "我喜欢下围棋")
    chess.ask(LI, "李四", "记住了吗")
    night(bot, clock)

    hikers_root = bot.services.scopes.root_for(Scope("telegram", str(HIKERS), True))
    chess_root = bot.services.scopes.root_for(Scope("telegram", str(CHESS), True))
    directory = load_directory(hikers_root)
    assert sorted(p.id for p in directory.people.values()) == [
        f"telegram:{n}" for n in (LI, WANG, ZHANG, ANNA)
    ]
    slugs = {p.name: p.slug for p in directory.people.values()}
    li = read_person(hikers_root, slugs["李四"], "李四")
    assert {c.text for c in li.card} == {"李四: 我家在南山区", "王芳: 李四下个月结婚"}
    told = next(c for c in li.card if c.text.startswith("王芳"))
    assert told.by == f"telegram-{WANG}"  # attributed to the one who said it
    wang = read_person(hikers_root, slugs["王芳"], "王芳")
    assert [c.text for c in wang.card] == ["王芳: 我在腾讯工作"]
    zhang = read_person(hikers_root, slugs["张伟"], "张伟")
    assert zhang.card == []  # a pattern never goes on a card ...
    (pattern,) = [e for e in zhang.observations if e.kind == "induction"]
    assert pattern.text == "张伟: 我周末通常去爬山" and pattern.confidence == 0.4  # ... only here
    anna = read_person(hikers_root, slugs["Anna"], "Anna")
    assert [c.text for c in anna.card] == ["Anna: My daughter is called Mia"]

    # day 2: 张伟 contradicts 李四's card; 李四 renames; a second 王芳 joins
    hikers.say(ZHANG, "张伟", "李四住在福田")
    hikers.say(LI, "李四 Lee", "我在招商银行上班")
    hikers.say(WANG2, "王芳", "我家在北京")
    for fact in (
        "I work at Siemens",
        "I am allergic to peanuts",
        "I play the cello",
        "I was born in Graz",
        "I speak four languages " + "and a lot more " * 8,
    ):
        hikers.say(ANNA, "Anna", fact)
    reply = hikers.ask(LI, "李四 Lee", "我住哪？")
    assert reply == "ok"
    prompt = last_system_prompt(llm)
    card_block = prompt[prompt.index("What this chat has recorded about 李四 Lee") :]
    assert "- 李四: 我家在南山区" in card_block and "- 王芳: 李四下个月结婚" in card_block
    assert "围棋" not in prompt  # his card of this group, not the chess club's
    assert "腾讯" not in card_block and "通常" not in card_block  # nobody else's; no ledger
    night(bot, clock)

    directory = load_directory(hikers_root)
    assert len(directory.people) == 5
    li_person = directory.by_id(f"telegram:{LI}")
    assert li_person is not None and li_person.all_labels() == {"李四", "李四 Lee"}
    second = directory.by_id(f"telegram:{WANG2}")
    assert second is not None and second.label == "王芳2" and second.slug != slugs["王芳"]
    li = read_person(hikers_root, slugs["李四"], "李四 Lee")
    home = next(c for c in li.card if "南山" in c.text)
    assert [c.text for c in home.conflicts] == ["张伟: 李四住在福田"]
    card_file = (hikers_root.path / "people" / slugs["李四"] / "card.md").read_text("utf-8")
    assert "status: open" in card_file
    assert "李四 Lee: 我在招商银行上班" in {c.text for c in li.card}
    wang = read_person(hikers_root, slugs["王芳"], "王芳")
    assert not any("北京" in e.text for e in (*wang.card, *wang.observations))
    assert "王芳2: 我家在北京" in {
        c.text for c in read_person(hikers_root, second.slug, "王芳").card
    }
    anna = read_person(hikers_root, slugs["Anna"], "Anna")
    assert len(anna.observations) <= 4 and len(anna.card) <= 4  # the limits hold ...
    assert any(a.reason.startswith("over the limit") for a in anna.archive)  # ... by archiving
    assert all(len(e.text) <= 60 for e in (*anna.observations, *anna.card, *anna.archive))

    # day 3: 李四 corrects himself; the card follows, the old line is archived
    hikers.say(LI, "李四 Lee", "我搬到宝安了")
    hikers.ask(WANG, "王芳", "bot 晚上好")
    night(bot, clock)
    li = read_person(hikers_root, slugs["李四"], "李四 Lee")
    texts = {c.text for c in li.card}
    assert "李四 Lee: 我搬到宝安了" in texts and not any("南山" in t for t in texts)
    assert {a.text for a in li.archive} >= {"李四: 我家在南山区", "张伟: 李四住在福田"}

    # the card, with sources, in the chat; a rebuild only for admins
    shown = hikers.ask(ZHANG, "张伟", "/memory people 李四")
    assert "宝安" in shown and "memory/2026-11-30.md#L" in shown
    assert hikers.ask(ZHANG, "张伟", "/memory people rebuild 李四").startswith(("Sorry", "抱歉"))
    assert "李四" in hikers.ask(WANG, "王芳", "/memory people rebuild 李四")
    li = read_person(hikers_root, slugs["李四"], "李四 Lee")
    assert "李四 Lee: 我搬到宝安了" in {c.text for c in li.card}

    # a second group sees none of it
    chess_text = all_text(chess_root.path)
    for secret in ("南山", "宝安", "腾讯", "Mia", "爬山", "福田"):
        assert secret not in chess_text
    chess_li = read_person(chess_root, slugs["李四"], "李四")
    assert [c.text for c in chess_li.card] == ["李四: 我喜欢下围棋"]
    assert "宝安" not in chess.ask(LI, "李四", "/memory people 李四")

    # forgetting reaches the cards and the ledgers
    assert "宝安" in hikers.ask(WANG, "王芳", "/memory forget 宝安")
    hikers.ask(WANG, "王芳", "/memory forget confirm")
    people_text = all_text(hikers_root.path / "people")
    assert "宝安" not in people_text
    assert MemoryRoot(hikers_root.path).path.is_dir()
