"""The learned "same slot, new value" judgement (``judge/slotmodel.py``) and the pieces
the engine wraps around it: nearest older statements for a change, one change one slot,
weekdays that are no day of their own, a Chinese name called by its given name."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest

from memory.dream import extractive
from memory.dream.extractive import Cluster, ExtractiveEngine, Statement
from memory.dream.judge import dates, slotmodel
from memory.dream.judge.relations import Said, aliased

DAY = date(2027, 3, 1)


def test_pair_features_are_exact_numbers() -> None:
    moved = slotmodel.pair_features(
        "用户跳槽去了小米，还是做嵌入式开发", "用户在华为做嵌入式开发", 0.9
    )
    assert moved == pytest.approx(
        (0.5, 2 / 3, 0.4, 5 / 9, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.5, 5 / 9, 0.0)
    )
    milk = slotmodel.pair_features(
        "The user now takes soy milk in her tea", "The user takes whole milk in her tea", 0.95
    )
    assert milk == pytest.approx(
        (1.0, 0.75, 0.6, 0.75, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.75, 0.0)
    )
    again = slotmodel.pair_features(
        "The user still lives in Leeds", "The user lives in Leeds", 0.97
    )
    assert again[slotmodel.FEATURES.index("again_newer")] == 1.0
    assert again[slotmodel.FEATURES.index("change_newer")] == 0.0
    assert again[slotmodel.FEATURES.index("value_swapped")] == 0.0


def test_the_model_is_a_logistic_regression() -> None:
    fitted = slotmodel.SlotModel(tuple([0.5] * len(slotmodel.FEATURES)), -1.0)
    one_hot = (1.0,) + (0.0,) * (len(slotmodel.FEATURES) - 1)
    assert fitted.probability(one_hot) == pytest.approx(1 / (1 + np.exp(0.5)))


def test_the_shipped_model_names_its_features() -> None:
    fitted = slotmodel.model()
    assert fitted is not None and len(fitted.weights) == len(slotmodel.FEATURES)
    assert slotmodel.probability("用户搬到了杭州", "用户住在上海", None) == 0.0  # no embeddings


@pytest.mark.parametrize(
    ("newer", "older", "cosine", "replaced"),
    [
        ("用户跳槽去了小米，还是做嵌入式开发", "用户在华为做嵌入式开发", 0.93, True),
        ("The user has moved to Glasgow", "The user lives in Cardiff", 0.93, True),
        ("The user still lives in Cardiff", "The user lives in Cardiff", 0.97, False),
        ("The user's son has started karate", "The user's daughter lives in Cardiff", 0.9, False),
    ],
)
def test_a_named_new_value_replaces_the_old_one(
    newer: str, older: str, cosine: float, replaced: bool
) -> None:
    new, old = Said(newer, "user", "work"), Said(older, "user", "work")
    assert ExtractiveEngine._contradicts(new, old, cosine) is replaced


def test_never_across_subjects() -> None:
    new = Said("用户的父亲搬到了苏州", "user/father", "fact")
    old = Said("用户住在上海", "user", "fact")
    assert not ExtractiveEngine._contradicts(new, old, 0.95)


def _cluster(text: str, vector: list[float]) -> Cluster:
    st = Statement(text, (), DAY, 0)
    st.vector = np.array(vector, dtype=np.float32)
    cluster = Cluster()
    cluster.add(st)
    return cluster


def test_a_change_is_compared_with_its_nearest_older_statements() -> None:
    older = [_cluster("用户在网易做前端开发", [1.0, 0.0]), _cluster("用户养猫", [0.0, 1.0])]
    matrix = np.vstack([c.head.vector for c in older if c.head.vector is not None])
    subject = ([0, 1], matrix)
    changed = _cluster("用户跳槽去京东了", [0.96, 0.28]).head
    assert extractive._nearest(changed, older, subject) == [older[0]]
    said = _cluster("用户喜欢京东的物流", [0.96, 0.28]).head  # no change said: no lookup
    assert extractive._nearest(said, older, subject) == []


def test_one_change_retires_the_slot_it_most_likely_holds() -> None:
    home, job, far = Cluster(), Cluster(), Cluster()
    found = [(home, 0.76, "rules"), (job, 0.44, "rules")]
    assert extractive._one_slot(found) == [(home, 0.76, "rules")]
    both = [(home, 0.76, "rules"), (job, 0.6, "learned")]
    assert extractive._one_slot(both) == both
    assert extractive._one_slot([(far, 0.0, "rules")]) == [(far, 0.0, "rules")]


def test_weekdays_that_are_no_day_of_their_own() -> None:
    sunday = dates.find("the sportive is on Sunday June 6", date(2027, 5, 11))
    assert [(s.first, s.last) for s in sunday] == [(date(2027, 6, 6), date(2027, 6, 6))]
    assert dates.find("用户的儿子叫周天佑，六岁", date(2027, 1, 11)) == []
    weekend = dates.find("苏州那趟改到 5 月 8 号那个周末了", date(2027, 4, 17))
    assert [s.first for s in weekend] == [date(2027, 5, 8)]
    assert [s.first for s in dates.find("周天去爬山", date(2027, 4, 13))] == [date(2027, 4, 18)]


def test_a_chinese_name_is_also_its_given_name() -> None:
    named = Statement("用户的儿子叫周天佑，六岁", (), DAY, 0)
    aliases = extractive._aliases([named], frozenset())
    assert aliases == {"周天佑": "user/son", "天佑": "user/son"}
    assert aliased("用户：天佑每周二晚上游泳", "user", aliases) == "user/son"
    speaker = extractive._aliases([named], frozenset({"天佑"}))
    assert speaker == {"周天佑": "user/son"}  # a speaker's name stays the speaker's


def test_a_learned_change_retires_the_clause_sharing_most_words() -> None:
    from memory.dream.judge.clauses import packed, split_changed

    older = Said("用户：每天早上一杯拿铁，要加全脂牛奶", "user", "preference")
    newer = Said("用户最近咖啡改加燕麦奶了，全脂的喝了不舒服", "user", "preference")
    assert split_changed(older, newer) is None  # no value's type shows the clause
    part = split_changed(older, newer, by_words=True)
    assert part is not None and part.retired == "用户要加全脂牛奶"
    assert part.kept == "用户每天早上一杯拿铁"
    assert packed(older) and not packed(Said("用户住在杭州", "user", "fact"))
    tied = Said("用户：喜欢红茶，喜欢绿茶", "user", "preference")
    assert split_changed(tied, Said("用户改喝咖啡了", "user", "preference"), by_words=True) is None


@pytest.mark.parametrize(
    ("newer", "older"),
    [
        ("用户体重还是 64 公斤", "用户胖了，现在 64 公斤"),  # the same value said again
        ("The user is still at Harlow Dental", "The user works at Harlow Dental"),
        ("Priyanka still lives in Didsbury", "Priyanka lives in Didsbury, Manchester"),
        ("用户现在还是住在江北", "用户住在重庆江北"),
    ],
)
def test_the_old_value_said_again_replaces_nothing(newer: str, older: str) -> None:
    assert not slotmodel.could_replace(newer, older)
    assert slotmodel.probability(newer, older, 0.99) == 0.0


@pytest.mark.parametrize(
    ("newer", "older"),
    [
        ("用户体重还是没降，68 公斤", "用户体重 66 公斤"),  # "still", but another number
        ("用户跳槽去了携程", "用户在去哪儿做测试"),  # a named value the older lacks
        ("The user switched to almond milk", "The user takes oat milk in tea"),
        ("羽毛球改到周四晚上了", "每周二晚上打羽毛球"),  # another weekday
    ],
)
def test_a_new_value_may_replace(newer: str, older: str) -> None:
    assert slotmodel.could_replace(newer, older)
