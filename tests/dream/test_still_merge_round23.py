"""Round 23: a "still" line asserting a value another live item states merges into it."""

from __future__ import annotations

from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from memory.dream.judge.again import held_value, still_restates
from memory.dream.judge.relations import Said
from memory.paths import MemoryRoot
from tests.dream.two_days import dream_cited

ZONE = ZoneInfo("Europe/London")


def _said(text: str, subject: str = "user", kind: str = "fact") -> Said:
    return Said(text, subject, kind)


def test_held_value_is_what_follows_still_in_its_clause() -> None:
    assert held_value("Omar: Still at the Royal Free, same team") == {"royal", "free"}
    assert held_value("The user still drinks oat milk, no dairy") >= {"oat", "milk"}
    assert held_value("The user will still drive to work") == frozenset()  # a plan
    assert held_value("The user drives to work") == frozenset()


def test_a_still_line_restates_the_value_it_names() -> None:
    still = _said("Omar: Still at the Royal Free, same team", "Omar")
    other = _said("Omar works days at the Royal Free as a radiographer", "Omar")
    assert still_restates(still, other, 0.7)
    assert not still_restates(still, _said("Omar works at Guy's", "Omar"), 0.7)
    assert not still_restates(still, _said("Lena works at the Royal Free", "Lena"), 0.7)


def test_a_measured_value_under_a_misread_pronoun() -> None:
    still = _said("The user said Dad still takes 40mg simvastatin", "Dad", "health")
    other = _said("The user: cardiologist cut his simvastatin to 40mg", "user", "health")
    assert still_restates(still, other, 0.7)
    assert not still_restates(still, _said("cut his simvastatin to 20mg", "user"), 0.7)


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MemoryRoot:
    monkeypatch.setenv("COWDREAM_DREAM_EMBEDDINGS", "on")
    (tmp_path / "root").mkdir()
    return MemoryRoot.at(tmp_path / "root")


_dream = dream_cited


def test_a_still_line_merges_into_the_item_it_restates(root: MemoryRoot) -> None:
    first = [
        "Omar works days at the Royal Free as a radiographer",
        "Omar has a cat called Pickle",
    ]
    items = _dream(root, first, ["Omar: Still at the Royal Free, same team"])
    royal = [(text, refs) for text, refs in items if "Royal Free" in text]
    assert len(royal) == 1, items
    text, refs = royal[0]
    assert "radiographer" in text  # the item keeps its wording
    assert len(refs) == 2  # and cites both lines
