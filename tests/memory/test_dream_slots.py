"""The same slot, a new value: typed values, weekday moves, names given to people, things
stopped, one clause of a packed statement, and the llm engine held to the same checks."""

from __future__ import annotations

from datetime import date, datetime

import numpy as np
from mem_support import SHANGHAI, at, generated, note

from memory.dream import DreamOptions, run_dream
from memory.dream.judge.bitext import mutual_pairs
from memory.dream.judge.clauses import lead, split_changed
from memory.dream.judge.dates import resolve
from memory.dream.judge.relations import Said, alias_of, aliased, replaces, translation
from memory.dream.judge.slots import changes_value, new_value, typed_values
from memory.dream.judge.wording import readable
from memory.llm import OpenAIChatModel
from memory.paths import MemoryRoot
from tests.fakes.openai_server import FakeOpenAI

NOW = datetime(2026, 11, 20, 23, 58, tzinfo=SHANGHAI)


def said(text: str, subject: str = "user", kind: str = "fact") -> Said:
    return Said(text, subject, kind)


def test_values_are_typed_numbers_by_their_unit_times_and_weekdays() -> None:
    assert typed_values("女儿身高 112 厘米，三岁半") == {
        "num:length": frozenset({"1.12"}),
        "num:岁": frozenset({"3.5"}),
    }
    assert typed_values("He takes three pills a day") == {"num:pill": frozenset({"3"})}
    assert typed_values("Half marathon in 1:52:10, 10k in 48 minutes") == {
        "time": frozenset({"1:52:10", "48min"}),
        "num:k": frozenset({"10"}),
    }
    # the value a change moves away from is not one of the newer's values
    assert typed_values("钢琴课从周三改到周五") == {"weekday": frozenset({"4"})}
    assert typed_values("membership went from 30 to 45 pounds") == {"num:pound": frozenset({"45"})}
    # "一起", "一点" are no numbers; a date is a date, not a month number
    assert typed_values("我们一起去，人少一点") == {}
    assert set(typed_values("2027年3月考试")) == {"date"}


def test_a_new_value_of_one_type_for_one_slot() -> None:
    # a measurement, a count in words, a time: the anchor word or a shared value places it
    assert new_value("女儿身高 118 厘米了", "女儿身高 112 厘米", None)
    assert new_value("He's down to two coffees a day", "He has four coffees a day", None)
    assert new_value("Swim PB: 400m in 7:41", "400m swim best is 8:05", 0.9)
    # the old value said again, two different slots, or readings too far apart
    assert not new_value("女儿身高还是 112 厘米", "女儿身高 112 厘米", None)
    assert not new_value("用户体重 70 公斤", "用户身高 175 厘米", 0.95)
    assert not new_value("He has four coffees a day", "He has two kids", None)
    assert not new_value("Swim PB: 400m in 7:41", "400m swim best is 8:05", 0.7)


def test_a_weekday_changes_only_when_the_line_says_it_moved() -> None:
    assert changes_value("瑜伽课从周二改到周四了", "用户每周二上瑜伽课")
    assert changes_value("Band practice moved to Wednesdays", "Band practice is on Mondays")
    # a second weekly day is no change of the first
    assert not changes_value("Band practice is on Fridays too", "Band practice is on Mondays")


def test_a_move_between_bare_weekdays_is_no_date() -> None:
    day = date(2026, 12, 9)
    assert resolve("钢琴课从周三改到周五了", day)[0] == "钢琴课从周三改到周五了"
    assert resolve("Pottery moved from Tuesdays to Thursdays", day)[0] == (
        "Pottery moved from Tuesdays to Thursdays"
    )
    # a one-off move names its week and is resolved
    assert resolve("面试从下周三改到下周五", day)[0] == "面试从2026-12-16改到2026-12-18"


def test_a_name_given_to_someone_is_that_person_s_subject() -> None:
    assert alias_of("用户的女儿叫朵朵，今年三岁") == ("朵朵", "user/daughter")
    assert alias_of("The user's husband Marco is a nurse") == ("Marco", "user/husband")
    assert alias_of("Priya's son is called Dev") == ("Dev", "Priya/son")
    assert alias_of("用户的妈妈是老师") is None
    names = {"朵朵": "user/daughter", "Dev": "Priya/son"}
    assert aliased("用户：朵朵今天量了身高", "user", names) == "user/daughter"
    assert aliased("Dev starts school in May", "user", names) == "Priya/son"
    assert aliased("Devon lives next door", "user", names) == "user"


def test_a_stopped_thing_replaces_the_line_that_named_it() -> None:
    old = said("The user takes melatonin before bed", kind="health")
    assert replaces(said("The user quit melatonin, sleeps fine now", kind="health"), old)
    assert replaces(said("用户不再吃褪黑素了"), said("用户睡前吃褪黑素"))
    assert not replaces(said("The user stopped by the bakery"), old)


