"""The web console's HTTP API against a running server."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
from web_support import GROUP_KEY, console_config, running_console, seed_group

from bot.errors import ConfigError
from channels.web.server import WebChannel
from tests.fakes.openai_server import FakeOpenAI


def wait_for_message(client: httpx.Client, timeout: float = 30) -> list[dict[str, object]]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        messages = client.get("/api/messages").json()["messages"]
        if messages:
            return list(messages)
        time.sleep(0.1)
    raise AssertionError("no message arrived")


def test_dream_memory_sources_notes_and_diary(tmp_path: Path) -> None:
    with running_console(console_config(tmp_path)) as console:
        client = console.client()
        status = client.get("/api/dreaming").json()
        assert status["enabled"] is True and status["counts"]["notes"] == 1
        started = client.post("/api/dream", json={"days": 2}).json()["replies"]
        assert started == ["Dream started over the last 2 days of notes; I will report when done."]
        (report,) = wait_for_message(client)
        assert str(report["text"]).startswith("Dream done (extractive): 2 items")
        items = client.get("/api/memory").json()["items"]
        assert {i["text"] for i in items} >= {"The user is learning to play the cello"}
        ref = items[0]["sources"][0]["ref"]
        source = client.get("/api/source", params={"ref": ref}).json()
        assert source["lines"][0].startswith("- The user")
        assert client.get("/api/notes").json() == {"dates": ["2026-11-29"]}
        assert "jasmine" in client.get("/api/notes/2026-11-29").json()["text"]
        diary = client.get("/api/diary").json()["entries"]
        assert len(diary) == 1 and "Deep Dream" in diary[0]["text"]
        last = client.get("/api/dreaming").json()["last_dream"]
        assert last["status"] == "done"
        assert client.get("/api/archive").json() == {"items": []}


def test_search_and_bad_input(tmp_path: Path) -> None:
    with running_console(console_config(tmp_path)) as console:
        client = console.client()
        hits = client.get("/api/search", params={"q": "cello"}).json()["hits"]
        assert hits[0]["path"] == "memory/2026-11-29.md" and hits[0]["score"] > 0
        assert client.get("/api/search", params={"q": "xyzzy"}).json()["hits"] == []
        bad = client.get("/api/source", params={"ref": "../../etc/passwd#L1"})
        assert bad.status_code == 400
        assert client.get("/api/notes/2026-13-99").status_code == 400
        assert client.get("/api/notes/1999-01-01").status_code == 400
        assert client.post("/api/chat", json={"text": ""}).status_code == 422
        for days in (99, 0, -1):
            bad_dream = client.post("/api/dream", json={"days": days})
            assert bad_dream.status_code == 400
            assert bad_dream.json() == {"detail": "days must be 1..30"}
        assert client.post("/api/dream", json={"days": "many"}).json() == {
            "detail": "days: Input should be a valid integer, unable to parse string as an integer"
        }
        assert client.get("/api/messages").json() == {"messages": []}  # no dream ran
        assert client.get("/api/dreaming").json()["last_dream"] is None
        # the console's language: errors and the bot's words in the language asked for
        chinese = {"Accept-Language": "zh-CN,zh;q=0.9"}
        assert client.post("/api/dream", json={"days": 0}, headers=chinese).json() == {
            "detail": "天数必须在 1..30 之间"
        }
        missing = client.get("/api/notes/1999-01-01", headers=chinese).json()
        assert missing == {"detail": "1999-01-01 没有每日笔记"}
        words = client.get("/api/i18n").json()
        assert words["default"] == "en" and words["catalogue"]["code"] == "en"
        assert {"code": "zh", "name": "中文"} in words["languages"]
        zh = client.get("/api/i18n", params={"lang": "zh"}).json()["catalogue"]
        assert zh["formats"]["datetime"] == "{date} {time}" and "count.item" in zh["messages"]
        assert client.get("/api/i18n", headers=chinese).json()["default"] == "zh"
        reply = client.post("/api/chat", json={"text": "/dreaming status", "language": "zh"})
        assert reply.json()["replies"][0].startswith("夜间做梦：开启")
        assert client.get("/api/i18n").json()["default"] == "zh"  # the owner's chat's now


def test_chat_goes_through_the_bot(tmp_path: Path, llm: FakeOpenAI) -> None:
    config = console_config(tmp_path, open_ai_api_base=llm.url, open_ai_api_key="sk-test-web")
    with running_console(config) as console:
        client = console.client()
        llm.reply("Hi from the model")
        assert client.post("/api/chat", json={"text": "hello"}).json() == {
            "replies": ["Hi from the model"]
        }
        assert "memory_search" in str(llm.chat_requests()[0]["tools"])
        turns = client.get("/api/history").json()["turns"]  # what a reloaded page shows
        assert [(t["role"], t["text"]) for t in turns] == [
            ("user", "hello"),
            ("assistant", "Hi from the model"),
        ]


def test_password_is_required_when_set(tmp_path: Path) -> None:
    with running_console(console_config(tmp_path, web_password="hunter2")) as console:
        anonymous = console.client()
        assert anonymous.get("/").status_code == 401
        assert anonymous.get("/api/memory").status_code == 401
        wrong = console.client(auth=("x", "nope"))
        assert wrong.get("/api/memory").status_code == 401
        right = console.client(auth=("owner", "hunter2"))
        assert right.get("/api/memory").status_code == 200


def test_exposed_console_needs_a_password(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="set web_password"):
        WebChannel(console_config(tmp_path, web_host="0.0.0.0"))
    WebChannel(console_config(tmp_path, web_host="0.0.0.0", web_password="pw"))


def test_a_console_without_password_answers_only_loopback_host_names(tmp_path: Path) -> None:
    with running_console(console_config(tmp_path)) as console:
        client = console.client()
        assert client.get("/api/memory").status_code == 200
        rebound = client.get("/api/memory", headers={"Host": "evil.example.com"})
        assert rebound.status_code == 400
        assert "cello" not in rebound.text
        # the page runs its own scripts only, in no frame of another site
        for path in ("/", "/static/app.js", "/api/memory"):
            headers = client.get(path).headers
            policy = headers["content-security-policy"]
            assert "script-src 'self'" in policy and "default-src 'none'" in policy, path
            assert "frame-ancestors 'none'" in policy and headers["x-content-type-options"]
        assert client.get("/static/../app.py").status_code == 404
        index = client.get("/api/index").json()
        assert set(index) >= {"files", "chunks", "pending", "state"}
        assert client.get("/api/i18n").json()["today"] == "2026-11-30"  # the bot's clock


def test_sources_are_only_memory_files(tmp_path: Path) -> None:
    with running_console(console_config(tmp_path)) as console:
        client = console.client()
        for ref in ("memory/.bot/state.json#L1", "scopes/index.json#L1", "config.json#L1"):
            assert client.get("/api/source", params={"ref": ref}).status_code == 400


def test_the_console_shows_another_chats_memory_when_asked(tmp_path: Path) -> None:
    with running_console(console_config(tmp_path)) as console:
        seed_group(console)
        client = console.client()
        chats = client.get("/api/chats").json()["chats"]
        assert [c["key"] for c in chats] == [GROUP_KEY]
        assert chats[0]["title"] == "Hikers"
        key = {"chat": GROUP_KEY}
        assert client.get("/api/notes", params=key).json() == {"dates": ["2026-11-28"]}
        assert client.get("/api/notes").json() == {"dates": ["2026-11-29"]}  # the owner's
        hits = client.get("/api/search", params={"q": "meet at 6 am", **key}).json()["hits"]
        assert hits and "6 am" in hits[0]["snippet"]
        owner_hits = client.get("/api/search", params={"q": "meet at 6 am"}).json()["hits"]
        assert all("6 am" not in h["snippet"] for h in owner_hits)
        unknown = client.get("/api/memory", params={"chat": "telegram:group:-999"})
        assert unknown.status_code == 400


def test_a_busy_port_is_one_line_and_exit_2(tmp_path: Path) -> None:
    import json
    import socket
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[2]
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        config = tmp_path / "config.json"
        config.write_text(
            json.dumps(
                {
                    "channel_type": "web",
                    "web_port": port,
                    "agent_workspace": str(tmp_path / "ws"),
                    "embedding_provider": "none",
                    "log_level": "WARNING",
                }
            )
        )
        result = subprocess.run(
            [sys.executable, str(repo / "app.py"), "--config", str(config)],
            capture_output=True,
            text=True,
            cwd=repo,
            timeout=120,
        )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"error: web console: cannot listen on 127.0.0.1:{port} (Address already in use); "
        "set web_port to a free port"
    ]
