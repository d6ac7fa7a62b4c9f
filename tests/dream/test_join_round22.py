"""Entity join (round 22): the details of one named thing of one subject in one item.

A pet, a relative or a client the user names in several lines is one entry of MEMORY.md
("The user has a tabby called Pickle; Pickle is scared of thunder"), citing every line;
two people's facts, a place, a thing only mentioned, or a line telling a change stay
apart. The joined item, a prior item the next night, still loses the part a later line
changes. Examples of this file's own."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from memory.daily_notes import append_section
from memory.dream import DreamOptions, run_dream
from memory.dream.join import Chat, Entry, about, groups, joined, placed, read_chat, things
from memory.memory_file import parse_memory
from memory.paths import MemoryRoot
from tests.dream.two_days import dream_two_days

ZONE = ZoneInfo("Asia/Shanghai")


def _never(i: int, j: int) -> bool:
    return False


def _groups(texts: list[tuple[str, str]], chat: Chat | None = None) -> list[list[str]]:
    entries = [Entry(text, subject) for text, subject in texts]
    chat = chat or read_chat(t for t, _ in texts)
    return [[texts[k][0] for k in group] for group in groups(entries, chat, _never)]


def test_a_pet_named_in_two_lines_is_one_group() -> None:
    got = _groups(
        [
            ("The user has a tabby called Pickle", "user"),
            ("The user works from home on Fridays", "user"),
            ("The user: Pickle is scared of thunder", "user"),
        ]
    )
    assert got == [["The user has a tabby called Pickle", "The user: Pickle is scared of thunder"]]
    assert joined(got[0]) == "The user has a tabby called Pickle; Pickle is scared of thunder"


def test_a_chinese_pet_named_with_jiao() -> None:
    texts = [("用户养了一只兔子，叫年糕。", "user"), ("用户：年糕一岁了，爱吃苹果", "user")]
    chat = read_chat([t for t, _ in texts])
    assert things(Entry(*texts[0]), chat) == frozenset({"年糕"})
    got = _groups(texts, chat)
    assert got == [[t for t, _ in texts]]
    assert joined(got[0]) == "用户养了一只兔子，叫年糕；年糕一岁了，爱吃苹果"
    # the user's and the pet's own subject are two subjects: never joined
    assert not _groups([texts[0], ("用户的兔子年糕一岁了", "user/pet")], chat)


def test_a_client_in_three_lines_stops_at_three_parts() -> None:
    texts = [
        ("The user: New client, Brightwater, a housing charity", "user"),
        ("The user: Brightwater pays on 30-day terms", "user"),
        ("The user: Brightwater wants the logo in teal", "user"),
        ("The user: Brightwater's office manager is lovely", "user"),
    ]
    got = _groups(texts)
    assert got == [[t for t, _ in texts[:3]]]


def test_places_two_subjects_and_mentions_stay_apart() -> None:
    # a place: "in Hull" twice names where, not a thing
    assert not _groups(
        [("The user lives in Hull", "user"), ("The user's sister Ana works in Hull", "user")]
    )
    # where someone lives or works joins nothing (it changes; the supersede pass needs it whole)
    assert placed("The user's aunt Vera lives in a flat in Whitby with her parrot")
    assert placed("用户的表姐小雨在苏州做会计")
    assert not placed("用户的表姐小雨喜欢爬山")
    assert not _groups(
        [
            ("The user's aunt Vera lives in a flat in Whitby", "user/aunt"),
            ("The user: Vera is allergic to penicillin", "user/aunt"),
        ]
    )
    # two members of a group: every line about Tom names Tom, and Rosa's is Rosa's
    members = read_chat(["Tom: hi", "Rosa: hi"], members=["Tom", "Rosa"])
    assert not _groups(
        [("Tom: Tom is a plumber", "Tom"), ("Tom: Tom supports Everton", "Tom")], members
    )
    assert not _groups(
        [("Rosa: Rosa walks Biscuit at eight", "Rosa"), ("Tom: Biscuit is Tom's dog", "Tom")],
        members,
    )
    # only mentioned in the later line: the dinner is the user's evening, not Pickle's detail
    assert not about("The user went out for Pickle's birthday treat", "pickle")
    assert not _groups(
        [
            ("The user has a tabby called Pickle", "user"),
            ("The user and Pickle watched the rain all afternoon", "user"),
        ]
    )


def test_two_languages_and_a_pair_kept_apart_are_not_joined() -> None:
    texts = [("The user has a tabby called Pickle", "user"), ("Pickle 三岁了", "user")]
    assert not _groups(texts)
    entries = [Entry("The user has a tabby called Pickle", "user"), Entry("Pickle is 3", "user")]
    assert not groups(entries, read_chat(e.text for e in entries), lambda i, j: True)


@pytest.fixture
def embeddings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COWDREAM_DREAM_EMBEDDINGS", "on")


@pytest.mark.usefixtures("embeddings")
def test_a_dream_joins_a_pets_details_into_one_item(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path,
        ["The user has a spaniel called Juno", "The user works as a dental nurse in Hull"],
        ["The user: Juno is allergic to chicken"],
    )
    lines = items.splitlines()
    assert "The user has a spaniel called Juno; Juno is allergic to chicken" in lines
    assert "The user works as a dental nurse in Hull" in lines
    assert len(lines) == 2
    assert "merged" not in archive  # a first dream: no prior item to archive


def _night(root: MemoryRoot, lines: list[str], day: int) -> tuple[list[tuple[str, int]], str]:
    """Note ``lines`` on ``day`` May 2027 and dream that night: MEMORY.md's generated items,
    each with how many lines it cites, and the archive."""
    append_section(root, "Daily Summary", lines, now=datetime(2027, 5, day, 21, 0, tzinfo=ZONE))
    options = DreamOptions(days=7, engine="extractive", max_items=30)
    now = datetime(2027, 5, day, 23, 58, tzinfo=ZONE)
    report = run_dream(root, options, model=None, now=now)
    assert report.status == "done", report.reason
    doc = parse_memory(root.memory_md.read_text("utf-8"))
    items = [(i.text, sum(len(list(s.lines())) for s in i.sources)) for i in doc.generated]
    return items, root.archive.read_text("utf-8") if root.archive.exists() else ""


@pytest.mark.usefixtures("embeddings")
def test_the_next_night_keeps_the_join_and_retires_a_changed_part(tmp_path: Path) -> None:
    (tmp_path / "root").mkdir()
    root = MemoryRoot.at(tmp_path / "root")
    first = ["The user has a beagle called Rolo", "The user: Rolo weighs 14 kg"]
    items, _ = _night(root, first, 3)
    assert ("The user has a beagle called Rolo; Rolo weighs 14 kg", 2) in items
    # the next night, nothing new of Rolo: the joined item stays as it is (no re-split)
    again, _ = _night(root, ["The user is learning Spanish"], 4)
    assert ("The user has a beagle called Rolo; Rolo weighs 14 kg", 2) in again
    # then a new weight: the part it changes leaves, the rest of the item stays
    later, archive = _night(root, ["The user: Rolo weighs 16 kg now"], 5)
    texts = [t for t, _ in later]
    assert not any("14 kg" in t for t in texts), texts
    assert any("called Rolo" in t for t in texts), texts
    assert any("16 kg" in t for t in texts), texts
    assert "14 kg" in archive
