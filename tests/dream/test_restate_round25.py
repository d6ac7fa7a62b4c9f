"""Round 25: more restatements merged (one item per fact).

A line mixing two languages is read by what it asserts in its own; a line that says it
tells a fact again (a reminder, "mentioned again", "再次提到") joins the item stating the
fact; two members saying one fact of someone else in the same words are one item; an
identifier ("A100s", "C1") is a value of its own; a year both name beside other values says
when they hold; a restatement of a hand-written item by its values folds into it.
"""

from __future__ import annotations

from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from memory.dream.judge.again import (
    identifiers,
    retold,
    same_words,
    says_again,
    told_as_again,
    values,
)
from memory.dream.judge.relations import Said
from memory.dream.judge.restate import in_chinese, one_language
from memory.paths import MemoryRoot
from tests.dream.two_days import dream_cited

ZONE = ZoneInfo("Europe/London")


def _said(text: str, subject: str = "user", kind: str = "fact") -> Said:
    return Said(text, subject, kind)


def test_a_mixed_line_asserts_in_the_language_of_its_main_clause() -> None:
    assert not in_chinese("用户：I don't eat shellfish, 记一下")
    assert one_language("用户：I don't eat shellfish, 记一下") == "I don't eat shellfish"
    assert in_chinese("Tom：我下周去成都, ok")
    assert one_language("Tom：我下周去成都, ok") == "我下周去成都"
    assert one_language("用户不吃海鲜") == "用户不吃海鲜"  # nothing in the other language


def test_told_again_lines() -> None:
    assert told_as_again("The user mentioned again that he rows on Sundays")
    assert told_as_again("User: reminder that I only take calls after 10")
    assert told_as_again("Maria reminded everyone that the flat has no lift")
    assert told_as_again("用户再次提到自己对芒果过敏")
    assert told_as_again("老周又说了一遍他不喝酒")
    assert not told_as_again("User: set a reminder for 9am tomorrow")
    assert not told_as_again("The user went to the climbing gym again")
    assert not told_as_again("用户又去了一趟医院")


def test_a_retold_fact_names_one_thing_beyond_a_focus_word() -> None:
    told = _said("The user rows only on Sundays")
    assert retold(told, _said("The user rows at the Tyne club every Sunday morning"), 0.9)
    # "only" is no thing: a rule about taking calls is another fact
    assert not retold(told, _said("The user only takes calls after 10"), 0.9)
    assert not retold(told, _said("The user rows at the Tyne club"), 0.8)  # not close
    assert not retold(told, _said("Ana rows at the Tyne club", "Ana"), 0.9)  # another person


def test_two_members_say_one_fact_of_someone_else_in_the_same_words() -> None:
    a = _said("王芳：小明对芒果过敏", "王芳", "health")
    b = _said("李强：小明对芒果过敏，生日蛋糕别放芒果", "李强", "health")
    assert same_words(a, b, 0.95)
    # each speaking of themselves: two people's facts
    mine = _said("王芳：我对芒果过敏", "王芳", "health")
    yours = _said("李强：我对芒果过敏", "李强", "health")
    assert not same_words(mine, yours, 0.97)
    # the same announcing frame, two announcements
    one = _said("王芳：宣布一下，小李升职了", "王芳")
    two = _said("李强：宣布一下，小张转正了", "李强")
    assert not same_words(one, two, 0.95)


def test_an_identifier_is_a_value_of_its_own() -> None:
    assert identifiers("Lab quota: 4 H100s each, room LT2-01") == {"h100", "lt2-01"}
    assert "id=b2" in values("Goal: Spanish B2 by 2028")
    assert not any(v.startswith("num:") and v.endswith("=2") for v in values("Spanish B2"))
    each = _said("Mei: Quota is back to 4 H100s each, the cluster is fixed", "Mei")
    per = _said("Mei: 4 H100s per person until the deadline", "Mei")
    assert says_again(each, per, 0.89)  # one identifier, the same count
    other = _said("Mei: 4 GPUs per person until the deadline", "Mei")
    assert not says_again(each, other, 0.89)


def test_years_both_name_say_when_values_hold() -> None:
    raised = _said("The user raised the rent to €700 from March 2026")
    kept = _said("The user said the rent is now €700 and stays so for 2027")
    assert says_again(raised, kept, 0.91)
    goal = _said("Goal: Spanish B2 by 2028")
    spoken = _said("Languages: Portuguese, Spanish B2, French A1")
    assert not says_again(goal, spoken, 0.93)  # a year only one names is a value


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MemoryRoot:
    monkeypatch.setenv("COWDREAM_DREAM_EMBEDDINGS", "on")
    (tmp_path / "root").mkdir()
    return MemoryRoot.at(tmp_path / "root")


_dream = dream_cited


def test_a_told_again_line_joins_the_item_it_restates(root: MemoryRoot) -> None:
    first = [
        "The user said she has a severe nut allergy, so every meal must be nut-free",
        "The user works as a physiotherapist in Leeds",
        "The user has a cat called Miso",
    ]
    later = ["The user reminded the assistant that she is allergic to nuts and can't eat pesto"]
    items = _dream(root, first, later)
    nuts = [(text, refs) for text, refs in items if "nut" in text]
    assert len(nuts) == 1, items
    assert len(nuts[0][1]) == 2  # the item cites both lines


def test_a_mixed_language_line_joins_its_translation(root: MemoryRoot) -> None:
    first = ["用户不吃海鲜", "用户在杭州做产品经理", "用户养了一只猫，叫年糕"]
    later = ["用户: I don't eat seafood, 记一下"]
    items = _dream(root, first, later)
    food = [(t, r) for t, r in items if "海鲜" in t or "seafood" in t]
    assert len(food) == 1, items
    assert len(food[0][1]) == 2


def test_a_restatement_of_a_hand_written_item_folds_into_it(root: MemoryRoot) -> None:
    root.memory_md.write_text(
        "# MEMORY\n\n## Mine\n- 我的生日是 8 月 20 日（手写，别改）\n", encoding="utf-8"
    )
    items = _dream(root, ["用户在杭州做产品经理"], ["用户: 我的生日是 8 月 20 日，到时候提醒我"])
    assert not any("生日" in text for text, _ in items), items
    assert "- 我的生日是 8 月 20 日（手写，别改）" in root.memory_md.read_text("utf-8")
