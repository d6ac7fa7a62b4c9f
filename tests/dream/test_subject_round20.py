"""Whom a statement is about, round 20: a kin word a member is called by, a joint subject
(A和B, A and B), and a value that "goes to" a new number. Statements about different
people still never retire one another. Examples of this file's own."""

from __future__ import annotations

from pathlib import Path

from two_days import dream_two_days

from memory.dream.judge.relations import Said, replaces, subject_of
from memory.dream.judge.told_change import clear_change
from memory.memory_file import parse_archive

FAMILY = frozenset({"孙奶奶", "孙建华", "刘芳"})


def test_a_kin_word_names_the_member_called_by_it() -> None:
    assert subject_of("跟大家商量一下，奶奶的生日宴定在周六中午", FAMILY) == "孙奶奶"
    assert subject_of("奶奶的降压药每天吃一片", FAMILY) == "孙奶奶"


def test_a_kin_word_names_no_one_when_no_member_or_two_are_called_by_it() -> None:
    assert subject_of("奶奶的降压药每天吃一片", frozenset()) == "user"
    two = frozenset({"孙奶奶", "王奶奶"})
    assert subject_of("奶奶的降压药每天吃一片", two) == "user"


def test_a_kin_word_after_an_owner_is_the_owners_relation() -> None:
    # "孙建华说爸爸…" framed as "孙建华爸爸…": his father, not a member called by the word
    assert subject_of("孙建华爸爸每天散步一小时", FAMILY) == "孙建华/father"


def test_a_joint_subject_is_the_pair() -> None:
    members = frozenset({"李娜", "刘芳", "Priya", "Owen", "Lena"})
    pair = subject_of("刘芳：宣布一下，李娜和何涛定了五月三号办婚礼", members)
    assert pair == "何涛+李娜"
    assert subject_of("刘芳：李娜和何涛的婚礼改到五月九号", members) == pair
    assert subject_of("Lena: Priya and Owen are on the tea rota", members) == "Owen+Priya"
    assert subject_of("Tom and Sarah moved to Leeds") == "Sarah+Tom"
    assert subject_of("李娜住在福田", members) == "李娜"
    assert subject_of("Tom and I moved to Leeds") == "Tom"  # the first person is no name


def test_a_pair_its_speaker_is_one_of_is_the_speakers_household() -> None:
    # "李娜：我和何涛住在南山", worded: her "we" later ("我们搬到福田了") is hers too
    members = frozenset({"李娜", "刘芳"})
    assert subject_of("李娜：宣布一下，李娜和何涛定了五月三号办婚礼", members) == "李娜"
    assert subject_of("李娜和何涛住在南山", members) == "李娜"


def test_the_pairs_value_changes_the_pairs_not_a_members() -> None:
    members = frozenset({"李娜", "刘芳"})
    old = "刘芳：李娜和何涛住在南山"
    new = "刘芳：李娜和何涛搬到福田了"
    own = "李娜住在罗湖"
    said_old = Said(old, subject_of(old, members), "fact")
    said_new = Said(new, subject_of(new, members), "fact")
    said_own = Said(own, subject_of(own, members), "fact")
    assert said_old.subject == said_new.subject == "何涛+李娜"
    assert replaces(said_new, said_old)
    assert not replaces(said_new, said_own)  # the pair's home is not hers alone


def test_a_relations_value_never_retires_the_users_own() -> None:
    father = "用户的爸爸搬到成都了"
    mine = "用户住在上海"
    new = Said(father, subject_of(father), "fact")
    old = Said(mine, subject_of(mine), "fact")
    assert new.subject == "user/father" and old.subject == "user"
    assert not replaces(new, old)
    kin = "商量一下，奶奶搬到县城了"  # a member's move is not the speaker's
    assert not replaces(Said(kin, subject_of(kin, FAMILY), "fact"), Said(mine, "刘芳", "fact"))


def test_a_value_that_goes_to_a_new_number_says_a_change() -> None:
    assert clear_change("the hall hire goes to £340 a month")
    assert clear_change("停车费涨到300了")
    assert not clear_change("She goes to Riverside Primary")
    assert not clear_change("the rent now goes to the new agent")


def test_another_member_says_the_groups_new_number(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path,
        ["Priya: morning", "Priya: the hall hire is £300 a month", "Owen: I teach piano"],
        ["Owen: bad news, the hall hire goes to £340 a month", "Priya: ugh"],
        first_day=2,
    )
    assert "340" in items, items
    assert "300" not in items, items
    assert any("300" in a.text and a.reason == "superseded" for a in parse_archive(archive))


def test_what_stopped_may_stand_before_the_stop() -> None:
    old = Said("The user: the cleaner comes every Friday morning", "user", "fact")
    new = Said("We moved flats, so the cleaner has stopped", "user", "fact")
    assert replaces(new, old)
    coach = Said("Dara: Mr Quigley coaches the under-12s on Saturdays", "group", "fact")
    gone = Said("Ana said Mr Quigley is no longer the coach; Ms Byrne takes over", "group", "fact")
    assert replaces(gone, coach)


def test_a_stop_before_names_no_one_whose_it_is_nor_a_told_change() -> None:
    mum = Said("Mum swims at the lido on Mondays", "user/mother", "fact")
    stopped = Said("Mum has stopped, she says her knees hurt", "user/mother", "fact")
    assert not replaces(stopped, mum)  # "Mum" is whose it is, not what stopped
    told = Said("Dara: Mr Quigley steps down, Ms Byrne coaches the under-12s now", "group", "fact")
    again = Said("Ana said Mr Quigley is no longer the coach; Ms Byrne takes over", "group", "fact")
    assert not replaces(again, told)  # the older told of the same change


def test_one_telling_another_is_no_pair() -> None:
    members = frozenset({"李娜", "刘芳"})
    assert "+" not in subject_of("刘芳：李娜跟何涛说她换工作了", members)
    assert "+" not in subject_of("李娜跟何涛说她换工作了", members)


def test_who_stops_something_is_not_what_stopped() -> None:
    """A stop with an object ("the surgery dropped his metformin") stops the object: the
    one before it (the surgery) stopped nothing, so a line about it stays."""
    newer = Said("The user: The surgery dropped his metformin to 500mg", "user", "fact")
    older = Said("The user: Surgery visit fine, his GP is Dr Haines", "user", "fact")
    assert not replaces(newer, older)
    assert replaces(newer, Said("The user: He takes metformin 1000mg", "user", "fact"))
