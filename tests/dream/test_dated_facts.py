"""A dated line is a plan only when it says an intention or an appointment: a state, a
measurement or a change that has taken effect is a fact as of its date, and never expires."""

from __future__ import annotations

from datetime import date

import pytest

from memory.dream.grounding import SUPPORT_THRESHOLD, support
from memory.dream.judge import dates
from memory.dream.judge.wording import reword
from memory.speaker import split

DAY = date(2026, 10, 14)  # a Wednesday


def _due(text: str, day: date = DAY) -> date | None:
    return dates.latest(dates.find(text, day), day)


@pytest.mark.parametrize(
    "text",
    [
        # a state or a measurement of the note's day
        "用户：今天量了血压，130/85 mmHg，比上周好多了",
        "小李今天体重 65.5 公斤了",
        "The user weighs 92 kg this morning",
        "I measured 180 cm at the clinic today",
        # a change that has taken effect
        "妈妈今天搬进了养老院，住三楼",
        "The user moved into the new flat today",
        "Dad switched to decaf this morning",
        "我今天已经办完离职了",
        # a date that begins a state: what holds from then on
        "医生说从今晚起降压药改成每天两片",
        "From tonight the dog gets half a tablet of the new medicine",
        "Starting Friday the user's rent is £950 a month",
        "从下周一起小王的班改到早上七点",
        # a fact stated first, a dated aside after it
        "老周对芒果过敏，周六野餐别带芒果",
        "Nina is vegetarian, don't order lamb for Saturday",
        "Our team is now six people, I will plan the rota on Friday",
        "阿强在腾讯做后端开发，下周要去深圳出差",
    ],
)
def test_a_fact_as_of_its_date_does_not_expire(text: str) -> None:
    assert _due(text) is None


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("用户明天下午去看牙医", date(2026, 10, 15)),
        ("I'm cooking risotto tonight for Anna", DAY),
        ("The user has a haircut appointment today at 4pm", DAY),
        ("今晚要跟老同学吃饭", DAY),
        ("Tom will fly to Madrid on Friday", date(2026, 10, 16)),
        ("下周三和小李约好了去看电影", date(2026, 10, 21)),
        ("我和小李约好了，下周三去看电影", date(2026, 10, 21)),
        ("周五公司团建，去郊外烧烤", date(2026, 10, 16)),
        ("我妹妹来看我，周五到", date(2026, 10, 16)),
        # a statement, then the dated plan it leads to: the line is the plan
        ("小林在学游泳，周六考深水证", date(2026, 10, 17)),
        # a period that opens on a day, in Chinese, unless a change was made
        ("从周五开始休年假", date(2026, 10, 16)),
        # a date ending a span is still the plan's end
        ("I'm off from 19 October to 23 October", date(2026, 10, 23)),
    ],
)
def test_a_plan_keeps_its_date(text: str, due: date) -> None:
    assert _due(text) == due


@pytest.mark.parametrize(
    "text",
    [
        # another past event of the day is no state: it goes with its day
        "今天吃了火锅，好撑",
        "I had pizza with Sam tonight",
    ],
)
def test_a_past_event_of_the_day_keeps_its_date(text: str) -> None:
    assert _due(text) == DAY


def test_a_number_with_a_decimal_point_or_thousands_is_one_clause() -> None:
    spans = dates.find("今天称了一下，71.5公斤了", DAY)
    assert [s.plan for s in spans] == [False]
    spans = dates.find("The client raised my rate to £2,400 today", DAY)
    assert [s.plan for s in spans] == [False]


@pytest.mark.parametrize(
    ("text", "resolved"),
    [
        # a bare month before the note's month: gone by when the line says so
        ("Leo still owes the user £300 from July", "Leo still owes the user £300 from July 2026"),
        ("I started piano lessons in March", "I started piano lessons in March 2026"),
        ("我从5月份开始学日语了", "我从2026年5月开始学日语了"),
        ("The user has been vegan since June", "The user has been vegan since June 2026"),
        ("Kim has lived in Oslo since November", "Kim has lived in Oslo since November 2025"),
        # ... and the coming one for a plan
        ("I will start the new job from March", "I will start the new job from March 2027"),
        ("我打算5月去日本", "我打算2027年5月去日本"),
        ("The exam is in March", "The exam is in March 2027"),
        # a month still to come this year is this year's, whatever the tense
        ("I moved to Leeds in December", "I moved to Leeds in December 2026"),
    ],
)
def test_a_bare_month_is_read_by_tense(text: str, resolved: str) -> None:
    assert dates.resolve(text, DAY)[0] == resolved


@pytest.mark.parametrize(
    ("text", "resolved"),
    [
        ("The user pushed the trip to March", "The user pushed the trip to March 2027"),
        ("考试推迟到5月了", "考试推迟到2027年5月了"),
    ],
)
def test_where_a_move_goes_is_still_to_come(text: str, resolved: str) -> None:
    assert dates.resolve(text, DAY)[0] == resolved


@pytest.mark.parametrize(
    ("line", "item"),
    [
        # a short age line keeps its grounding: the year written bare
        ("用户: 今年35岁", "用户35岁（2026）"),  # opening with its year: no label
        # a longer one has words enough for the year's
        ("用户: 我女儿今年九岁，在读三年级", "用户的女儿九岁（2026年），在读三年级"),
    ],
)
def test_an_age_in_a_year_stays_grounded(line: str, item: str) -> None:
    worded = reword(split(line), DAY)
    assert worded == item
    assert support(worded, [line]) >= SUPPORT_THRESHOLD
