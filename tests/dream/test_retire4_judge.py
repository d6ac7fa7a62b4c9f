"""Round 15's judgements of a pair and of a dated line: a value told as former replaces
none, colloquial kin words name the relation, a date moved by "延到"/"extended", a value
named as the old one is none of the statement's, a change said of a thing the older names,
and a value said to hold now on the note's day is no plan. Examples of this file's own."""

from __future__ import annotations

from datetime import date

import pytest

from memory.dream.judge import dates
from memory.dream.judge.relations import Said, former, replaces, same_fact, subject_of
from memory.dream.judge.single_slots import swapped
from memory.dream.judge.slotmodel import could_replace
from memory.dream.judge.slots import typed_values

DAY = date(2026, 10, 14)


def _said(text: str, kind: str = "fact", names: frozenset[str] = frozenset()) -> Said:
    return Said(text, subject_of(text, names), kind)


def test_a_value_told_as_former_replaces_none() -> None:
    assert former("用户以前在银行当柜员，做了十年")
    assert former("The user used to work at a call centre")
    assert not former("用户现在在超市当收银员")
    assert not former("以前住城东，上个月搬到城西了")  # a change to a new value is no past
    # the former job leaves the present one as it is, by every rule
    old, new = "用户在社区医院当护士", "用户以前在纺织厂当会计"
    assert not swapped(new, old)
    assert not replaces(_said(new, "work"), _said(old, "work"))
    assert not could_replace(new, old)
    # a current value still replaces
    assert swapped("用户在社区医院当护士", "用户在纺织厂当会计")


def test_colloquial_kin_words_name_the_relation() -> None:
    assert subject_of("用户：闺女在杭州 当老师") == "user/daughter"
    assert subject_of("用户：我闺女下个月生孩子") == "user/daughter"
    # so the user's own job does not replace the daughter's
    daughter = _said("用户：闺女在杭州 当老师", "people")
    mine = _said("用户在纺织厂当会计，干了二十年", "work")
    assert not replaces(mine, daughter)


def test_a_date_moved_by_yan_dao_or_extended() -> None:
    old = _said("用户：毕业论文 初稿 截止 11月20号", "plan")
    new = _said("用户：导师说 初稿 可以延到 12月3号", "plan")
    assert replaces(new, old)
    old_en = _said("The user's visa application is due on 4 November", "plan")
    new_en = _said("The user's visa application deadline was extended to 25 November", "plan")
    assert replaces(new_en, old_en)


def test_a_value_named_as_the_old_one_is_none_of_the_statements() -> None:
    values = typed_values("换了新车，1.6 升的，旧的 1.4 卖给表哥了")
    assert "1.6" in set().union(*values.values())
    assert "1.4" not in set().union(*values.values())
    old = _said("老李的鱼竿是 4.5 米的", names=frozenset({"老李"}))
    new = _said("老李：新买了一根 5.4 米的竿，旧的 4.5 送人了", names=frozenset({"老李"}))
    assert replaces(new, old)
    # a value said again, with no old one named, changes nothing
    same = _said("老李：还是用那根 4.5 米的竿", names=frozenset({"老李"}))
    assert not replaces(same, old)


def test_a_change_said_of_a_thing_the_older_names() -> None:
    # no topic family in common: the thing before the change marker ("quiz") is the older's
    old = _said("The user's pub quiz team plays at the Crown")
    new = _said("The user's pub quiz changed to the Swan, the Crown shut")
    assert replaces(new, old)
    # the same change beside an unrelated older statement retires nothing
    other = _said("The user's sister sings in a choir")
    assert not replaces(new, other)
    # a note's tag ("[语音转文字]") is no thing both are about
    tagged = _said("用户：[语音转文字] 我在县医院上班")
    moved = _said("用户：[语音转文字] 我家改到新城住了")
    assert not replaces(moved, tagged)


@pytest.mark.parametrize(
    "text",
    [
        "Update: 10k best now 47:10 (club race today)",
        "用户：游泳最好成绩现在是1分05秒，今天比赛游的",
        "The user's resting heart rate is currently 58, measured today",
    ],
)
def test_a_value_said_to_hold_now_is_no_plan(text: str) -> None:
    assert dates.latest(dates.find(text, DAY), DAY) is None


@pytest.mark.parametrize(
    "text",
    [
        "The user has a dentist appointment today at 3pm",
        "用户今天下午要去医院复查",
        "Now I need to pick up the parcel today",
    ],
)
def test_a_plan_of_today_stays_a_plan(text: str) -> None:
    assert dates.latest(dates.find(text, DAY), DAY) == DAY


def test_two_names_alike_by_embedding_are_two_values() -> None:
    old = _said("用户有糖尿病，每天早上吃一片格列齐特", "health")
    new = _said("用户：二甲双胍 早上吃", "health")
    assert not same_fact(new, old, 0.95)
    # one name cut two ways, or one said again, is still one fact
    assert same_fact(_said("用户：格列齐特 早上吃", "health"), old, 0.95)


def test_a_summarys_report_is_about_whom_it_names() -> None:
    assert subject_of("The user mentioned Priya's flat is in Deptford") == "Priya"
    assert subject_of("The user said my dad is 70 now") == "user/father"
    assert subject_of("The user mentioned Mum moved into Oakwood") == "user/mother"
    assert subject_of("用户提到妈妈下个月来杭州") == "user/mother"
    # a report of the user's own, or a capitalised word that names no one, stays the user's
    assert subject_of("The user said Tuesday works for the call") == "user"
    assert subject_of("用户表示自己不吃辣") == "user"
    assert subject_of("The user mentioned they are vegetarian") == "user"
