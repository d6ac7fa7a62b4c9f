"""Appends to a daily note work on any existing file and never leave a torn section."""

from __future__ import annotations

import errno
import os
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from rel_support import fill, small_disk

from memory.daily_notes import append_section, parse_note, pending_append_path, repair_note
from memory.errors import StorageError
from memory.paths import MemoryRoot

NOW = datetime(2026, 11, 29, 14, 5, tzinfo=ZoneInfo("Asia/Shanghai"))


def test_append_to_a_note_ending_in_a_non_ascii_character(tmp_path: Path) -> None:
    root = MemoryRoot.at(tmp_path / "root")
    path = root.daily_note(NOW.date())
    path.parent.mkdir(parents=True)
    path.write_text(
        "# Daily Memory: 2026-11-29\n\n## Trimmed Context (13:00)\n- 用户喜欢猫", "utf-8"
    )
    for number in range(3):
        append_section(root, "Trimmed Context", [f"第{number}条：用户住在杭州"], now=NOW)
    text = path.read_text(encoding="utf-8")
    assert text.count("## Trimmed Context (14:05)") == 3
    assert "- 用户喜欢猫\n\n## Trimmed Context (14:05)\n- 第0条：用户住在杭州\n" in text
    assert [line.text for line in parse_note(root, NOW.date())][-1] == "第2条：用户住在杭州"


def test_append_to_a_note_that_is_not_utf8(tmp_path: Path) -> None:
    root = MemoryRoot.at(tmp_path / "root")
    path = root.daily_note(NOW.date())
    path.parent.mkdir(parents=True)
    path.write_bytes(b"# Daily Memory: 2026-11-29\n- \xe7\x8c")  # cut in a character
    append_section(root, "Trimmed Context", ["the user owns a bike"], now=NOW)
    assert path.read_bytes().endswith(
        b"\xe7\x8c\n\n## Trimmed Context (14:05)\n- the user owns a bike\n"
    )


def test_a_killed_append_is_cut_back_before_the_next_one(tmp_path: Path) -> None:
    """What a process killed in the middle of its write leaves: a marker with the old size
    and half a section. The next append (or any reader's recovery) cuts it back."""
    root = MemoryRoot.at(tmp_path / "root")
    path = append_section(root, "Trimmed Context", ["the user owns a bike"], now=NOW)
    before = path.read_bytes()
    marker = pending_append_path(root, path)
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(str(len(before)), encoding="utf-8")
    with open(path, "ab") as handle:
        handle.write("\n## Trimmed Context (14:06)\n- 用户的女儿叫".encode()[:-1])
    append_section(root, "Daily Summary", ["the user likes tea"], now=NOW)
    assert path.read_bytes() == before + b"\n## Daily Summary (14:05)\n- the user likes tea\n"
    assert not marker.exists()
    # A marker whose append finished is harmless: nothing past it is cut.
    marker.write_text(str(path.stat().st_size), encoding="utf-8")
    assert repair_note(root, path) is False
    assert not marker.exists()


BIG = [f"第{n}条：" + "很长的一句话" * 300 for n in range(20)]  # about 110 KB


@pytest.mark.parametrize("room", [0, 8192])  # none for the marker / the marker, not the rest
def test_a_full_disk_leaves_the_note_as_it_was(tmp_path: Path, room: int) -> None:
    with small_disk(tmp_path / "disk", 64) as disk:
        root = MemoryRoot.at(disk / "root")
        path = append_section(root, "Trimmed Context", ["用户喜欢猫"], now=NOW)
        before = path.read_bytes()
        fill(disk, leave_bytes=room)
        with pytest.raises(StorageError, match="No space left on device") as caught:
            append_section(root, "Daily Summary", BIG, now=NOW)
        assert isinstance(caught.value.__cause__, OSError)
        assert caught.value.__cause__.errno == errno.ENOSPC
        assert path.read_bytes() == before  # what was written is taken back
        assert not pending_append_path(root, path).exists()
        assert os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize >= room
        (disk / "filler.bin").unlink()
        append_section(root, "Daily Summary", ["the user likes tea"], now=NOW)
        assert path.read_bytes() == before + b"\n## Daily Summary (14:05)\n- the user likes tea\n"
