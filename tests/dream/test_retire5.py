"""Round 17: two values under one verb are two clauses; a value that begins on a day now come
holds now; a line read as chatter that gives a kept value's slot a new value is kept; and
the supersede pass's pair judgement as one step. Examples of this file's own."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import numpy as np

from memory.dream.extractive import Cluster, ExtractiveEngine, Statement, _begun, _cosine
from memory.dream.judge import changemodel, slotmodel
from memory.dream.judge.clauses import Split, packed, split_changed
from memory.dream.judge.relations import Said
from memory.dream.retire import NEWS_SURE
from memory.provenance import SourceRef
from tests.dream.judged_lines import judged as _statement
from tests.dream.judged_lines import news as _news
from tests.dream.judged_lines import plain_pair as _pair


def test_two_values_under_one_verb_are_two_clauses() -> None:
    older = Said("The user charges £40 for a haircut and £25 for a beard trim", "user", "work")
    newer = Said("The user: haircuts are £45 from this week, rent went up", "user", "work")
    assert packed(older)
    part = split_changed(older, newer)
    assert part is not None
    assert part.kept == "The user charges £25 for a beard trim"
    assert part.retired == "The user charges £40 for a haircut"
    # a list of things with no value of its own stays one clause
    assert not packed(Said("The user grows tomatoes and 3 kinds of basil", "user", "fact"))


def test_a_value_begun_on_a_day_now_come_holds_now() -> None:
    said = date(2026, 5, 4)
    text = "The user will be at the Leeds branch from 2026-05-11"
    assert not _begun(text, said, date(2026, 5, 10))  # still to come
    assert _begun(text, said, date(2026, 5, 11))
    assert not _begun("The user is at the Leeds branch", said, date(2026, 5, 11))
    st = Statement(text, (), said, 0, ahead=True, begun=True)
    assert not st.said().future  # no plan over the present any more
    planned = Statement(text, (), said, 0, ahead=True, begun=True, due=date(2026, 5, 11))
    assert planned.said().future  # a plan that expires stays a plan until it does


def test_relocating_says_a_change() -> None:
    assert slotmodel.says_change("Nia is relocating, she'll be in the Cardiff office")
    assert slotmodel.says_change("The user relocates to Lisbon in spring")
    assert not slotmodel.says_change("Nia works in the Cardiff office")


def test_a_line_read_as_chatter_that_changes_a_kept_value_is_kept() -> None:
    old = _statement("用户的房租每个月3800", 3, 4)
    new = _statement("用户：唉 房租涨到4100了", 9, 2, chatter=0.7)
    noise = _statement("用户：今天好热", 9, 3, chatter=0.7)
    assert _news([new, noise], [old]) == [new.text]
    # not backwards, not when clearly chatter, not a line that changes nothing
    earlier = _statement("用户：房租涨到4100了", 2, 2, chatter=0.7)
    assert _news([earlier], [old]) == []
    sure = _statement("用户：房租涨到4100了", 9, 2, chatter=NEWS_SURE)
    assert _news([sure], [old]) == []
    again = _statement("用户：房租还是3800", 9, 2, chatter=0.7)
    assert _news([again], [old]) == []


def test_the_pair_judgement_without_a_model_is_the_ways_found() -> None:
    pair = _pair(slot_probability=0.0)
    assert changemodel.retires(pair)
    assert not changemodel.retires(_pair(slot_probability=0.0, how=None))
    assert len(changemodel.pair_features(pair)) == len(changemodel.FEATURES)
    # the engine asks it of each candidate pair
    engine = ExtractiveEngine()
    newer, older = Cluster(), Cluster()
    newer.add(_statement("用户的房租涨到4100了", 9, 2))
    older.add(_statement("用户的房租每个月3800", 3, 4))
    judged = engine._judge_pair(newer, older, None)
    assert judged.how == "rules" and judged.retires
    assert np.isfinite(judged.features).all()


def test_a_clause_its_lines_do_not_support_is_not_split_off(tmp_path: Path) -> None:
    from memory.dream import DreamOptions
    from memory.dream.inputs import gather
    from memory.paths import MemoryRoot

    root = MemoryRoot.at(tmp_path)
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / "2027-03-09.md").write_text(
        "# Daily Memory: 2027-03-09\n\n## Trimmed Context\n- 用户: 我们周六搬家，搬去成华区\n",
        "utf-8",
    )
    engine = ExtractiveEngine()
    engine._inputs = gather(root, date(2027, 3, 9), DreamOptions(days=3))
    older = Cluster()
    ref = SourceRef("memory/2027-03-09.md", 4, 4)
    older.add(Statement("用户他们2027-03-13搬家，搬去成华区", (ref,), date(2027, 3, 9), 4))
    # the reworded half alone shares too little with its line; the line itself is fine
    assert not engine._grounded(Split("用户他们2027-03-13搬家", "用户搬去成华区"), older)
    assert engine._grounded(Split("用户周六搬家", "用户搬去成华区"), older)
    # a prior item citing lines outside the window is not judged here
    far = Cluster()
    far.add(
        Statement(
            "用户他们搬家，搬去成华区",
            (SourceRef("memory/2026-01-01.md", 4, 4),),
            date(2026, 1, 1),
            0,
        )
    )
    assert engine._grounded(Split("用户他们搬家", "用户搬去成华区"), far)


def _embedded(*statements: Statement) -> None:
    from memory.search.embeddings.local import LocalProvider

    vectors = LocalProvider().embed_passages([s.text for s in statements])
    for st, vector in zip(statements, np.asarray(vectors, dtype=np.float32), strict=True):
        st.vector = vector


def test_the_shipped_model_weighs_what_the_ways_found() -> None:
    fitted = changemodel.model()
    assert fitted is not None and 0.5 <= fitted.threshold < 1.0
    engine = ExtractiveEngine()
    old = _statement("用户的房租每个月3800，住在江北区", 3, 4)
    new = _statement("用户的房租涨到4100了", 9, 2)
    other = _statement("用户每周三晚上去游泳", 9, 3)
    _embedded(old, new, other)
    older, newer, unrelated = Cluster(), Cluster(), Cluster()
    older.add(old)
    newer.add(new)
    unrelated.add(other)
    judged = engine._judge_pair(newer, older, _cosine(new, old))
    assert judged.how == "rules" and judged.retires
    assert not engine._judge_pair(unrelated, older, _cosine(other, old)).retires


def test_a_weekday_naming_a_weekly_event_is_no_date() -> None:
    from memory.dream.judge.dates import find

    day = date(2027, 5, 3)
    assert find("The user runs the Saturday parkrun in the park", day) == []
    assert find("Her Tuesday choir is in the church hall", day) == []
    assert [s.first for s in find("See you on Saturday", day)] == [date(2027, 5, 8)]
    assert [s.first for s in find("the Saturday morning we fly", day)] == [date(2027, 5, 8)]


def test_a_summary_reporting_on_a_named_child_is_about_the_child() -> None:
    from memory.dream.judge.relations import aliased

    aliases = {"Layla": "user/daughter"}
    said = "The user said Layla had her first Tuesday swim lesson at 5:30"
    assert aliased(said, "user", aliases) == "user/daughter"
    assert aliased("The user said the van needs new tyres", "user", aliases) == "user"


def test_a_value_still_to_come_swaps_no_present_value() -> None:
    now = Said("用户：房租每个月 4500", "user", "fact")
    ahead = Said("用户：房东说2027年1月起房租涨到 4800", "user", "fact", future=True)
    assert not ExtractiveEngine._rules_change(ahead, now)
    assert ExtractiveEngine._rules_change(Said(ahead.text, "user", "fact"), now)


def test_what_changed_is_the_topic_of_the_clause_naming_the_new_value() -> None:
    from memory.dream.judge.relations import replaces

    job = Said("林悦在一家做机器人的公司当测试工程师，离公司骑车五分钟", "林悦", "work")
    move = Said("林悦搬家了，搬到滨江了，她男朋友公司在滨江", "林悦", "work")
    # the home moved; the job's company is no home (the loosest rule, a change word and a
    # topic in common, is left to the pair judgement)
    assert not replaces(move, job, loose=False)
    home = Said("林悦住在西湖区", "林悦", "work")
    assert replaces(move, home)


def test_a_word_to_the_whole_group_frames_what_follows() -> None:
    from memory.dream.judge.wording import reword
    from memory.speaker import split

    day = date(2026, 11, 3)
    assert reword(split("周敏提醒大家外婆不能吃太咸"), day) == "外婆不能吃太咸"
    assert reword(split("周敏：提醒各位，外婆不能吃太咸"), day) == "周敏：外婆不能吃太咸"
    assert reword(split("用户提到自己对芒果过敏"), day) == "用户对芒果过敏"


def test_a_members_label_stays_a_label_in_a_clause_kept_apart() -> None:
    older = Said("陈芳：果果下周五满六岁，要办个生日会", "陈芳", "identity")
    newer = Said("陈芳：果果的生日会改到新家办了", "陈芳", "plan")
    part = split_changed(older, newer, by_words=True)
    assert part is None or all(
        not text.startswith("陈芳果果") for text in (part.kept, part.retired)
    )
    mine = Said("用户：每天早上一杯拿铁，要加全脂牛奶", "user", "preference")
    oat = Said("用户最近咖啡改加燕麦奶了，全脂的喝了不舒服", "user", "preference")
    split = split_changed(mine, oat, by_words=True)
    assert split is not None and split.retired == "用户要加全脂牛奶"  # the user's: no label
