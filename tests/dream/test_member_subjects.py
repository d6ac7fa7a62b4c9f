"""One member, however a line names them (issue 10, ``b-subject``): by the speaker's label,
by name in the user's words or a prior item's, by a familiar form of the given name ("芳姐",
"阿芳"), and a member's relative named by the member's name. Statements about one member
resolve to one subject; another member's (or the user's) own value never retires theirs.
Examples of this file's own."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from memory.daily_notes import append_section
from memory.dream import DreamOptions, run_dream
from memory.dream.judge.address import familiar_names
from memory.dream.judge.people import opening_person
from memory.dream.judge.relations import bare_kin, subject_of
from memory.memory_file import parse_archive, parse_memory
from memory.paths import MemoryRoot
from tests.dream.two_days import group_dream

ZONE = ZoneInfo("Asia/Shanghai")
MEMBERS = frozenset({"王芳", "李明"})


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MemoryRoot:
    monkeypatch.setenv("COWDREAM_DREAM_EMBEDDINGS", "on")  # as the nightly dream reads
    (tmp_path / "root").mkdir()
    return MemoryRoot.at(tmp_path / "root")


def two_windows(
    root: MemoryRoot, first: list[str], later: list[str]
) -> tuple[list[str], list[str]]:
    """MEMORY.md's items and the texts archived as superseded after two nightly dreams of
    three days each, on 2 March 2026 (over ``first``) and 9 March (over ``later``): the
    second reads the first's lines only as its prior items, their speakers unknown."""
    for day, lines in ((2, first), (9, later)):
        append_section(root, "Trimmed Context", lines, now=datetime(2026, 3, day, 21, tzinfo=ZONE))
        options = DreamOptions(days=3, engine="extractive", max_items=30)
        now = datetime(2026, 3, day, 23, 58, tzinfo=ZONE)
        report = run_dream(root, options, model=None, now=now)
        assert report.status == "done", report.reason
    items = [i.text for i in parse_memory(root.memory_md.read_text("utf-8")).generated]
    path = root.path / "memory" / "archive.md"
    archive = parse_archive(path.read_text("utf-8")) if path.exists() else []
    return items, [a.text for a in archive if a.reason == "superseded"]


def test_a_given_names_familiar_forms() -> None:
    forms = familiar_names(MEMBERS)
    assert forms["芳姐"] == "王芳"
    assert forms["阿芳"] == "王芳"
    assert forms["小明"] == "李明"
    # two members who may be called so: neither
    assert "芳姐" not in familiar_names(frozenset({"王芳", "李芳"}))


def test_a_member_called_by_a_familiar_form_in_another_members_line() -> None:
    assert subject_of("李明：芳姐跳槽去字节跳动了", MEMBERS) == "王芳"
    assert subject_of("用户：阿芳搬到福田区了", MEMBERS) == "王芳"
    assert subject_of("王芳：阿明搬到福田区了", MEMBERS) == "李明"
    assert subject_of("李明：阿明搬到福田区了", MEMBERS) == "李明"  # the speaker's own


def test_whom_a_line_opens_with() -> None:
    used = frozenset({"王芳", "陈静", "陈静会", "豆豆"})
    assert opening_person("王芳搬回福田区了", set(), used) == "王芳"
    assert opening_person("陈静会辞掉幼儿园的工作", set(), used) == "陈静"
    assert opening_person("Dana moved to York", {"Dana"}, used) == "Dana"
    assert opening_person("Danaë moved", {"Dana"}, used) == ""
    assert opening_person("Dana's mum moved to York", {"Dana"}, used) == ""  # read so already
    assert opening_person("豆豆五岁了", set(), used) == ""  # a nickname may be a relative's
    assert opening_person("用户搬到海淀区了", set(), used) == ""
    assert opening_person("王芳搬回福田区了", set(), frozenset()) == ""  # not used on its own


