"""A move told in another language retires only the home clause of a packed line: the
name and the allergy beside it stay in MEMORY.md (found running the terminal bot)."""

from __future__ import annotations

from datetime import datetime

from mem_support import SHANGHAI, at, generated, note

from memory.dream import DreamOptions, run_dream
from memory.dream.judge.clauses import split_changed
from memory.dream.judge.relations import Said
from memory.paths import MemoryRoot

NOW = datetime(2026, 11, 20, 23, 58, tzinfo=SHANGHAI)


def test_a_clause_on_the_newer_statement_s_topic_is_the_one_that_changed() -> None:
    old = Said("用户叫王芳，住在杭州，对花生过敏", "user", "fact")
    new = Said("The user moved to Porto in November 2026", "user", "fact")
    part = split_changed(old, new)
    assert part is not None
    assert (part.kept, part.retired) == ("用户叫王芳，对花生过敏", "用户住在杭州")
    # no clause on the newer statement's topic: no split
    assert split_changed(old, Said("The user started learning the cello", "user", "fact")) is None


def test_a_move_in_english_keeps_the_name_and_allergy_told_in_chinese(root: MemoryRoot) -> None:
    note(root, at(17, month=11), "用户: 你好，我叫王芳，住在杭州，对花生过敏")
    note(root, at(19, month=11), "User: I moved to Porto last month")
    report = run_dream(root, DreamOptions(days=5, engine="extractive"), model=None, now=NOW)
    assert report.status == "done", report.reason
    items = [t for t, _, _ in generated(root.memory_md)]
    assert any("王芳" in t and "花生过敏" in t for t in items), items
    assert not any("杭州" in t for t in items), items
    assert any("Porto" in t for t in items), items
    archived = {t: f["reason"] for t, _, f in generated(root.archive)}
    assert archived == {"用户住在杭州": "superseded"}
