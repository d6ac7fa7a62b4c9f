"""Round 13: an old value leaves for the archive as ``superseded`` whenever a newer value of
the same subject's slot is kept, whether or not the old value was itself an item: a line the
classifier left out as chatter, a clause retired from an item that then left whole. Never
across people. Examples of this file's own."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import numpy as np
import pytest

from memory.daily_notes import append_section
from memory.dream import DreamOptions, run_dream
from memory.dream.extractive import Cluster, ExtractiveEngine, Statement
from memory.dream.retire import WORTH_JUDGING, left_out_olds
from memory.memory_file import parse_archive, parse_memory
from memory.paths import MemoryRoot
from memory.provenance import SourceRef

ZONE = ZoneInfo("Asia/Shanghai")


def _statement(
    text: str, day: int, line: int, subject: str = "user", speaker: str = ""
) -> Statement:
    ref = SourceRef(f"memory/2026-03-{day:02d}.md", line, line)
    st = Statement(text, (ref,), date(2026, 3, day), line, subject=subject, speaker=speaker)
    return st


def _cluster(st: Statement) -> Cluster:
    cluster = Cluster()
    cluster.add(st)
    return cluster


def _retired(left: list[Statement], kept: list[Statement]) -> list[tuple[str, str]]:
    """What :func:`left_out_olds` retires, the statements embedded as a dream embeds them."""
    from memory.search.embeddings.local import LocalProvider

    everything = [*left, *kept]
    vectors = np.asarray(
        LocalProvider().embed_passages([s.text for s in everything]), dtype=np.float32
    )
    for st, vector in zip(everything, vectors, strict=True):
        st.vector = vector
    found = left_out_olds(left, [_cluster(k) for k in kept], ExtractiveEngine()._retires)
    return [(old.text, by.head.text) for old, by in found]


def test_a_left_out_old_value_is_retired_by_the_kept_new_one() -> None:
    old = _statement("用户：老板说工资涨到一万二", 3, 4)
    new = _statement("用户：更正一下，工资是一万三，不是一万二", 9, 2)
    other = _statement("用户：周末去爬了紫金山", 9, 3)
    assert _retired([old], [new, other]) == [(old.text, new.text)]


def test_never_across_people_nor_backwards_nor_on_a_doubt() -> None:
    mine = _statement("用户月薪一万二", 3, 4)
    hers = _statement("用户的姐姐月薪一万三", 9, 2, subject="user/sister")
    assert _retired([mine], [hers]) == []
    later = _statement("用户月薪一万二", 12, 4)  # said after the kept value: not replaced
    assert _retired([later], [_statement("用户月薪一万三", 9, 2)]) == []
    doubt = _statement("用户月薪好像是一万三？", 9, 2)
    assert _retired([mine], [doubt]) == []


def test_another_speaker_without_a_word_of_change_decides_nothing() -> None:
    said = _statement("陈默：我每月房租四千二", 3, 4, subject="陈默", speaker="陈默")
    other = _statement("陈默每月房租四千五", 9, 2, subject="陈默", speaker="许然")
    assert _retired([said], [other]) == []
    moved = _statement("陈默的房租改成四千五了", 9, 2, subject="陈默", speaker="许然")
    assert _retired([said], [moved]) == [(said.text, moved.text)]


def test_clear_chatter_is_not_judged() -> None:
    old = _statement("用户月薪一万二", 3, 4)
    old.judgement = None
    assert _retired([old], [_statement("用户月薪涨到一万三了", 9, 2)])
    assert WORTH_JUDGING < 1.0


@pytest.fixture
def root(tmp_path: Path) -> MemoryRoot:
    (tmp_path / "root").mkdir()
    return MemoryRoot.at(tmp_path / "root")


def _note(root: MemoryRoot, day: int, lines: list[str]) -> None:
    append_section(root, "Trimmed Context", lines, now=datetime(2026, 3, day, 21, 0, tzinfo=ZONE))


def test_a_clause_retired_before_its_item_left_is_archived_too(root: MemoryRoot) -> None:
    _note(root, 2, ["用户: 我现在住在鼓楼区，每个月房租3500", "用户: 我在一家设计公司做平面设计"])
    _note(root, 5, ["用户: 新家的房租是4200"])
    _note(root, 8, ["用户: 已经搬好了，现在住在建邺区"])
    options = DreamOptions(days=10, engine="extractive", max_items=30)
    report = run_dream(root, options, model=None, now=datetime(2026, 3, 8, 23, 58, tzinfo=ZONE))
    assert report.status == "done", report.reason
    items = [i.text for i in parse_memory(root.memory_md.read_text("utf-8")).generated]
    archive = parse_archive((root.path / "memory" / "archive.md").read_text("utf-8"))
    superseded = [a.text for a in archive if a.reason == "superseded"]
    assert any("4200" in i for i in items) and any("建邺" in i for i in items)
    assert not any("3500" in i or "鼓楼" in i for i in items)
    assert any("3500" in a for a in superseded), superseded
    assert any("鼓楼" in a for a in superseded), superseded
    assert any("平面设计" in i for i in items)
