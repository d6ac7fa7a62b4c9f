"""Open conflicts: the pure rules, the dream that keeps both sides, and the resolution."""

from __future__ import annotations

from datetime import date

import pytest
from mem_support import Crash, at, copy_root, crash_at, note, tree

from memory.conflicts import PROMPT_NOTE, assign_ids, open_conflicts, unmark_lonely
from memory.dream import DreamOptions, run_dream
from memory.dream.contradiction import Side, doubts, verdict
from memory.dream.judge.relations import swapped_value
from memory.dream.judge.told_change import clear_change
from memory.errors import UsageError
from memory.history import undo
from memory.memory_file import MemoryItem, parse_memory, prompt_memory, read_archive, read_memory
from memory.paths import MemoryRoot
from memory.provenance import SourceRef
from memory.resolve import resolve
from memory.status import collect_status
from memory.transaction import recover
from tests.fakes.openai_server import FakeOpenAI

OPTIONS = DreamOptions(days=3, engine="extractive", force=True)
DAY = date(2026, 11, 29)


def item(text: str, line: int, cid: str = "") -> MemoryItem:
    fields = (("conflict", cid),) if cid else ()
    return MemoryItem(text, (SourceRef("memory/2026-11-29.md", line, line),), fields=fields)


# -- the pure rules -------------------------------------------------------------------


def test_verdict_keeps_both_unless_the_change_is_clear() -> None:
    old = Side("用户住在上海", DAY)
    assert verdict(Side("用户住在北京", DAY), old) == "open"  # the same day, no change said
    assert verdict(Side("用户搬到北京了", DAY), old) == "replace"  # a clear change
    assert verdict(Side("用户住在北京", date(2026, 11, 30)), old) == "replace"  # a later day
    assert verdict(Side("用户好像住在北京", date(2026, 11, 30)), old) == "open"  # a doubt
    group_old = Side("李四住在上海", DAY, frozenset({"张三"}))
    later = date(2026, 11, 30)
    assert verdict(Side("李四住在北京", later, frozenset({"王五"})), group_old) == "open"
    assert verdict(Side("李四住在北京", later, frozenset({"张三"})), group_old) == "replace"
    assert verdict(Side("The user no longer lives in Berlin", DAY), old) == "replace"


def test_doubts_and_clear_changes_are_told_apart() -> None:
    assert [
        doubts(t) for t in ("我好像住在北京", "maybe Munich", "Is it Lyon?", "I live in Lyon")
    ] == [
        True,
        True,
        True,
        False,
    ]
    assert [clear_change(t) for t in ("改成周五了", "moved to Lyon", "no longer eats meat")] == [
        True,
        True,
        True,
    ]
    assert not clear_change("The user lives in Lyon")


def test_swapped_values_need_the_same_topic_and_different_values() -> None:
    assert swapped_value("用户住在上海", "用户住在北京")
    assert swapped_value("The user lives in Berlin", "The user lives in Munich")
    assert not swapped_value("用户住在上海", "用户住在上海浦东")  # more detail, same place
    assert not swapped_value("用户住在上海", "用户喜欢喝美式咖啡")  # another topic
    assert not swapped_value("The user may live in Munich", "The user lives in Berlin")
    assert swapped_value("The user may live in Munich", "The user lives in Berlin", exclusive=1)


def test_ids_are_kept_reused_in_order_and_never_clash() -> None:
    # group 1 had c2 on one side, group 2 is new, group 3 had c2 too (taken by group 1)
    groups = [[["c2"], [""]], [[""], [""]], [["c2", "c5"], [""]]]
    assert assign_ids(groups, taken={"c1", "c2", "c5"}) == ["c2", "c3", "c5"]
    assert assign_ids([[[""], [""]], [[""], [""]]]) == ["c1", "c2"]


