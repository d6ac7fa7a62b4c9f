"""Supersession stays within one subject: the user's words about others by name ("Ivy is
9 and Maud is 6", "小宝5岁了，大宝8岁") give none of them, nor the user, another's new value
("Pip is 4 now", "咪咪3岁了", "我今年35岁"), while one being's own new value still
retires its old one. Examples of this file's own."""

from __future__ import annotations

from pathlib import Path
from zoneinfo import ZoneInfo

from two_days import dream_two_days

from memory.dream.judge.beings import holders, names_in, other_beings

ZONE = ZoneInfo("Asia/Shanghai")


def test_the_grandchildrens_ages_leave_the_cats_age(tmp_path: Path) -> None:
    first = ["User: Pip is 4 now, a tabby with one white paw", "User: we got Pip from a rescue"]
    later = ["User: Ivy is 9 and Maud is 6", "User: I took Ivy and Maud to the zoo"]
    text, archive = dream_two_days(tmp_path, first, later)
    assert "Ivy is 9 and Maud is 6" in text
    assert "Pip is 4" not in archive  # Pip's age is Pip's: no one else's replaces it
    assert "Pip is 4" in text


def test_two_childrens_ages_leave_the_cats_age_in_chinese(tmp_path: Path) -> None:
    text, archive = dream_two_days(tmp_path, ["用户：咪咪3岁了"], ["用户：小宝5岁了，大宝8岁"])
    assert "咪咪3岁" in text and "咪咪3岁" not in archive
    assert "小宝5岁" in text


def test_chinese_numerals_likewise(tmp_path: Path) -> None:
    text, archive = dream_two_days(tmp_path, ["用户：咪咪三岁了"], ["用户：小宝五岁了，大宝八岁"])
    assert "咪咪三岁" in text and "咪咪三岁" not in archive


def test_a_childs_age_leaves_the_users_own(tmp_path: Path) -> None:
    text, archive = dream_two_days(tmp_path, ["用户：我今年35岁"], ["用户：豆豆今年6岁了"])
    assert "35" in text and "35" not in archive
    assert "豆豆" in text


def test_one_beings_new_age_still_retires_its_old_one(tmp_path: Path) -> None:
    first = ["User: Pip is 4 now, a tabby with one white paw", "User: our cat is called Pip"]
    text, archive = dream_two_days(tmp_path, first, ["User: Pip is 5 now"])
    assert "Pip is 5" in text and "Pip is 4" not in text
    assert "Pip is 4" in archive and "superseded" in archive


def test_one_beings_new_age_retires_its_old_one_in_chinese(tmp_path: Path) -> None:
    text, archive = dream_two_days(tmp_path, ["用户：咪咪3岁了"], ["用户：咪咪4岁了"])
    assert "咪咪4岁" in text and "咪咪3岁" not in text
    assert "咪咪3岁" in archive


def test_whom_clauses_open_with() -> None:
    named = names_in(["User: the boys are called Owen and Rhys", "User: a collie called Bess"])
    assert named == frozenset({"Owen", "Rhys", "Bess"})
    assert holders("The user: Owen is 8 and Rhys is 5", named) == frozenset({"Owen", "Rhys"})
    assert holders("The user: Bess is 11 now", named) == frozenset({"Bess"})
    assert holders("用户：小宝五岁了，大宝八岁") == frozenset({"小宝", "大宝"})
    assert holders("用户：咪咪三岁了") == frozenset({"咪咪"})
    assert holders("The user is 64") == frozenset({"user"})
    assert holders("我今年三十岁") == frozenset({"user"})
    assert holders("Mum is 86") == holders("妈妈83岁了") == frozenset({"mother"})
    # a capitalised opener the chat never writes inside a sentence names no one
    assert holders("The user: Rent is 950 now", named) == frozenset()
    # nor do a measure, a time word or a clause of no one
    assert holders("体重78公斤") == holders("今年35岁了") == holders("A statin at night") == set()


def test_other_beings_is_whose_the_clauses_are() -> None:
    named = frozenset({"Owen", "Rhys", "Bess"})
    assert other_beings("The user: Owen is 8 and Rhys is 5", "The user: Bess is 11", named)
    assert other_beings("用户：小宝五岁了，大宝八岁", "用户：咪咪三岁了")
    assert other_beings("用户：豆豆今年6岁了", "用户：我今年35岁")
    assert not other_beings("The user: Bess is 12 now", "The user: Bess is 11", named)
    assert not other_beings("用户：咪咪四岁了", "用户：咪咪三岁了")
    # one of them naming no one tells nothing apart
    assert not other_beings("The user: Rent is 950 now", "The user pays 900 rent", named)
