"""Items per fact and how items read: requests that carry a fact, ages in a year, a
speaker's own name, plural subjects, and restatements merged (examples of our own, none
from the evaluation scenarios)."""

from __future__ import annotations

from datetime import date

import pytest

from memory.dream.judge import dates
from memory.dream.judge.relations import Said
from memory.dream.judge.restate import main_assertion, restates
from memory.dream.judge.wording import reword
from memory.speaker import split

TUE = date(2026, 11, 24)  # a Tuesday


@pytest.mark.parametrize(
    ("line", "item"),
    [
        # a request to keep something in mind frames the fact it carries
        ("User: Remind me: Mia's dentist is on Friday", "The user: Mia's dentist is on 2026-11-27"),
        (
            "User: remind me that my passport expires in March",
            "The user's passport expires in March 2027",
        ),
        (
            "User: Please remember I am vegan when you suggest dinners",
            "The user is vegan when you suggest dinners",
        ),
        ("User: Remember, I'm allergic to latex", "The user is allergic to latex"),
        ("User: note that my wife is allergic to nuts", "The user's wife is allergic to nuts"),
        ("用户: 别忘了我对芒果过敏", "用户对芒果过敏"),
        ("用户: 记住：我不吃葱", "用户不吃葱"),
        # a reminder to do something is the speaker's task
        (
            "User: remind me to renew the car tax tomorrow",
            "The user has to renew the car tax on 2026-11-25",
        ),
        ("用户: 提醒我明天交水费", "用户2026-11-25交水费"),
        ("用户: 别忘了提醒我下周五交季度报告", "用户2026-12-04交季度报告"),
        ("用户: 记得提醒我周日给妈妈打电话", "用户2026-11-29给妈妈打电话"),
        # "remember to ..." asks the assistant for something: no frame to drop
        ("User: remember to answer in Spanish", "The user: Remember to answer in Spanish"),
        # greetings before a fact are not part of it
        ("用户: 你好，我叫韩梅梅，是一名护士", "用户叫韩梅梅，是一名护士"),
        ("User: Hi, I'm Omar and I work at Bosch", "The user is Omar and the user works at Bosch"),
    ],
)
def test_requests_and_greetings_frame_the_fact(line: str, item: str) -> None:
    assert reword(split(line), TUE) == item


@pytest.mark.parametrize(
    ("line", "item"),
    [
        # a request to the assistant is the speaker's wish...
        (
            "User: Answer briefly please, I check these on my phone between meetings",
            "The user asks the assistant to answer briefly, the user checks these on the "
            "user's phone between meetings",
        ),
        ("User: don't use emojis", "The user asks: don't use emojis"),
        ("用户: 请用繁体中文回复", "用户希望用繁体中文回复"),
        ("用户: 麻烦你以后回答简短一点", "用户希望以后回答简短一点"),
        ("用户: 不要给我推荐恐怖片，我不喜欢", "用户希望不要给用户推荐恐怖片，用户不喜欢"),
        # ...unless saying so takes more words than the line has, or it is a question
        ("用户: 别发语音", "用户：别发语音"),
        ("用户：请问明天几点开门", "用户：请问2026-11-25几点开门"),
        ("User: I like green tea", "The user likes green tea"),
    ],
)
def test_requests_to_the_assistant_read_as_wishes(line: str, item: str) -> None:
    assert reword(split(line), TUE) == item


@pytest.mark.parametrize(
    ("line", "item"),
    [
        ("用户: 我儿子今年七岁", "用户的儿子七岁（2026年）"),
        ("用户: 我奶奶今年已经 90 岁了", "用户的奶奶已经 90 岁了（2026年）"),
        ("用户的女儿叫小雨，今年三岁半，在上托班", "用户的女儿叫小雨，三岁半（2026年），在上托班"),
        # a year before anything but an age stays where it is
        ("用户: 我明年就退休了", "用户2027年就退休了"),
        ("用户: 我去年搬到了苏州", "用户2025年搬到了苏州"),
        # a year's possession is the speaker's
        ("用户: 今年的目标是跑一次全马", "用户2026年的目标是跑一次全马"),
        ("User: This year I am learning to swim", "The user: In 2026 the user is learning to swim"),
        ("User: my daughter turns 4 this year", "The user's daughter turns 4 in 2026"),
    ],
)
def test_relative_years_read_right(line: str, item: str) -> None:
    assert reword(split(line), TUE) == item


