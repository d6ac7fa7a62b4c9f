"""The dream's judgement, one failure class at a time (pure functions, exact answers)."""

from __future__ import annotations

from datetime import date

import pytest

from memory.chatter import is_noise
from memory.dream.judge import dates, importance
from memory.dream.judge.classifier import classify
from memory.dream.judge.relations import Said, replaces, same_fact, subject_of
from memory.dream.judge.wording import reword
from memory.speaker import split

MON = date(2026, 11, 23)  # a Monday


@pytest.mark.parametrize(
    ("line", "speaker", "body"),
    [
        ("用户说：你好呀", "用户", "你好呀"),  # a full-width colon needs no space
        ("用户：在吗", "用户", "在吗"),
        ("[10:02] Alice Kim: I'm here", "Alice Kim", "I'm here"),
        ("The user said: thanks", "User", "thanks"),
        ("注意：明天下雨", None, "注意：明天下雨"),  # a label, not a speaker
        ("Error: ENOENT: no such file", None, "Error: ENOENT: no such file"),
        ("用户的女儿叫朵朵", None, "用户的女儿叫朵朵"),
    ],
)
def test_speaker_prefixes(line: str, speaker: str | None, body: str) -> None:
    spoken = split(line)
    assert (spoken.speaker, spoken.body) == (speaker, body)


@pytest.mark.parametrize(
    "line",
    ["用户说：你好呀", "User: ok thanks!", "助手: 好的，已为你设置", "用户: 好的收到"],
)
def test_greetings_behind_a_prefix_are_noise(line: str) -> None:
    assert is_noise(line)


@pytest.mark.parametrize(
    ("text", "anchor", "resolved"),
    [
        ("用户下周三要去上海出差", MON, "用户2026-12-02要去上海出差"),
        ("用户明天下午去医院复查", MON, "用户2026-11-24下午去医院复查"),
        ("用户计划下个月去三亚", MON, "用户计划2026年12月去三亚"),
        ("我下个月 12 号生日", MON, "我2026-12-12生日"),
        ("用户打算月底前交报告", MON, "用户打算2026年11月底前交报告"),
        ("用户3天后出发", MON, "用户2026-11-26出发"),
        (
            "I have a dentist appointment next Tuesday",
            MON,
            "I have a dentist appointment on 2026-12-01",
        ),
        ("tomorrow morning I fly out", MON, "on the morning of 2026-11-24 I fly out"),
        ("I'm moving in two weeks", MON, "I'm moving on 2026-12-07"),
        ("we pushed Lisbon to March", MON, "we pushed Lisbon to March 2027"),
        ("Helen visits next weekend", MON, "Helen visits on the weekend of 2026-12-05"),
        ("I moved to Porto last month", MON, "I moved to Porto in October 2026"),
        ("Last year I ran a marathon", MON, "In 2025 I ran a marathon"),
        ("the exam moved to next week", MON, "the exam moved to the week of 2026-11-30"),
        ("I fly out on Thursday night", MON, "I fly out on the night of 2026-11-26"),
    ],
)
def test_relative_dates_become_absolute(text: str, anchor: date, resolved: str) -> None:
    assert dates.resolve(text, anchor)[0] == resolved


@pytest.mark.parametrize(
    "text",
    [
        "我每周三晚上打羽毛球",
        "房租每月 5 号交",
        "I run every Tuesday and Thursday",
        "用户周末经常爬山",
        "用户周二晚上一般去打羽毛球",
        "Ben plays squash on Wednesday evenings",
        "she volunteers on the second Sunday of each month",
    ],
)
def test_recurring_days_are_not_dates(text: str) -> None:
    assert dates.find(text, MON) == []


def test_absolute_dates_keep_their_words_and_get_a_year() -> None:
    text = "用户 12 月 20 日去深圳，my half marathon is on November 8"
    resolved, spans = dates.resolve(text, date(2026, 10, 14))
    assert resolved == text
    assert [s.first for s in spans] == [date(2026, 12, 20), date(2026, 11, 8)]
    assert dates.latest(spans, date(2026, 10, 14)) == date(2026, 12, 20)


@pytest.mark.parametrize(
    ("line", "item"),
    [
        ("用户: 我叫王小明，是软件工程师", "用户叫王小明，是软件工程师"),
        ("用户: 我妈妈在宁波开了一家花店", "用户的妈妈在宁波开了一家花店"),
        ("张伟: 我住在朝阳区", "张伟住在朝阳区"),
        ("User: I'm allergic to penicillin", "The user is allergic to penicillin"),
        ("User: I always use Poetry", "The user always uses Poetry"),
        ("Tom: my wife Sarah is a pilot", "Tom's wife Sarah is a pilot"),
        ("Alex: I already bought the book", "Alex already bought the book"),
        ("用户再次提到自己对花生过敏", "用户对花生过敏"),
        (
            "The user reminded the assistant that he is allergic to cats",
            "The user is allergic to cats",
        ),
        ("用户: 我下周三去东京，有什么推荐的地方吗？", "用户2026-12-02去东京"),
        # a greeting or an interjection before the fact is not part of it
        ("用户: 你好，我叫李雷，在杭州做产品经理", "用户叫李雷，在杭州做产品经理"),
        ("李娜: 大家好！我下个月搬去成都", "李娜2026年12月搬去成都"),
        ("用户: 嗯嗯，我对花生过敏", "用户对花生过敏"),
        ("User: hello, I love green tea", "The user loves green tea"),
        ("User: hi there! I work at Siemens", "The user works at Siemens"),
        ("Hello, the user lives in Porto", "The user lives in Porto"),
        ("User: his name is Tom", "The user: His name is Tom"),
    ],
)
def test_items_read_as_facts_about_someone(line: str, item: str) -> None:
    assert reword(split(line), MON) == item


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("用户住在上海", "user"),
        ("用户的父亲住在北京", "user/father"),
        ("The user's sister Anjali lives in Toronto", "user/sister"),
        ("张伟住在朝阳区", "张伟"),
        ("Tom's wife Sarah is a pilot", "Tom/wife"),
    ],
)
def test_whom_an_item_is_about(text: str, subject: str) -> None:
    assert subject_of(text, frozenset({"张伟", "Tom"})) == subject


