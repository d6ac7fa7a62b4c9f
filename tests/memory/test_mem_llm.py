"""The LLM Deep Dream through a real OpenAI-compatible HTTP server on 127.0.0.1."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from mem_support import NOW, UTC, at, generated, model_config, note, read, tree

from memory import clock
from memory.cli import main
from memory.dream import DreamOptions, run_dream
from memory.dream.state import load_state
from memory.paths import MemoryRoot
from tests.fakes.openai_server import FakeOpenAI, api_error, completion

FABRICATED = "用户养了一只叫旺财的金毛犬"
MISSING_LINE = "The user's brother Tom works at Google"
OUTSIDE = "用户的车是白色特斯拉"
PRIOR = (
    "# MEMORY\n\n## 偏好\n"
    "- 用户最喜欢拿铁 <!-- src: memory/2026-11-27.md#L4 -->\n"
    "- 用户每周六打网球 <!-- src: memory/2026-11-27.md#L5 -->\n"
    "- 用户的生日是五月三日\n"
)


def dream(root: MemoryRoot, llm: FakeOpenAI, **options: object):
    opts = DreamOptions(**{"days": 3, "engine": "llm", **options})  # type: ignore[arg-type]
    return run_dream(root, opts, model=llm.chat_model("fake-model"), now=NOW)


def seed(root: MemoryRoot) -> None:
    note(root, at(10), OUTSIDE)  # outside the 3-day window
    note(root, at(27), "用户最喜欢拿铁", "用户每周六打网球")
    note(root, at(28), "用户喜欢美式咖啡", "The user's sister Maria lives in Lisbon")
    note(root, at(29), "用户喜欢美式咖啡", "用户计划明年春天去日本京都旅行", "用户改喝美式了")
    root.memory_md.write_text(PRIOR, encoding="utf-8")


GOOD = [
    {"text": "用户喜欢美式咖啡", "sources": ["memory/2026-11-28.md#L4", "memory/2026-11-29.md#L4"]},
    {"text": "The user's sister Maria lives in Lisbon", "sources": ["memory/2026-11-28.md#L5"]},
    {"text": "用户计划明年春天去京都旅行", "sources": ["memory/2026-11-29.md#L5"]},
    {"text": "用户改喝美式了", "sources": ["memory/2026-11-29.md#L6"]},
    {"text": "用户每周六打网球", "sources": ["MEMORY.md#L5"]},
]
BAD = [
    {"text": FABRICATED, "sources": ["memory/2026-11-29.md#L4"]},
    {"text": MISSING_LINE, "sources": ["memory/2026-11-29.md#L999"]},
    {"text": OUTSIDE, "sources": ["memory/2026-11-10.md#L4"]},
]


def test_grounded_items_written_ungrounded_rejected(root: MemoryRoot, llm) -> None:
    seed(root)
    llm.json_reply({"memory": GOOD + BAD, "diary": "合并了咖啡偏好，拿铁被美式取代。"})
    report = dream(root, llm)
    assert report.status == "done", report.reason
    assert report.engine == "llm"
    assert report.rejected == 3
    items = {text: [str(r) for r in refs] for text, refs, _ in generated(root.memory_md)}
    assert items == {
        "用户喜欢美式咖啡": ["memory/2026-11-28.md#L4", "memory/2026-11-29.md#L4"],
        "The user's sister Maria lives in Lisbon": ["memory/2026-11-28.md#L5"],
        "用户计划2027年春天去京都旅行": ["memory/2026-11-29.md#L5"],
        "用户改喝美式了": ["memory/2026-11-29.md#L6"],
        # a MEMORY.md citation becomes the prior item's own sources
        "用户每周六打网球": ["memory/2026-11-27.md#L5"],
    }
    assert "- 用户的生日是五月三日" in root.memory_md.read_text(encoding="utf-8").splitlines()
    archive = root.archive.read_text(encoding="utf-8")
    memory = root.memory_md.read_text(encoding="utf-8")
    everything = "".join(data.decode("utf-8", "replace") for data in tree(root.path).values())
    diary = (root.path / "memory/dreams/2026-11-29.md").read_text(encoding="utf-8")
    history = everything.replace(diary, "")
    for text in (FABRICATED, MISSING_LINE, OUTSIDE):
        assert text not in memory and text not in archive
        assert f"“{text}”" in diary  # the diary names what it rejected
    for text in (FABRICATED, MISSING_LINE):
        assert text not in history  # nowhere else: not in the undo history either
    # the prior item the model left out is superseded by the newer statement, not lost
    assert {t: f["reason"] for t, _, f in generated(root.archive)} == {
        "用户最喜欢拿铁": "superseded"
    }
    assert "拒绝：3 条" in diary and "合并了咖啡偏好" in diary
    assert "memory/2026-11-29.md#L999" in diary
    # the model saw labelled lines and the prior items, and never the hand-written ones as items
    prompt = llm.requests[0]["messages"][1]["content"]
    assert "memory/2026-11-29.md#L6: 用户改喝美式了" in prompt
    assert "MEMORY.md#L4: 用户最喜欢拿铁" in prompt
    assert llm.requests[0]["response_format"] == {"type": "json_object"}


def test_left_out_prior_items_are_pruned(root: MemoryRoot, llm) -> None:
    seed(root)
    llm.json_reply({"memory": [GOOD[2]], "diary": ""})
    report = dream(root, llm)
    assert report.status == "done"
    reasons = {t: f["reason"] for t, _, f in generated(root.archive)}
    assert reasons == {"用户最喜欢拿铁": "pruned", "用户每周六打网球": "pruned"}
    assert [t for t, _, _ in generated(root.memory_md)] == ["用户计划2027年春天去京都旅行"]


def _unchanged(root: MemoryRoot) -> dict[str, str | None]:
    return {
        "memory": read(root.memory_md),
        "archive": read(root.archive),
        "diary": read(root.path / "memory/dreams/2026-11-29.md"),
        "last_success": json.dumps(load_state(root).get("last_success")),
    }


@pytest.mark.parametrize(
    "answer",
    [
        api_error(500, "upstream exploded"),
        completion("Sure! Here is your memory: coffee."),
        completion(json.dumps({"items": []})),
        completion(json.dumps({"memory": [{"text": 3, "sources": []}]})),
    ],
    ids=["http500", "not-json", "no-memory-list", "bad-entry"],
)
def test_model_error_changes_nothing(root: MemoryRoot, llm, answer) -> None:
    seed(root)
    llm.json_reply({"memory": GOOD, "diary": "first"})
    assert dream(root, llm).status == "done"
    note(root, at(29, 23, 57), "用户下个月搬到杭州")
    before = _unchanged(root)
    history = sorted(p.name for p in (root.state_dir / "history").iterdir())
    llm.route = lambda request: answer
    report = dream(root, llm)
    assert report.status == "failed"
    assert report.reason
    assert _unchanged(root) == before
    assert sorted(p.name for p in (root.state_dir / "history").iterdir()) == history
    assert load_state(root)["last_run"]["status"] == "failed"


def _today_notes(root: MemoryRoot) -> None:
    now = clock.now(UTC)
    note(root, now - timedelta(days=1), "用户喜欢美式咖啡", "The user prefers short answers")
    note(root, now, "用户喜欢美式咖啡")


def run_cli(root: MemoryRoot, *args: str) -> int:
    return main(["dream", "--workspace", str(root.path), "--timezone", "UTC", "--json", *args])


def test_cli_model_failure_exit_1(root: MemoryRoot, tmp_path: Path, llm, capsys) -> None:
    _today_notes(root)
    llm.route = lambda request: api_error(500, "boom")
    config = model_config(tmp_path, llm.url)
    assert run_cli(root, "--config", str(config)) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "failed" and out["engine"] == "llm" and "500" in out["reason"]
    assert not root.memory_md.exists() and not root.archive.exists()
    assert not (root.path / "memory/dreams").exists()
    assert "sk-test-0123456789abcdef" not in (root.state_dir / "events.jsonl").read_text()


def test_auto_picks_llm_when_configured(root: MemoryRoot, tmp_path: Path, llm, capsys) -> None:
    _today_notes(root)
    today = clock.now(UTC).date().isoformat()
    llm.json_reply(
        {
            "memory": [{"text": "用户喜欢美式咖啡", "sources": [f"memory/{today}.md#L4"]}],
            "diary": "ok",
        }
    )
    assert run_cli(root, "--engine", "auto", "--config", str(model_config(tmp_path, llm.url))) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["engine"] == "llm" and out["status"] == "done"
    # the deep phase's question, then the REM phase's wording of its lasting truths
    assert [r["messages"][0]["content"].split(".")[0] for r in llm.requests] == [
        "You are the Deep Dream of a chat bot's long-term memory",
        "You are the REM phase of a chat bot's memory",
    ]


def test_auto_picks_extractive_without_model(root: MemoryRoot, tmp_path: Path, llm, capsys) -> None:
    _today_notes(root)
    empty = tmp_path / "empty.json"
    empty.write_text("{}", encoding="utf-8")
    assert run_cli(root, "--engine", "auto", "--config", str(empty)) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["engine"] == "extractive" and out["status"] == "done"
    assert llm.requests == []
    assert run_cli(root, "--engine", "llm", "--force") == 2
    assert "needs a model" in capsys.readouterr().err


def test_long_notes_never_push_the_memory_items_out_of_the_prompt(root: MemoryRoot) -> None:
    from memory.dream.inputs import gather
    from memory.dream.llm_engine import MAX_INPUT_CHARS, render_inputs

    root.path.mkdir(parents=True, exist_ok=True)
    root.memory_md.write_text(
        "# MEMORY\n\n- 用户对花生过敏 <!-- src: memory/2026-11-01.md#L4 -->\n", encoding="utf-8"
    )
    for day in (27, 28, 29):
        note(
            root,
            at(day),
            *[f"第{day}天的第{n}条笔记，内容比较长一些以便超过预算" * 3 for n in range(300)],
        )
    inputs = gather(root, NOW.date(), DreamOptions(days=3))
    text = render_inputs(inputs)
    assert len(text) <= MAX_INPUT_CHARS
    assert "MEMORY.md#L3: 用户对花生过敏" in text
    assert "第29天的第299条" in text  # the newest notes stay
    assert "第27天的第0条" not in text  # the oldest go first