@pytest.mark.parametrize(
    ("text", "resolved"),
    [
        # "ago" names a day, a week, a month or a year before the note's
        ("I saw her 5 days ago", "I saw her on 2026-11-19"),
        ("Two weeks ago I started a new job", "In the week of 2026-11-09 I started a new job"),
        ("I moved here 3 months ago", "I moved here in August 2026"),
        ("I quit smoking two years ago", "I quit smoking in 2024"),
        ("我3天前去看了牙医", "我2026-11-21去看了牙医"),
        ("我两周前换了工作", "我2026-11-09当周换了工作"),
        ("三个月前搬到了苏州", "2026年8月搬到了苏州"),
        ("我十年前毕业", "我2016年毕业"),
        ("12月5日前交论文", "12月5日前交论文"),  # a deadline, no "ago"
        # a date that is the subject takes no "on"
        ("today is my 30th birthday", "2026-11-24 is my 30th birthday"),
        ("tomorrow is the deadline", "2026-11-25 is the deadline"),
        # a bare age after a year
        ("我今年 35，在杭州工作", "我 35（2026年），在杭州工作"),
    ],
)
def test_other_relative_forms(text: str, resolved: str) -> None:
    assert dates.resolve(text, TUE)[0] == resolved


def test_a_household_is_the_speakers() -> None:
    assert reword(split("用户: 我们家今年养了一只狗"), TUE) == "用户家2026年养了一只狗"


def test_an_age_after_a_year_is_resolved_in_place() -> None:
    resolved, spans = dates.resolve("小王今年 30 岁", TUE)
    assert resolved == "小王 30 岁（2026年）"
    assert [s.unit for s in spans] == ["year"]


@pytest.mark.parametrize(
    ("line", "item"),
    [
        ("王磊: 我是王磊，在华为做测试", "王磊在华为做测试"),
        ("Nina: I'm Nina, I teach piano in Leith", "Nina teaches piano in Leith"),
        (
            "Ravi: Priya and I are moving to Pune in May",
            "Ravi: Priya and Ravi are moving to Pune in May 2027",
        ),
        (
            "User: My husband and I are expecting our second child",
            "The user's husband and the user are expecting their second child",
        ),
        # a habit is the present, a past form of the same spelling is not
        ("Nina: I mostly read crime novels", "Nina mostly reads crime novels"),
        ("Nina: I read that book last year", "Nina read that book in 2025"),
        # a group member's line keeps its label: it says who told it
        ("Ravi: Sam's bringing the tent", "Ravi: Sam's bringing the tent"),
    ],
)
def test_speakers_and_plural_subjects(line: str, item: str) -> None:
    assert reword(split(line), TUE) == item


def _said(text: str, subject: str = "user", kind: str = "fact") -> Said:
    return Said(text, subject, kind)


@pytest.mark.parametrize(
    ("text", "main"),
    [
        ("周敏还是住在苏州，没搬家", "周敏还是住在苏州"),
        ("The user is vegan when suggesting dinners", "The user is vegan"),
        ("Omar is diabetic, so no sweets for Omar", "Omar is diabetic"),
        ("用户喜欢爬山", "用户喜欢爬山"),
    ],
)
def test_the_main_assertion_is_the_first_clause(text: str, main: str) -> None:
    assert main_assertion(text) == main


@pytest.mark.parametrize(
    ("a", "b", "cosine", "same"),
    [
        # the main assertion said again beside other asides
        ("周敏住在苏州工业园区，周末常去上海", "周敏还是住苏州工业园区，没搬家", 0.94, True),
        ("用户的姐姐在成都开了一家书店", "用户的姐姐在成都开书店，店名叫“半山”", 0.96, True),
        (
            "The user is vegan, has been for five years",
            "The user is vegan when suggesting dinners",
            0.91,
            True,
        ),
        (
            "Omar is diabetic and allergic to shellfish",
            "Omar is diabetic, so no sweets for Omar",
            0.90,
            True,
        ),
        # another value, a change, another number, a negation, a plan: not the same fact
        ("周敏住在苏州工业园区", "周敏住在杭州西湖区", 0.95, False),
        ("周敏住在苏州，周末常去上海", "周敏搬到苏州了，离公司近", 0.95, False),
        ("The user's 10k time is 52 minutes", "The user's 10k time is 49 minutes", 0.97, False),
        ("The user drinks coffee", "The user does not drink coffee anymore", 0.92, False),
        (
            "The user is vegan, has been for five years",
            "The user is vegan when suggesting dinners",
            0.80,
            False,
        ),
        ("用户的姐姐在成都开了一家书店", "用户的姐姐在成都开书店", None, False),
    ],
)
def test_restatements(a: str, b: str, cosine: float | None, same: bool) -> None:
    assert restates(_said(a), _said(b), cosine) is same
    assert restates(_said(b), _said(a), cosine) is same


def test_restatements_never_cross_subjects_or_languages() -> None:
    ours, theirs = _said("Omar is diabetic", "Omar"), _said("Omar is diabetic, no sweets", "Lea")
    assert not restates(ours, theirs, 0.99)
    assert not restates(_said("用户吃素"), _said("The user is vegan, 用户吃素"), 0.99)
