"""Hostile input: binary garbage on the terminal, lone surrogates on the web console.
Bad text is replaced, never stored as it came, and the bot carries on."""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path

import pytest
from rel_support import REPO, app_command
from web_support import console_config, running_console


def garbage(seed: int) -> bytes:
    rng = random.Random(seed)
    lines = [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80))) for _ in range(40)]
    lines += [
        b"\xff\xfe\xfd",
        b"\xed\xa0\x80 half a surrogate",
        b"nul\x00in the middle",
        b"\x1b[2J",
    ]
    return b"\n".join(lines) + b"\n"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8:surrogateescape", "ascii"])
def test_binary_garbage_on_stdin(tmp_path: Path, encoding: str) -> None:
    stdin = garbage(7) + "我住在杭州\n/memory status\n".encode()
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    done = subprocess.run(
        app_command(tmp_path), input=stdin, capture_output=True, cwd=REPO, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    out = done.stdout.decode("utf-8", errors="replace")
    assert "Memory of terminal:user:owner" in out
    assert "Traceback" not in done.stderr.decode(errors="replace")
    sessions = list((tmp_path / "ws").rglob("sessions/*.json"))
    assert sessions
    for path in sessions:
        data = json.loads(path.read_text(encoding="utf-8"))  # valid UTF-8 JSON
        for turn in data["window"]:
            assert "\x00" not in turn["content"]
            assert not any(0xD800 <= ord(c) <= 0xDFFF for c in turn["content"])


def test_lone_surrogates_in_a_web_chat(tmp_path: Path) -> None:
    with running_console(console_config(tmp_path)) as console:
        client = console.client()
        body = b'{"text": "hello \\ud800 and \\udfff world"}'
        reply = client.post("/api/chat", content=body, headers={"content-type": "application/json"})
        assert reply.status_code == 200, reply.text
        assert reply.json()["replies"]
        again = client.post("/api/chat", json={"text": "/memory status"})
        assert again.status_code == 200 and "Memory of web:user:owner" in again.json()["replies"][0]
        history = client.get("/api/history").json()["turns"]
        assert history[0]["text"] == "hello \ufffd and \ufffd world"
