"""Round 23 (issue 10): dated changes.

A change told with a day gone by ("we moved to Exeter last month", "Biscuit passed away
last week", "上个月换到了社保局上班") has taken effect on that day: a fact as of then, no
event of the day, so it may give a new value for what was said before it. A change dated
ahead stays a plan, and what happened on a day with no change in it moves no one. The
examples are this file's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from two_days import dream_two_days

from memory.dream.extractive import ExtractiveEngine, _in_effect
from memory.dream.judge.dates import took_effect
from memory.dream.judge.relations import Said
from memory.dream.judge.single_slots import disposed, swapped

IN_EFFECT = [
    "The user: We moved to Exeter in April 2027, the new place is lovely",
    "Dev: started a new job as a bus driver in the week of 2027-05-03",
    "用户2027年4月搬到了无锡",
    "Ana: Biscuit passed away in the week of 2027-04-26",
    "用户：外婆2027年4月去世了",
]
NOT_IN_EFFECT = [
    "The user will move to Exeter in June 2027",
    "用户打算2027年6月搬到无锡",
    "The user had dinner with Sam on 2027-05-02",
    "用户2027年5月2日和同学吃了火锅",
]


@pytest.mark.parametrize("text", IN_EFFECT)
def test_a_change_made_on_a_day_gone_by_took_effect(text: str) -> None:
    assert took_effect(text)


@pytest.mark.parametrize("text", NOT_IN_EFFECT)
def test_a_plan_or_a_days_doings_took_no_effect(text: str) -> None:
    assert not took_effect(text)


def test_a_named_pet_passed_away_is_gone() -> None:
    newer = "Ana: Biscuit passed away in the week of 2027-04-26, we got a puppy"
    older = "Ana has a hamster called Biscuit"
    assert disposed(newer, older)
    assert swapped(newer, older) == "gone"


def test_a_pet_passed_away_beside_another_name_is_not_gone() -> None:
    assert not disposed("Ana: Pepper passed away last week", "Ana has a hamster called Biscuit")


def test_a_dated_change_gone_by_is_a_fact_as_of_its_day() -> None:
    # the change model weighs it as a fact, not an event of the day
    assert _in_effect(Said("The user: We moved to Exeter in April 2027", "user", "event"))
    assert not _in_effect(Said("The user: We move to Exeter in June 2027", "user", "plan", True))
    assert not _in_effect(Said("The user had dinner with Sam on 2027-05-02", "user", "event"))


def test_the_one_day_check_lets_an_end_gone_by_through() -> None:
    newer = Said("The user: Clover passed away in the week of 2027-04-26", "user", "people")
    older = Said("The user has a rabbit named Clover", "user", "people")
    assert ExtractiveEngine._rules_change(newer, older)
    dinner = Said("The user had dinner with Clover's vet on 2027-05-02", "user", "event")
    assert not ExtractiveEngine._rules_change(dinner, older)


def test_a_move_last_month_retires_the_old_town(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path, ["The user lives in Norwich"], ["User: we moved to Exeter last month, so happy"]
    )
    assert "Exeter" in items
    assert "Norwich" not in items
    assert "Norwich" in archive


def test_a_move_last_month_in_chinese_retires_the_old_city(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path, ["用户住在无锡"], ["用户：上个月搬到了常州，离公司近"]
    )
    assert "常州" in items
    assert "用户住在无锡" not in items
    assert "用户住在无锡" in archive


def test_a_pet_that_passed_away_last_week_is_retired(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path,
        ["The user has a rabbit named Clover"],
        ["User: Clover passed away last week, we took in a guinea pig called Pip"],
    )
    assert "Pip" in items
    assert "has a rabbit named Clover" not in items
    assert "Clover" in archive


def test_a_move_dated_ahead_replaces_nothing_yet(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path, ["The user lives in Norwich"], ["User: we will move to Exeter next month"]
    )
    assert "Norwich" in items
    assert "Norwich" not in archive