def test_open_conflicts_and_lonely_marks() -> None:
    a, b, c = item("A", 1, "c1"), item("B", 2, "c1"), item("C", 3, "c2")
    assert [(x.id, [i.text for i in x.items]) for x in open_conflicts([a, b, c])] == [
        ("c1", ["A", "B"])
    ]
    assert [i.conflict for i in unmark_lonely([a, b, c])] == ["c1", "c1", ""]


def test_the_mark_is_shown_parsed_back_and_in_the_prompt(root: MemoryRoot) -> None:
    line = item("The user lives in Berlin", 4, "c1").render()
    assert line == (
        "- The user lives in Berlin [open conflict c1] "
        "<!-- src: memory/2026-11-29.md#L4; conflict: c1 -->"
    )
    (parsed,) = parse_memory(f"# MEMORY\n\n{line}\n").items
    assert (parsed.text, parsed.conflict) == ("The user lives in Berlin", "c1")
    root.memory_md.write_text(f"# MEMORY\n\n{line}\n", encoding="utf-8")
    assert prompt_memory(root) == "# MEMORY\n\n- The user lives in Berlin [open conflict c1]"
    assert "ask the user" in PROMPT_NOTE


# -- in a dream -----------------------------------------------------------------------


def dreamt(root: MemoryRoot) -> list[tuple[str, str]]:
    run_dream(root, OPTIONS, model=None, now=at(29, 23))
    return [(i.text, i.conflict) for i in read_memory(root).items]


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        # two cities in one day: both kept, marked
        (
            "用户住在上海",
            "用户住在北京",
            {("用户住在上海", "c1"), ("用户住在北京", "c1")},
        ),
        (
            "The user lives in Berlin",
            "The user lives in Munich",
            {("The user lives in Berlin", "c1"), ("The user lives in Munich", "c1")},
        ),
        # a clear change the same day still retires the old value
        ("用户住在上海", "用户搬到北京了", {("用户搬到北京了", "")}),
    ],
)
def test_the_same_day_keeps_both_unless_a_change_is_said(
    root: MemoryRoot, first: str, second: str, expected: set[tuple[str, str]]
) -> None:
    note(root, at(29, 9), first, "用户养了一只猫" if first[0] == "用" else "The user keeps bees")
    note(root, at(29, 18), second)
    items = set(dreamt(root))
    assert expected <= items
    assert {text for text, _ in items} - {t for t, _ in expected} == {
        "用户养了一只猫" if first[0] == "用" else "The user keeps bees"
    }


def test_a_later_days_value_retires_the_old_and_a_doubt_does_not(root: MemoryRoot) -> None:
    note(root, at(27, 9), "The user weighs 80 kg", "The user lives in Berlin")
    note(root, at(29, 9), "The user weighs 78 kg", "The user may live in Munich now, not sure")
    assert set(dreamt(root)) == {
        ("The user weighs 78 kg", ""),
        ("The user lives in Berlin", "c1"),
        ("The user may live in Munich now, not sure", "c1"),
    }
    (conflict,) = collect_status(root)["conflicts"]
    assert conflict == {
        "id": "c1",
        "sides": [
            {
                "side": 1,
                "text": "The user lives in Berlin",
                "sources": ["memory/2026-11-27.md#L5"],
            },
            {
                "side": 2,
                "text": "The user may live in Munich now, not sure",
                "sources": ["memory/2026-11-29.md#L5"],
            },
        ],
    }
    diary = root.diary(DAY).read_text(encoding="utf-8")
    assert "- Open conflicts (both kept until a person decides: /memory resolve): 1" in diary
    assert "  - c1: “The user lives in Berlin” ↔ “The user may live in Munich now" in diary


