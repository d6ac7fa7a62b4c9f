"""Fixtures for the memory engine's suite: a memory root in tmp_path, a fake model server."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.paths import MemoryRoot


@pytest.fixture(autouse=True)
def no_model_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine must not pick up a model from the developer's environment."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def root(tmp_path: Path) -> MemoryRoot:
    """An empty memory root (the folder exists: a --workspace that does not is an error)."""
    (tmp_path / "root").mkdir()
    return MemoryRoot.at(tmp_path / "root")
