"""Packing under the cap: before a durable fact leaves MEMORY.md as overflow, short items of
one subject and topic share one item, each clause citing its own lines; never two people's
facts, never two values of one slot, and only as much as the cap needs. A later dream
still retires one clause of a packed item and keeps the rest. Examples of this file's own."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from memory.daily_notes import append_section
from memory.dream import DreamOptions, run_dream
from memory.dream.pack import (
    Entry,
    affinity,
    joined_statements,
    packed_text,
    plan,
    split_joined,
    topic,
    two_values,
)
from memory.memory_file import parse_archive, parse_memory
from memory.paths import MemoryRoot

ZONE = ZoneInfo("Asia/Shanghai")

EN = [
    "The user's name is Hannah Vogel",
    "The user is allergic to penicillin",
    "The user works as an air traffic controller at Frankfurt airport",
    "The user weighs 84 kg",
    "The user wants to get under 80 kg by the new year",
    "The user runs parkrun at Heaton Park most Saturdays",
    "The user's parkrun best is 26:40",
]
ZH = [
    "用户叫王芳",
    "用户对青霉素过敏",
    "用户在小学当语文老师",
    "女儿上三年级了",
    "女儿对花生过敏",
    "用户每天晚上去小区跑步，跑五公里",
    "用户跑步的时候喜欢听播客",
    "用户不喜欢吃辣",
]
GROUP = [
    "张伟: 我对海鲜过敏",
    "李娜: 我也对海鲜过敏",
    "张伟: 我在腾讯做后端",
    "李娜: 我在阿里做产品",
    "张伟: 我养了一只猫",
    "李娜: 我每周六去爬山",
    "张伟: 我每周六去游泳",
    "李娜: 我不吃香菜",
]


@pytest.fixture
def embeddings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COWDREAM_DREAM_EMBEDDINGS", "on")


@pytest.fixture
def root(tmp_path: Path) -> MemoryRoot:
    (tmp_path / "root").mkdir()
    return MemoryRoot.at(tmp_path / "root")


def _night(
    root: MemoryRoot, lines: list[str], day: int, cap: int, section: str = "Daily Summary"
) -> tuple[list[tuple[str, int]], str]:
    """Note ``lines`` on ``day`` May 2027 and dream that night under a cap of ``cap``:
    MEMORY.md's generated items, each with how many lines it cites, and the archive."""
    append_section(root, section, lines, now=datetime(2027, 5, day, 21, 0, tzinfo=ZONE))
    options = DreamOptions(days=7, engine="extractive", max_items=cap)
    report = run_dream(root, options, model=None, now=datetime(2027, 5, day, 23, 58, tzinfo=ZONE))
    assert report.status == "done", report.reason
    doc = parse_memory(root.memory_md.read_text("utf-8"))
    items = [(i.text, sum(len(list(s.lines())) for s in i.sources)) for i in doc.generated]
    assert len(items) <= cap
    return items, root.archive.read_text("utf-8") if root.archive.exists() else ""


def _overflow(archive: str) -> list[str]:
    return [a.text for a in parse_archive(archive) if a.reason == "overflow"]


# -- the pure parts ---------------------------------------------------------------------


def test_a_packed_item_says_its_subject_once() -> None:
    assert (
        packed_text(["The user weighs 84 kg", "The user wants to get under 80 kg"])
        == "The user weighs 84 kg; wants to get under 80 kg"
    )
    assert packed_text(["用户不吃香菜", "用户不喝酒"]) == "用户不吃香菜；不喝酒"
    assert (
        packed_text(["张伟对海鲜过敏", "张伟每周六去游泳"], ["张伟"])
        == "张伟对海鲜过敏；每周六去游泳"
    )
    # what reads as its own subject stays: "The user's", "用户的"
    assert (
        packed_text(["The user runs parkrun", "The user's parkrun best is 26:40"])
        == "The user runs parkrun; The user's parkrun best is 26:40"
    )
    assert packed_text(["用户跑步", "用户的跑鞋是亚瑟士"]) == "用户跑步；用户的跑鞋是亚瑟士"


def test_the_user_packs_by_topic_another_person_by_kinds() -> None:
    parkrun, best = "The user runs parkrun at Heaton Park", "The user's parkrun best is 26:40"
    assert affinity(parkrun, best, 0.88, same_kind=False) is not None
    # the user without a topic word in common: never, however close the embedding
    assert affinity(parkrun, "The user is vegan", 0.95, same_kind=True) is None
    # "like" or "every day" is no topic
    assert affinity("用户不喜欢吃辣", "用户跑步的时候喜欢听播客", 0.9, same_kind=True) is None
    # another person: two kinds of fact about her go together (her allergy, her school) ...
    who = frozenset({"女儿"})
    assert affinity("女儿对花生过敏", "女儿上三年级了", 0.92, same_kind=False, who=who)
    # ... two of one kind without a word in common may be one slot's two values: never
    li = frozenset({"李婷"})
    assert affinity("李婷升任 QA 组长", "李婷负责测试", 0.92, same_kind=True, who=li) is None
    # nor with embeddings too far apart
    assert affinity(parkrun, best, 0.8, same_kind=False) is None


