"""Restatements the wording tests missed (round 17, dream-merge2): a Chinese main assertion
whose words are all written in the other though its character pairs differ, and an aside
to the listener ("别记错") that negates nothing of the fact."""

from __future__ import annotations

from memory.dream.judge.again import says_again
from memory.dream.judge.relations import Said
from memory.dream.judge.restate import restates


def _said(text: str, subject: str = "user", kind: str = "fact", future: bool = False) -> Said:
    return Said(text, subject, kind, future)


def test_chinese_words_written_in_the_other_restate() -> None:
    first = _said("赵六住在北京海淀，公司宿舍", "赵六", "people")
    again = _said("赵六还是住海淀宿舍，没搬", "赵六")
    assert restates(first, again, 0.95)
    assert restates(again, first, 0.95)


def test_a_word_missing_or_a_far_embedding_is_no_restatement() -> None:
    first = _said("赵六住在北京海淀，公司宿舍", "赵六", "people")
    assert not restates(first, _said("赵六还是住朝阳宿舍，没搬", "赵六"), 0.95)
    assert not restates(first, _said("赵六还是住海淀宿舍，没搬", "赵六"), 0.85)
    assert not restates(first, _said("赵六还是住海淀宿舍，没搬", "钱七"), 0.95)


def test_too_few_words_beyond_the_subject_are_no_restatement() -> None:
    assert not restates(_said("用户喜欢猫，家里有两只"), _said("用户还是喜欢狗"), 0.93)
    assert not restates(_said("用户住海淀"), _said("用户住在北京海淀区，离公司近"), 0.9)


def test_a_change_said_beside_the_words_is_no_restatement() -> None:
    first = _said("赵六住在北京海淀，公司宿舍", "赵六", "people")
    assert not restates(first, _said("赵六搬到海淀宿舍了", "赵六"), 0.95)


def test_an_aside_to_the_listener_negates_nothing() -> None:
    moved = _said("老周：读书会改到11月8日了，地点不变", "老周", "plan", True)
    again = _said("老周：再提醒一次，读书会是2026-11-08，别迟到", "老周", "plan", True)
    assert says_again(moved, again, 0.92)


def test_a_negation_of_the_fact_still_keeps_them_apart() -> None:
    coming = _said("老周：读书会是2026-11-08，大家都来", "老周", "plan", True)
    off = _said("老周：读书会2026-11-08不办了", "老周", "plan", True)
    assert not says_again(coming, off, 0.93)
    eats = _said("The user eats fish, about twice a week")
    never = _said("The user: no fish twice a week anymore", kind="fact")
    assert not says_again(eats, never, 0.93)
