"""Fixtures: memory roots on disk and a fake OpenAI-compatible embeddings server.

The server speaks the real ``POST /v1/embeddings`` protocol on 127.0.0.1; its vectors are
a deterministic bag of hashed words, so texts sharing words are similar.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from memory.paths import MemoryRoot

DIM = 64


def fake_vector(text: str) -> list[float]:
    vector = [0.0] * DIM
    for word in re.findall(r"\w+", text.lower()):
        digest = hashlib.sha256(word.encode()).digest()
        vector[digest[0] % DIM] += 1.0
    vector[0] += 0.01
    return vector


class FakeEmbeddings:
    def __init__(self) -> None:
        self.calls: list[list[str]] = []
        self.fail = False
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if fake.fail or not self.path.endswith("/embeddings"):
                    self._send(500, {"error": {"message": "boom", "type": "server_error"}})
                    return
                texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
                fake.calls.append(texts)
                data = [
                    {"object": "embedding", "index": i, "embedding": fake_vector(t)}
                    for i, t in enumerate(texts)
                ]
                self._send(
                    200,
                    {
                        "object": "list",
                        "data": data,
                        "model": body["model"],
                        "usage": {"prompt_tokens": 1, "total_tokens": 1},
                    },
                )

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                raw = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        return Handler


@pytest.fixture
def embeddings_server() -> Iterator[FakeEmbeddings]:
    fake = FakeEmbeddings()
    fake.thread.start()
    try:
        yield fake
    finally:
        fake.server.shutdown()
        fake.server.server_close()


def write(root: Path, relative: str, text: str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def root(tmp_path: Path) -> MemoryRoot:
    base = tmp_path / "root"
    write(
        base,
        "MEMORY.md",
        "# MEMORY\n\n## Preferences\n"
        "- 用户偏好美式咖啡，不加糖 <!-- src: memory/2026-11-28.md#L5; importance: 0.9 -->\n"
        "- The user wants short answers\n",
    )
    write(
        base,
        "memory/2026-11-28.md",
        "# Daily Memory: 2026-11-28\n\n## Trimmed Context (14:05)\n\n"
        "- 用户下周三要去上海出差，住在静安区\n"
        "- Deploy failed with ECONNREFUSED 127.0.0.1:5432 because postgres was down\n"
        "- 用户把 config.json 里的 max_tokens 调到了 4096\n",
    )
    write(
        base,
        "memory/2026-10-01.md",
        "# Daily Memory: 2026-10-01\n\n## Daily Summary (23:55)\n\n"
        "- 用户每周二晚上去游泳\n- The user bought a white BYD Seal car\n",
    )
    write(
        base,
        "memory/archive.md",
        "# Archive\n\n- 用户以前喝拿铁 <!-- src: memory/2026-06-02.md#L5; reason: superseded; "
        "archived: 2026-11-30 -->\n",
    )
    write(base, "memory/dreams/2026-11-28.md", "# Dream\n\n- 梦里提到了 上海 静安区 secretdream\n")
    write(base, "memory/.dreams/state.md", "- hidden secretstate 上海\n")
    write(base, "scopes/other/MEMORY.md", "- 另一个聊天的秘密 othersecret 上海\n")
    write(base, "notes.md", "- outside memory rootsecret\n")
    return MemoryRoot.at(base)