@pytest.mark.parametrize(
    ("second", "expected"),
    [
        # another member says otherwise, a day later: nobody said it changed
        (
            "Carol: Bob lives in Lyon",
            {
                ("Alice: Bob lives in Paris", "c1"),
                ("Carol: Bob lives in Lyon", "c1"),
                ("Bob plays the trumpet in a band", ""),
            },
        ),
        # the same member gives the new value a day later: it replaces the old
        (
            "Alice: Bob lives in Lyon",
            {("Alice: Bob lives in Lyon", ""), ("Bob plays the trumpet in a band", "")},
        ),
    ],
)
def test_in_a_group_different_speakers_leave_it_open(
    root: MemoryRoot, second: str, expected: set[tuple[str, str]]
) -> None:
    note(root, at(28, 9), "Alice: Bob lives in Paris", "Bob: I play the trumpet in a band")
    note(root, at(29, 9), second)
    assert set(dreamt(root)) == expected


def test_a_second_dream_keeps_the_conflict_and_its_id(root: MemoryRoot) -> None:
    note(root, at(29, 9), "用户住在上海")
    note(root, at(29, 18), "用户住在北京")
    first = dreamt(root)
    assert dreamt(root) == first
    assert {cid for _, cid in first} == {"c1"}


# -- resolving ------------------------------------------------------------------------


def two_cities(root: MemoryRoot) -> None:
    note(root, at(29, 9), "用户住在上海", "用户养了一只猫")
    note(root, at(29, 18), "用户住在北京")
    run_dream(root, OPTIONS, model=None, now=at(29, 23))
    sides = [i.text for i in open_conflicts(read_memory(root).items)[0].items]
    assert sides == ["用户住在上海", "用户住在北京"]


def test_keep_one_archives_the_other_and_a_dream_does_not_bring_it_back(
    root: MemoryRoot,
) -> None:
    two_cities(root)
    before = tree(root.path)
    done = resolve(root, "c1", "keep", 2, now=at(29, 23, 30), by="Ada")
    assert [i.text for i in done.kept] == ["用户住在北京"]
    assert [i.text for i in done.dropped] == ["用户住在上海"]
    items = {i.text: i for i in read_memory(root).items}
    assert {(t, i.conflict) for t, i in items.items()} == {
        ("用户养了一只猫", ""),
        ("用户住在北京", ""),
    }
    assert items["用户住在北京"].sources == (SourceRef("memory/2026-11-29.md", 8, 8),)  # grounded
    (archived,) = read_archive(root)
    assert (archived.text, archived.reason) == ("用户住在上海", "conflict-dropped")
    assert archived.sources == (SourceRef("memory/2026-11-29.md", 4, 4),)
    diary = root.diary(DAY).read_text(encoding="utf-8")
    assert "## 解决矛盾 c1（23:30 (Ada)）" in diary
    assert "  - “用户住在上海” (memory/2026-11-29.md#L4)" in diary
    assert collect_status(root)["conflicts"] == []
    run_dream(root, OPTIONS, model=None, now=at(29, 23, 40))  # the notes still say both
    assert {i.text for i in read_memory(root).items} == {"用户养了一只猫", "用户住在北京"}
    undo(root, now=at(29, 23, 50))  # the dream
    assert "undone" in undo(root, now=at(29, 23, 51))  # the resolution
    assert tree(root.path)["MEMORY.md"] == before["MEMORY.md"]
    assert tree(root.path)["memory/archive.md"] == before["memory/archive.md"]


def test_keep_both_settles_it_for_later_dreams(root: MemoryRoot) -> None:
    two_cities(root)
    done = resolve(root, "1", "both", now=at(29, 23, 30))
    assert done.id == "c1" and not done.dropped
    expected = {("用户养了一只猫", ""), ("用户住在上海", ""), ("用户住在北京", "")}
    assert {(i.text, i.conflict) for i in read_memory(root).items} == expected
    assert "settled: c1" in root.memory_md.read_text(encoding="utf-8")
    run_dream(root, OPTIONS, model=None, now=at(29, 23, 40))
    assert {(i.text, i.conflict) for i in read_memory(root).items} == expected
    assert read_archive(root) == []


