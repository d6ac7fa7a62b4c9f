"""Hostile input: binary garbage on the terminal, lone surrogates on the web console.
Bad text is replaced, never stored as it came, and the bot carries on."""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path

import pytest
from bot_support import BotFactory, owner
from rel_support import REPO, app_command
from web_support import console_config, running_console

from memory.dream import DreamOptions, run_dream
from memory.memory_file import read_memory
from memory.paths import MemoryRoot
from memory.provenance import SourceRef
from tests.memory.mem_support import NOW, at, note


def garbage(seed: int) -> bytes:
    rng = random.Random(seed)
    lines = [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80))) for _ in range(6)]
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
    assert "terminal:user:owner" in out and "MEMORY.md" in out  # the status answered
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


def test_bogus_source_references_are_not_carried_into_new_items(tmp_path: Path) -> None:
    root = MemoryRoot.at(tmp_path / "root")
    note(root, at(29), "The user likes green tea", "The user plays tennis every Saturday")
    root.memory_md.write_text(
        "# MEMORY\n\n"
        "- The user likes green tea <!-- src: ../../etc/passwd#L1; memory/2026-11-29.md#L4 -->\n"
        "- The user owns a red bike <!-- src: /etc/shadow#L2 -->\n"
        "- The user is called Ada <!-- src: memory/../../../x.md#L1-L3 -->\n",
        encoding="utf-8",
    )
    report = run_dream(root, DreamOptions(days=3, engine="extractive"), model=None, now=NOW)
    assert report.status == "done"
    text = root.memory_md.read_text(encoding="utf-8")
    assert "green tea" in text and "tennis" in text
    for item in read_memory(root).items:
        for ref in item.sources:
            assert ref.path.startswith("memory/") and ".." not in ref.path, ref
    for bogus in ("../", "/etc/"):
        generated = [line for line in text.splitlines() if "src:" in line and bogus in line]
        assert all("The user owns" in g or "Ada" in g for g in generated), generated


@pytest.mark.parametrize(
    "ref",
    ["../../etc/passwd#L1", "/etc/passwd#L1", "memory/../../x.md#L1", "~/.ssh/id_rsa#L1",
     "memory\\..\\x.md#L1", "memory/2026-11-29.md#L0", "memory/x.md#L5-L2"],
)  # fmt: skip
def test_references_outside_the_root_do_not_parse(ref: str) -> None:
    assert SourceRef.parse(ref) is None


def test_a_huge_search_is_not_echoed_whole(make_bot: BotFactory) -> None:
    bot, _ = make_bot()
    query = "找不到的东西 " * 2000  # about 16 KB
    (reply,) = bot.handle(owner(f"/memory search {query}"))
    assert reply.startswith("记忆里没有与 “找不到的东西") and len(reply) < 200
    (reply,) = bot.handle(owner(f"/memory forget {query}"))
    assert len(reply) < 200
