"""A dated event expires like a plan when it was worded as one while still to come ("要搬家了，
9月12日搬到…"); an event told as done, a dated fact about who someone is, stay."""

from __future__ import annotations

from datetime import date

from memory.dream.extractive import Statement, _ahead, _may_expire
from memory.dream.judge import dates
from memory.dream.judge.classifier import KINDS, Judgement


def _said(text: str, kind: str, day: date) -> Statement:
    probs = tuple(1.0 if k == kind else 0.0 for k in KINDS)
    st = Statement(text, (), day, 0, judgement=Judgement(probs))
    st.ahead = _ahead(text, day)
    return st


def test_worded_as_plan() -> None:
    assert dates.worded_as_plan("用户要搬家了，2026-09-12搬到滨江区")
    assert dates.worded_as_plan("Sam: I will fly out on 2026-03-03")
    assert not dates.worded_as_plan("用户：搬完了，现在住滨江区")
    assert not dates.worded_as_plan("Sam flew out on 2026-03-03")


def test_an_event_worded_as_a_plan_expires() -> None:
    day = date(2026, 9, 8)
    assert _may_expire(_said("用户要搬家了，2026-09-12搬到滨江区", "event", day))
    assert _may_expire(_said("The user will fly to Oslo on 2026-09-12", "event", day))
    # told as something done, or not ahead of its day: it stays
    assert not _may_expire(_said("Raj found a flat, moving in 2026-09-09", "event", day))
    assert not _may_expire(_said("用户2026-09-08搬到滨江区了", "event", day))
    # who someone is never expires; a plan always may
    assert not _may_expire(_said("豆豆2026-11-13满五岁，要办个小生日会", "identity", day))
    assert _may_expire(_said("用户2026-09-12考科目二", "plan", day))


def test_a_days_instruction_beside_a_fact_passes_with_its_day() -> None:
    said, line = date(2026, 12, 2), "Raj 对花生过敏，2026-12-05聚餐别点宫保鸡丁"
    assert dates.passed_clause(line, said, date(2026, 12, 7)) == (
        "Raj 对花生过敏",
        "2026-12-05聚餐别点宫保鸡丁",
    )
    assert dates.passed_clause(line, said, date(2026, 12, 4)) is None  # not yet
    # the date is the fact's own (a birthday): nothing to trim
    assert (
        dates.passed_clause("豆豆2026-11-13满五岁，要办个小生日会", said, date(2026, 12, 7)) is None
    )
    # a dated line with no fact before its clause is a plan: it expires whole, not trimmed
    assert dates.passed_clause("2026-12-05聚餐别点宫保鸡丁", said, date(2026, 12, 7)) is None
