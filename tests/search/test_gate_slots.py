"""The asked slot: the question's terms without its names, its coverage by the hits, and
answer-type presence in the hits that hold it; exact numbers."""

from __future__ import annotations

import pytest

from memory.search.gate_slots import slot_signals, slot_weights
from memory.search.ranker import Hit


def hit(snippet: str, path: str = "MEMORY.md") -> Hit:
    return Hit(path, 1, 1, 0.5, snippet, "keyword")


def test_the_slot_leaves_the_names_out() -> None:
    weights = {"caroline": 1.0, "paint": 3.0}
    assert slot_weights("What did Caroline paint?", weights) == {"paint": 3.0}
    # a question about a name only: the name is the slot
    assert slot_weights("Who is Caroline?", {"caroline": 1.0}) == {"caroline": 1.0}
    # Chinese questions name no one by capitals: every term is the slot
    assert slot_weights("我能吃多辣？", {"辣": 5.0, "吃": 2.0}) == {"辣": 5.0, "吃": 2.0}


def test_hits_about_the_name_alone_hold_none_of_the_slot() -> None:
    question = "What did Caroline paint?"
    weights = {"caroline": 1.0, "paint": 3.0}
    named_only = [hit("- Caroline: I went to a support group."), hit("- Caroline: hi!")]
    out = slot_signals(question, named_only, weights)
    assert out["slot1"] == 0.0 and out["slot5"] == 0.0 and out["slot_hits"] == 0.0
    both = [hit("- Caroline: hi!"), hit("- Caroline: I paint sunsets.")]
    out = slot_signals(question, both, weights)
    assert out["slot1"] == 0.0
    assert out["slot_best"] == pytest.approx(1.0)
    assert out["slot_focus1"] == 0.0 and out["slot_focus5"] == 1.0
    assert out["slot_hits"] == pytest.approx(1 / 5)
    assert out["slot_typed"] == 1.0  # "what" asks for no kind of value


def test_the_answer_type_is_looked_for_in_the_hits_holding_the_slot() -> None:
    question = "When did Caroline go to the support group?"
    weights = {"caroline": 1.0, "support": 2.0, "group": 2.0}
    dated_elsewhere = [hit("- Caroline: support group was great"), hit("- We met on 8 May 2023")]
    assert slot_signals(question, dated_elsewhere, weights)["slot_typed"] == 0.0
    dated = [hit("- Caroline went to the support group on 8 May 2023")]
    assert slot_signals(question, dated, weights)["slot_typed"] == 1.0
    # a day's note is dated by its file
    in_a_day = [hit("- Caroline: support group was great", path="memory/2023-05-08.md")]
    assert slot_signals(question, in_a_day, weights)["slot_typed"] == 1.0
    count = "How many children does Melanie have?"
    w = {"children": 2.0, "melanie": 1.0}
    assert slot_signals(count, [hit("- Melanie: my children love it")], w)["slot_typed"] == 0.0
    assert slot_signals(count, [hit("- Melanie: my 3 children")], w)["slot_typed"] == 1.0


def test_no_hits_hold_nothing() -> None:
    out = slot_signals("我能吃多辣？", [], {"辣": 5.0})
    assert out == {
        "slot1": 0.0,
        "slot_best": 0.0,
        "slot5": 0.0,
        "slot_focus1": 0.0,
        "slot_focus5": 0.0,
        "slot_hits": 0.0,
        "slot_typed": 1.0,
    }
