"""The extractive dream's pure judgements: near-duplicates and contradictions."""

from __future__ import annotations

import pytest

from memory.dream.similarity import near_duplicate, negation_conflict, supersedes


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("用户喜欢美式咖啡", "用户很喜欢喝美式咖啡", True),
        ("用户喜欢美式咖啡", "用户喜欢美式咖啡，不加糖", True),  # a negated detail
        ("用户喜欢美式咖啡", "用户不喜欢美式咖啡", False),
        ("用户喜欢美式咖啡", "用户喜欢拿铁咖啡", False),
        ("The user likes americano", "The user really likes americano coffee", True),
        ("The user likes tea", "The user does not like tea", False),
        ("The user wants to take up birding", "The user wants to take up sourdough baking", False),
    ],
)
def test_near_duplicate(a: str, b: str, same: bool) -> None:
    assert near_duplicate(a, b) is same
    assert near_duplicate(b, a) is same


def test_negation_conflict_is_about_shared_content() -> None:
    assert negation_conflict("用户不喜欢香菜", "用户喜欢香菜")
    assert not negation_conflict("用户喜欢美式，不加糖", "用户喜欢美式")


@pytest.mark.parametrize(
    ("newer", "older", "replaces"),
    [
        ("用户改喝美式了", "用户最喜欢拿铁", True),
        ("用户改喝美式了，不喝拿铁", "用户很喜欢美式咖啡", False),  # consistent
        ("用户也喜欢喝绿茶", "用户喜欢拿铁", False),  # no change, not exclusive
        ("The user now lives in Berlin", "The user lives in Paris", True),
        ("用户搬到了北京", "用户住在上海", True),
        ("用户下周五要去上海出差，住在南山区", "用户住在上海", False),  # a trip, not a move
        ("用户不再跑步了", "用户每天早上跑步", True),
    ],
)
def test_supersedes(newer: str, older: str, replaces: bool) -> None:
    assert supersedes(newer, older) is replaces


def test_a_move_does_not_cancel_a_planned_trip() -> None:
    assert not supersedes("我上个月搬到了杭州西湖区", "下周三要去上海出差，住在静安区")


@pytest.mark.parametrize(
    ("text", "chatter"),
    [
        ("好的谢谢", True),
        ("好的收到", True),
        ("haha see you all there", True),
        ("好的，我明天去上海", False),
        ("谢谢你的建议，我决定买那本书", False),
    ],
)
def test_acknowledgements_without_punctuation_are_chatter(text: str, chatter: bool) -> None:
    from memory.chatter import is_chatter

    assert is_chatter(text) is chatter


def test_grounding_ignores_modifiers_of_a_faithful_restatement() -> None:
    from memory.dream.grounding import support

    assert support("用户现在喝拿铁，不再喝美式", ["我最近改喝拿铁了，不喝美式了"]) == 1.0
    assert support("用户喜欢拿铁", ["用户: 我最近很喜欢喝美式"]) < 0.5


def test_discourse_words_do_not_keep_a_repeat_apart() -> None:
    assert near_duplicate(
        "Bob: I'm allergic to peanuts, so no peanut snacks please",
        "Bob: Remember, I'm allergic to peanuts",
    )
