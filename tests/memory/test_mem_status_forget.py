"""``status --json`` and ``forget``."""

from __future__ import annotations

import json

import pytest
from mem_support import NOW, at, note, read

from memory.cli import main
from memory.dream import DreamOptions, run_dream
from memory.dream.state import snapshots
from memory.forget import TOMBSTONE, apply_forget, plan_forget
from memory.paths import MemoryRoot


def seed(root: MemoryRoot) -> None:
    note(root, at(27), "用户最喜欢拿铁", "The user's sister Maria lives in Lisbon", "哈哈")
    note(root, at(29), "用户改喝美式了", "用户养了一只橘猫叫豆豆")


def status(root: MemoryRoot, capsys: pytest.CaptureFixture[str]) -> dict:
    capsys.readouterr()
    assert main(["status", "--json", "--workspace", str(root.path)]) == 0
    return json.loads(capsys.readouterr().out)


def test_status_json_fields(root: MemoryRoot, capsys) -> None:
    empty = status(root, capsys)
    assert empty["items"] == 0 and empty["notes"] == {} and empty["last_dream"] is None
    seed(root)
    root.memory_md.write_text("# MEMORY\n\n- 手写：用户生日是五月三日\n", encoding="utf-8")
    report = run_dream(root, DreamOptions(days=3, engine="extractive"), model=None, now=NOW)
    assert report.status == "done"
    data = status(root, capsys)
    assert data["items"] == report.items == 4
    assert data["handwritten_items"] == 1 and data["generated_items"] == 3
    assert data["archive_items"] == 1
    assert data["notes"] == {"2026-11-27": 3, "2026-11-29": 2}
    last = data["last_dream"]
    assert last["engine"] == "extractive" and last["status"] == "done"
    assert last["time"] == NOW.isoformat(timespec="seconds")
    assert last["items"] == 4 and last["superseded"] == 1
    assert data["undo_available"] is True
    skipped = run_dream(root, DreamOptions(days=3), model=None, now=NOW)
    assert skipped.status == "skipped"
    assert status(root, capsys)["last_dream"]["status"] == "skipped"
    capsys.readouterr()
    assert main(["status", "--workspace", str(root.path)]) == 0
    text = capsys.readouterr().out
    assert "MEMORY.md: 4 items (3 generated, 1 hand-written)" in text
    assert "last dream: " in text and "extractive skipped" in text


def test_forget_plan_then_apply_everywhere(root: MemoryRoot, capsys) -> None:
    seed(root)
    run_dream(root, DreamOptions(days=3, engine="extractive"), model=None, now=NOW)
    note(root, at(29, 23, 59), "用户的猫豆豆今天打了疫苗")
    run_dream(root, DreamOptions(days=3, engine="extractive"), model=None, now=NOW)
    assert any("拿铁" in (s.text("archive.md") or "") for s in snapshots(root))
    note_27 = root.daily_note(at(27).date())
    lines_before = note_27.read_text(encoding="utf-8").splitlines()

    plan = plan_forget(root, "拿铁")
    files = set(plan.files)
    assert "memory/2026-11-27.md" in files and "memory/archive.md" in files
    assert any(f.startswith("memory/.dreams/history/") for f in files)
    assert ("memory/2026-11-27.md", 4, "- 用户最喜欢拿铁") in plan.matches
    assert read(root.memory_md) is not None and "拿铁" in read(root.archive)  # plan wrote nothing

    removed = apply_forget(root, plan)
    assert removed == len(plan.matches)
    assert plan_forget(root, "拿铁").matches == []
    lines_after = note_27.read_text(encoding="utf-8").splitlines()
    assert len(lines_after) == len(lines_before)
    assert lines_after[3] == TOMBSTONE
    assert lines_after[4] == lines_before[4]  # the neighbours keep their numbers
    for snapshot in snapshots(root):
        for name in ("MEMORY.md", "archive.md"):
            assert "拿铁" not in (snapshot.text(name) or "")
    assert "拿铁" not in (read(root.archive) or "") and "拿铁" not in (read(root.memory_md) or "")

    capsys.readouterr()
    ws = ["--workspace", str(root.path)]
    assert (
        main(["forget", "豆豆", "--json", *ws]) == 2
    )  # no tty and no --yes: asks, deletes nothing
    assert "豆豆" in read(root.memory_md)
    capsys.readouterr()
    assert main(["forget", "豆豆", "--yes", "--json", *ws]) == 0
    assert json.loads(capsys.readouterr().out)["removed"] >= 3
    assert "豆豆" not in read(root.memory_md)
    assert main(["forget", "x", *ws]) == 2
