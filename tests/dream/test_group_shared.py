"""A group's shared things (a rota, a practice night, a meeting) said by different members
are compared as one subject's; a member's own facts stay theirs (:mod:`judge.shared`).
Examples of this file's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.dream.judge.shared import reported, shared_thing
from memory.paths import MemoryRoot
from tests.dream.two_days import group_dream

MEMBERS = frozenset({"Priya", "Owen", "Lena", "陈晨", "李想"})


def test_a_thing_the_group_shares() -> None:
    assert shared_thing("choir practice is on Tuesdays at 7", MEMBERS)
    assert shared_thing("heads up, the gym's opening hours are 6 to 10 now", MEMBERS)
    assert shared_thing("our kit order goes in on Friday", MEMBERS)
    assert shared_thing("我们的例会在周二晚上", MEMBERS)
    assert shared_thing("下周的团建改到周日了", MEMBERS)


def test_a_members_own_fact_is_not_shared() -> None:
    assert not shared_thing("I work at the garden centre on Ferry Road", MEMBERS)
    assert not shared_thing("she's on nights at the depot now", MEMBERS)  # maybe the speaker
    assert not shared_thing("Owen drives the minibus", MEMBERS)  # a member named
    assert not shared_thing("Mum's party moved to Sunday", MEMBERS)  # a relation's
    assert not shared_thing("Moved to Leith last week, lovely flat", MEMBERS)  # subject dropped
    assert not shared_thing("搬好了，现在住南山", MEMBERS)  # 我 dropped: the speaker's own
    assert not shared_thing("我在图书馆上班", MEMBERS)
    assert not shared_thing("", MEMBERS)


def test_a_summary_reports_whose_words() -> None:
    assert reported("Lena said the hall is booked till June") == (
        "Lena",
        "the hall is booked till June",
    )
    assert reported("The hall is booked till June") is None


@pytest.fixture
def root(tmp_path: Path) -> MemoryRoot:
    (tmp_path / "root").mkdir()
    return MemoryRoot.at(tmp_path / "root")


FIRST = [
    "Priya: morning all",
    "Priya: choir practice is on Tuesdays at 7",
    "Owen: I work at the garden centre on Ferry Road",
    "Lena: I'm a dentist in Leith",
]


def _dream(
    root: MemoryRoot, later: list[str], first: list[str] = FIRST
) -> tuple[list[str], list[str]]:
    return group_dream(root, first, later)


def test_another_member_moves_the_groups_practice(root: MemoryRoot) -> None:
    items, superseded = _dream(root, ["Owen: choir practice moved to Thursdays, same time"])
    assert any("Thursdays" in i for i in items)
    assert not any("Tuesdays" in i for i in items), items
    assert any("Tuesdays" in a for a in superseded), superseded
    assert any("garden centre" in i for i in items) and any("dentist" in i for i in items)


def test_our_meeting_moved_by_another_member(root: MemoryRoot) -> None:
    first = ["陈晨：大家好", "陈晨：我们的例会在周二晚上", "李想：我在图书馆上班"]
    items, superseded = _dream(root, ["李想：我们的例会改到周四晚上了", "陈晨：好的"], first)
    assert any("例会" in a for a in superseded), superseded
    assert any("图书馆" in i for i in items)


def test_two_members_disagreeing_retire_nothing(root: MemoryRoot) -> None:
    items, superseded = _dream(root, ["Lena: choir practice is on Thursdays at 7", "Owen: ok"])
    assert any("Tuesdays" in i for i in items) and any("Thursdays" in i for i in items)
    assert superseded == []


def test_a_members_own_fact_never_retires_anothers(root: MemoryRoot) -> None:
    later = ["Lena: I work at the garden centre on Canal Street now", "Priya: congrats"]
    items, superseded = _dream(root, later)
    assert any("Ferry Road" in i for i in items) and any("Canal Street" in i for i in items)
    assert superseded == []