def test_the_users_words_about_a_member_named_by_a_familiar_form(root: MemoryRoot) -> None:
    first = ["王芳：我住在南山区", "李明：好的"]
    items, superseded = group_dream(root, first, ["用户：阿芳搬到福田区了", "李明：恭喜"])
    assert any("南山" in a for a in superseded), (items, superseded)
    assert any("福田" in i for i in items)


def test_another_member_tells_a_members_move_back(root: MemoryRoot) -> None:
    first = ["王芳：我住在南山区", "李明：好的"]
    items, superseded = group_dream(root, first, ["李明：王芳说她搬回福田区了", "王芳：对"])
    assert any("南山" in a for a in superseded), (items, superseded)


def test_a_members_prior_item_outside_the_window_is_theirs(root: MemoryRoot) -> None:
    # 王芳 speaks in no line of the second window: her prior item is hers all the same, so
    # the user's own move leaves it
    first = ["王芳：我搬到南山区了", "李明：恭喜"]
    items, superseded = two_windows(root, first, ["用户：我搬到海淀区了", "李明：恭喜"])
    assert superseded == [], (items, superseded)
    assert any("南山" in i for i in items)


def test_the_user_tells_a_members_move_in_a_later_window(root: MemoryRoot) -> None:
    first = ["王芳：我搬到南山区了", "李明：恭喜"]
    items, superseded = two_windows(root, first, ["用户：王芳搬回福田区了", "李明：好"])
    assert any("南山" in a for a in superseded), (items, superseded)


def test_a_members_mother_outside_the_window_is_not_the_users(root: MemoryRoot) -> None:
    first = ["李姐：我妈住在朝阳区", "张伟：好"]
    items, superseded = two_windows(root, first, ["用户：我妈搬到海淀区了", "张伟：好"])
    assert superseded == [], (items, superseded)


def test_a_person_the_user_names_is_not_the_user(root: MemoryRoot) -> None:
    first = ["用户：我在腾讯上班", "用户：今天好累"]
    items, superseded = group_dream(root, first, ["用户：赵磊跳槽去字节跳动了"])
    assert superseded == [], (items, superseded)
    first = ["用户：我妈住在朝阳区"]
    items, superseded = group_dream(root, first, ["用户：李姐的妈搬到海淀区了"])
    assert superseded == [], (items, superseded)


def test_another_members_own_value_never_retires_a_members(tmp_path: Path) -> None:
    # a guard (it passes on main too): the readings above must not reach across people; a
    # move told with the speaker's own familiar form ("阿明" of 李明) is 李明's, not 王芳's
    for n, later in enumerate((["李明：我搬回福田区了", "王芳：恭喜"], ["李明：阿明搬到福田区了"])):
        (tmp_path / str(n)).mkdir()
        root = MemoryRoot.at(tmp_path / str(n))
        _, superseded = group_dream(root, ["王芳：我住在南山区", "李明：好的"], later)
        assert superseded == [], superseded


def test_the_relation_a_members_words_open_with() -> None:
    assert bare_kin("妈妈搬到海淀区了") == "mother"
    assert bare_kin("Mum moved to York") == "mother"
    assert bare_kin("my son is 8") == "son"
    assert bare_kin("妈妈说周末聚餐") == ""  # her words: whom they name
    assert bare_kin("mum-style cooking is best") == ""
    assert bare_kin("搬到海淀区了") == ""


def test_a_members_mother_named_bare_is_hers_when_the_chat_says_so(root: MemoryRoot) -> None:
    first = ["李姐：我妈在朝阳区住", "张伟：好"]
    items, superseded = group_dream(root, first, ["李姐：妈妈搬到海淀区了", "张伟：好"])
    assert any("朝阳" in a for a in superseded), (items, superseded)


def test_a_members_mum_named_bare_then_by_another_member(root: MemoryRoot) -> None:
    first = ["Priya: Mum lives in Leeds", "Omar: nice"]
    items, superseded = group_dream(root, first, ["Omar: Priya's mum moved to York", "Sam: ok"])
    assert any("Leeds" in a for a in superseded), (items, superseded)
