"""Issue 13: notes in Traditional characters and in Cantonese are judged as Simplified
Mandarin (:mod:`memory.plain_chinese`) and remembered in the user's own script. Examples of
this file's own."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from two_days import dream_two_days

from memory.chatter import is_chatter
from memory.dream.grounding import support
from memory.dream.judge.dates import find
from memory.plain_chinese import plain, shown


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("用戶搬咗去大埔", "用户搬到了大埔"),
        ("佢而家唔食芫茜", "他现在不吃香菜"),
        ("我哋喺屋企睇戲", "我们在家里看戏"),
        ("佢係我嘅朋友，冇啲錢", "他是我的朋友，没些钱"),
        ("聽日下晝去搵醫生", "明天下午去找医生"),
        ("琴日飲咗杯咖啡", "昨天喝了杯咖啡"),
        ("後日係禮拜三", "后天是星期三"),
        ("佢話佢鍾意食零食", "他说他喜欢吃零食"),
        ("我們的頭髮很乾淨", "我们的头发很干净"),  # Traditional Mandarin
    ],
)
def test_plain_reads_traditional_and_cantonese(written: str, read: str) -> None:
    assert plain(written) == read
    assert len(plain(written)) == len(written)  # every character keeps its place
    assert plain(read) == read  # read once is read


@pytest.mark.parametrize(
    "text",
    ["用户今日很忙，一份工作做不完", "他的食物和饮料", "关系很好", "我星期三去上海", "用户俾人"],
)
def test_simplified_mandarin_reads_as_written(text: str) -> None:
    assert plain(text) == text


def test_shown_gives_the_lines_script_back() -> None:
    assert shown("用户搬到了大埔", ["- 我搬咗去大埔，好開心"]) == "用戶搬咗去大埔"
    assert shown("用户住在北京", ["- 我住在北京"]) == "用户住在北京"  # Simplified stays


def test_cantonese_days_resolve_like_mandarin() -> None:
    day = date(2027, 5, 3)  # a Monday
    for written, expected in (
        ("聽日", date(2027, 5, 4)),
        ("琴日", date(2027, 5, 2)),
        ("後日", date(2027, 5, 5)),
        ("禮拜三", date(2027, 5, 5)),
    ):
        spans = find(plain(f"我{written}去睇醫生"), day)
        assert spans and spans[0].first == expected, written


def test_traditional_item_is_grounded_in_its_lines() -> None:
    assert support("用戶而家喺銀行返工", ["佢而家喺銀行返工"]) >= 0.6
    assert support("用户现在在银行上班", ["佢而家喺銀行返工"]) >= 0.6


def test_cantonese_move_and_job_retire_the_old_ones(tmp_path: Path) -> None:
    first = [
        "用戶話佢住喺旺角，喺一間廣告公司做設計",
        "用戶話佢唔食芫茜",
        "用戶養咗一隻貓叫豆豆",
    ]
    later = ["用戶話佢上個禮拜搬咗去大埔", "用戶話佢而家喺一間銀行返工"]
    items, archive = dream_two_days(tmp_path, first, later)
    assert "旺角" not in items and "廣告公司" not in items
    assert "旺角" in archive and "superseded" in archive
    assert "大埔" in items and "銀行" in items
    assert "芫茜" in items and "豆豆" in items
    assert "用户" not in items and "用戶" in items  # the user's own script


def test_cantonese_plan_is_dated_and_expires(tmp_path: Path) -> None:
    first = ["用戶話聽日下晝三點要去睇牙醫", "用戶話佢對花生敏感"]
    items, archive = dream_two_days(tmp_path, first, ["用戶：好，多謝"])
    assert "牙醫" not in items and "牙醫" in archive and "expired" in archive
    assert "2027-05-04" in archive  # 聽日 of 3 May
    assert "花生" in items


@pytest.mark.parametrize(
    "text",
    ["我周一到周五上班", "我星期一至五返工", "我禮拜一至五返工", "Emma 说她周一到周三在家办公"],
)
def test_a_span_of_weekdays_is_a_weekly_schedule(text: str) -> None:
    assert find(plain(text), date(2026, 12, 3)) == []


def test_a_span_in_a_named_week_is_dated() -> None:
    spans = find("我下周一到周五放假", date(2026, 12, 3))
    assert spans and spans[0].first == date(2026, 12, 7)


def test_cantonese_habit_words_read_as_habits() -> None:
    assert plain("我成日去健身") == "我经常去健身"
    assert plain("個個禮拜六都打波") == "每个星期六都打波"
    assert find(plain("我逢禮拜三晚去游水"), date(2026, 12, 3)) == []


@pytest.mark.parametrize("text", ["唔該晒", "唔該晒你", "多謝晒"])
def test_cantonese_thanks_are_chatter_when_notes_are_written(text: str) -> None:
    assert is_chatter(text)
    assert not is_chatter("我住喺沙田第一城")
