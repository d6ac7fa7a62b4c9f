"""Importance, not recurrence, decides what stays under MEMORY.md's cap: a name, a job, an
allergy and a medication said once outrank small facts said every day and chatter said
every night. Examples of this file's own."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from memory.daily_notes import append_section
from memory.dream import DreamOptions, run_dream
from memory.dream.judge import importance
from memory.memory_file import parse_memory
from memory.paths import MemoryRoot

ZONE = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 11, 29, 23, 58, tzinfo=ZONE)

KEY = [
    "The user's name is Hannah Vogel and she is 38",
    "The user works as an air traffic controller at Frankfurt airport",
    "The user is allergic to penicillin",
    "The user takes 50 mg of sertraline every morning",
]
SMALL = [  # small facts, each told on every day of the window
    f"The user has watched {film} and liked it"
    for film in ("Heat", "Alien", "Up", "Jaws", "Coco", "Rocky", "Fargo", "Brazil")
] + [
    f"The user's favourite {thing} is {value}"
    for thing, value in (
        ("biscuit", "a ginger nut"),
        ("board game", "Carcassonne"),
        ("podcast", "a history podcast"),
        ("ice cream", "pistachio"),
        ("museum", "the Städel"),
        ("song", "a Bowie song"),
        ("font", "Futura"),
        ("bird", "the kingfisher"),
    )
]
OTHER = [  # more durable facts, told once: with the rest, more than the cap holds
    "The user's husband Jonas is a pharmacist",
    "The user has a daughter called Lina, who is six",
    "The user lives in Offenbach",
    "The user drives a blue Golf",
    "The user plays the cello in an amateur orchestra",
    "The user's mother lives in Kassel",
    "The user speaks German, English and some Italian",
    "The user's brother Felix lives in Vienna",
    "The user swims on Wednesday evenings",
    "The user is saving for a flat in Sachsenhausen",
    "The user has a cat called Mops",
    "The user grew up near Lake Constance",
    "The user prefers answers in English",
    "The user's best friend is called Aylin",
    "The user reads crime novels before bed",
    "The user studied physics in Darmstadt",
    "The user's shifts rotate every four days",
]
CHATTER = ["Good night!", "The user thanked the assistant", "The user said it was raining"]


def _dream(root: MemoryRoot) -> list[str]:
    for offset, day in enumerate((26, 27, 28, 29)):
        lines = [*(KEY + OTHER if offset == 0 else []), *SMALL, *CHATTER]
        when = datetime(2026, 11, day, 23, 55, tzinfo=ZONE)
        append_section(root, "Daily Summary", lines, now=when)
    options = DreamOptions(days=7, engine="extractive", max_items=30)
    report = run_dream(root, options, model=None, now=NOW)
    assert report.status == "done", report.reason
    return [i.text for i in parse_memory(root.memory_md.read_text("utf-8")).generated]


@pytest.fixture
def root(tmp_path: Path) -> MemoryRoot:
    (tmp_path / "root").mkdir()
    return MemoryRoot.at(tmp_path / "root")


def test_names_jobs_allergies_and_medication_stay_under_the_cap(root: MemoryRoot) -> None:
    items = _dream(root)
    assert len(items) <= 30
    text = "\n".join(items)
    for needle in ("Hannah", "air traffic controller", "penicillin", "sertraline"):
        assert needle in text, needle
    for chatter in ("Good night", "thanked", "raining"):
        assert chatter not in text, chatter


def test_the_kinds_that_matter_most_outrank_recurrence() -> None:
    """One mention of an identity or health fact outranks a hobby said on eight days; a
    statement the classifier finds likely chatter never outranks a durable one."""
    once = importance.score("identity", 0.0, 1, 10, False)
    assert once == pytest.approx(3.2 + 0.5 + 0.5 / (1 + 10 / 14))
    assert once > importance.score("preference", 0.0, 8, 0, False) - 1.0
    assert (
        importance.score("health", 0.0, 1, 10, False)
        > importance.score("event", 0.0, 8, 10, False) - 0.6
    )
    assert importance.score("chatter", 0.9, 8, 0, True) < importance.score(
        "event", 0.0, 1, 20, False
    )
