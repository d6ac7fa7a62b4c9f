"""Malformed files and bad workspaces: a clear error or a skipped file, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from mem_support import NOW, at, note, tree

from memory.cli import main
from memory.dream import DreamOptions, run_dream
from memory.forget import apply_forget, plan_forget
from memory.paths import MemoryRoot
from memory.status import collect_status

GARBAGE = bytes(range(128, 256)) * 4


def test_an_undecodable_note_is_skipped_not_fatal(root: MemoryRoot) -> None:
    note(root, at(29), "用户喜欢美式咖啡，不加糖")
    root.daily_note(at(28).date()).write_bytes(GARBAGE)
    report = run_dream(root, DreamOptions(days=3, engine="extractive"), model=None, now=NOW)
    assert report.status == "done" and report.items == 1
    assert collect_status(root)["notes"]["2026-11-28"] == 0
    plan = plan_forget(root, "美式")
    assert apply_forget(root, plan) >= 1
    assert root.daily_note(at(28).date()).read_bytes() == GARBAGE  # left alone


def test_an_undecodable_memory_file_is_a_clear_error(
    root: MemoryRoot, capsys: pytest.CaptureFixture[str]
) -> None:
    note(root, at(29), "用户喜欢美式咖啡")
    root.memory_md.write_bytes(GARBAGE)
    before = {k: v for k, v in tree(root.path).items() if not k.endswith(".lock")}
    code = main(["dream", "--workspace", str(root.path), "--engine", "extractive"])
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "MEMORY.md is not UTF-8 text" in err
    after = {k: v for k, v in tree(root.path).items() if not k.endswith(".lock")}
    assert after == before  # only the root's (empty) lock file may appear


@pytest.mark.parametrize("command", ["dream", "undo", "status", "forget x1"])
def test_a_workspace_that_is_a_file(
    tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "file"
    target.write_text("not a folder", encoding="utf-8")
    code = main([*command.split(), "--workspace", str(target)])
    assert code == 2
    assert "not a folder" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["dream", "undo", "forget x1"])
def test_a_missing_workspace_is_not_created(
    tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere" / "cow"
    assert main([*command.split(), "--workspace", str(missing)]) == 2
    assert "no memory root" in capsys.readouterr().err
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("bad", ["0", "-3", "x"])
def test_max_items_must_be_positive(root: MemoryRoot, bad: str) -> None:
    note(root, at(29), "用户喜欢美式咖啡")
    with pytest.raises(SystemExit) as exit_info:
        main(["dream", "--workspace", str(root.path), "--max-items", bad])
    assert exit_info.value.code == 2
    assert not root.memory_md.exists()