def test_a_household_is_not_a_home() -> None:
    allergy = said("赵阿姨家的孩子对花生过敏", subject="赵阿姨")
    moved = said("赵阿姨他们家搬到了西湖区", subject="赵阿姨")
    assert not replaces(moved, allergy)


def test_one_clause_of_a_packed_statement_changes() -> None:
    old = said("用户的女儿叫朵朵，今年三岁，身高 96 厘米", subject="user/daughter")
    new = said("用户：朵朵身高 99 厘米了", subject="user/daughter")
    part = split_changed(old, new)
    assert part is not None
    assert (part.kept, part.retired) == ("用户的女儿叫朵朵，今年三岁", "用户的女儿身高 96 厘米")
    assert lead("用户：房租每月 3200，每月 10 号交") == "用户"
    # a change to the whole statement, or to an English clause without its subject: no split
    assert split_changed(said("用户搬到杭州了"), said("用户住在苏州，喜欢爬山")) is None
    pills = said("The user takes 2 pills in the morning, and one at night")
    assert split_changed(said("The user takes 3 pills in the morning"), pills) is None


def test_a_member_s_label_is_not_read_but_the_user_s_is() -> None:
    assert readable("周老师：家长会改到周四了") == "家长会改到周四了"
    assert readable("用户：有点头疼") == "用户：有点头疼"
    assert readable("注意：别用 root 跑") == "注意：别用 root 跑"


def dream(root: MemoryRoot, engine: str = "extractive", model: OpenAIChatModel | None = None):
    options = DreamOptions(days=5, engine=engine)  # type: ignore[arg-type]
    return run_dream(root, options, model=model, now=NOW)


def test_a_packed_line_keeps_the_facts_that_did_not_change(root: MemoryRoot) -> None:
    note(root, at(17, month=11), "用户的体重是 81 公斤，目标是减到 74 公斤")
    note(root, at(19, month=11), "用户体重降到了 79 公斤")
    report = dream(root)
    assert report.status == "done", report.reason
    items = [t for t, _, _ in generated(root.memory_md)]
    assert "用户目标是减到 74 公斤" in items
    assert any("79 公斤" in t for t in items)
    assert not any("81" in t for t in items)
    archived = {t: f["reason"] for t, _, f in generated(root.archive)}
    assert archived == {"用户的体重是 81 公斤": "superseded"}


def test_the_model_s_items_meet_the_same_slot_checks(root: MemoryRoot, llm: FakeOpenAI) -> None:
    note(root, at(16, month=11), "用户的儿子叫乐乐，身高 120 厘米")
    note(root, at(19, month=11), "乐乐身高 124 厘米了")
    llm.json_reply(
        {
            "memory": [
                {"text": "用户的儿子叫乐乐，身高 120 厘米", "sources": ["memory/2026-11-16.md#L4"]},
                {"text": "乐乐身高 124 厘米了", "sources": ["memory/2026-11-19.md#L4"]},
            ],
            "diary": "整理了笔记。",
        }
    )
    model = llm.chat_model("m", "sk-test")
    report = dream(root, "llm", model)
    assert report.status == "done", report.reason
    items = [t for t, _, _ in generated(root.memory_md)]
    assert items == ["乐乐身高 124 厘米了"]  # the older value, under the son's name, is stale
    assert report.rejected == 1


def test_translations_pair_by_margin_not_by_a_cosine_bar() -> None:
    # rows: Chinese statements; columns: English ones
    sims = np.array(
        [
            [0.86, 0.83, 0.80],  # 不喝酒: clearly "does not drink alcohol"
            [0.84, 0.85, 0.70],  # 不吃香菜: nearest "dislikes coriander", by too little
            [0.79, 0.78, 0.82],  # 养猫: nearest "has a cat", under the floor
        ]
    )
    assert mutual_pairs(sims) == [(0, 0)]
    assert mutual_pairs(sims, floor=0.81, margin=0.0) == [(0, 0), (1, 1), (2, 2)]
    assert mutual_pairs(np.zeros((0, 3))) == []
    assert mutual_pairs(np.array([[0.9]])) == [(0, 0)]


def test_a_translation_keeps_subject_kind_numbers_and_negation() -> None:
    zh, en = (
        said("用户不喝酒", kind="preference"),
        said("The user does not drink", kind="preference"),
    )
    assert translation(zh, en)
    assert not translation(said("用户喝酒", kind="preference"), en)
    assert not translation(said("用户每天跑 5 公里"), said("The user runs 10 km a day"))
    assert not translation(said("张伟不喝酒", "张伟", "preference"), en)
