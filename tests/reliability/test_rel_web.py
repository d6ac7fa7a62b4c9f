"""The web console against symlinks out of the memory root and password guessing."""

from __future__ import annotations

import base64
from pathlib import Path

from web_support import console_config, running_console

from channels.web.throttle import LoginThrottle
from memory.paths import MemoryRoot
from memory.search.tools import memory_get

SECRET = "root:x:0:0:the secret outside the memory\n"


def outside_file(tmp_path: Path) -> Path:
    path = tmp_path / "outside" / "passwd"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SECRET, encoding="utf-8")
    return path


def test_symlinks_out_of_the_root_are_never_followed(tmp_path: Path) -> None:
    target = outside_file(tmp_path)
    with running_console(console_config(tmp_path)) as console:
        root = MemoryRoot.at(tmp_path / "ws")
        (root.notes_dir / "2026-11-28.md").symlink_to(target)
        root.diary_dir.mkdir(parents=True, exist_ok=True)
        (root.diary_dir / "2026-11-28.md").symlink_to(target)
        (root.diary_dir / "2026-11-29.md").write_text("# Dream diary\n\nAll calm.\n", "utf-8")
        client = console.client()
        note = client.get("/api/notes/2026-11-28")
        assert note.status_code == 400 and "secret" not in note.text
        assert "outside the memory root" in note.json()["detail"]
        diary = client.get("/api/diary")
        assert diary.status_code == 200 and "secret" not in diary.text
        assert [e["date"] for e in diary.json()["entries"]] == ["2026-11-29"]
        source = client.get("/api/source", params={"ref": "memory/2026-11-29.md#L4"})
        assert source.status_code == 200, source.text
        assert source.json()["lines"] == ["- The user prefers jasmine tea in the afternoon"]
        escaped = client.get("/api/source", params={"ref": "memory/dreams/2026-11-28.md#L1"})
        assert escaped.status_code == 400 and "secret" not in escaped.text
        notes = client.get("/api/notes").json()["dates"]
        assert "2026-11-28" not in notes


def test_memory_get_answers_beside_an_outward_symlink(tmp_path: Path) -> None:
    root = MemoryRoot.at(tmp_path / "root")
    root.diary_dir.mkdir(parents=True)
    (root.notes_dir / "2026-11-29.md").write_text("# Daily Memory\n\n- tea\n", "utf-8")
    (root.diary_dir / "evil.md").symlink_to(outside_file(tmp_path))
    got = memory_get(root, "memory/2026-11-29.md")
    assert got["text"].endswith("- tea") and "error" not in got
    refused = memory_get(root, "memory/dreams/evil.md")
    assert "error" in refused and "secret" not in str(refused)


def test_wrong_passwords_slow_down(tmp_path: Path) -> None:
    now = [1000.0]
    throttle = LoginThrottle(clock=lambda: now[0])
    config = console_config(tmp_path, web_password="right-horse")
    with running_console(config, throttle=throttle) as console:
        client = console.client()

        def attempt(password: str) -> int:
            token = base64.b64encode(f"u:{password}".encode()).decode()
            return client.get("/api/notes", headers={"Authorization": f"Basic {token}"}).status_code

        assert client.get("/api/notes").status_code == 401  # no password: a prompt, not a try
        assert [attempt(f"guess{n}") for n in range(3)] == [401, 401, 401]
        assert attempt("guess3") == 401  # the fourth wrong one starts the delay
        tries = [attempt(f"guess{n}") for n in range(4, 200)]
        assert set(tries) == {429}  # 196 more tries get nowhere, the right one neither
        assert attempt("right-horse") == 429
        refused = client.get("/api/notes", headers={"Authorization": "Basic eDp5"})
        assert refused.headers["Retry-After"] == "1"
        now[0] += 1.0
        assert attempt("guess-again") == 401  # waits double now
        now[0] += 1.5
        assert attempt("right-horse") == 429
        now[0] += 0.5
        assert attempt("right-horse") == 200
        assert attempt("guess") == 401  # a success starts the count afresh
        assert attempt("right-horse") == 200


def test_the_throttle_in_numbers() -> None:
    now = [0.0]
    throttle = LoginThrottle(clock=lambda: now[0], free=3, max_delay=60.0)
    for _ in range(3):
        assert throttle.wait_for("a") == 0.0
        throttle.failed("a")
    assert throttle.wait_for("a") == 0.0
    throttle.failed("a")  # 4th failure: 1 s
    assert throttle.wait_for("a") == 1.0 and throttle.wait_for("b") == 0.0
    now[0] = 1.0
    throttle.failed("a")  # 5th: 2 s
    assert throttle.wait_for("a") == 2.0
    for _ in range(20):
        now[0] += 100
        throttle.failed("a")
    assert throttle.wait_for("a") == 60.0  # capped
    throttle.succeeded("a")
    assert throttle.wait_for("a") == 0.0
