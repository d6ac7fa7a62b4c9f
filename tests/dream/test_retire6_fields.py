"""Round 18: a chat written in fields ("Running: half marathon PB 1:52") is the user's own,
its labels no speakers and its capitalised openers no names; a Chinese group's silent
members stay members. Examples of this file's own."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from memory.daily_notes import append_section
from memory.dream import DreamOptions, run_dream
from memory.memory_file import parse_memory
from memory.paths import MemoryRoot
from memory.speaker import field_labels

ZONE = ZoneInfo("Europe/London")

FIRST = [
    "Name: Tomas Berg, lives in Leeds",
    "Occupation: physiotherapist at a sports clinic",
    "Cycling: 100 km sportive best 4:05",
    "Diet: no red meat",
    "Sister: Ylva, in Oslo",
    "Asked for a flapjack recipe",
]
LATER = [
    "Update: 100 km sportive best now 3:48 (Dales ride)",
    "Ylva's birthday: 9 May",
    "Mood: sore legs, happy",
]


def _dream(tmp_path: Path) -> tuple[list[str], str]:
    (tmp_path / "root").mkdir()
    root = MemoryRoot.at(tmp_path / "root")
    append_section(root, "Daily Summary", FIRST, now=datetime(2027, 4, 3, 23, 50, tzinfo=ZONE))
    append_section(root, "Daily Summary", LATER, now=datetime(2027, 4, 6, 23, 50, tzinfo=ZONE))
    options = DreamOptions(days=7, engine="extractive", max_items=30)
    report = run_dream(root, options, model=None, now=datetime(2027, 4, 6, 23, 58, tzinfo=ZONE))
    assert report.status == "done", report.reason
    items = [i.text for i in parse_memory(root.memory_md.read_text("utf-8")).generated]
    archive = root.archive.read_text("utf-8") if root.archive.exists() else ""
    return items, archive


def test_a_new_best_in_a_chat_of_fields_retires_the_old(tmp_path: Path) -> None:
    items, archive = _dream(tmp_path)
    text = "\n".join(items)
    assert "3:48" in text
    assert "4:05" not in text  # "Cycling:" is a field, "Update: 100 km …" the user's own
    assert "4:05" in archive
    # a name the chat writes inside a sentence ("Sister: Ylva") is still someone
    assert any("9 May" in i for i in items) and "Name: Tomas" in text


def test_a_chinese_groups_silent_members_are_no_field_labels() -> None:
    group = [
        "王建国：奶奶明天复查",
        "李秀英：带上病历本",
        "陈静：周六回家吃饭",
        "老钱：鱼竿修好了",
        "孙阿姨：菜买好了",
    ]
    assert field_labels(group) == frozenset()
    # a terse summary in Chinese fields still has its labels
    fields = ["职业：护士，三班倒", "饮食：不吃辣", "宠物：一只橘猫", "爱好：游泳"]
    assert {"职业", "饮食", "宠物", "爱好"} <= field_labels(fields)