def test_two_values_of_one_slot_never_pack_a_goal_does() -> None:
    rent = "The user's rent is £1,150 a month"
    assert two_values(rent, "The user: rent goes up to £1,240 from 1 November")
    assert affinity(rent, "The user: rent goes up to £1,240 from 1 November", 0.9, True) is None
    assert not two_values("The user weighs 84 kg", "The user wants to get under 80 kg")


def _close(i: int, j: int) -> float | None:
    return 0.9


def test_plan_packs_only_what_the_cap_needs() -> None:
    entries = [Entry(f"The user likes thing {n}", "user") for n in range(5)]
    assert plan(entries, 5, _close, lambda k, x: False) == [[0], [1], [2], [3], [4]]
    # one over the cap: the last one joins a kept item, nothing else moves
    assert plan(entries, 4, _close, lambda k, x: False) == [[0, 4], [1], [2], [3]]


def test_plan_never_packs_two_subjects_nor_a_left_out_entry() -> None:
    entries = [
        Entry("张伟对海鲜过敏", "张伟"),
        Entry("李娜对海鲜过敏", "李娜"),
        Entry("张伟每周六去游泳", "张伟"),
        Entry("李娜每周六去爬山", "李娜", can=False),
    ]
    assert plan(entries, 2, _close, lambda k, x: False) == [[0, 2], [1], [3]]
    # an entry that may only take a freed place (an event) takes it, never packed
    alone = [*entries[:3], Entry("李娜去了趟上海", "李娜", can=False, alone=True)]
    assert plan(alone[:2] + alone[3:], 1, _close, lambda k, x: False) == [[0], [1], [2]]
    assert plan(alone, 2, _close, lambda k, x: False) == [[0, 2], [1], [3]]
    assert plan(alone, 3, _close, lambda k, x: False) == [[0, 2], [1], [3]]
    # an entry a kept one may hold the slot of (perhaps its older value) is not saved
    assert plan(entries, 2, _close, lambda k, x: k == 0 and x == 2) == [[0], [1], [2], [3]]


# -- whole dreams ---------------------------------------------------------------------


@pytest.mark.usefixtures("embeddings")
def test_an_english_memory_under_its_cap_loses_no_fact(root: MemoryRoot) -> None:
    items, archive = _night(root, EN, 3, 5)
    assert not _overflow(archive)
    assert ("The user weighs 84 kg; wants to get under 80 kg by the new year", 2) in items
    texts = "\n".join(t for t, _ in items)
    for needle in ("Hannah", "penicillin", "air traffic", "Heaton Park", "26:40"):
        assert needle in texts, needle


@pytest.mark.usefixtures("embeddings")
def test_with_room_nothing_is_packed(root: MemoryRoot) -> None:
    items, archive = _night(root, EN, 3, 30)
    assert not _overflow(archive)
    assert sorted(n for _, n in items) == [1] * len(EN)


@pytest.mark.usefixtures("embeddings")
def test_a_chinese_memory_packs_one_person_and_one_topic(root: MemoryRoot) -> None:
    items, archive = _night(root, ZH, 3, 6)
    assert not _overflow(archive)
    texts = [t for t, _ in items]
    assert "女儿对花生过敏；上三年级了" in texts
    running = next(t for t in texts if "播客" in t)
    assert "跑五公里" in running  # one topic: the user's running
    # the user's own allergy and her daughter's are two people's: never one item
    assert not any("青霉素" in t and "花生" in t for t in texts)


@pytest.mark.usefixtures("embeddings")
def test_a_group_never_packs_two_members_facts(root: MemoryRoot) -> None:
    items, _ = _night(root, GROUP, 3, 5, section="Trimmed Context")
    texts = [t for t, _ in items]
    assert any("；" in t for t in texts), texts  # it packed ...
    for text in texts:  # ... but never one member's facts with another's
        assert not ("张伟" in text and "李娜" in text), text
    assert "张伟对海鲜过敏；每周六去游泳" in texts


@pytest.mark.usefixtures("embeddings")
def test_a_later_dream_retires_one_clause_of_a_packed_item(root: MemoryRoot) -> None:
    first, _ = _night(root, EN, 3, 5)
    assert ("The user weighs 84 kg; wants to get under 80 kg by the new year", 2) in first
    items, archive = _night(root, ["The user weighs 82 kg now"], 5, 5)
    texts = [t for t, _ in items]
    assert not any("84 kg" in t for t in texts), texts
    # the rest stays, and the new value takes the place of the one it replaced: it is not
    # the one to overflow (both may pack again, the goal being no value of the weight)
    assert any("wants to get under 80 kg by the new year" in t for t in texts), texts
    assert any(t.startswith("The user weighs 82 kg now") for t in texts), texts
    superseded = [a.text for a in parse_archive(archive) if a.reason == "superseded"]
    assert superseded == ["The user weighs 84 kg"]


