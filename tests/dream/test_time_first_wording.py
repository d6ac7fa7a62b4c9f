"""A Chinese line opening with its date left its subject unsaid: the speaker's, and its item
is worded without the label ("用户2026-12-08去看医生", not "用户：2026-12-08去看医生"); what
the classifier reads keeps the label it learnt."""

from __future__ import annotations

from datetime import date

from memory.dream.judge.dates import opens_with_date
from memory.dream.judge.wording import reword, worded
from memory.speaker import split

DAY = date(2026, 12, 7)


def test_a_line_opening_with_its_date() -> None:
    assert opens_with_date("明天去看医生")
    assert opens_with_date("12月20号考雅思")
    assert opens_with_date("下周三要去北京出差")
    assert not opens_with_date("去看医生，明天")
    assert not opens_with_date("王芳明天来")


def test_the_speaker_of_a_time_first_line_is_its_subject() -> None:
    assert reword(split("用户: 明天去看医生"), DAY) == "用户2026-12-08去看医生"
    assert reword(split("王芳：下周三去北京出差"), DAY) == "王芳2026-12-16去北京出差"
    assert worded(split("用户: 明天去看医生")) == "用户：明天去看医生"  # as the classifier learnt
    # a line naming someone before its date keeps its label
    assert reword(split("用户：王芳明天来"), DAY) == "用户：王芳2026-12-08来"
