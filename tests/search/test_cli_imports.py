"""A ``python -m memory`` process imports what its command needs, not every command's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PROBE = """
import sys
from memory.cli import main
code = main(sys.argv[1:])
loaded = sorted(m for m in sys.modules if m.startswith("memory."))
print("MODULES " + " ".join(loaded))
"""


def loaded(tmp_path: Path, *argv: str) -> tuple[int, set[str]]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    line = next(x for x in done.stdout.splitlines() if x.startswith("MODULES "))
    return done.returncode, set(line.split()[1:])


def test_a_search_process_imports_none_of_the_dream_s_modules(tmp_path: Path) -> None:
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / "2026-11-28.md").write_text("- 用户喜欢爬山\n", "utf-8")
    code, modules = loaded(
        tmp_path, "search", "爬山", "--workspace", str(tmp_path), "--provider", "none"
    )
    assert code == 0
    assert "memory.search.service" in modules
    unwanted = {"memory.flush", "memory.forget", "memory.status", "memory.history"}
    assert not modules & unwanted
    assert not [m for m in modules if m.startswith("memory.dream")]


def test_an_own_command_registers_and_imports_only_itself(tmp_path: Path) -> None:
    code, modules = loaded(tmp_path, "status", "--workspace", str(tmp_path), "--json")
    assert code == 0
    assert "memory.status" in modules
    assert not [m for m in modules if m.startswith("memory.search")]
    assert not {"memory.flush", "memory.forget", "memory.dream.model"} & modules
