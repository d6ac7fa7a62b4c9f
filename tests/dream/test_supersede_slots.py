"""Single-valued slots: another value of where one lives, works, one's job or age replaces
the old one without a word of a change; guards keep plans, one-day events, a value said
again and someone else's value at the subject's from replacing anything."""

from __future__ import annotations

from memory.dream.extractive import ExtractiveEngine
from memory.dream.judge.relations import Said, confirms, holds
from memory.dream.judge.single_slots import at_subject, slot_values, swapped


def _change(newer: str, older: str, who: str = "user", kind: str = "fact") -> bool:
    return ExtractiveEngine._rules_change(Said(newer, who, kind), Said(older, who, kind))


def test_slot_values_by_construction() -> None:
    assert slot_values("王磊在大疆做硬件工程师")["employer"] == frozenset({"大疆"})
    assert slot_values("The user lives in Berlin with her cat")["home"] == frozenset({"berlin"})
    assert slot_values("The user: Mum's 87 today!")["age"] == frozenset({"87"})
    assert "home" not in slot_values("三亚的酒店订好了，住到2027年2月底")
    assert "home" not in slot_values("豆豆在广州新家过了五岁生日")


def test_another_value_swaps_the_same_value_does_not() -> None:
    assert swapped("用户：搬完了，现在住滨江区江南大道这边", "用户现在租在西湖区") == "home"
    assert swapped("王磊在小鹏做自动驾驶的硬件测试", "王磊在大疆做硬件工程师") == "employer"
    assert swapped("陈浩转正了，以后是后端工程师", "陈浩是实习生") == "role"
    assert swapped("用户住在上海浦东", "用户住在上海") == ""  # 上海 in both: the same place
    assert swapped("The user works at Google as a lead", "The user works at Google") == ""
    # two languages share no word whatever they say: no judgement by words
    assert swapped("The user works at DBS Bank", "用户在新加坡做数据分析师") == ""


def test_a_value_naming_the_subject_is_someone_elses() -> None:
    who = frozenset({"王建国"})
    assert at_subject("奶奶83岁了，住在王建国家", who)
    assert swapped("奶奶83岁了，住在王建国家", "王建国现在住在成都青羊区", who) == ""


def test_the_engine_retires_a_swapped_slot_without_a_change_word() -> None:
    assert _change("王磊在小鹏做硬件测试", "王磊在大疆做硬件工程师", who="王磊")
    assert _change("The user lives in Munich", "The user lives in Hamburg")


def test_guards() -> None:
    # a plan does not change the present
    assert not _change("The user will live in Munich from March", "The user lives in Hamburg")
    # what happened on one day moves no one
    assert not _change("王建国2026-11-08全家在成都老房子吃饭", "王建国现在住在青羊区", who="王建国")
    # the value of a move said again goes on from the move
    assert confirms("用户：搬完了，现在住滨江区江南大道这边", "用户2026-09-12搬到滨江区")
    assert not _change("用户：搬完了，现在住滨江区江南大道这边", "用户2026-09-12搬到滨江区")
    # "still" restates
    assert holds("The user: still on 10mg donepezil")
    assert not holds("The user no longer takes it, still fine")
    assert not _change("Joan still takes 2.5mg warfarin", "Still on 10mg donepezil")