def test_drop_one_of_three_leaves_the_others_in_conflict(root: MemoryRoot) -> None:
    root.memory_md.write_text(
        "# MEMORY\n\n"
        + "".join(item(t, n, "c1").render() + "\n" for n, t in enumerate("ABC", start=1)),
        encoding="utf-8",
    )
    done = resolve(root, "c1", "drop", 1, now=at(29, 23))
    assert done.still_open and [i.text for i in done.kept] == ["B", "C"]
    assert [(i.text, i.conflict) for i in read_memory(root).items] == [("B", "c1"), ("C", "c1")]
    resolve(root, "c1", "drop", 2, now=at(29, 23, 1))
    assert [(i.text, i.conflict) for i in read_memory(root).items] == [("B", "")]


@pytest.mark.parametrize(
    ("cid", "action", "side", "message"),
    [
        ("c9", "keep", 1, "no open conflict c9 in MEMORY.md (open: c1)"),
        ("c1", "keep", 3, "conflict c1 has sides 1 to 2"),
        ("c1", "keep", None, "conflict c1 has sides 1 to 2"),
        ("c1", "drop", 0, "conflict c1 has sides 1 to 2"),
        ("c1", "both", 1, "resolve takes keep N, drop N or both"),
        ("c1", "pick", 1, "resolve takes keep N, drop N or both"),
    ],
)
def test_bad_arguments_are_refused_and_change_nothing(
    root: MemoryRoot, cid: str, action: str, side: int | None, message: str
) -> None:
    two_cities(root)
    before = tree(root.path)
    with pytest.raises(UsageError) as caught:
        resolve(root, cid, action, side, now=at(29, 23, 30))
    assert str(caught.value) == message
    assert tree(root.path) == before


def test_no_conflict_to_resolve(root: MemoryRoot) -> None:
    with pytest.raises(UsageError, match=r"there is no open conflict in MEMORY\.md"):
        resolve(root, "c1", "keep", 1, now=at(29, 23))


def test_the_llm_engine_sees_the_marks_and_keeps_them(root: MemoryRoot, llm: FakeOpenAI) -> None:
    two_cities(root)
    lines = {i.text: i.line for i in read_memory(root).items}
    llm.json_reply(
        {
            "memory": [{"text": t, "sources": [f"MEMORY.md#L{n}"]} for t, n in lines.items()],
            "diary": "kept all",
        }
    )
    model = llm.chat_model("fake-model", "sk-test")
    options = DreamOptions(days=3, engine="llm", force=True)
    assert run_dream(root, options, model=model, now=at(29, 23, 30)).status == "done"
    prompt = llm.requests[0]["messages"]
    assert "Items marked [open conflict cN] disagree" in prompt[0]["content"]
    assert (
        f"MEMORY.md#L{lines['用户住在上海']}: 用户住在上海 [open conflict c1]"
        in prompt[1]["content"]
    )
    marked = {(i.text, i.conflict) for i in read_memory(root).items}
    assert marked == {("用户养了一只猫", ""), ("用户住在上海", "c1"), ("用户住在北京", "c1")}


def test_a_resolution_stopped_at_any_point_leaves_the_old_or_the_new(root: MemoryRoot) -> None:
    two_cities(root)
    points: list[str] = []
    reference = copy_root(root, root.path.parent / "reference")
    resolve(reference, "c1", "keep", 2, now=at(29, 23, 30), fault=points.append)
    files = ("MEMORY.md", "memory/archive.md", "memory/dreams/2026-11-29.md")
    old = [tree(root.path)[f] for f in files]
    new = [tree(reference.path)[f] for f in files]
    assert old != new and "committed" in points
    for number, point in enumerate(points):
        copy = copy_root(root, root.path.parent / f"run{number}")
        with pytest.raises(Crash):
            resolve(copy, "c1", "keep", 2, now=at(29, 23, 30), fault=crash_at(point))
        recover(copy)
        state = [tree(copy.path)[f] for f in files]
        assert state == (old if point == "staged" else new), point
