"""Whose a statement is: a relation named bare after the user's label is the user's
relation, so a fact about one's mum never retires one's own (and the other way round)."""

from __future__ import annotations

from memory.dream.judge.relations import Said, replaces, subject_of, subject_words

NAMES = frozenset({"张伟"})


def test_bare_relation_after_the_users_label() -> None:
    assert subject_of("The user: Mum moved into Oakwood on 2026-12-08") == "user/mother"
    assert subject_of("The user: Mum's cardiology appointment is 3 December") == "user/mother"
    assert subject_of("The user: GP increased Mum's donepezil to 10mg") == "user/mother"
    assert subject_of("用户：我妈住院了") == "user/mother"
    assert subject_of("The user: my wife is a nurse") == "user/wife"
    assert subject_of("The user lives in Paris") == "user"
    assert subject_of("The user: the doctor is nice") == "user"


def test_member_lines_keep_their_speaker() -> None:
    assert subject_of("张伟：我女儿考上了", NAMES) == "张伟/daughter"
    assert subject_of("张伟：我住在北京", NAMES) == "张伟"
    # a relation the whole group may call so ("奶奶") is no member's own
    assert subject_of("张伟：奶奶83岁了", NAMES) == "张伟"
    # a Chinese line without a label: "妈妈" may be anyone's
    assert subject_of("妈妈血压高") == "user"


def test_subject_words_anchor_no_slot() -> None:
    assert {"mum", "mother", "妈妈"} <= subject_words("user/mother")
    assert subject_words("user") == frozenset()
    newer = Said(
        "The user: Mum's cardiology appointment is 3 December at 2pm", "user/mother", "plan"
    )
    older = Said(
        "The user: GP increased Mum's donepezil to 10mg on 2026-11-30", "user/mother", "plan"
    )
    assert not replaces(newer, older)  # "Mum's" is no measured thing both give a number of


def test_fathers_city_does_not_retire_the_users() -> None:
    newer = Said(
        "The user's father lives in Chengdu",
        subject_of("The user's father lives in Chengdu"),
        "fact",
    )
    older = Said("The user lives in Hangzhou", subject_of("The user lives in Hangzhou"), "fact")
    assert newer.subject == "user/father" and older.subject == "user"
    assert not replaces(newer, older)


def test_a_plan_date_without_a_year_is_the_dated_one() -> None:
    newer = Said("The user's cataract operation on 17 June", "user", "plan")
    older = Said("The user has got a cataract operation on 2026-06-17 at Southmead", "user", "plan")
    assert not replaces(newer, older)  # the same day, written two ways
