"""A fact told in Chinese and in English meets itself: "用户对猫毛过敏" is the user's, "next
July" is a month like "明年七月", and a month is compared as a month across the languages."""

from __future__ import annotations

from datetime import date

from memory.dream.judge.dates import resolve
from memory.dream.judge.relations import Said, subject_of, translation


def test_a_word_after_the_user_is_no_one_s_name() -> None:
    assert subject_of("用户对猫毛过敏") == "user"
    assert subject_of("用户给狗买了新项圈") == "user"
    assert subject_of("用户的儿子叫豆豆") == "user/son"
    assert subject_of("用户家的猫叫团子") == "user/pet"


def test_next_and_a_month_is_the_coming_one() -> None:
    day = date(2026, 12, 8)
    assert resolve("aims for JLPT N2 next July", day)[0] == "aims for JLPT N2 in July 2027"
    assert resolve("the wedding is this coming May", day)[0] == "the wedding is in May 2027"
    # in the month itself, "next" is the next year's
    assert resolve("next December we go skiing", day)[0] == "in December 2027 we go skiing"


def test_a_month_is_one_month_in_either_language() -> None:
    zh = Said("用户在学日语，目标是2027年7月考 N2", "user", "work")
    en = Said("The user is learning Japanese and aims for JLPT N2 in July 2027", "user", "work")
    assert translation(zh, en)
    later = Said("用户在学日语，目标是2027年8月考 N2", "user", "work")
    assert not translation(later, en)
    n3 = Said("The user is learning Japanese and aims for JLPT N3 in July 2027", "user", "work")
    assert not translation(zh, n3)
