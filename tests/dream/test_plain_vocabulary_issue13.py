"""Issue 13: the everyday words Hong Kong and Taiwan write otherwise than the mainland
(芫茜 香菜, 的士 出租车, 雪櫃 冰箱, 計程車 出租车, 軟體 软件 ...) are read as the
mainland's in a Traditional or Cantonese text, so the dream and search see one word.
Examples of this file's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from two_days import dream_two_days

from memory.dream.grounding import support
from memory.plain_chinese import plain, shown


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("佢唔食芫茜", "他不吃香菜"),  # food
        ("我今朝搭的士返工", "我今朝搭出租车上班"),  # transport, longer than written
        ("屋企個雪櫃壞咗", "家里个冰箱坏了"),  # home
        ("用戶話佢下個月搬屋", "用户说他下个月搬家"),
        ("我哋去街市買菜，用咗五十蚊", "我们去菜市场买菜，用了五十块"),  # money
        ("我每天騎腳踏車去捷運站", "我每天骑自行车去地铁站"),  # Taiwan: OpenCC's phrases
        ("他在公司寫軟體，用簡訊聯絡客戶", "他在公司写软件，用短信联系客户"),
        ("佢買咗部新嘅手提電話", "他买了部新的手机"),  # phones
        ("佢係我嘅士兵", "他是我的士兵"),  # 的士 read from 嘅 is no taxi
    ],
)
def test_hong_kong_and_taiwan_words_read_as_the_mainlands(written: str, read: str) -> None:
    assert plain(written) == read
    assert plain(read) == read


@pytest.mark.parametrize(
    "text",
    ["我坐巴士去机场", "他买了一辆单车", "今天吃雪糕", "行程很满", "这部影片很好看"],
)
def test_simplified_mandarin_keeps_its_words(text: str) -> None:
    assert plain(text) == text


def test_a_word_read_otherwise_is_given_back_as_written() -> None:
    lines = ["我今朝搭的士返工"]
    assert shown("用户今朝搭出租车上班", lines) == "用户今朝搭的士返工"
    assert shown("用户搭出租车", lines) == "用户搭的士"
    assert "的士" in shown("用户搭出租", lines)  # part of a word: the word, once
    assert shown("用户说他下个月搬家", ["用戶話佢下個月搬屋"]) == "用戶話佢下個月搬屋"


def test_an_item_in_mainland_words_is_grounded_in_hong_kong_lines() -> None:
    assert support("用户不吃香菜", ["用戶話佢唔食芫茜"]) >= 0.6


def test_a_later_word_of_the_mainland_retires_the_hong_kong_one(tmp_path: Path) -> None:
    first = ["用戶話佢唔食芫茜", "用戶養咗一隻貓叫豆豆"]
    later = ["用戶話佢而家食香菜"]
    items, archive = dream_two_days(tmp_path, first, later)
    assert "芫茜" not in items and "芫茜" in archive and "superseded" in archive
    assert "香菜" in items and "豆豆" in items
