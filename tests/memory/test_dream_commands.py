"""The dreaming commands: dream --json phase counts, rem-harness writes nothing,
rem-backfill and both rollbacks restore exactly, status --deep, recording searches."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from mem_support import NOW, SHANGHAI, at, note, read, tree

from memory.cli import main
from memory.paths import MemoryRoot
from memory.recall_store import read_recalls, store_path


@pytest.fixture(autouse=True)
def fixed_now(monkeypatch: pytest.MonkeyPatch) -> None:
    from memory import clock

    monkeypatch.setattr(clock, "now", lambda tz=None: NOW.astimezone(tz or SHANGHAI))


def run(root: MemoryRoot, capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    code = main([*args, "--workspace", str(root.path), "--timezone", "Asia/Shanghai", "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)


def seed(root: MemoryRoot) -> None:
    note(root, at(27), "用户喜欢美式咖啡", "用户的女儿叫小雨", "好的，谢谢")
    note(root, at(28), "用户喜欢美式咖啡，不加糖", "The user's sister Maria lives in Lisbon")
    note(root, at(29), "用户还是喜欢美式咖啡", "用户计划明年春天去京都旅行")


def checksum(path: Path) -> str:
    digest = hashlib.sha256()
    for name, data in sorted(tree(path).items()):
        digest.update(name.encode() + b"\0" + data + b"\0")
    return digest.hexdigest()


def test_dream_json_reports_each_phase(root: MemoryRoot, capsys) -> None:
    seed(root)
    data = run(root, capsys, "dream", "--engine", "extractive")
    for key in (
        "status",
        "reason",
        "items",
        "added",
        "merged",
        "superseded",
        "archived",
        "rejected",
        "diary",
        "phases",
    ):
        assert key in data
    assert set(data["phases"]) == {"light", "rem", "deep"}
    assert set(data["phases"]["light"]) == {"candidates", "staged"}
    assert set(data["phases"]["rem"]) == {"themes", "truths"}
    assert set(data["phases"]["deep"]) == {"ranked", "promoted"}
    assert data["phases"]["light"]["candidates"] == 4  # coffee merged, chatter dropped
    assert data["phases"]["rem"]["truths"] >= 1  # coffee, on three days
    for phase in ("light", "rem", "deep"):
        assert root.phase_report(phase, NOW.date()).is_file()
    diary = read(root.diary(NOW.date())) or ""
    assert "浅睡" in diary and "快速眼动" in diary and "深睡" in diary  # in the notes' language
    skipped = run(root, capsys, "dream", "--engine", "extractive")
    assert skipped["status"] == "skipped" and set(skipped["phases"]) == {"light", "rem", "deep"}


def test_rem_harness_writes_nothing(root: MemoryRoot, tmp_path: Path, capsys) -> None:
    seed(root)
    run(root, capsys, "dream", "--engine", "extractive")
    before = checksum(root.path)
    data = run(root, capsys, "rem-harness", "--days", "3")
    assert set(data) == {"light", "rem", "deep"}
    assert set(data["light"]) == {"candidates"} and set(data["rem"]) == {"themes", "truths"}
    assert data["light"]["candidates"] and data["deep"]["candidates"]
    assert set(data["light"]["candidates"][0]) == {
        "key",
        "text",
        "refs",
        "first_seen",
        "last_seen",
        "days",
        "recall_count",
        "unique_queries",
        "confidence",
        "status",
    }
    assert "passes" in data["deep"]["candidates"][0]
    assert checksum(root.path) == before
    # a folder of notes elsewhere, and a fresh root without any bookkeeping yet
    elsewhere = tmp_path / "old-notes"
    elsewhere.mkdir()
    (elsewhere / "2025-03-01.md").write_text(
        "# Daily Memory: 2025-03-01\n\n## Daily Summary (23:55)\n- The user keeps bees\n",
        encoding="utf-8",
    )
    fresh = MemoryRoot.at(tmp_path / "fresh")
    fresh.path.mkdir()
    untouched = checksum(fresh.path)
    preview = run(fresh, capsys, "rem-harness", "--path", str(elsewhere))
    (bees,) = preview["light"]["candidates"]
    assert bees["text"] == "The user keeps bees" and bees["refs"][0].endswith("2025-03-01.md#L4")
    assert checksum(fresh.path) == untouched and not any(fresh.path.iterdir())


def watched(root: MemoryRoot) -> dict[str, bytes]:
    """The recall store (recalls and staged candidates) and the diaries."""
    out = {k: v for k, v in tree(root.path).items() if k.startswith("memory/dreams/")}
    for name in ("recalls.jsonl", "short-term.json"):
        path = root.state_dir / name
        out[name] = path.read_bytes() if path.exists() else b"<absent>"
    return out


def test_backfill_then_both_rollbacks_restore_exactly(root: MemoryRoot, capsys) -> None:
    seed(root)
    run(root, capsys, "dream", "--engine", "extractive")  # a diary and a store exist already
    history = root.path / "memory" / "history"
    history.mkdir()
    for day, lines in ((3, ["用户那时住在杭州", "用户养了一只橘猫"]), (4, ["用户养了一只橘猫"])):
        (history / f"2026-10-0{day}.md").write_text(
            f"# Daily Memory: 2026-10-0{day}\n\n## Daily Summary (23:55)\n"
            + "".join(f"- {line}\n" for line in lines),
            encoding="utf-8",
        )
    # the diary of the 29th already exists; back-fill it too (no trailing newline case)
    (history / "2026-11-29.md").write_text("- 用户喜欢爬山", encoding="utf-8")
    before = watched(root)
    filled = run(root, capsys, "rem-backfill", "--path", str(history), "--stage-short-term")
    assert filled["days"] == 3 and filled["entries"] == 3 and filled["staged"] >= 3
    diary = read(root.diary(datetime_day(10, 3))) or ""
    assert "<!-- backfill -->" in diary and "memory/history/2026-10-03.md#L4" in diary
    assert "<!-- backfill -->" in (read(root.diary(NOW.date())) or "")
    status = run(root, capsys, "status", "--deep")
    assert status["dreaming"]["short_term"]["backfill"] == filled["staged"]
    assert watched(root) != before
    assert run(root, capsys, "rem-backfill", "--rollback")["removed_entries"] == 3
    removed = run(root, capsys, "rem-backfill", "--rollback-short-term")
    assert removed["removed_candidates"] == filled["staged"]
    assert watched(root) == before
    assert not (root.state_dir / "backfill.json").exists()


def datetime_day(month: int, day: int):  # type: ignore[no-untyped-def]
    from datetime import date

    return date(2026, month, day)


@pytest.mark.parametrize(
    "args, message",
    [
        (["rem-backfill"], "exactly one of"),
        (["rem-backfill", "--rollback", "--rollback-short-term"], "exactly one of"),
        (["rem-backfill", "--rollback", "--stage-short-term"], "goes with --path"),
        (["rem-backfill", "--path", "/etc"], "inside the memory root"),
        (["rem-harness", "--path", "/nonexistent-folder"], "not a folder"),
    ],
)
def test_bad_arguments_exit_2_and_write_nothing(
    root: MemoryRoot, capsys, args: list[str], message: str
) -> None:
    seed(root)
    before = tree(root.path)
    assert main([*args, "--workspace", str(root.path)]) == 2
    assert message in capsys.readouterr().err
    assert tree(root.path) == before


def test_status_deep_reports_dreaming_and_the_index(
    root: MemoryRoot, tmp_path: Path, capsys
) -> None:
    seed(root)
    config = tmp_path / "config.json"
    config.write_text('{"embedding_provider": "none"}', encoding="utf-8")
    assert main(["index", "--workspace", str(root.path), "--config", str(config)]) == 0
    capsys.readouterr()
    run(root, capsys, "dream", "--engine", "extractive")
    data = run(root, capsys, "status", "--deep", "--config", str(config))
    dreaming = data["dreaming"]
    assert set(dreaming) >= {
        "enabled",
        "next_run",
        "phases",
        "short_term",
        "signals",
        "promoted_today",
    }
    assert dreaming["enabled"] is True and dreaming["next_run"].startswith("2026-11-30T23:55")
    assert set(dreaming["phases"]) == {"light", "rem", "deep"}
    assert dreaming["short_term"]["staged"] >= 1 and dreaming["signals"]["light"] >= 1
    assert data["index"]["chunks"] >= 1
    assert main(["status", "--deep", "--workspace", str(root.path), "--config", str(config)]) == 0
    text = capsys.readouterr().out
    assert "{" not in text and "search index:" in text and "chunks in" in text
    assert "light:" in text and "short-term store:" in text


def test_search_records_recalls_unless_told_not(root: MemoryRoot, tmp_path: Path, capsys) -> None:
    seed(root)
    base = ["--workspace", str(root.path), "--provider", "none", "--json"]
    assert main(["search", "美式咖啡", *base]) == 0
    capsys.readouterr()
    recorded = read_recalls(root).recalls
    assert recorded and all(r.via == "cli" and r.query == "美式咖啡" for r in recorded)
    size = store_path(root).stat().st_size
    assert main(["search", "美式咖啡", "--no-record", *base]) == 0
    batch = tmp_path / "queries.txt"
    batch.write_text("美式咖啡\n京都\n", encoding="utf-8")
    assert main(["search", "--batch", str(batch), *base]) == 0
    capsys.readouterr()
    assert store_path(root).stat().st_size == size


def test_status_deep_counts_the_vectors_index_made(
    root: MemoryRoot, tmp_path: Path, capsys
) -> None:
    seed(root)
    config = tmp_path / "config.json"
    config.write_text('{"embedding_provider": "local"}', encoding="utf-8")
    indexed = run_plain(["index", "--workspace", str(root.path), "--config", str(config)], capsys)
    status = run(root, capsys, "status", "--deep", "--config", str(config))
    assert indexed["vectors"] > 0 and status["index"]["vectors"] == indexed["vectors"]
    assert main(["status", "--deep", "--workspace", str(root.path), "--config", str(config)]) == 0
    assert f"vectors {indexed['vectors']} (local, ready)" in capsys.readouterr().out


def run_plain(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)