@pytest.mark.usefixtures("embeddings")
def test_a_later_dream_retires_one_clause_of_a_members_packed_item(root: MemoryRoot) -> None:
    first, _ = _night(root, GROUP, 3, 4, section="Trimmed Context")
    packed = next(t for t, _ in first if t.startswith("张伟对海鲜过敏；"))
    assert "每周六去游泳" in packed
    items, archive = _night(root, ["张伟: 我现在改成每周日去游泳了"], 5, 4, "Trimmed Context")
    texts = [t for t, _ in items]
    # the clauses the change did not touch stay
    assert any(t.startswith("张伟对海鲜过敏") for t in texts), texts
    assert not any("每周六去游泳" in t for t in texts), texts
    superseded = [a.text for a in parse_archive(archive) if a.reason == "superseded"]
    assert superseded == ["张伟每周六去游泳"]


# -- round 28b: what packs, and a packed item losing only what changed -------------------


def test_a_date_number_or_year_is_no_topic_word() -> None:
    assert not topic("用户叫林晓峰，31岁（2027年）") & topic("用户2027年开始戒糖了")
    assert not topic("用户养了一只柴犬") & topic("用户又领养了一只橘猫，一岁")
    assert not topic("The user has run 3 times since 2026") & topic("The user quit sugar in 2026")
    assert affinity("用户叫林晓峰，31岁（2027年）", "用户2027年开始戒糖了", 0.9, False) is None


def test_the_users_health_packs_only_with_health() -> None:
    allergy, cat = "用户对猫毛有点过敏，不过年糕能忍", "用户又领养了一只橘猫，叫年糕"
    assert affinity(allergy, cat, 0.9, same_kind=False) is not None  # one word in common
    assert affinity(allergy, cat, 0.9, same_kind=False, personal=True) is None
    nuts, cats = "用户对花生过敏", "用户对猫毛过敏"
    assert affinity(nuts, cats, 0.9, same_kind=True, personal=True) is not None


def test_a_joined_item_parts_by_statement_each_with_its_subject() -> None:
    text = (
        "用户他们公司在南山科技园，骑车十分钟就到；在一家跨境电商公司当后端工程师；"
        "在公司负责订单系统"
    )
    assert joined_statements(text, frozenset()) == [
        "用户他们公司在南山科技园，骑车十分钟就到",
        "用户在一家跨境电商公司当后端工程师",
        "用户在公司负责订单系统",
    ]
    split = split_joined(text, [True, False, False], frozenset())
    assert split is not None
    assert split.kept == "用户在一家跨境电商公司当后端工程师；在公司负责订单系统"
    assert split.retired == "用户他们公司在南山科技园，骑车十分钟就到"
    assert split_joined(text, [False, False, False], frozenset()) is None
    assert split_joined(text, [True, True, True], frozenset()) is None
    assert joined_statements("The user weighs 84 kg; wants to get under 80 kg", frozenset()) == [
        "The user weighs 84 kg",
        "The user wants to get under 80 kg",
    ]


@pytest.mark.usefixtures("embeddings")
def test_a_packed_item_loses_only_the_statement_a_move_changed(root: MemoryRoot) -> None:
    lines = [
        "用户他们公司在南山科技园，骑车十分钟就到",
        "用户在一家跨境电商公司当后端工程师",
        "用户在公司负责订单系统",
    ]
    _night(root, lines, 3, 30)
    packed = (
        "用户他们公司在南山科技园，骑车十分钟就到；在一家跨境电商公司当后端工程师；"
        "在公司负责订单系统"
    )
    root.memory_md.write_text(
        f"# MEMORY\n\n## 工作与学习\n- {packed} <!-- src: memory/2027-05-03.md#L4-L6 -->\n",
        encoding="utf-8",
    )
    items, archive = _night(root, ["用户: 公司已经搬到福田了，我还住西丽"], 5, 30)
    texts = "\n".join(t for t, _ in items)
    assert "后端工程师" in texts and "订单系统" in texts, texts  # the job stays
    superseded = [a.text for a in parse_archive(archive) if a.reason == "superseded"]
    assert not any("后端工程师" in s or "订单系统" in s for s in superseded), superseded


def test_a_value_held_beside_a_goal_is_still_a_value() -> None:
    held = "The user weighs 84 kg and wants to get under 80 by the new year"
    assert two_values("The user is at 81 kg now, almost there", held)
    assert not two_values("The user weighs 84 kg", "The user wants to get under 80 kg")
