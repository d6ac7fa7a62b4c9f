"""One bot per workspace: a second one stops at start with one line and exit status 2."""

from __future__ import annotations

import subprocess
from pathlib import Path

from rel_support import REPO, app_command, wait_for

from bot.workspace_lock import WorkspaceLock


def test_a_second_bot_on_the_same_workspace_is_refused(tmp_path: Path) -> None:
    command = app_command(tmp_path)
    lock = tmp_path / "ws" / "memory" / ".bot" / "bot.lock"
    first = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    try:
        wait_for(lambda: lock.exists() and lock.read_text().strip() == str(first.pid))
        second = subprocess.run(
            command, input="hello\n", capture_output=True, text=True, cwd=REPO, timeout=60
        )
        assert second.returncode == 2
        assert second.stdout == ""
        assert second.stderr.splitlines() == [
            f"error: another CowDream bot (pid {first.pid}) is already running on the "
            f"workspace {(tmp_path / 'ws').resolve()}; stop it first, or give this one "
            "another agent_workspace"
        ]
        out, err = first.communicate("/memory status\n", timeout=60)
    finally:
        if first.poll() is None:
            first.kill()
    assert first.returncode == 0, err
    assert out.startswith("Memory of terminal:user:owner")
    # The lock went with the first bot: a new one may start.
    WorkspaceLock.acquire((tmp_path / "ws").resolve()).release()
