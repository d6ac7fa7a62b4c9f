"""Round 18: a chat written in fields ("Running: half marathon PB 1:52") is the user's own,
its labels no speakers and its capitalised openers no names; a Chinese group's silent
members stay members. Examples of this file's own."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from zoneinfo import ZoneInfo

from two_days import dream_two_days

from memory.dream.extractive import Statement, _may_expire
from memory.dream.judge.classifier import KINDS, Judgement
from memory.speaker import field_labels

ZONE = ZoneInfo("Asia/Shanghai")

FIRST = [
    "Name: Tomas Berg, lives in Leeds",
    "Occupation: physiotherapist at a sports clinic",
    "Cycling: 100 km sportive best 4:05",
    "Diet: no red meat",
    "Sister: Ylva, in Oslo",
    "Asked for a flapjack recipe",
]
LATER = [
    "Update: 100 km sportive best now 3:48 (Dales ride)",
    "Ylva's birthday: 9 May",
    "Mood: sore legs, happy",
]


def test_a_new_best_in_a_chat_of_fields_retires_the_old(tmp_path: Path) -> None:
    text, archive = dream_two_days(tmp_path, FIRST, LATER)
    assert "3:48" in text
    assert "4:05" not in text  # "Cycling:" is a field, "Update: 100 km …" the user's own
    assert "4:05" in archive
    # a name the chat writes inside a sentence ("Sister: Ylva") is still someone
    assert "9 May" in text and "Name: Tomas" in text


def test_a_chinese_groups_silent_members_are_no_field_labels() -> None:
    group = [
        "王建国：奶奶明天复查",
        "李秀英：带上病历本",
        "陈静：周六回家吃饭",
        "老钱：鱼竿修好了",
        "孙阿姨：菜买好了",
    ]
    assert field_labels(group) == frozenset()
    # a terse summary in Chinese fields still has its labels
    fields = ["职业：护士，三班倒", "饮食：不吃辣", "宠物：一只橘猫", "爱好：游泳"]
    assert {"职业", "饮食", "宠物", "爱好"} <= field_labels(fields)


def test_a_line_opening_with_she_is_about_whom_the_line_before_named(tmp_path: Path) -> None:
    first = [
        "用户: 我叫林晓，在苏州做会计",
        "用户: 我爸在无锡，退休了，以前是电工",
        "用户: 他有痛风，每天吃别嘌醇100毫克",
    ]
    later = ["用户: 我爸打电话说他的别嘌醇加到200毫克了"]
    items, archive = dream_two_days(tmp_path, first, later)
    assert "200毫克" in items
    assert "100毫克" not in items and "100毫克" in archive  # the father's dose, not the user's
    assert "痛风" in items  # what did not change stays


def test_a_member_called_by_the_given_name_is_that_member(tmp_path: Path) -> None:
    first = ["赵子轩：大家好，我是赵子轩", "子轩每周二晚上在体育馆打羽毛球"]
    later = ["赵子轩：羽毛球改到每周四晚上了"]
    items, archive = dream_two_days(tmp_path, first, later)
    assert "每周四" in items
    assert "每周二晚上在体育馆" not in items and "每周二" in archive


def test_a_member_called_by_the_first_name_is_that_member(tmp_path: Path) -> None:
    first = ["Tariq Haddad: hi all, Tariq Haddad here, I run the juniors", "Tariq 住在海淀"]
    later = ["Tariq Haddad: 搬家了，现在住朝阳"]
    items, archive = dream_two_days(tmp_path, first, later)
    assert "朝阳" in items
    assert "海淀" not in items and "海淀" in archive


def _judged(text: str, kind: str, *, ahead: bool = False) -> Statement:
    st = Statement(text, (), date(2027, 5, 4), 0, ahead=ahead)
    probs = [0.0] * len(KINDS)
    probs[KINDS.index(kind)] = 1.0
    st.judgement = Judgement(tuple(probs))
    return st


def test_a_value_begun_on_its_own_day_holds_after_that_day() -> None:
    # "今天入职" dates the start of the new job: no plan that expires when its day passes
    assert not _may_expire(_judged("用户去苏州中学当数学老师了，2027-05-04入职", "work"))
    assert not _may_expire(_judged("The user started at Arup on 2027-05-04", "work"))
    # a plan for its own day, or any statement of a day still to come when said, expires
    assert _may_expire(_judged("用户：2027-05-04下午三点在市一医院做胃镜复查", "plan"))
    assert _may_expire(_judged("用户2027-05-10去苏州中学面试", "work", ahead=True))
