"""A packed line whose one clause changed keeps its other clauses."""

from __future__ import annotations

from memory.dream.judge.clauses import split_changed
from memory.dream.judge.relations import Said, replaces
from memory.dream.judge.slots import typed_values


def test_thousands_are_one_number_and_no_clause_break() -> None:
    assert typed_values("target is £6,000")["num:gbp"] == frozenset({"6000"})
    assert typed_values("The user was 33 until 2026-10-24")["num:"] == frozenset({"33"})
    older = Said(
        "The user's biggest client pays the user a £2,000 monthly retainer", "user", "fact"
    )
    newer = Said("Northwind renewed the retainer, same £2,000", "user", "fact")
    assert split_changed(older, newer) is None  # one clause: nothing to keep apart


def test_and_with_a_verb_parts_clauses() -> None:
    older = Said("The user weighs 84 kg and wants to get under 80 by the new year", "user", "fact")
    newer = Said("The user weighed herself at 82.5 kg on 2026-10-26", "user", "fact")
    part = split_changed(older, newer)
    assert part is not None
    assert part.kept == "The user wants to get under 80 by the new year"
    assert part.retired == "The user weighs 84 kg"
    # the held clause is replaced; the whole, a value aimed for beside it, is no longer found
    # by the numbers step (round 28: a value aimed for and a value held are two slots)
    assert replaces(newer, Said(part.retired, "user", "fact"))


def test_and_between_nouns_parts_nothing() -> None:
    older = Said("The user uses Figma and Notion for client notes", "user", "fact")
    newer = Said("The user uses Sketch now", "user", "fact")
    assert split_changed(older, newer) is None


def test_a_swapped_slot_keeps_the_other_clause() -> None:
    older = Said("王磊在大疆做硬件工程师，喜欢周末骑车", "王磊", "fact")
    newer = Said("王磊在小鹏做硬件测试", "王磊", "fact")
    part = split_changed(older, newer)
    assert part is not None
    assert part.retired == "王磊在大疆做硬件工程师"
    assert "骑车" in part.kept
