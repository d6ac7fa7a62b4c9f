"""A full disk: a dream fails with one line and leaves nothing behind; the terminal bot
keeps answering and says its memory could not be saved."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from rel_support import REPO, app_command, fill, small_disk

from memory import clock
from memory.dream import DreamOptions, run_dream
from memory.errors import StorageError
from memory.paths import MemoryRoot
from tests.memory.mem_support import SHANGHAI, note


def test_a_dream_on_a_full_disk_fails_in_one_line(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk", 256) as disk:
        root = MemoryRoot.at(disk / "root")
        today = clock.now(SHANGHAI)  # the command below dreams at the project clock's now
        note(root, today - timedelta(days=2), "用户最喜欢拿铁", "The user's sister lives in Lisbon")
        options = DreamOptions(days=3, engine="extractive")
        assert run_dream(root, options, model=None, now=today - timedelta(days=2)).status == "done"
        note(root, today, "用户改喝美式了", "The user plays tennis every Saturday")
        before = {p: p.read_bytes() for p in root.path.rglob("*") if p.is_file()}
        fill(disk)
        done = subprocess.run(
            [sys.executable, "-m", "memory", "dream", "--workspace", str(root.path),
             "--timezone", "Asia/Shanghai", "--days", "3"],
            capture_output=True, text=True, cwd=REPO, timeout=120,
        )  # fmt: skip
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.splitlines() == [
            "memory dream: error: cannot write memory/.dreams: No space left on device; "
            "nothing was changed"
        ]
        assert not list(root.state_dir.glob("txn-*")) and not (root.state_dir / "commit").exists()
        after = {p: p.read_bytes() for p in root.path.rglob("*") if p.is_file()}
        assert {p: b for p, b in after.items() if "locks" not in p.parts} == {
            p: b for p, b in before.items() if "locks" not in p.parts
        }
        (disk / "filler.bin").unlink()
        assert run_dream(root, options, model=None, now=today).status == "done"


def test_the_terminal_bot_keeps_answering_on_a_full_disk(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk", 512) as disk:
        command = app_command(disk, agent_max_context_turns=2)
        first = subprocess.run(
            command, input="hello\n", capture_output=True, text=True, cwd=REPO, timeout=120
        )
        assert first.returncode == 0, first.stderr
        fill(disk)
        messages = "".join(f"message number {n} about the garden\n" for n in range(3))
        done = subprocess.run(
            command,
            input=messages + "/memory status\n",
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr, done.stderr  # the log says it in one line each
        assert "No space left on device" in done.stderr
        lines = done.stdout.splitlines()
        warned = [line for line in lines if "memory could not be saved" in line]
        assert len(warned) == 3, done.stdout
        assert "No space left on device" in warned[0]
        assert any(line.startswith("Memory of terminal:user:owner") for line in lines)


def test_a_skipped_dream_on_a_full_disk_is_one_error_too(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk", 64) as disk:
        root = MemoryRoot.at(disk / "root")
        root.notes_dir.mkdir(parents=True)
        fill(disk)
        with pytest.raises(StorageError, match="No space left on device; nothing was changed"):
            run_dream(root, DreamOptions(days=3, engine="extractive"), model=None, now=clock.now())
        assert not list(root.state_dir.glob(".*.tmp"))
