"""A new value of a slot is no restatement of the old one, however alike the two read: the
newer line starts its own item and the supersede pass retires the older (a count that
changed used to join the old count's item, which kept the old wording). A newer line that
keeps every word and value of the older adds to it and still merges."""

from __future__ import annotations

from datetime import datetime

import pytest
from mem_support import SHANGHAI, at, generated, note

from memory.dream import DreamOptions, run_dream
from memory.dream.extractive import _keeps
from memory.paths import MemoryRoot

NOW = datetime(2026, 11, 20, 23, 58, tzinfo=SHANGHAI)


def test_keeps_needs_the_older_values_and_most_of_its_words() -> None:
    assert _keeps("用户现在是高级会计了，刚升职", "用户是一名高级会计")
    assert not _keeps("用户现在每周游泳三次了", "用户每周游泳两次")  # the count differs
    assert not _keeps("用户最近爱上了红茶，绿茶不喝了", "用户喜欢喝绿茶")  # one word of two
    assert not _keeps("The user now cycles to work", "")


@pytest.fixture(autouse=True)
def embeddings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Judged with embeddings, as the bot judges it (the restatement merge reads them)."""
    monkeypatch.setenv("COWDREAM_DREAM_EMBEDDINGS", "on")


def _dream(root: MemoryRoot) -> tuple[list[str], dict[str, str]]:
    report = run_dream(root, DreamOptions(days=5, engine="extractive"), model=None, now=NOW)
    assert report.status == "done", report.reason
    items = [t for t, _, _ in generated(root.memory_md)]
    archived = {t: f["reason"] for t, _, f in generated(root.archive)}
    return items, archived


@pytest.mark.parametrize(
    ("old", "new", "old_value", "new_value"),
    [
        ("张强: 我每周打两次羽毛球", "张强: 现在每周打三次羽毛球了", "两次", "三次"),
        ("小美: 我每周去健身房两次", "小美: 现在每周去健身房四次了", "两次", "四次"),
        ("Dana: I swim twice a week", "Dana: I swim three times a week now", "twice", "three"),
    ],
)
def test_a_member_s_changed_count_retires_the_old_count(
    root: MemoryRoot, old: str, new: str, old_value: str, new_value: str
) -> None:
    note(root, at(16, month=11), old)
    note(root, at(19, month=11), new)
    items, archived = _dream(root)
    assert any(new_value in t for t in items), items
    assert not any(old_value in t for t in items), items
    assert [r for t, r in archived.items() if old_value in t] == ["superseded"], archived


def test_a_newer_line_that_adds_to_the_older_is_no_change(root: MemoryRoot) -> None:
    note(root, at(16, month=11), "用户: 我是一名会计")
    note(root, at(19, month=11), "用户: 我现在是高级会计了，刚升职")
    items, archived = _dream(root)
    assert any("高级会计" in t for t in items), items
    assert "superseded" not in archived.values(), archived
