"""A speaker's relation telling something ("王刚：我爸说生日宴改到周六了", "Priya: my dad said
the party moved"): the item keeps who said it ("王刚的爸说…", not "王刚的爸生日宴…", the
father's banquet), and whom it is about is read as a relation named bare is ("我爸说…"):
whom the words name, else the speaker's own. Examples of this file's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.dream.judge.relations import subject_of
from memory.dream.judge.wording import strip_framing, worded
from memory.paths import MemoryRoot
from memory.speaker import split
from tests.dream.two_days import group_dream

MEMBERS = frozenset({"王刚", "孙丽", "Priya", "Owen"})


@pytest.mark.parametrize(
    ("line", "item"),
    [
        ("王刚：我爸说生日宴改到周六了", "王刚的爸说生日宴改到周六了"),
        ("用户：我妈说年夜饭改到饭店吃", "用户的妈说年夜饭改到饭店吃"),
        ("用户：我老公说房贷利率降到3.5%了", "用户的老公说房贷利率降到3.5%了"),
        ("王刚：我说过我对花生过敏", "王刚对花生过敏"),  # the speaker's own, named once
        (
            "Priya: my dad said the party moved to Saturday",
            "Priya's dad said the party moved to Saturday",
        ),
    ],
)
def test_a_relations_words_keep_who_said_them(line: str, item: str) -> None:
    assert worded(split(line)) == item


def test_the_speakers_own_frame_is_still_dropped() -> None:
    assert strip_framing("用户再次提到自己对花生过敏") == "用户对花生过敏"
    assert strip_framing("王刚说他下周去北京出差") == "王刚下周去北京出差"
    assert strip_framing("王刚说过王刚在银行上班") == "王刚在银行上班"


@pytest.mark.parametrize(
    ("line", "subject"),
    [
        # a thing the relation told of: the speaker's line, as "我爸说…" bare is read
        ("王刚：我爸说生日宴改到周六了", "王刚"),
        ("用户：我妈说年夜饭改到饭店吃", "user"),
        ("Priya: my dad said the party moved to Saturday", "Priya"),
        # the words name someone: theirs
        ("用户：我妈说爸爸的手术改到周五了", "user/father"),
        ("User: my mum said Dad's surgery moved to Friday", "user/father"),
        ("User: my mum said dad's surgery moved to Friday", "user/father"),
        # the words open with he/she: the relation's own
        ("用户：我老公说他下个月去上海出差", "user/husband"),
        ("Priya: my dad said he is retiring in May", "Priya/father"),
        # no words reported: the relation's
        ("用户：我爸的生日宴改到周六了", "user/father"),
    ],
)
def test_whom_a_relations_words_are_about(line: str, subject: str) -> None:
    assert subject_of(worded(split(line)), MEMBERS) == subject


def test_a_relative_no_relation_names_stays_apart_from_the_speaker() -> None:
    # "表妹" is no kind of relation the subject reading knows: the cousin's move is not
    # the user's own, so it must not read as "user" (it would retire the user's home)
    assert subject_of(worded(split("用户：我妈说表妹搬到海淀区了")), MEMBERS) != "user"
    assert subject_of(worded(split("User: my mum said cousin Amy moved to Leeds"))) != "user"


@pytest.mark.parametrize(
    ("text", "item"),
    [
        ("刘洋说陈晨在银行上班", "刘洋说陈晨在银行上班"),
        ("用户说陈晨下个月去深圳", "用户说陈晨下个月去深圳"),
        ("用户提到老陈下个月退休", "用户提到老陈下个月退休"),
        # no one else named: the frame goes as before
        ("用户提到周六要加班", "用户周六要加班"),
        ("用户表示对芒果过敏", "用户对芒果过敏"),
    ],
)
def test_a_teller_keeps_the_frame_before_another_persons_name(text: str, item: str) -> None:
    assert strip_framing(text) == item


def test_whom_a_kept_frame_tells_of() -> None:
    names = frozenset({"刘洋", "陈晨"})
    assert subject_of("刘洋说陈晨在银行上班", names) == "陈晨"
    assert subject_of("用户说陈晨下个月去深圳", names) == "陈晨"
    assert subject_of("用户提到老陈下个月退休", names) == "陈晨"


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MemoryRoot:
    monkeypatch.setenv("COWDREAM_DREAM_EMBEDDINGS", "on")  # as the nightly dream reads
    (tmp_path / "root").mkdir()
    return MemoryRoot.at(tmp_path / "root")


def test_a_dream_keeps_who_told_the_news(root: MemoryRoot) -> None:
    first = ["王刚：大家好", "王刚：我在银行上班", "孙丽：我住在海淀区"]
    later = ["王刚：我爸说生日宴改到聚贤楼了", "孙丽：收到"]
    items, _ = group_dream(root, first, later)
    told = [i for i in items if "生日宴" in i]
    assert told and all("爸说生日宴" in i for i in told), items
