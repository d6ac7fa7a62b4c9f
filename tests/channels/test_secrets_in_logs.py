"""No configured secret reaches any output of the bot, at any log level (issue 8).

The real app runs as a subprocess at DEBUG: Telegram against the fake Bot API server (the
token is in every request URL), the model behind the fake OpenAI server (the key is in
every request's headers), and the web console with a password (sent by every client).
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.fakes.openai_server import FakeOpenAI
from tests.fakes.telegram_server import FakeTelegramServer

REPO = Path(__file__).resolve().parents[2]
TOKEN = "7312456890:AAHk3vQxZ9w_Secret-Token-Value-0123456789"
API_KEY = "sk-live-abcdefghijklmnopqrstuvwxyz0123"
PASSWORD = "correct-horse-battery-staple"


def start_app(tmp_path: Path, **config: object) -> subprocess.Popen[str]:
    data = {
        "agent_workspace": str(tmp_path / "ws"),
        "embedding_provider": "none",
        "timezone": "Asia/Shanghai",
        "log_level": "DEBUG",
        **config,
    }
    path = tmp_path / "config.json"
    path.write_text(json.dumps(data))
    return subprocess.Popen(
        [sys.executable, str(REPO / "app.py"), "--config", str(path)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=REPO,
        env={"PTB_TIMEDELTA": "true", "PATH": "/usr/bin:/bin", "PYTHONUNBUFFERED": "1"},
    )


def stop_app(app: subprocess.Popen[str]) -> str:
    app.send_signal(signal.SIGINT)
    try:
        output, _ = app.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        app.kill()
        output, _ = app.communicate()
    return output


def assert_no_secret(output: str, *secrets: str) -> None:
    assert output.strip(), "the app printed nothing: DEBUG logging did not run"
    for secret in secrets:
        for piece in {secret, secret.split(":")[-1], secret[-16:]}:
            assert piece not in output, f"{piece!r} leaked into the output"


def test_telegram_token_and_api_key_never_logged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, llm: FakeOpenAI
) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "true")
    server = FakeTelegramServer(token=TOKEN).start()
    try:
        llm.reply("Nice to meet you.")
        app = start_app(
            tmp_path,
            channel_type="telegram",
            telegram_token=TOKEN,
            telegram_api_base=server.base_url,
            open_ai_api_key=API_KEY,
            open_ai_api_base=llm.url,
        )
        try:
            server.push_message(chat_id=5, user_id=5, text=f"hello, my key is {API_KEY}")
            server.wait_for_sent(1, timeout=60)
            time.sleep(1.5)  # a few more getUpdates polls, each logged at DEBUG
        finally:
            output = stop_app(app)
    finally:
        server.close()
    assert "getUpdates" in output  # the requests were logged, with the token masked
    assert_no_secret(output, TOKEN, API_KEY)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_web_password_never_logged(tmp_path: Path) -> None:
    port = free_port()
    app = start_app(tmp_path, channel_type="web", web_port=port, web_password=PASSWORD)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{url}/api/dreaming", auth=("u", "wrong"), timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the console did not start"
                time.sleep(0.2)
        ok = httpx.get(f"{url}/api/dreaming", auth=("u", PASSWORD), timeout=5)
        assert ok.status_code == 200
        reply = httpx.post(
            f"{url}/api/chat", json={"text": f"my password is {PASSWORD}"}, auth=("u", PASSWORD)
        )
        assert reply.status_code == 200
    finally:
        output = stop_app(app)
    assert_no_secret(output, PASSWORD)
