"""``python -m memory flush``: rule-based and model summaries into today's daily note."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from mem_support import UTC, model_config, tree, write_jsonl

from memory import clock
from memory.cli import main
from memory.paths import MemoryRoot

CHAT = [
    {"role": "user", "content": "你好"},
    {"role": "assistant", "content": "你好！有什么可以帮你？"},
    {"role": "user", "content": "我下周三要去上海出差，住在静安区。"},
    {"role": "user", "content": "好的，谢谢"},
    {"role": "user", "content": "上海明天会下雨吗？"},
    {"role": "tool", "content": '{"weather": "rain", "temp": 12}'},
    {"role": "user", "content": '[tool result] {"status": "ok"}'},
    {"role": "user", "content": "I prefer short answers without emoji."},
    {"role": "user", "content": "ok thanks!"},
    {"role": "user", "content": "What time is it in Berlin?"},
]


def today_note(root: MemoryRoot) -> Path:
    return root.daily_note(clock.now(UTC).date())


def run(root: MemoryRoot, *args: str) -> int:
    return main([*args, "--workspace", str(root.path), "--timezone", "UTC"])


@pytest.mark.parametrize(
    ("reason", "title"),
    [
        ("trim", "Trimmed Context"),
        ("daily", "Daily Summary"),
        ("overflow", "Context Overflow Recovery"),
    ],
)
def test_rule_based_keeps_statements_drops_noise(
    root: MemoryRoot, tmp_path: Path, reason: str, title: str, capsys: pytest.CaptureFixture[str]
) -> None:
    transcript = write_jsonl(tmp_path / "chat.jsonl", CHAT)
    assert run(root, "flush", str(transcript), "--reason", reason, "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["engine"] == "rules"
    text = today_note(root).read_text(encoding="utf-8")
    assert f"\n## {title} (" in text
    kept = [line for line in text.splitlines() if line.startswith("- ")]
    assert kept == [
        "- 用户: 我下周三要去上海出差，住在静安区。",
        "- User: I prefer short answers without emoji.",
    ]
    assert out["bullets"] == [k[2:] for k in kept]


def test_nothing_worth_keeping_writes_nothing(root: MemoryRoot, tmp_path: Path) -> None:
    chatter = [row for row in CHAT if row["content"] in ("你好", "好的，谢谢", "ok thanks!")]
    chatter += [{"role": "user", "content": "上海明天会下雨吗？"}]
    transcript = write_jsonl(tmp_path / "chat.jsonl", chatter)
    assert run(root, "flush", str(transcript), "--reason", "trim") == 0
    assert not root.path.exists() or tree(root.path) == {}


def test_model_bullets_are_written(root: MemoryRoot, tmp_path: Path, llm) -> None:
    llm.json_reply(
        {"bullets": ["用户下周三去上海出差，住静安区", "- The user prefers short answers"]}
    )
    transcript = write_jsonl(tmp_path / "chat.jsonl", CHAT)
    config = model_config(tmp_path, llm.url)
    assert run(root, "flush", str(transcript), "--reason", "daily", "--config", str(config)) == 0
    text = today_note(root).read_text(encoding="utf-8")
    assert [line for line in text.splitlines() if line.startswith("- ")] == [
        "- 用户下周三去上海出差，住静安区",
        "- The user prefers short answers",
    ]
    assert "## Daily Summary (" in text
    assert len(llm.requests) == 1
    assert "静安区" in json.dumps(llm.requests[0]["messages"], ensure_ascii=False)


def test_model_empty_list_writes_nothing(root: MemoryRoot, tmp_path: Path, llm) -> None:
    llm.json_reply({"bullets": []})
    transcript = write_jsonl(tmp_path / "chat.jsonl", CHAT)
    config = model_config(tmp_path, llm.url)
    assert run(root, "flush", str(transcript), "--config", str(config)) == 0
    assert len(llm.requests) == 1
    assert not today_note(root).exists()


@pytest.mark.parametrize(
    "content",
    [
        '{"role": "user", "content": "fine"}\nnot json at all\n',
        '{"role": "robot", "content": "hi"}\n',
        '{"role": "user"}\n',
        '{"role": "user", "content": "x", "time": "yesterday"}\n',
        '["user", "hello"]\n',
    ],
)
def test_malformed_transcript_exit_2_writes_nothing(
    root: MemoryRoot, tmp_path: Path, content: str, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(content, encoding="utf-8")
    assert run(root, "flush", str(bad)) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("memory flush: error:") and "\n" not in err
    assert not root.path.exists() or tree(root.path) == {}


def test_flush_as_a_subprocess(root: MemoryRoot, tmp_path: Path) -> None:
    transcript = write_jsonl(tmp_path / "chat.jsonl", CHAT)
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    repo = Path(__file__).resolve().parents[2]
    env["PYTHONPATH"] = str(repo)

    def flush(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "memory", "flush", *args, "--workspace", str(root.path)],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=60,
            check=False,
        )

    done = flush(str(transcript), "--reason", "overflow", "--timezone", "UTC", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["path"] == str(today_note(root))
    text = today_note(root).read_text(encoding="utf-8")
    assert "## Context Overflow Recovery (" in text and "静安区" in text
    missing = flush(str(tmp_path / "nope.jsonl"))
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1
