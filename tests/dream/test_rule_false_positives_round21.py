"""The rules of ``replaces`` retire an older statement only for a new value of the same thing
(issue 10, round 21). Pairs of this file's own, each a false positive of one rule before
this round, beside the true positives the rule must keep:

- the same measured thing, a new number: a daily habit and one outing (每天 / 周末, every
  day / today) are two measured things; a time over another distance is another record;
- the same plan, a new date: a plan for or with another relation (the kids, 儿子 / 女儿) is
  another plan, a relation who only reports the change ("导师说…") is not;
- a fresh target of the topic family: an addition ("也开始喝…") keeps the old value, and a
  change of another thing ("把公司搬到苏州") is no new home;
- stopped: a time of day shared ("every morning") names no stopped thing, and a newer
  saying the rest goes on ("阿司匹林照吃") ends no older whole.
"""

from __future__ import annotations

import pytest

from memory.dream.judge.relations import Said, replaces


def _said(text: str, kind: str, subject: str = "user") -> Said:
    return Said(text, subject, kind, False)


FALSE_POSITIVES = [
    # the same measured thing, a new number
    ("用户每天走8000步", "用户周末爬山走了20000步", "routine", "user"),
    ("用户每天走8000步", "用户今天走了12000步，创纪录", "routine", "user"),
    ("The user ran a 5k in 28 min", "The user ran a 10k in 61 min", "health", "user"),
    ("用户5公里跑了28分钟", "用户10公里跑了61分钟", "health", "user"),
    # the same plan, a new date
    (
        "The user has the dentist on 2027-03-03",
        "The user takes the kids to the dentist on 2027-03-09",
        "plan",
        "user",
    ),
    ("用户2027-03-03带儿子去打疫苗", "用户2027-03-09带女儿去打疫苗", "plan", "user"),
    ("用户2027-04-10带妈妈去体检", "用户2027-04-17去体检", "plan", "user"),
    (
        "The user's son has swimming on 2027-03-06",
        "The user's son has a swimming gala on 2027-03-20 with his friend",
        "plan",
        "user/son",
    ),
    # a fresh target and a topic family in common
    ("用户喜欢喝绿茶", "用户最近也开始喝乌龙茶，换到新的茶叶店买", "preference", "user"),
    ("用户住在上海浦东", "用户把公司搬到苏州了", "fact", "user"),
    ("The user lives in Austin", "The user's office moved to Dallas", "fact", "user"),
    # stopped
    (
        "The user takes vitamin D every morning",
        "The user stopped taking the morning iron tablets",
        "health",
        "user",
    ),
    ("用户每天吃阿司匹林，也吃降压药", "用户停了降压药，阿司匹林照吃", "health", "user"),
]

TRUE_POSITIVES = [
    ("The user weighs 70 kg", "The user weighs 68 kg", "health", "user"),
    ("The user weighs 70 kg", "The user is 68 kg now", "health", "user"),
    ("用户体重78公斤", "用户体重75公斤了", "health", "user"),
    ("用户每天走8000步", "用户每天走10000步", "routine", "user"),
    ("The user's rent is £900 a month", "The user's rent is £950 a month", "fact", "user"),
    ("The user ran a 5k in 28 min", "The user ran a 5k in 26 min", "health", "user"),
    ("用户5公里跑了28分钟", "用户5公里跑了26分钟", "health", "user"),
    ("用户2027-03-03去医院复查", "用户的复查改到2027-03-10了", "plan", "user"),
    (
        "The user has the dentist on 2027-03-03",
        "The user's dentist appointment moved to 2027-03-09",
        "plan",
        "user",
    ),
    ("用户论文截止2027-12-18", "导师说论文可以延到2027-01-08", "plan", "user"),
    ("用户喜欢喝绿茶", "用户改喝乌龙茶了", "preference", "user"),
    ("The user lives in Austin", "The user moved to Denver", "fact", "user"),
    ("用户住在上海浦东", "用户搬到杭州了", "fact", "user"),
    ("用户住在上海浦东", "用户又搬家了，搬到杭州了", "fact", "user"),
    ("The user takes atorvastatin at night", "The user stopped the atorvastatin", "health", "user"),
    ("用户每天吃降压药", "用户停了降压药", "health", "user"),
    ("The user goes to yoga on Tuesdays", "The user stopped going to yoga", "routine", "user"),
]


@pytest.mark.parametrize(("older", "newer", "kind", "subject"), FALSE_POSITIVES)
def test_another_thing_retires_nothing(older: str, newer: str, kind: str, subject: str) -> None:
    assert not replaces(_said(newer, kind, subject), _said(older, kind, subject))


@pytest.mark.parametrize(("older", "newer", "kind", "subject"), TRUE_POSITIVES)
def test_a_new_value_of_the_same_thing_still_retires_the_old(
    older: str, newer: str, kind: str, subject: str
) -> None:
    assert replaces(_said(newer, kind, subject), _said(older, kind, subject))
