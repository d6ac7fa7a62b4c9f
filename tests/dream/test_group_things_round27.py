"""A group's thing told by one member and changed by another, in Chinese named bare
("周会改到…"), or told as heard from someone ("听行政说…", "Mark told me …"): one thing, so
the newer value retires the older; a member's own value, a relative's and another thing of
one kind stay apart (:mod:`judge.shared`). Examples of this file's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.dream.judge.relations import Said, subject_of, thing_moved
from memory.dream.judge.shared import hearsay, shared_thing, thing_of, thing_words
from memory.paths import MemoryRoot
from tests.dream.two_days import group_dream

MEMBERS = frozenset({"王芳", "李强", "刘洋", "Priya", "Owen"})


def test_a_chinese_thing_named_bare_is_the_groups() -> None:
    assert shared_thing("房租涨到3300了", MEMBERS)
    assert shared_thing("周会改到周二下午三点了", MEMBERS)
    assert shared_thing("面粉供应商换成五得利了", MEMBERS)
    assert shared_thing("合唱团排练在社区活动中心", MEMBERS)
    assert shared_thing("下周例会改到周三", MEMBERS)  # a when before the thing
    assert shared_thing("国庆全家去青岛", MEMBERS)  # a holiday, then the family


def test_a_chinese_line_about_a_person_is_not_shared() -> None:
    assert not shared_thing("搬到朝阳区了", MEMBERS)  # the speaker dropped
    assert not shared_thing("新房子看好了", MEMBERS)  # no verb that sets a value
    assert not shared_thing("张伟在星巴克上班", MEMBERS)  # a name no dictionary knows
    assert not shared_thing("李娜搬到海淀区了", MEMBERS)  # a name a dictionary knows
    assert not shared_thing("明天在家", MEMBERS)  # a when, no thing
    assert not shared_thing("我的房租涨到3300了", MEMBERS)
    assert not shared_thing("老王在楼下", MEMBERS)  # a familiar form


def test_hearsay_frames() -> None:
    assert hearsay("听行政说年会改到希尔顿了") == "年会改到希尔顿了"
    assert hearsay("房东通知下个月房租涨到3300了") == "下个月房租涨到3300了"
    assert hearsay("Mark told me the offsite moved to Bath") == "the offsite moved to Bath"
    assert hearsay("I heard the offsite moved to Bath") == "the offsite moved to Bath"
    assert hearsay("年会改到希尔顿了") == ""
    assert hearsay("说不定下周下雨") == ""
    # what is heard names no one: the group's thing, whoever told it
    assert shared_thing("Mark told me the offsite moved to Bath", MEMBERS)
    assert shared_thing("听我爸说生日宴改到家里办了", MEMBERS)
    assert not shared_thing("Dad said Grandpa's dinner is at the Crown now", MEMBERS)
    assert not shared_thing("听说她搬到海淀区了", MEMBERS)


def test_the_words_a_thing_is_named_by() -> None:
    assert thing_of("寿宴改到聚贤楼了，福满楼那天订满了") == "寿宴"
    assert thing_of("搬到朝阳区了") == ""
    assert thing_words("公司年会在万豪酒店") == {"公司", "年会"}
    assert thing_words("听行政说年会改到希尔顿了") == {"年会"}
    assert thing_words("flour supplier changed to Shipton Mill") == {"flour", "supplier"}
    assert thing_words("工作换到西湖区了") == frozenset()  # a job named bare: someone's


def test_a_thing_moved() -> None:
    old = Said("张伟：周会定在每周一上午十点", "group", "routine")
    assert thing_moved(Said("刘洋：周会已经改到每周二下午三点了", "group", "work"), old)
    assert not thing_moved(Said("刘洋：周会还是每周一上午十点", "group", "routine"), old)
    assert not thing_moved(Said("刘洋：周会以前在周二", "group", "routine"), old)
    later = Said("Priya: standup moves to 10:00 from next month", "group", "plan", True)
    assert not thing_moved(later, Said("Owen: standup is at 9:30", "group", "routine"))


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MemoryRoot:
    monkeypatch.setenv("COWDREAM_DREAM_EMBEDDINGS", "on")  # as the nightly dream reads
    (tmp_path / "root").mkdir()
    return MemoryRoot.at(tmp_path / "root")


def _dream(root: MemoryRoot, first: list[str], later: list[str]) -> tuple[list[str], list[str]]:
    return group_dream(root, first, later)


def test_another_member_moves_the_weekly_meeting(root: MemoryRoot) -> None:
    first = ["王芳：大家好", "王芳：周会定在每周一上午十点", "李强：我在图书馆上班"]
    later = ["刘洋：周会已经改到每周二下午三点了", "王芳：收到"]
    items, superseded = _dream(root, first, later)
    assert any("每周一" in a for a in superseded), (items, superseded)
    assert any("每周二" in i for i in items)
    assert any("图书馆" in i for i in items)


def test_another_member_changes_the_shops_supplier(root: MemoryRoot) -> None:
    first = ["Mia: the shop's flour comes from Wessex Mill", "Joe: I do the early bake"]
    later = ["Joe: flour supplier changed to Shipton Mill this month", "Mia: ok"]
    items, superseded = _dream(root, first, later)
    assert any("Wessex" in a for a in superseded), (items, superseded)
    assert any("Shipton" in i for i in items)


def test_each_members_own_move_stays(root: MemoryRoot) -> None:
    first = ["王芳：我搬到朝阳区了", "李强：恭喜"]
    _, superseded = _dream(root, first, ["李强：我搬到海淀区了", "王芳：恭喜"])
    assert superseded == [], superseded


def test_another_thing_of_one_kind_stays(root: MemoryRoot) -> None:
    first = ["陈静：合唱团排练在社区活动中心", "王丽：好的"]
    _, superseded = _dream(root, first, ["王丽：读书会改到文化宫了", "陈静：好"])
    assert superseded == [], superseded
    first = ["吴昊：乐队排练在星光琴房", "郑雪：好的"]
    later = ["郑雪：我的吉他课换到城西的鼓楼琴房了", "吴昊：好"]
    _, superseded = _dream(root, first, later)
    assert superseded == [], superseded


def test_a_relatives_move_told_as_heard_keeps_the_users_home(root: MemoryRoot) -> None:
    first = ["用户：我住在朝阳区"]
    _, superseded = _dream(root, first, ["用户：我妈说表妹搬到海淀区了"])
    assert superseded == [], superseded


def test_a_thing_told_as_heard_by_another_member(root: MemoryRoot) -> None:
    first = ["李娜：公司年会在万豪酒店", "赵磊：好的"]
    items, superseded = _dream(root, first, ["赵磊：听行政说年会改到希尔顿了", "李娜：收到"])
    assert any("万豪" in a for a in superseded), (items, superseded)
    assert any("希尔顿" in i for i in items)


def test_whom_words_told_as_heard_are_about() -> None:
    group = frozenset({"Priya", "Omar", "Sam"})
    assert subject_of("The user: Mum told the user Dad's op is on 2027-03-12 now") == (
        "user/father"
    )
    assert subject_of("听用户的妈说爸爸的手术改到2027-03-12了") == "user/father"
    assert subject_of("Priya: Mark told Priya Omar moved to Hove", group) == "Omar"
    assert subject_of("Priya: Sam told Priya he is moving to Leeds", group) == "Sam"
    assert subject_of("王刚：听孙丽说她换工作了", frozenset({"王刚", "孙丽"})) == "孙丽"
    # the teller is no subject: the words name no one, the line is its speaker's
    assert subject_of("听王刚的爸说奶奶住院了", frozenset({"王刚", "孙丽"})) == "王刚"
    assert subject_of("Priya: Mark told Priya the office moved to Hove", group) == "Priya"
    # a member's words of a relation named bare are the member's, not the user's
    family = frozenset({"Ben", "Anna"})
    assert subject_of("Ben: Dad said Grandpa's dinner is at the Crown now", family) == "Ben"
    assert subject_of("Sam said the rent is €600 each", group) == "Sam"
    assert subject_of("Priya: Apparently Omar got the job", group) == "Omar"


def test_dads_operation_moved_as_mum_told_it(root: MemoryRoot) -> None:
    first = ["User: Mum lives in Leeds", "User: Dad's knee operation is on 20 March"]
    later = ["User: Mum told me Dad's knee operation moved to 27 March"]
    items, superseded = _dream(root, first, later)
    assert any("20 March" in a or "03-20" in a for a in superseded), (items, superseded)
    assert any("Leeds" in i for i in items)
