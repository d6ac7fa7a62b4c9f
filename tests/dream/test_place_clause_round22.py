"""A place inside a clause is the part a move changes (issue 10, round 22).

"Amira is a dentist in Leeds" and then "Amira is moving to York": the place leaves, the
job stays (``clauses.split_place``); a move that says nothing else changes no statement
naming no place (``clauses.moves_only``); an English "and" before a subject of its own
("…and i cycle there") parts a packed line when one of its clauses changes. The rules of
``relations.replaces`` need a real shared slot: a change of another thing of the topic
("moved the coffee machine", "把跑步时间改到晚上", "现在住的小区…") replaces nothing, and a stop
ends the older's thing only when said of it ("quit the drama club" ends no "swimming
club", "女儿的钢琴老师退了" no piano). Every sentence here is this file's own.
"""

from __future__ import annotations

import pytest

from memory.dream.judge.clauses import (
    Split,
    changed_clauses,
    moves_only,
    packed,
    parts,
    split_at,
    split_place,
)
from memory.dream.judge.relations import Said, replaces, subject_of
from memory.dream.similarity import features


def _said(text: str, subject: str = "user", kind: str = "fact") -> Said:
    return Said(text, subject, kind, False)


def _read(text: str) -> Said:
    return Said(text, subject_of(text), features(text).kind, False)


# (older, newer, subject, kept, retired)
MOVES = [
    (
        "The user's sister Amira is a dentist in Leeds",
        "The user's sister Amira is moving to York",
        "user/sister",
        "The user's sister Amira is a dentist",
        "The user's sister Amira is in Leeds",
    ),
    (
        "The user works at Boots in Derby",
        "The user moved to Nottingham last month",
        "user",
        "The user works at Boots",
        "The user works in Derby",
    ),
    (
        "用户的表哥叫李强，在武汉做会计",
        "李强调到长沙了",
        "user/cousin",
        "用户的表哥叫李强，做会计",
        "李强在武汉",
    ),
    (
        "用户在苏州一家医院当护士",
        "用户搬到无锡了",
        "user",
        "用户在一家医院当护士",
        "用户在苏州",
    ),
]


@pytest.mark.parametrize(("older", "newer", "subject", "kept", "retired"), MOVES)
def test_a_move_retires_the_place_and_keeps_the_rest(
    older: str, newer: str, subject: str, kept: str, retired: str
) -> None:
    old, new = _said(older, subject), _said(newer, subject)
    assert replaces(new, old)
    assert split_place(old, new) == Split(kept, retired)


NO_PLACE_SPLIT = [
    # another thing moved, not the subject
    ("The user is a nurse in Austin", "The user's office moved to Dallas", "user"),
    # the speaker moved, not the one the older is about
    ("陈丽：王涛在深圳做程序员", "陈丽搬家了，搬到福田了", "陈丽"),
    # the same place, more closely
    ("用户在重庆做设计", "用户搬到重庆市区了", "user"),
    # the place is the whole fact: the whole statement is the old value
    ("The user lives in Leeds", "The user moved to York", "user"),
    ("用户在上海工作", "用户搬到杭州了", "user"),
]


@pytest.mark.parametrize(("older", "newer", "subject"), NO_PLACE_SPLIT)
def test_no_place_split_without_a_move_of_the_subject_from_a_modifier_place(
    older: str, newer: str, subject: str
) -> None:
    assert split_place(_said(older, subject), _said(newer, subject)) is None


def test_a_bare_move_changes_no_statement_naming_no_place() -> None:
    older = _said("The user's brother Omar is a chef", "user/brother")
    move = _said(
        "The user's brother Omar is moving to Glasgow for a restaurant job", "user/brother"
    )
    assert moves_only(move, older)
    # it says more than the move: the rest may change the older
    more = _said("Omar's moving to Glasgow, so Sam is the chef now", "user/brother")
    assert not moves_only(more, older)
    # an older naming a place is the move's to judge
    placed = _said("The user's brother Omar is a chef in Bath", "user/brother")
    assert not moves_only(move, placed)


def test_and_before_a_subject_of_its_own_parts_a_changed_line() -> None:
    older = _said("The user: i work at the library on sundays and i cycle there")
    split = parts(older)
    assert split is not None
    assert split.clauses == ("i work at the library on sundays", "i cycle there")
    # the change judgement reads the line as it was trained to: one clause
    assert not packed(older)
    newer = _said("The user: got a job at the leisure centre instead, mondays after school")
    hits = changed_clauses(older, newer)
    assert hits == [True, False]
    assert split_at(older, hits) == Split(
        "The user: i cycle there", "The user: i work at the library on sundays"
    )


@pytest.mark.parametrize(
    "text",
    [
        "The user said Tom and I went to Leeds",
        "The user said she and I met at school",
        "The user loves Whitby and we go every year",
    ],
)
def test_a_joint_subject_is_no_clause_of_its_own(text: str) -> None:
    assert parts(_said(text)) is None


