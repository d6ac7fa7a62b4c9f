"""Daily notes: header once, section format, concurrent writers, timezone; redaction."""

from __future__ import annotations

import multiprocessing
import re
import threading
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime
from pathlib import Path

import pytest
from mem_support import SHANGHAI, UTC, at, note

from memory.clock import now_in
from memory.daily_notes import append_section, parse_note
from memory.flush import flush_turns
from memory.paths import MemoryRoot
from memory.redact import MASK
from memory.transcript import Turn


def test_header_once_and_sections_in_order(root: MemoryRoot) -> None:
    note(
        root,
        at(29, 14, 5),
        "用户下周三要去上海出差，住在静安区",
        "The user asked to keep answers short",
        title="Trimmed Context",
    )
    path = note(root, at(29, 23, 55), "用户喜欢美式咖啡")
    assert path == root.path / "memory" / "2026-11-29.md"
    assert path.read_text(encoding="utf-8") == (
        "# Daily Memory: 2026-11-29\n"
        "\n"
        "## Trimmed Context (14:05)\n"
        "- 用户下周三要去上海出差，住在静安区\n"
        "- The user asked to keep answers short\n"
        "\n"
        "## Daily Summary (23:55)\n"
        "- 用户喜欢美式咖啡\n"
    )
    lines = parse_note(root, at(29).date())
    assert [(n.line, n.section, n.text) for n in lines] == [
        (4, "Trimmed Context", "用户下周三要去上海出差，住在静安区"),
        (5, "Trimmed Context", "The user asked to keep answers short"),
        (8, "Daily Summary", "用户喜欢美式咖啡"),
    ]
    assert lines[0].ref == "memory/2026-11-29.md#L4"


def test_multiline_bullet_is_flattened_and_empty_rejected(root: MemoryRoot) -> None:
    path = note(root, at(29), "line one\n- injected bullet\n## injected heading")
    text = path.read_text(encoding="utf-8")
    assert text.count("\n## ") == 1 and text.count("\n- ") == 1
    with pytest.raises(ValueError):
        append_section(root, "Daily Summary", ["", "  "], now=at(29))


WRITERS, SECTIONS, BULLETS = 4, 15, 3


def _write_sections(root_path: str, writer: str) -> None:
    root = MemoryRoot.at(root_path)
    for s in range(SECTIONS):
        items = [f"writer {writer} section {s} bullet {b} " + "x" * 200 for b in range(BULLETS)]
        append_section(root, "Trimmed Context", items, now=at(29, 12, s))


def _check_concurrent_note(path: Path, writers: list[str]) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "# Daily Memory: 2026-11-29"
    assert sum(1 for line in lines if line.startswith("# Daily Memory")) == 1
    seen: set[tuple[str, int]] = set()
    i = 1
    while i < len(lines):
        assert lines[i] == "", f"line {i + 1}: {lines[i]!r}"
        assert re.fullmatch(r"## Trimmed Context \(12:\d\d\)", lines[i + 1])
        block = lines[i + 2 : i + 2 + BULLETS]
        first = re.match(r"- writer (\S+) section (\d+) bullet 0 x{200}$", block[0])
        assert first, block[0]
        writer, section = first.group(1), int(first.group(2))
        for b, line in enumerate(block):  # a section's bullets stay together, in order
            assert line == f"- writer {writer} section {section} bullet {b} " + "x" * 200
        seen.add((writer, section))
        i += 2 + BULLETS
    assert seen == {(w, s) for w in writers for s in range(SECTIONS)}


def test_concurrent_threads_and_processes_lose_nothing(root: MemoryRoot) -> None:
    threads = [
        threading.Thread(target=_write_sections, args=(str(root.path), f"t{n}"))
        for n in range(WRITERS)
    ]
    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=3, mp_context=ctx) as pool:
        futures = [pool.submit(_write_sections, str(root.path), f"p{n}") for n in range(WRITERS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for f in futures:
            f.result()
    writers = [f"t{n}" for n in range(WRITERS)] + [f"p{n}" for n in range(WRITERS)]
    _check_concurrent_note(root.daily_note(at(29).date()), writers)


def test_date_follows_the_configured_timezone(root: MemoryRoot) -> None:
    instant = datetime(2026, 11, 29, 16, 30, tzinfo=UTC)  # 00:30 on the 30th in Shanghai
    turns = [Turn("user", "我下周三要去上海出差，住在静安区的酒店")]
    in_shanghai = flush_turns(root, turns, "trim", model=None, now=instant.astimezone(SHANGHAI))
    in_utc = flush_turns(root, turns, "daily", model=None, now=instant)
    assert in_shanghai.path == root.path / "memory" / "2026-11-30.md"
    assert in_utc.path == root.path / "memory" / "2026-11-29.md"
    assert "## Trimmed Context (00:30)" in in_shanghai.path.read_text(encoding="utf-8")
    assert "## Daily Summary (16:30)" in in_utc.path.read_text(encoding="utf-8")
    assert "# Daily Memory: 2026-11-30" in in_shanghai.path.read_text(encoding="utf-8")
    shanghai_now = now_in("Asia/Shanghai")
    assert shanghai_now.utcoffset() == SHANGHAI.utcoffset(shanghai_now.replace(tzinfo=None))


SECRETS = {
    "openai key": (
        "我的 key 是 sk-proj-AbCdEf0123456789GhIjKlMn 记得用它部署服务",
        "sk-proj-AbCdEf0123456789",
    ),
    "bearer": (
        "The deploy script sends Authorization: Bearer eyJhbGciOiJIUzI1.abc.def123456",
        "eyJhbGciOiJIUzI1",
    ),
    "bearer plain": (
        "Use bearer Zm9vYmFyYmF6cXV4MTIzNDU2 for the staging gateway",
        "Zm9vYmFyYmF6cXV4MTIzNDU2",
    ),
    "password en": ("My NAS password: hunter2horse and the user is admin", "hunter2horse"),
    "password zh": ("我家路由器的密码是 Tp@889977 别告诉别人", "Tp@889977"),
    "pem": (
        "Server key below\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAsecretbody\n"
        "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=\n-----END RSA PRIVATE KEY-----\nkeep it safe",
        "MIIEowIBAAKCAQEAsecretbody",
    ),
    "telegram": (
        "我的 Telegram 机器人 token 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw 用于提醒",
        "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw",
    ),
}


@pytest.mark.parametrize("name", sorted(SECRETS))
def test_secrets_never_reach_a_daily_note(root: MemoryRoot, name: str) -> None:
    content, secret = SECRETS[name]
    turns = [Turn("user", content), Turn("assistant", f"Noted: {content}")]
    result = flush_turns(root, turns, "trim", model=None, now=at(29))
    assert result.path is not None, "the statement around the secret is worth a note"
    text = result.path.read_text(encoding="utf-8")
    assert secret not in text
    assert MASK in text


def test_secrets_are_redacted_in_model_summaries_and_requests(root: MemoryRoot, llm) -> None:

    key = "sk-live-ZZZZ0123456789abcdefYYYY"
    llm.json_reply({"bullets": [f"用户的部署 key 是 {key}", "用户的密码是 hunter2horse"]})
    model = llm.chat_model("fake", "k")
    turns = [Turn("user", f"部署用 {key}，密码是 hunter2horse")]
    result = flush_turns(root, turns, "daily", model=model, now=at(29))
    assert result.engine == "llm" and result.path is not None
    text = result.path.read_text(encoding="utf-8")
    assert key not in text and "hunter2horse" not in text
    sent = str(llm.requests)
    assert key not in sent and "hunter2horse" not in sent