def said(text: str, kind: str = "fact", subject: str = "user", future: bool = False) -> Said:
    return Said(text, subject, kind, future)


@pytest.mark.parametrize(
    ("newer", "older", "replaced"),
    [
        (said("用户最近改喝乌龙茶了", "preference"), said("用户喜欢喝绿茶", "preference"), True),
        (said("用户称体重降到了 75 公斤"), said("用户的体重是 78 公斤"), True),
        (
            said("The user's amlodipine went up to 10mg", "health"),
            said("The user takes amlodipine 5mg every morning", "health"),
            True,
        ),
        (
            said("用户的上海出差改到了2026-12-03", "plan"),
            said("用户2026-12-02要去上海出差", "plan"),
            True,
        ),
        # the old value said again is no replacement
        (
            said("李娜还是住浦东，没搬家", subject="李娜"),
            said("李娜住在上海浦东", subject="李娜"),
            False,
        ),
        # never across people: the father's city leaves the user's alone
        (said("用户的父亲搬到了北京", subject="user/father"), said("用户住在上海"), False),
        # a move that lies ahead does not change where one lives now
        (
            said("The user is moving to Portland in September", future=True),
            said("The user lives in Austin"),
            False,
        ),
        (said("用户也喜欢喝绿茶", "preference"), said("用户喜欢拿铁", "preference"), False),
        # a plan moved to a new day, its words inflected differently ("meet" ~ "meeting")
        (
            said("Maya: Meeting moved to Friday 2026-09-25, same time", "plan", "Maya"),
            said("Maya: Let's meet on Thursday 2026-09-24 at 7pm", "plan", "Maya"),
            True,
        ),
        # ... but not another plan of hers that shares only her name
        (
            said("Maya: Meeting moved to Friday 2026-09-25, same time", "plan", "Maya"),
            said("Maya's birthday is 2026-10-03, party at Maya's", "plan", "Maya"),
            False,
        ),
    ],
)
def test_same_slot_new_value(newer: Said, older: Said, replaced: bool) -> None:
    assert replaces(newer, older) is replaced


def test_restatements_are_one_fact_and_a_negated_detail_is_no_conflict() -> None:
    assert same_fact(said("用户喜欢美式咖啡，不加糖"), said("用户喜欢美式咖啡"))
    assert same_fact(
        said("The user likes americano"), said("The user really likes americano coffee")
    )
    assert not same_fact(said("用户喜欢美式咖啡"), said("用户喜欢美式咖啡", subject="张伟"))
    # one assertion, different asides
    assert same_fact(
        said("The user is allergic to penicillin, in case it comes up"),
        said("The user is allergic to penicillin, found out the hard way"),
    )
    assert same_fact(said("用户叫王小明，是一名软件工程师"), said("用户叫王小明，大家都叫他小明"))
    # a different value in the assertion, or a different number, is another fact
    assert not same_fact(
        said("The user is allergic to peanuts, in case it comes up"),
        said("The user is allergic to penicillin, found out the hard way"),
    )
    assert not same_fact(said("豆豆上幼儿园了，身高 105 厘米"), said("豆豆上幼儿园了，身高 110"))
    # across languages only with embeddings: the cosine decides
    zh, en = said("用户对花生过敏", "health"), said("The user is allergic to peanuts", "health")
    assert not same_fact(zh, en)
    assert same_fact(zh, en, cosine=0.9) and not same_fact(zh, en, cosine=0.8)


@pytest.mark.parametrize(
    ("text", "chatter"),
    [
        ("The user greeted the assistant", True),
        ("User: thanks, that helped", True),
        ("用户询问了今天杭州的天气", True),
        ("用户和助手道了晚安", True),
        ("用户对花生过敏", False),
        ("The user works as a nurse at St Mary's", False),
        ("用户的女儿叫朵朵，今年五岁", False),
    ],
)
def test_the_word_model_tells_chatter_from_facts(text: str, chatter: bool) -> None:
    assert (classify([text])[0].chatter >= 0.5) is chatter


def test_importance_puts_health_above_recurring_small_talk() -> None:
    assert importance.score("health", 0.0, 1, 0, False) == pytest.approx(3.2 + 0.5 + 0.5)
    assert importance.score("routine", 0.1, 8, 14, True) == pytest.approx(
        2.1 * 0.9 + 0.5 * 3.169925 + 0.25 + 0.3, abs=1e-6
    )
    # mentioned every day for a month, small talk still ranks below one allergy
    assert importance.score("chatter", 0.6, 30, 0, True) < importance.score(
        "health", 0.0, 1, 30, False
    )
