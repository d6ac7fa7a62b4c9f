"""Dreaming in the bot: what the model looks up through memory_search is recorded, a fact
looked up on three days with three queries is promoted by the nightly cycle, and
/dreaming status shows each phase's last result, the counts and the next run."""

from __future__ import annotations

from datetime import datetime

from bot_support import ZONE, BotFactory, owner

from memory.dream import DreamOptions
from memory.dream.preview import run_preview
from memory.dream.short_term import load_short_term
from memory.recall_store import read_recalls
from tests.fakes.clock import FakeClock
from tests.fakes.openai_server import FakeOpenAI

PASSPORT = "用户的护照放在书房蓝色文件夹里"
ONCE = "用户去年在杭州学过一次陶艺"


def test_looked_up_three_days_three_queries_then_promoted(
    make_bot: BotFactory, llm: FakeOpenAI, clock: FakeClock
) -> None:
    bot, channel = make_bot(llm, language="en")  # the owner writes Chinese; replies in English
    root = bot.services.scopes.root_for(owner("x").scope)
    root.notes_dir.mkdir(parents=True, exist_ok=True)
    (root.notes_dir / "2026-11-10.md").write_text(
        f"# Daily Memory: 2026-11-10\n\n## Daily Summary (23:55)\n- {PASSPORT}\n- 用户喜欢咖啡\n",
        encoding="utf-8",
    )
    (root.notes_dir / "2026-11-28.md").write_text(
        f"# Daily Memory: 2026-11-28\n\n## Daily Summary (23:55)\n- {ONCE}\n",
        encoding="utf-8",
    )
    for day, query in ((26, "护照放在哪里"), (27, "护照"), (28, "蓝色文件夹里有什么")):
        clock.now = datetime(2026, 11, day, 9, 30, tzinfo=ZONE)
        llm.tool_call("memory_search", {"query": query})
        llm.reply("在书房的蓝色文件夹里。")
        assert bot.handle(owner(f"我的护照呢？({day})")) == ["在书房的蓝色文件夹里。"]
    recalls = read_recalls(root).recalls
    assert {r.query for r in recalls} == {"护照放在哪里", "护照", "蓝色文件夹里有什么"}
    assert {r.day.day for r in recalls} == {26, 27, 28} and {r.via for r in recalls} == {"tool"}

    clock.now = datetime(2026, 11, 29, 23, 0, tzinfo=ZONE)
    preview = run_preview(root, DreamOptions(days=3), clock.now)
    ranked = {r.candidate.text: r for r in preview.ranking}
    assert ranked[PASSPORT].passes and not ranked[ONCE].passes

    assert bot.handle(owner("/memory dream"))[0].startswith("Dream started")
    assert bot.services.dreams.wait_idle(60)
    report = channel.wait_for(1)[-1][1]
    assert report.startswith("Dream done")
    memory = root.memory_md.read_text(encoding="utf-8")
    assert PASSPORT in memory
    store = load_short_term(root)
    (passport,) = [c for c in store.candidates.values() if c.text == PASSPORT]
    assert passport.status == "promoted" and passport.promoted_on == clock.now.date()
    (once,) = [c for c in store.candidates.values() if c.text == ONCE]
    assert once.status == "staged"

    (status,) = bot.handle(owner("/dreaming status"))
    assert "Nightly dreaming: on" in status and "Next run: 29 Nov, 23:5" in status
    assert "Light: " in status and "candidates" in status and "REM: " in status
    assert "Deep: " in status and "1 promoted" in status
    assert "promoted today: 1" in status and "Staged candidates: " in status


def test_shutdown_interrupts_a_long_dream_which_writes_nothing(make_bot: BotFactory) -> None:
    bot, channel = make_bot(language="en")
    root = bot.services.scopes.root_for(owner("x").scope)
    root.notes_dir.mkdir(parents=True, exist_ok=True)
    for day in (27, 28, 29):
        lines = "".join(f"- 用户收藏的第{n}枚邮票来自第{n * day}号城市\n" for n in range(1500))
        (root.notes_dir / f"2026-11-{day}.md").write_text(
            f"# Daily Memory: 2026-11-{day}\n\n## Daily Summary (23:55)\n{lines}",
            encoding="utf-8",
        )
    assert bot.handle(owner("/memory dream"))[0].startswith("Dream started")
    bot.services.dreams.stop(timeout=0)
    (_, report), *_ = channel.wait_for(1)
    assert report.startswith("Dream failed") and (
        "interrupted" in report or "stopped before" in report
    )
    assert not root.memory_md.exists()
