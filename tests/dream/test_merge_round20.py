"""Restatements the merges missed (round 20): the same value of a thing said by two
members, and a restatement that shows only once a clause of its line has left (a day gone
by). Both merge into one item citing both lines; a person's own fact said by two members,
a new value, or someone's age or medicine stays apart. Examples of this file's own."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from memory.daily_notes import append_section
from memory.dream import DreamOptions, run_dream
from memory.dream.judge.again import of_a_thing, told_again
from memory.dream.judge.relations import Said
from memory.memory_file import parse_memory
from memory.paths import MemoryRoot

ZONE = ZoneInfo("Asia/Shanghai")


def _said(text: str, subject: str, kind: str = "fact") -> Said:
    return Said(text, subject, kind)


def test_a_thing_two_members_tell_of() -> None:
    assert of_a_thing(_said("Leo: still €40 for the window cleaner though right", "Leo"))
    assert of_a_thing(_said("物业费每月320元，三家平摊", "周琳"))
    assert not of_a_thing(_said("Leo: I pay €40 for the window cleaner", "Leo"))
    assert not of_a_thing(_said("马超：我每月交320元", "马超"))
    assert not of_a_thing(_said("马超：她每月交320元", "马超"))
    # an age, a job, a health matter is always someone's own
    assert not of_a_thing(_said("Tom: 30 and still a student", "Tom", "identity"))
    assert not of_a_thing(_said("马超：二甲双胍500mg，一天两次", "马超", "health"))


def test_the_same_value_of_one_thing_from_two_members() -> None:
    fee = _said("周琳：物业费每月320元，三家平摊", "周琳")
    again = _said("马超：物业费还是每月320元吧", "马超")
    assert told_again(fee, again, 0.93)
    assert told_again(again, fee, 0.93)
    # another value, a far embedding, no value, or one subject: not this judgement's
    assert not told_again(fee, _said("马超：物业费涨到每月350元了", "马超"), 0.95)
    assert not told_again(fee, again, 0.85)
    assert not told_again(fee, again, None)
    assert not told_again(
        _said("周琳：物业费三家平摊", "周琳"), _said("马超：物业费平摊", "马超"), 0.95
    )
    assert not told_again(fee, _said("物业费还是每月320元吧", "周琳"), 0.95)
    # a person's own: nothing tells whose it is
    mine = _said("周琳：我每月交物业费320元", "周琳")
    assert not told_again(mine, _said("马超：我每月交物业费320元", "马超"), 0.99)


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MemoryRoot:
    monkeypatch.setenv("COWDREAM_DREAM_EMBEDDINGS", "on")  # the merges read embeddings
    (tmp_path / "root").mkdir()
    return MemoryRoot.at(tmp_path / "root")


def _dream(
    root: MemoryRoot, first: list[str], later: list[str], section: str = "Trimmed Context"
) -> list[tuple[str, list[str]]]:
    """MEMORY.md's generated items with the lines they cite, after one dream on 6 May 2027
    over ``first`` (noted on 3 May) and ``later`` (on 6 May)."""
    for day, lines in ((3, first), (6, later)):
        append_section(root, section, lines, now=datetime(2027, 5, day, 21, 0, tzinfo=ZONE))
    options = DreamOptions(days=7, engine="extractive", max_items=30)
    report = run_dream(root, options, model=None, now=datetime(2027, 5, 6, 23, 58, tzinfo=ZONE))
    assert report.status == "done", report.reason
    doc = parse_memory(root.memory_md.read_text("utf-8"))
    return [(i.text, [str(s) for s in i.sources]) for i in doc.generated]


FIRST = ["周琳：大家好", "周琳：物业费每月320元，三家平摊", "马超：我在医院上班"]


def test_two_members_giving_one_fee_are_one_item(root: MemoryRoot) -> None:
    items = _dream(root, FIRST, ["马超：物业费还是每月320元吧", "周琳：对"])
    fees = [(text, refs) for text, refs in items if "物业费" in text]
    assert len(fees) == 1, items
    text, refs = fees[0]
    assert "三家平摊" in text  # the fuller wording
    assert len(refs) == 2  # both lines cited
    assert any("医院" in text for text, _ in items)


def test_a_new_fee_from_another_member_is_no_restatement(root: MemoryRoot) -> None:
    items = _dream(root, FIRST, ["马超：物业费下个月起涨到每月350元", "周琳：好吧"])
    assert any("350" in text for text, _ in items), items


def test_two_members_own_medicine_stays_apart(root: MemoryRoot) -> None:
    first = ["周琳：大家好", "周琳：每天吃二甲双胍500mg", "马超：我在医院上班"]
    items = _dream(root, first, ["马超：二甲双胍500mg，一天两次", "周琳：保重"])
    assert len([text for text, _ in items if "二甲双胍" in text]) == 2, items


def test_a_restatement_left_once_a_passed_plan_leaves(root: MemoryRoot) -> None:
    first = ["李雷提醒大家王芳对芒果过敏，5月4日聚餐别点芒果班戟"]
    later = ["王芳又说了一遍她对芒果过敏，点外卖时注意"]
    items = _dream(root, first, later, "Daily Summary")
    mango = [(text, refs) for text, refs in items if "芒果过敏" in text]
    assert len(mango) == 1, items
    text, refs = mango[0]
    assert "外卖" in text and "班戟" not in text
    assert sorted(r.split("#")[0] for r in refs) == ["memory/2027-05-03.md", "memory/2027-05-06.md"]
