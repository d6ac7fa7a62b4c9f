"""``python -m memory`` reads the bot's config the way the bot does, and fails cleanly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest

from memory import clock

REPO = Path(__file__).resolve().parents[2]


def memory_cli(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("COW_", "OPENAI_"))}
    environ["PYTHONPATH"] = str(REPO)
    environ.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "memory", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environ,
        timeout=120,
    )


def seed(workspace: Path) -> None:
    day = clock.today()
    (workspace / "memory").mkdir(parents=True)
    (workspace / "memory" / f"{day}.md").write_text(
        f"# Daily Memory: {day}\n\n## Daily Summary (23:55)\n- The user keeps bees\n"
    )


def test_the_cli_reads_dot_config_json_like_the_bot(tmp_path: Path) -> None:
    workspace = tmp_path / "bees"
    seed(workspace)
    (tmp_path / "config.json").write_text(
        json.dumps({"agent_workspace": str(workspace), "dream_engine": "extractive"})
    )
    status = memory_cli("status", "--json", cwd=tmp_path)
    assert status.returncode == 0, status.stderr
    assert json.loads(status.stdout)["root"] == str(workspace.resolve())
    dream = memory_cli("dream", "--json", cwd=tmp_path)
    assert dream.returncode == 0, dream.stderr
    assert json.loads(dream.stdout)["status"] == "done"
    assert "The user keeps bees" in (workspace / "MEMORY.md").read_text()


def test_environment_overrides_apply_as_in_the_bot(tmp_path: Path) -> None:
    workspace = tmp_path / "env-ws"
    seed(workspace)
    status = memory_cli(
        "status", "--json", cwd=tmp_path, env={"COW_AGENT_WORKSPACE": str(workspace)}
    )
    assert json.loads(status.stdout)["root"] == str(workspace.resolve())


@pytest.mark.parametrize(
    "command",
    [
        ["dream"],
        ["undo"],
        ["status"],
        ["forget", "bees", "--yes"],
        ["flush", "turns.jsonl"],
        ["index"],
        ["search", "bees"],
    ],
)
def test_a_missing_workspace_is_an_error_for_every_command(
    tmp_path: Path, command: list[str]
) -> None:
    (tmp_path / "turns.jsonl").write_text('{"role": "user", "content": "I keep bees"}\n')
    missing = tmp_path / "nowhere"
    result = memory_cli(*command, "--workspace", str(missing), cwd=tmp_path)
    assert result.returncode == 2, result
    assert result.stderr.count("\n") == 1 and "nowhere" in result.stderr
    assert not missing.exists()


def test_piping_into_head_gives_no_traceback(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    (workspace / "memory").mkdir(parents=True)
    first = date(2000, 1, 1)
    for n in range(3000):  # --json lists every note: far more than a pipe holds
        day = first + timedelta(days=n)
        (workspace / "memory" / f"{day}.md").write_text(f"# Daily Memory: {day}\n\n- x\n")
    script = (
        f"{sys.executable} -m memory status --json --workspace {workspace} | head -c 1; "
        "exit ${PIPESTATUS[0]}"
    )
    result = subprocess.run(
        ["bash", "-c", script],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=120,
    )
    assert "Traceback" not in result.stderr and "BrokenPipe" not in result.stderr
