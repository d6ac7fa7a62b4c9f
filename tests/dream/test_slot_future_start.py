"""A value that takes effect from a later date ("从3月起涨到…", "starting in May") is a
plan over the present value, not a value held now: the slot model's
``future_over_present`` feature sees it, whether the date is a month, a day or resolved."""

from __future__ import annotations

from memory.dream.judge import slotmodel

_FUTURE = slotmodel.FEATURES.index("future_over_present")


def _future(newer: str, older: str) -> float:
    return slotmodel.pair_features(newer, older, 0.9)[_FUTURE]


def test_a_value_from_a_later_date_is_a_plan_over_the_present() -> None:
    assert _future("物业说2027年3月起物业费涨到 3.5 元", "物业费每平 2.8 元") == 1.0
    assert _future("健身房15号起月卡改成 260", "健身房月卡 220") == 1.0
    assert _future("用户：2027-02-01起改成每周三次康复", "用户每周两次康复") == 1.0
    assert _future("Starting in May the gym fee goes up to £45", "The gym fee is £38") == 1.0


def test_other_uses_of_the_character_are_no_start_date() -> None:
    assert _future("用户每天6点起床", "用户每天7点起床") == 0.0
    assert _future("小区上个月发生了3起盗窃", "小区很安全") == 0.0
    assert _future("物业费涨到 3.5 元了", "物业费每平 2.8 元") == 0.0
    # both statements start from a date: the newer is no plan over a present value
    assert _future("2027年3月起物业费 3.5 元", "2026年3月起物业费 2.8 元") == 0.0


def test_a_start_date_lowers_the_replacement_probability() -> None:
    fitted = slotmodel.model()
    assert fitted is not None
    newer, older = "物业说2027年3月起物业费涨到 3.5 元", "物业费每平 2.8 元"
    values = slotmodel.pair_features(newer, older, 0.95)
    without = tuple(0.0 if i == _FUTURE else v for i, v in enumerate(values))
    assert fitted.probability(values) < fitted.probability(without)
