"""Sources after a part of an item changes (round 24).

When a later line changes one part of a joined item ("The user has a beagle called Rolo;
Rolo weighs 14 kg", then "Rolo weighs 16 kg now"), the item that stays cites the line it
still says and the new one, not the line of the old weight; the retired part, archived as
superseded, cites that old line only, never the line that replaced it. Examples of this
file's own."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from memory.dream.grounding import split_sources
from memory.dream.model import DreamInputs
from memory.memory_file import parse_memory
from memory.paths import MemoryRoot
from memory.provenance import SourceRef
from tests.dream.test_join_round22 import _night


@pytest.fixture
def embeddings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COWDREAM_DREAM_EMBEDDINGS", "on")


def _archived(archive: str, reason: str) -> dict[str, str]:
    """Archive lines of ``reason``: text -> its sources."""
    found = re.findall(r"^- (.*?) <!-- src: (.*?); reason: (\w+);", archive, re.M)
    return {text: src for text, src, why in found if why == reason}


@pytest.mark.usefixtures("embeddings")
def test_a_changed_part_takes_its_own_line_with_it(tmp_path: Path) -> None:
    (tmp_path / "root").mkdir()
    root = MemoryRoot.at(tmp_path / "root")
    _night(root, ["The user has a beagle called Rolo", "The user: Rolo weighs 14 kg"], 3)
    _night(root, ["The user is learning Spanish"], 4)
    _night(root, ["The user: Rolo weighs 16 kg now"], 5)
    memory = root.memory_md.read_text("utf-8")
    rolo = next(line for line in memory.splitlines() if "called Rolo" in line)
    assert "16 kg" in rolo and "14 kg" not in rolo
    # the kept part's line and the new line; not 03#L5, the old weight
    assert "memory/2027-05-03.md#L4;" in rolo and "memory/2027-05-05.md#L4" in rolo
    assert "#L4-L5" not in rolo and "#L5" not in rolo
    archive = root.archive.read_text("utf-8")
    superseded = _archived(archive, "superseded")
    (old,) = [text for text in superseded if "14 kg" in text]
    assert superseded[old] == "memory/2027-05-03.md#L5"  # not the 16 kg line


PATH = "memory/2027-05-03.md"


def _inputs(lines: list[str]) -> DreamInputs:
    """Inputs whose one note holds ``lines`` as bullets from line 3 on."""
    text = ["# 2027-05-03", "", *(f"- {line}" for line in lines)]
    return DreamInputs(date(2027, 5, 3), parse_memory(""), [], {PATH: text}, {}, 30)


def test_split_sources_keeps_every_line_when_one_says_both() -> None:
    kept, retired = "The user has a beagle called Rolo", "Rolo weighs 14 kg"
    inputs = _inputs(["The user has a beagle called Rolo", "The user: Rolo weighs 14 kg"])
    assert split_sources(kept, retired, [SourceRef(PATH, 3, 4)], inputs) == (
        (SourceRef(PATH, 3, 3),),
        (SourceRef(PATH, 4, 4),),
    )
    # one line saying both halves: nothing to split, both cite it
    both = _inputs(["The user has a beagle called Rolo; Rolo weighs 14 kg"])
    whole = (SourceRef(PATH, 3, 3),)
    assert split_sources(kept, retired, whole, both) == (whole, whole)
    # a line the window does not hold (a prior item's source long gone): both cite all
    gone = (SourceRef("memory/2027-04-01.md", 3, 3), SourceRef(PATH, 3, 3))
    assert split_sources(kept, retired, gone, inputs) == (gone, gone)
