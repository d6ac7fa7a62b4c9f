"""One fact said again by what it names (:mod:`memory.dream.judge.again`): the same value of
the same thing, written another way, merges; another value, another thing, another person,
a negation or a plan beside what came of it stays apart."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from memory.daily_notes import append_section
from memory.dream import DreamOptions, run_dream
from memory.dream.judge.again import says_again, values
from memory.dream.judge.relations import Said
from memory.dream.similarity import features, negation_conflict, supersedes
from memory.memory_file import parse_memory
from memory.paths import MemoryRoot

ZONE = ZoneInfo("Asia/Shanghai")


def _said(text: str, kind: str = "health", subject: str = "user", future: bool = False) -> Said:
    return Said(text, subject, kind, future)


def test_values_are_one_form_however_written() -> None:
    assert values("站会改到上午9点半") == values("站会时间是 9:30")
    assert values("dinner at 7pm") == values("dinner at 19:00")
    assert values("moved to 15 December") == values("on 2026-12-15")
    assert values("upped to 10mg") == values("still on 10 mg")
    assert values("on 2026-12-15") != values("on 2026-12-16")


def test_the_same_value_of_the_same_thing_is_said_again() -> None:
    upped = _said("The user: Doctor upped the amlodipine to 10mg from 2026-06-08")
    still = _said("The user: Still on the 10mg amlodipine")
    assert says_again(upped, still, 0.92)
    moved = _said("Cardiology is moved to 15 December, same time", "plan", future=True)
    dated = _said("Cardiology on 2026-12-15, the user is taking her", "plan", future=True)
    assert says_again(moved, dated, 0.91)


def test_another_value_another_thing_or_a_far_embedding_stays_apart() -> None:
    upped = _said("The user: Doctor upped the amlodipine to 10mg")
    assert not says_again(upped, _said("The user: Still on the 5mg amlodipine"), 0.95)
    assert not says_again(upped, _said("The user: Takes 10mg of statin at night"), 0.91)
    assert not says_again(upped, _said("The user: Still on the 10mg amlodipine"), 0.85)
    assert not says_again(upped, _said("The user: Still on the 10mg amlodipine"), None)


def test_never_two_people_nor_a_plan_and_what_came_of_it() -> None:
    mine = _said("用户对青霉素过敏，看病要说")
    hers = _said("用户对青霉素过敏，看病要说", subject="user/mother")
    assert not says_again(mine, hers, 0.99)
    plan = _said("用户要搬家了，2026-09-12搬到滨江区", "event", future=True)
    done = _said("用户：搬完了，2026-09-12起住滨江区", "event")
    assert not says_again(plan, done, 0.96)


def test_a_negation_worded_otherwise_is_the_same_negation() -> None:
    one = _said("用户喝咖啡不加糖，少冰", "preference")
    two = _said("用户：咖啡不要加糖，上次你推荐的店给用户加了", "preference")
    assert not negation_conflict(one.text, two.text)
    assert says_again(one, two, 0.96)
    assert negation_conflict("用户喝咖啡不加糖", "用户喝咖啡要加糖")
    assert negation_conflict("The user did not pay the rent", "The user did pay the rent")
    assert not says_again(one, _said("用户喝咖啡加糖，少冰", "preference"), 0.96)


def test_the_value_a_change_moved_to_said_again() -> None:
    changed = _said("用户最近改喝乌龙茶了，觉得绿茶太寡淡", "preference")
    again = _said("用户：还是喜欢喝乌龙茶", "preference")
    assert says_again(changed, again, 0.95)
    # the old value, though inside the change's words, is not what it moved to
    assert not says_again(changed, _said("用户喜欢喝绿茶", "preference"), 0.95)


def test_a_date_moved_is_nobody_s_home() -> None:
    moved = "The user: Hospital rang, cardiology is moved to 15 December, same time"
    assert "home" not in features(moved).families
    assert "home" in features("The user moved to Leeds").families
    selling = "The user is selling Joan's bungalow after the move; the estate agent is Dacre"
    assert not supersedes(moved, selling)


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MemoryRoot:
    monkeypatch.setenv("COWDREAM_DREAM_EMBEDDINGS", "on")  # the merge reads embeddings
    (tmp_path / "root").mkdir()
    return MemoryRoot.at(tmp_path / "root")


def _note(root: MemoryRoot, day: int, lines: list[str]) -> None:
    append_section(root, "Trimmed Context", lines, now=datetime(2026, 6, day, 21, 0, tzinfo=ZONE))


def test_a_dream_keeps_one_item_citing_both_lines(root: MemoryRoot) -> None:
    _note(
        root, 2, ["User: Doctor upped my amlodipine to 10mg from today", "User: I live in Bristol"]
    )
    _note(root, 6, ["User: still on the 10mg amlodipine"])
    options = DreamOptions(days=10, engine="extractive", max_items=30)
    report = run_dream(root, options, model=None, now=datetime(2026, 6, 6, 23, 58, tzinfo=ZONE))
    assert report.status == "done", report.reason
    items = parse_memory(root.memory_md.read_text("utf-8")).generated
    dose = [i for i in items if "amlodipine" in i.text]
    assert len(dose) == 1, [i.text for i in items]
    assert {ref.path for ref in dose[0].sources} == {"memory/2026-06-02.md", "memory/2026-06-06.md"}
    assert any("Bristol" in i.text for i in items)
