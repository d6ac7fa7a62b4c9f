"""Hostile configuration: every bad file or variable stops the start with one line that
names its source, and nothing is written anywhere."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from rel_support import REPO

from bot.config import load_config
from bot.errors import ConfigError

BAD_FILES = [
    (b'{"model": "gpt-\xff"}', "not UTF-8 text"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b'{"model": "a", "timezone": "UTC", "model": "b"}', "duplicate config key 'model'"),
    (b'{"agent_workspace": ""}', "bad value for 'agent_workspace': must not be empty"),
    (b'{"agent_workspace": "   "}', "bad value for 'agent_workspace': must not be empty"),
    (b"\xef\xbb\xbf{}", None),  # a UTF-8 byte order mark is fine
]


@pytest.mark.parametrize(("content", "error"), BAD_FILES)
def test_bad_config_files(tmp_path: Path, content: bytes, error: str | None) -> None:
    path = tmp_path / "config.json"
    path.write_bytes(content)
    if error is None:
        assert load_config(path, environ={}).channel_type == "terminal"
        return
    with pytest.raises(ConfigError) as caught:
        load_config(path, environ={})
    message = str(caught.value)
    assert message.startswith(f"{path}: ") and error in message and "\n" not in message


@pytest.mark.parametrize(
    ("environ", "error"),
    [
        ({"COW_WEB_PORT": "99999"}, "environment variable COW_WEB_PORT: bad value for 'web_port'"),
        ({"COW_AGENT_WORKSPACE": ""}, "environment variable COW_AGENT_WORKSPACE: bad value"),
        ({"COW_DREAM_DAYS": "0"}, "environment variable COW_DREAM_DAYS: bad value"),
    ],
)
def test_bad_environment_is_blamed_on_the_variable(
    tmp_path: Path, environ: dict[str, str], error: str
) -> None:
    path = tmp_path / "config.json"
    path.write_text('{"web_port": 8080}', encoding="utf-8")
    for source in (path, None):
        with pytest.raises(ConfigError) as caught:
            load_config(source, environ=environ)
        assert str(caught.value).startswith(error), caught.value


def test_an_empty_workspace_writes_nothing_into_the_current_folder(tmp_path: Path) -> None:
    cwd = tmp_path / "checkout"
    cwd.mkdir()
    (cwd / "config.json").write_text('{"embedding_provider": "none"}', encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "COW_AGENT_WORKSPACE": "", "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, str(REPO / "app.py")],
        input="hello\n",
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "error: environment variable COW_AGENT_WORKSPACE: bad value for 'agent_workspace': "
        "must not be empty (it would be the current folder); leave it out for ~/cow"
    ]
    assert sorted(p.name for p in cwd.iterdir()) == ["config.json"]