# Pairs of this file's own: an older statement and a newer one sharing a topic word or a
# change word that changes nothing of it (each a false positive of a rule before).
NOT_CHANGED = [
    ("The user drinks oat milk lattes", "The user moved the coffee machine to the kitchen"),
    ("The user is vegetarian", "The user now eats more beans for protein"),
    ("用户每天早上喝美式咖啡", "用户换了一个新的咖啡杯"),
    ("用户每天跑步5公里", "用户把跑步时间改到晚上了"),
    ("用户坐地铁上班", "用户现在住的小区离地铁近"),
]


@pytest.mark.parametrize(("older", "newer"), NOT_CHANGED)
def test_a_change_of_another_thing_of_the_topic_replaces_nothing(older: str, newer: str) -> None:
    assert not replaces(_read(newer), _read(older))


# And the changes the rules must keep finding.
CHANGED = [
    ("The user lives in Bristol", "The user moved to Bath"),
    ("The user works at Tesco", "The user now works at Aldi"),
    ("The user drinks green tea", "The user switched to coffee"),
    ("The user weighs 80 kg", "The user weighs 77 kg"),
    ("用户住在成都武侯区", "用户搬到了成华区"),
    ("用户喜欢喝绿茶", "用户改喝红茶了"),
    ("用户的房租每月4500元", "用户的房租涨到4800元了"),
    ("用户坐地铁上班", "用户现在改骑车上班了"),
    ("The user takes the bus to work", "The user switched to cycling to work"),
]


@pytest.mark.parametrize(("older", "newer"), CHANGED)
def test_the_rules_still_find_real_changes(older: str, newer: str) -> None:
    assert replaces(_read(newer), _read(older))


# A stop ends the older's thing only when it is said of that thing: the object after the stop
# (most of its words the older's, beyond when it happens), or the last word before it.
STOPPED_OTHER = [
    ("The user goes to yoga on Tuesdays", "The user no longer goes to the Tuesday pottery class"),
    ("The user's son plays football at school", "The user's son stopped taking the school bus"),
    (
        "The user works from home on Fridays",
        "The user stopped going to the office gym on Fridays",
    ),
    ("用户在家附近的超市买菜", "用户不再去家附近的健身房了"),
    ("The user cycles to the station", "The user stopped parking at the station"),
    ("The user reads before bed", "The user stopped using the phone before bed"),
    ("The user volunteers at the food bank on Thursdays", "The user quit the Thursday choir"),
    ("The user's daughter goes to swimming club", "The user's daughter quit the drama club"),
]


@pytest.mark.parametrize(("older", "newer"), STOPPED_OTHER)
def test_a_stop_of_another_thing_ends_nothing(older: str, newer: str) -> None:
    assert not replaces(_read(newer), _read(older))


def test_a_stop_before_which_another_thing_stands_ends_nothing() -> None:
    older = _said("用户的女儿在学钢琴", "user/daughter")
    assert not replaces(_said("女儿的钢琴老师退了", "user/daughter"), older)


STOPPED = [
    ("The user takes the bus to work", "The user stopped taking the bus", "user"),
    ("用户每天吃阿司匹林", "用户不再吃阿司匹林了", "user"),
    ("The user goes to yoga on Tuesdays", "The user stopped going to yoga", "user"),
    ("The user takes a statin at night", "The user stopped the statin", "user"),
    ("用户的妈妈每天吃二甲双胍", "医生说二甲双胍不吃了，换成别的药", "user/mother"),
    ("Mr Hale is the user's landlord", "Mr Hale is no longer the landlord", "user"),
    (
        "The user's dad has home carers twice a day",
        "The user's dad's home carers have stopped",
        "user/father",
    ),
]


@pytest.mark.parametrize(("older", "newer", "subject"), STOPPED)
def test_a_stop_of_the_older_thing_still_ends_it(older: str, newer: str, subject: str) -> None:
    assert replaces(_said(newer, subject), _said(older, subject))


# The same plan on another day, said with no word of a change, is another occurrence.
OCCURRENCES = [
    ("The user has physio on 2027-03-03", "The user has physio on 2027-03-10"),
    ("用户2027-04-02去医院复查", "用户2027-05-07去医院复查"),
    ("The user's book club meets on 2027-06-01", "The user's book club meets on 2027-07-06"),
]
MOVED_PLANS = [
    ("The user has physio on 2027-03-03", "The user's physio moved to 2027-03-05"),
    ("用户2027-04-02去医院复查", "用户的复查改到2027-04-09了"),
    ("The user's book club meets on 2027-06-01", "The book club is on 2027-06-08 instead"),
]


@pytest.mark.parametrize(("older", "newer"), OCCURRENCES)
def test_another_date_without_a_change_word_is_another_occurrence(older: str, newer: str) -> None:
    assert not replaces(_said(newer, kind="plan"), _said(older, kind="plan"))


@pytest.mark.parametrize(("older", "newer"), MOVED_PLANS)
def test_a_plan_said_moved_still_takes_its_new_date(older: str, newer: str) -> None:
    assert replaces(_said(newer, kind="plan"), _said(older, kind="plan"))
