"""Round 20: an older statement packing several clauses, one of which a newer statement
changes. A clause hanging on the changed one ("不然…", "about … a day") leaves with it; an
English list after "I'm" reads each item with the copula; a speaker's label stays a label;
the year an age was resolved in does not keep the old age from leaving; and when no value
shows the clause, the pair judgement asked of each clause picks it. Examples of this
file's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from two_days import dream_two_days

from memory.dream.judge.clauses import parts, split_at, split_changed, units
from memory.dream.judge.relations import Said


def said(text: str, subject: str = "user") -> Said:
    return Said(text, subject, "fact")


def test_a_clause_hanging_on_the_changed_one_leaves_with_it() -> None:
    older = said("孙磊每天喝 3 杯美式，不然下午犯困", "孙磊")
    # "孙磊不然下午犯困" says nothing alone: the whole statement is the changed one
    assert split_changed(older, said("孙磊现在每天只喝 1 杯美式", "孙磊")) is None
    assert split_at(said("王芳每天两杯拿铁，不然开会犯困", "王芳"), [True, False]) is None


def test_a_dependent_clause_stays_with_the_clause_it_hangs_on() -> None:
    packed = said("王芳住在静安区，每天骑车上班，因为离公司近", "王芳")
    split = parts(packed)
    assert split is not None and units(split) == [0, 1, 1]
    home = split_at(packed, [True, False, False])
    assert home is not None
    assert (home.kept, home.retired) == ("王芳每天骑车上班，因为离公司近", "王芳住在静安区")
    commute = split_at(packed, [False, True, False])
    assert commute is not None
    assert (commute.kept, commute.retired) == ("王芳住在静安区", "王芳每天骑车上班，因为离公司近")


def test_a_phrase_without_a_verb_hangs_on_the_clause_before_it() -> None:
    tea = said("The user drinks green tea, about three mugs a day")
    assert split_at(tea, [True, False]) is None  # "about three mugs a day" alone is no fact


def test_an_english_list_after_im_reads_each_item_with_the_copula() -> None:
    older = said("The user: im priya, 34, a dentist in leeds")
    split = parts(older)
    assert split is not None and split.standing[1] == "The user: im 34"
    part = split_changed(older, said("The user: im 35 now"))
    assert part is not None
    assert (part.kept, part.retired) == (
        "The user: im priya, a dentist in leeds",
        "The user: im 34",
    )


def test_an_english_speakers_label_stays_a_label() -> None:
    part = split_changed(
        said("The user: I walk to work, I live in Bath"), said("The user: I live in Frome now")
    )
    assert part is not None
    assert (part.kept, part.retired) == ("The user: I walk to work", "The user: I live in Bath")


def test_an_old_age_resolved_in_its_year_leaves_and_the_name_stays(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path, ["用户: 我叫韩梅，今年41", "用户: 在苏州开花店"], ["用户: 今天生日，42了"]
    )
    assert "42了" in items
    assert "41" not in items and "41" in archive
    assert "韩梅" in items and "韩梅" not in archive
    assert "花店" in items


def test_a_new_age_retires_only_the_age_of_a_list_after_im(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path, ["User: ok so im priya, 34, a dentist in leeds"], ["User: cant believe im 35 now"]
    )
    assert "35" in items and "34" not in items and "34" in archive
    assert "priya" in items and "dentist" in items


@pytest.fixture
def embeddings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COWDREAM_DREAM_EMBEDDINGS", "on")  # the pair judgement reads them


@pytest.mark.usefixtures("embeddings")
def test_a_drink_given_up_retires_the_packed_line_with_its_reason(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path,
        ["用户: 我每天喝两杯冰美式，不然开会犯困", "用户: 在杭州做产品经理"],
        ["用户: 最近戒咖啡了，心慌，改喝大麦茶"],
    )
    assert "冰美式" not in items and "冰美式" in archive
    assert "犯困" not in items  # the reason leaves with the drink it was given for
    assert "产品经理" in items and "大麦茶" in items


@pytest.mark.usefixtures("embeddings")
def test_the_clause_the_judgement_finds_changed_retires_the_line(tmp_path: Path) -> None:
    items, archive = dream_two_days(
        tmp_path,
        ["The user drinks builder's tea, about six mugs a day", "The user is a plumber in Leeds"],
        ["The user has switched to decaf tea because of her heart"],
    )
    assert "builder's tea" not in items and "builder's tea" in archive
    assert "plumber" in items and "decaf" in items
