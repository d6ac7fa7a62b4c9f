"""Round 13's judgements of a pair: Chinese numbers of ten thousands, a value said not to
hold, a relation's reported words, a first clause that only names its subject, a relation
named bare, the home and employer constructions, a value said to hold now, a goal, a
sentence opened by "The". Examples of this file's own."""

from __future__ import annotations

from memory.dream.judge.relations import Said, alias_of, replaces, same_fact, subject_of
from memory.dream.judge.single_slots import slot_values, swapped
from memory.dream.judge.slots import changes_value, typed_values


def test_chinese_thousands_are_one_number() -> None:
    assert typed_values("用户月薪一万二") == {"num:": frozenset({"12000"})}
    assert typed_values("房租每月两千八") == {"num:": frozenset({"2800"})}
    assert typed_values("定金交了1.5万元") == {"num:cny": frozenset({"15000"})}
    assert typed_values("存款有三万五千块") == {"num:cny": frozenset({"35000"})}
    assert typed_values("一千五百") == {"num:": frozenset({"1500"})}
    assert changes_value("用户的月薪涨到一万四了", "用户月薪一万二")
    assert not changes_value("用户月薪还是一万二", "用户月薪一万二")


def test_a_value_said_not_to_hold_is_no_value() -> None:
    assert typed_values("更正：车位费是四百，不是三百") == {"num:": frozenset({"400"})}
    assert typed_values("It is £600, not £550") == {"num:gbp": frozenset({"600"})}
    assert changes_value("更正：停车位每月是四百，不是三百", "停车位每月三百")


def test_what_a_relation_told_the_user_is_the_users() -> None:
    assert subject_of("用户：老板说年终奖能发三个月") == "user"
    assert subject_of("The user: my landlord said my rent goes up in May") == "user"
    # unless it names someone, or is about the relation itself
    assert subject_of("用户：医生说我爸的血压还要再观察") == "user/father"
    assert subject_of("用户：妈妈说她下周去看二姨") == "user/mother"
    assert subject_of("Dad says he is selling the caravan") == "user/father"
    assert subject_of("用户：妈妈住院了") == "user/mother"


def test_a_clause_that_only_names_its_subject_says_no_fact() -> None:
    names = frozenset({"Ines Ruiz"})
    intro = Said(
        "Ines Ruiz is Ines, data engineer, working from the Lisbon office", "Ines Ruiz", "work"
    )
    other = Said("Ines Ruiz is lactose intolerant, so no cheese at lunch", "Ines Ruiz", "health")
    assert subject_of(intro.text, names) == subject_of(other.text, names) == "Ines Ruiz"
    assert not same_fact(intro, other)
    assert not same_fact(other, intro)
    # the same assertion with an aside still is one fact
    a = Said("The user is allergic to wasps, carries an EpiPen", "user", "health")
    b = Said("The user is allergic to wasps, found out at school", "user", "health")
    assert same_fact(a, b)


def test_a_relation_named_bare_then_its_name_is_an_alias() -> None:
    assert alias_of("The user: Dad is Rupert, he is 79") == ("Rupert", "user/father")
    assert alias_of("Priya: my husband is called Arun", frozenset({"Priya"})) == (
        "Arun",
        "Priya/husband",
    )
    assert alias_of("The user: Dad is retired") is None  # no name


def test_home_and_employer_constructions() -> None:
    # "a flat" names the kind of home, not which
    assert slot_values("Rupert lives on his own in a flat in Whitby")["home"] == {"whitby"}
    assert (
        swapped("The user: Dad moved into Seaview Court", "Rupert lives alone in Whitby") == "home"
    )
    assert slot_values("周琳打算辞掉超市的工作")["employer"]
    assert swapped("周琳找到工作了，在一家花店", "周琳打算辞掉超市的工作") == "employer"
    assert swapped("周琳还在超市上班", "周琳打算辞掉超市的工作") == ""


def test_a_value_said_to_hold_now_replaces_though_a_later_day_is_named() -> None:
    old = Said("The user's tutoring rate is £40 an hour", "user", "work")
    now = Said(
        "The user's tutoring rate is now £45 an hour, fixed until 2028", "user", "work", True
    )
    plan = Said("The user's tutoring rate will be £45 an hour from 2028", "user", "work", True)
    assert replaces(now, old)
    assert not replaces(plan, old)


def test_a_goal_replaces_no_value_held() -> None:
    held = Said("The user weighs 96 kg", "user", "fact")
    assert not replaces(Said("The user wants to get down to 90 kg", "user", "fact"), held)
    assert not replaces(
        Said("用户的目标是减到八十五公斤", "user", "fact"), Said("用户体重九十公斤", "user", "fact")
    )
    assert replaces(Said("The user is down to 93 kg", "user", "fact"), held)
    # a goal changed is a new goal
    assert replaces(
        Said("用户换房的首付目标改成 60 万", "user", "plan"),
        Said("用户打算存 40 万首付", "user", "plan"),
    )


def test_a_sentence_opened_by_the_names_no_one() -> None:
    assert subject_of("The doctor halved the user's metformin") == "user"
    assert subject_of("This week the user started night shifts") == "user"
    assert subject_of("Ines Ruiz moved to Porto", frozenset({"Ines Ruiz"})) == "Ines Ruiz"


def test_a_goal_clause_and_a_held_value_are_two_slots() -> None:
    assert not changes_value("用户称体重降到了 81 公斤", "用户目标是减到 76 公斤")
    assert changes_value("用户称体重降到了 81 公斤", "用户的体重是 84 公斤")
    assert changes_value("用户的存钱目标改成 20 万", "用户的存钱目标是 15 万")


def test_an_age_reached_on_a_day_is_a_change() -> None:
    from memory.dream.extractive import ExtractiveEngine

    held = Said("The user's son is 7", "user/son", "people")
    birthday = Said("The user's son turned 8 today", "user/son", "people")
    assert ExtractiveEngine._judge_change(birthday, held) == "rules"
    # what happened on a day, with no word of a change, moves no one
    party = Said("The user's son had 8 friends over today", "user/son", "people")
    assert ExtractiveEngine._judge_change(party, held) is None


def test_an_announcing_opener_names_no_one() -> None:
    names = frozenset({"郑洁", "Tom Hale"})
    assert subject_of("另外宣布一下，郑洁调到北京分部了", names) == "郑洁"
    assert subject_of("Quick update: Tom Hale joined the Leeds team", names) == "Tom Hale"
    assert subject_of("通知一下，周五团建改到周六", names) == "user"


def test_the_learned_judgement_takes_no_goal_for_a_value() -> None:
    from memory.dream.judge import slotmodel

    assert not slotmodel.could_replace("用户想把体重减到六十五公斤", "用户体重七十二公斤")
    assert slotmodel.probability("The user hopes to earn £50k", "The user earns £41k", 0.95) == 0
    assert slotmodel.could_replace("用户的体重降到七十公斤了", "用户体重七十二公斤")
