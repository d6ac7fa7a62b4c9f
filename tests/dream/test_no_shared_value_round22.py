"""Round 22: the same attribute with a different value, no value shared.

A new car ("新车提了，比亚迪汉" after "那辆大众开了八年了"), another shift ("on day shifts
now" after "works nights"), a job named with where it is done ("a designer at Fold" after
"works at Kettle & Crumb"), a rank, a school, whom a role is held by (a new landlord, GP,
班主任), a search that ended ("找到工作了" after "到广州再找"): the two statements share no
value and no typed value, so only a slot one holds one value of
(:mod:`memory.dream.judge.single_slots`) can tell the change.
Near misses are no change: a second car, a car said of without a make ("那辆车该保养了"),
a shift told beside the workplace it is worked at (the workplace stays), a night shift named
as a time ("melatonin after night shifts"), the same employer said again. Examples of this
file's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from two_days import dream_two_days

from memory.dream.judge.single_slots import slot_values, swapped

# (newer, older, the slot the newer gives another value of)
CHANGES = [
    # a new car
    ("老赵：新车提了，是一辆理想L7", "老赵那辆本田开了十年了", "car"),
    ("我现在开一辆特斯拉", "我开一辆卡罗拉上下班", "car"),
    ("新车到了，比亚迪海豹", "这辆大众朗逸是二手的", "car"),
    ("小周开的是一辆五菱宏光", "小周那辆捷达卖了吗？那辆捷达开了很久", "car"),
    ("Tom drives a Tesla now", "Tom drives a Honda Civic", "car"),
    ("Our new car is a Kia Niro", "We drive a Volvo estate", "car"),
    ("Gran drives a Fiat Panda these days", "Gran drives a Rover to church", "car"),
    # another shift
    ("I'm on days now, 7 to 7", "I work nights, so I sleep till noon", "shift"),
    ("Priya works days now", "Priya works nights", "shift"),
    ("Joe: back on earlies this month", "Joe: I'm working lates", "shift"),
    ("Ana is on the day shift again", "Ana is on nights, so no calls before 3", "shift"),
    ("小何现在上白班了", "小何一直上夜班", "shift"),
    ("她改成早班了", "她上晚班，下午三点到十一点", "shift"),
    ("老公调到白班了", "老公上夜班，白天睡觉", "shift"),
    # a job named with where it is done
    ("Niamh is a designer at Fold Studio now", "Niamh works at Kettle & Crumb", "employer"),
    ("Sam is a barista at Bean There", "Sam is a barista at Costa", "employer"),
    ("Mei is now a nurse at the Royal Free", "Mei is a nurse at Guy's", "employer"),
    ("Dev is a teacher at Hillside Primary", "Dev works for Oakwood Academy", "employer"),
    ("Lena got a job as a receptionist at Hotel Kaya", "Lena works at Lidl", "employer"),
    ("Raj is an engineer at Arup these days", "Raj is an engineer at Atkins", "employer"),
    # a rank on a ladder
    ("Kai got his purple belt", "Kai is a blue belt now", "rank"),
    ("阿杰终于打到钻石了", "阿杰现在黄金三，天天排位", "rank"),
    # whom a role one has one of is held by
    ("Our new landlord is Quinn Lettings", "Our landlord is Mr Byrne", "holder:landlord"),
    ("Her new GP is Dr Shah", "Her GP is Dr Okafor", "holder:gp"),
    ("My boss is Sarah now", "My boss is Tom Reed", "holder:boss"),
    ("班主任换成李老师了", "乐乐的班主任是王老师", "holder:班主任"),
    ("房东现在是王姐", "房东是李叔，人挺好", "holder:房东"),
    # the school one goes to
    ("乐乐转学到实验小学了", "乐乐在育才小学上学", "school"),
    ("Maya studies law at UCL", "Maya studies at King's College", "school"),
    # a search that ended
    ("小芳找到工作了，在一家会计事务所", "小芳说先回老家再找", "search"),
    ("I found a flat in Leith!", "I'm looking for a flat near work", "search"),
    ("Got the job at Arup!", "job hunting again, ugh", "search"),
]

# (newer, older): the same attribute, but no new value of a slot held one at a time
NEAR_MISSES = [
    ("我又买了第二辆车，一辆五菱", "我开一辆卡罗拉"),
    ("Tom got another car, he drives a Mini at weekends", "Tom drives a Honda Civic"),
    ("Tom bought a second car; he drives a Mini too", "Tom drives a Honda Civic"),
    ("那辆车该保养了", "那辆大众开了八年了"),
    ("I drive a lot for work", "I drive a Golf"),
    ("Tom still drives a Honda Civic", "Tom drives a Honda Civic"),
    ("小何现在上白班", "小何在协和医院上夜班"),
    ("Bia is on day shifts now", "Bia works nights at St James's"),
    ("Bia takes melatonin after night shifts", "Bia works days"),
    ("我坐早班机去北京", "我上夜班"),
    ("I was on days off all week", "I work nights"),
    ("Sam is still a barista at Costa", "Sam is a barista at Costa"),
    ("The book club also liked Piranesi", "Our first book is Piranesi"),
    ("Lou's friend is a barista at Costa", "Lou's friend likes Costa"),
    ("Kim's café is on Capel Street", "Kim is a barista at Kettle & Crumb"),
    ("小何夜班后要吃安眠药", "小何上白班"),
    ("她上晚班，十一点下班", "她上晚班，下午三点上班"),
    ("Ana is on nights this week again", "Ana is on nights"),
    ("Ana loves her new car", "Ana drives a Ford Focus"),
    ("我那辆比亚迪开了三年了", "我那辆比亚迪是2024年买的"),
    ("Kai still has his blue belt", "Kai is a blue belt now"),
    ("My friend is Sam", "My friend is Joe"),
    ("Her GP is still Dr Okafor", "Her GP is Dr Okafor"),
    ("班主任还是王老师", "乐乐的班主任是王老师"),
    ("我男朋友叫何俊，在重庆", "我男朋友叫何俊"),
    ("找到房子了，在滨江", "还在找工作"),
    ("还没找到工作", "在找工作"),
    ("她在找对象", "她找到工作了"),
    ("Found a flat for my sister", "I'm looking for a new job"),
]


@pytest.mark.parametrize(("newer", "older", "slot"), CHANGES)
def test_the_same_attribute_with_no_value_shared_is_a_change(
    newer: str, older: str, slot: str
) -> None:
    assert swapped(newer, older) == slot


@pytest.mark.parametrize(("newer", "older"), NEAR_MISSES)
def test_a_near_miss_swaps_no_value(newer: str, older: str) -> None:
    assert swapped(newer, older) == ""


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("陈静那辆大众开了五年", "car"),
        ("Ravi drives a Skoda", "car"),
        ("Ravi works nights", "shift"),
        ("妈妈上夜班", "shift"),
        ("Ravi is a nurse at St Mary's", "employer"),
        ("Ravi goes to Hillcrest High School", "school"),
        ("Ravi's landlord is Mr Hale", "holder:landlord"),
    ],
)
def test_a_car_a_shift_and_a_workplace_fill_their_slot(text: str, slot: str) -> None:
    assert slot in slot_values(text)


def test_a_new_car_retires_the_old_one_in_a_dream(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path,
        ["周强那辆本田开了十年了，老是出毛病"],
        ["周强：新车提了，是一辆理想L7，开着挺顺"],
    )
    assert "理想" in items
    assert "本田" not in items
    assert "本田" in archive


def test_another_shift_told_beside_the_workplace_keeps_the_workplace(tmp_path: Path) -> None:
    items, _ = dream_two_days(
        tmp_path,
        ["Ana works nights at the Royal Infirmary, so no calls before 3pm"],
        ["Ana: rota changed, I'm on day shifts now, 8 to 8"],
    )
    assert "Royal Infirmary" in items  # the workplace the night shift was told with stays
    assert "day shifts" in items
