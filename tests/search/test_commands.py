import argparse
import json
from pathlib import Path

import pytest

from memory.paths import MemoryRoot
from memory.search.commands import register


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="memory")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


def test_index_then_search_json(root: MemoryRoot, capsys: pytest.CaptureFixture[str]) -> None:
    ws = str(root.path)
    assert run(["index", "--workspace", ws, "--provider", "none", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["chunks"] > 0 and report["provider"] == "none"
    assert (
        run(
            [
                "search",
                "上海出差",
                "--workspace",
                ws,
                "--provider",
                "none",
                "--json",
                "--now",
                "2026-11-30",
                "--limit",
                "2",
            ]
        )
        == 0
    )
    hits = json.loads(capsys.readouterr().out)
    assert 1 <= len(hits) <= 2 and hits[0]["path"] == "memory/2026-11-28.md"


def test_batch_prints_one_array_per_query(
    root: MemoryRoot, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    batch = tmp_path / "queries.txt"
    batch.write_text("上海出差\n\nECONNREFUSED\nzzzqqq\n", "utf-8")
    assert (
        run(["search", "--batch", str(batch), "--workspace", str(root.path), "--provider", "none"])
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4  # one line per input line, the blank one included
    first, blank, second, third = (json.loads(line) for line in lines)
    assert "静安区" in first[0]["snippet"]
    assert blank == []
    assert "ECONNREFUSED" in second[0]["snippet"]
    assert third == []


def test_human_output(root: MemoryRoot, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["search", "游泳", "--workspace", str(root.path), "--provider", "none"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("memory/2026-10-01.md#L5-L6")


def test_config_file_selects_provider(
    root: MemoryRoot, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"embedding_provider": "none"}), "utf-8")
    assert run(["index", "--workspace", str(root.path), "--config", str(config), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["provider"] == "none"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["search", "--workspace", "{ws}"], "give either QUERY or --batch FILE"),
        (["search", "x", "--workspace", "{ws}/nope"], "workspace is not a directory"),
        (["search", "x", "--workspace", "{ws}", "--batch", "{ws}/none.txt"], "give either"),
        (["search", "--batch", "{ws}/none.txt", "--workspace", "{ws}"], "cannot read batch file"),
        (["index", "--workspace", "{ws}", "--config", "{ws}/MEMORY.md"], "not valid JSON"),
        (["search", "x", "--workspace", "{ws}", "--provider", "openai"], "unavailable"),
    ],
)
def test_errors_exit_2_with_one_line(
    root: MemoryRoot, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert run([a.replace("{ws}", str(root.path)) for a in argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize("bad", [["--limit", "0"], ["--now", "yesterday"], ["--min-score", "x"]])
def test_bad_arguments_exit_2(root: MemoryRoot, bad: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        run(["search", "x", "--workspace", str(root.path), *bad])
    assert exc.value.code == 2


def test_eval_on_a_tiny_dataset(
    root: MemoryRoot, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (root.path / "qa.jsonl").write_text(
        json.dumps(
            {
                "qid": "1",
                "question": "上海出差住在哪",
                "answer": "静安区",
                "evidence": [{"file": "memory/2026-11-28.md", "line": 5}],
            }
        )
        + "\n"
        + json.dumps({"qid": "2", "question": "no evidence", "evidence": []})
        + "\n",
        "utf-8",
    )
    (root.path / "last_date").write_text("2026-11-30\n")
    assert (
        run(["eval", str(root.path), "--provider", "none", "--json", "--work", str(tmp_path / "w")])
        == 0
    )
    result = json.loads(capsys.readouterr().out)[str(root.path)]
    assert result["questions"] == 1 and result["recall@5"] == 1.0 and result["shown@5"] == 1.0
