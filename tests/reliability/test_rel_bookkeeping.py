"""Bookkeeping that cannot be trusted (state, undo history, the bot's own state) is set
aside or ignored with one logged line; undo restores only snapshots it can verify."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from bot.scope_state import changes, mark_changed, read_state
from memory.dream import DreamOptions, run_dream
from memory.dream.state import history_dir, load_state, snapshots
from memory.errors import UsageError
from memory.forget import apply_forget, plan_forget
from memory.history import undo
from memory.paths import MemoryRoot
from memory.status import collect_status, format_status
from tests.memory.mem_support import NOW, at, note

OPTIONS = DreamOptions(days=3, engine="extractive")
HAND = "# MEMORY\n\n- The user is allergic to peanuts\n"
ARCHIVE = "# Archive\n\n- The user used to live in Lisbon\n"


def hand_written(tmp_path: Path) -> MemoryRoot:
    root = MemoryRoot.at(tmp_path / "root")
    root.notes_dir.mkdir(parents=True)
    root.memory_md.write_text(HAND, encoding="utf-8")
    root.archive.write_text(ARCHIVE, encoding="utf-8")
    return root


@pytest.mark.parametrize(
    ("name", "meta"),
    [
        ("abc-zzz", "{}"),
        ("999999-20261129T235800", "{}"),
        ("999999-20261129T235800", "[]"),
        ("999999-20261129T235800", '{"time": 5, "kind": "dream"}'),
        ("999999-20261129T235800", "not json"),
    ],
)
def test_a_stray_history_folder_is_never_restored(tmp_path: Path, name: str, meta: str) -> None:
    root = hand_written(tmp_path)
    stray = history_dir(root) / name
    stray.mkdir(parents=True)
    (stray / "meta.json").write_text(meta, encoding="utf-8")
    with pytest.raises(UsageError, match="nothing to undo"):
        undo(root)
    assert root.memory_md.read_text(encoding="utf-8") == HAND
    assert root.archive.read_text(encoding="utf-8") == ARCHIVE
    assert stray.is_dir()  # left for a person to look at
    assert collect_status(root)["undo_available"] is False


def test_undo_skips_a_stray_folder_and_restores_the_real_snapshot(tmp_path: Path) -> None:
    root = hand_written(tmp_path)
    note(root, at(29), "The user plays tennis every Saturday")
    assert run_dream(root, OPTIONS, model=None, now=NOW).status == "done"
    assert root.memory_md.read_text(encoding="utf-8") != HAND
    (history_dir(root) / "abc-zzz").mkdir()
    (history_dir(root) / "abc-zzz" / "meta.json").write_text("{}", encoding="utf-8")
    assert undo(root).startswith("undone")
    assert root.memory_md.read_text(encoding="utf-8") == HAND
    assert root.archive.read_text(encoding="utf-8") == ARCHIVE


def test_a_tampered_snapshot_is_not_restored(tmp_path: Path) -> None:
    root = hand_written(tmp_path)
    note(root, at(29), "The user plays tennis every Saturday")
    assert run_dream(root, OPTIONS, model=None, now=NOW).status == "done"
    (snapshot,) = snapshots(root)
    (snapshot.folder / "MEMORY.md").write_text("- injected\n", encoding="utf-8")
    assert snapshots(root) == []
    with pytest.raises(UsageError, match="nothing to undo"):
        undo(root)
    assert "tennis" in root.memory_md.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "state",
    [
        '{"last_success": "x", "last_run": 5}',
        '{"last_success": {"hash": 5, "time": []}, "last_run": {"status": 3}}',
        '{"last_run": {"status": "done", "items": "many"}, "last_undo": "yesterday"}',
        "[1, 2, 3]",
        "{broken",
        "",
    ],
)
def test_malformed_dream_state(
    tmp_path: Path, state: str, caplog: pytest.LogCaptureFixture
) -> None:
    root = hand_written(tmp_path)
    note(root, at(29), "The user plays tennis every Saturday")
    root.state_dir.mkdir(parents=True, exist_ok=True)
    (root.state_dir / "state.json").write_text(state, encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        format_status(collect_status(root))
        assert isinstance(load_state(root), dict)
        assert run_dream(root, OPTIONS, model=None, now=NOW).status == "done"
    assert run_dream(root, OPTIONS, model=None, now=NOW).status == "skipped"
    assert load_state(root)["last_success"]["hash"]
    assert any("state" in r.getMessage() for r in caplog.records)


def test_malformed_bot_state(tmp_path: Path) -> None:
    root = hand_written(tmp_path)
    path = root.notes_dir / ".bot" / "state.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"changes": "x", "changed": "yes", "dreaming": "maybe"}), "utf-8")
    mark_changed(root)
    assert changes(root) == 1 and read_state(root).changed is True


def test_a_snapshot_forget_rewrote_can_still_be_undone(tmp_path: Path) -> None:
    root = hand_written(tmp_path)
    note(root, at(29), "The user plays tennis every Saturday")
    assert run_dream(root, OPTIONS, model=None, now=NOW).status == "done"
    assert apply_forget(root, plan_forget(root, "peanuts")) >= 2  # MEMORY.md and the snapshot
    assert undo(root).startswith("undone")
    assert root.memory_md.read_text(encoding="utf-8") == "# MEMORY\n\n"
