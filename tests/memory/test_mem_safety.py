"""Dream safety: skipping, --force, the hash, one dream per root, undo, --dry-run, --days,
and refusing a result that loses prior items."""

from __future__ import annotations

import json
import multiprocessing
import threading
from datetime import timedelta

import pytest
from mem_support import NOW, UTC, at, note, read, tree

from memory import clock
from memory.cli import main
from memory.daily_notes import parse_note
from memory.dream import DreamOptions, run_dream
from memory.dream.inputs import gather
from memory.dream.model import Proposal
from memory.dream.runner import check_accounting
from memory.dream.state import root_lock
from memory.errors import Busy, DreamRefused
from memory.memory_file import MemoryItem
from memory.paths import MemoryRoot
from memory.provenance import SourceRef
from tests.fakes.openai_server import api_error


def dream(root: MemoryRoot, **options: object):
    opts = DreamOptions(**{"days": 3, "engine": "extractive", **options})  # type: ignore[arg-type]
    return run_dream(root, opts, model=None, now=NOW)


def seed(root: MemoryRoot) -> None:
    note(root, at(28), "用户喜欢美式咖啡", "The user's sister Maria lives in Lisbon")
    note(root, at(29), "用户喜欢美式咖啡", "用户计划明年春天去日本京都旅行")


def test_skip_without_notes(root: MemoryRoot) -> None:
    note(root, at(20), "用户喜欢美式咖啡")  # too old for a 3-day window
    report = dream(root)
    assert report.status == "skipped" and "no daily notes" in report.reason
    assert not root.memory_md.exists()


def test_skip_when_unchanged_force_overrides(root: MemoryRoot) -> None:
    seed(root)
    assert dream(root).status == "done"
    memory = read(root.memory_md)
    again = dream(root)
    assert again.status == "skipped" and "unchanged" in again.reason
    forced = dream(root, force=True)
    assert forced.status == "done"
    assert read(root.memory_md) == memory
    note(root, at(29, 23, 57), "用户的儿子下个月开始学钢琴")
    assert dream(root).status == "done"  # new material: no skip


def test_hash_recorded_only_after_success(root: MemoryRoot, llm) -> None:

    seed(root)
    model = llm.chat_model("m", "k")
    opts = DreamOptions(days=3, engine="llm")
    llm.route = lambda request: api_error(500, "down")
    assert run_dream(root, opts, model=model, now=NOW).status == "failed"
    llm.route = None
    llm.json_reply(
        {"memory": [{"text": "用户喜欢美式咖啡", "sources": ["memory/2026-11-29.md#L4"]}]}
    )
    report = run_dream(root, opts, model=model, now=NOW)
    assert report.status == "done", report.reason
    assert run_dream(root, opts, model=model, now=NOW).status == "skipped"


def test_one_dream_per_root_thread(root: MemoryRoot) -> None:
    seed(root)
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with root_lock(root):
            held.set()
            release.wait(10)

    thread = threading.Thread(target=hold)
    thread.start()
    try:
        assert held.wait(10)
        with pytest.raises(Busy):
            dream(root)
    finally:
        release.set()
        thread.join()
    assert not root.memory_md.exists()
    assert dream(root).status == "done"


def _hold_lock(root_path: str, held, release) -> None:  # type: ignore[no-untyped-def]
    with root_lock(MemoryRoot.at(root_path)):
        held.set()
        release.wait(10)


def test_one_dream_per_root_process_cli_exit_2(root: MemoryRoot, capsys) -> None:
    now = clock.now(UTC)
    note(root, now, "用户喜欢美式咖啡", "The user's sister Maria lives in Lisbon")
    ctx = multiprocessing.get_context("fork")
    held, release = ctx.Event(), ctx.Event()
    child = ctx.Process(target=_hold_lock, args=(str(root.path), held, release))
    child.start()
    try:
        assert held.wait(10)
        code = main(["dream", "--workspace", str(root.path), "--timezone", "UTC"])
        assert code == 2
        err = capsys.readouterr().err
        assert "busy" in err and err.count("\n") == 1
        assert not root.memory_md.exists()
    finally:
        release.set()
        child.join(10)
    assert main(["dream", "--workspace", str(root.path), "--timezone", "UTC"]) == 0


def test_undo_restores_memory_and_archive_exactly(root: MemoryRoot, capsys) -> None:
    seed(root)
    root.memory_md.write_text("# MEMORY\n\n- 手写：用户的生日是五月三日  \n", encoding="utf-8")
    original = read(root.memory_md)
    assert dream(root).status == "done"
    first = (read(root.memory_md), read(root.archive))
    note(root, at(29, 23, 57), "用户改喝拿铁了", "用户最喜欢的城市是京都")
    assert dream(root, max_items=2).status == "done"
    assert (read(root.memory_md), read(root.archive)) != first
    ws = ["--workspace", str(root.path)]
    assert main(["undo", *ws]) == 0
    assert (read(root.memory_md), read(root.archive)) == first
    assert main(["undo", *ws]) == 0
    assert read(root.memory_md) == original and read(root.archive) is None
    capsys.readouterr()
    assert main(["undo", *ws]) == 2
    err = capsys.readouterr().err
    assert err.startswith("memory undo: error: nothing to undo") and err.count("\n") == 1
    assert dream(root).status == "done"  # undo clears the hash: the next dream runs


def test_dry_run_prints_diff_writes_nothing(root: MemoryRoot, capsys) -> None:
    now = clock.now(UTC)
    note(
        root, now - timedelta(days=1), "用户喜欢美式咖啡", "The user's sister Maria lives in Lisbon"
    )
    note(root, now, "用户喜欢美式咖啡")
    ws = ["--workspace", str(root.path), "--timezone", "UTC"]
    assert main(["dream", *ws]) == 0  # a real dream first, so there is a lock and state
    note(root, now, "用户计划明年春天去日本京都旅行")
    capsys.readouterr()
    before = tree(root.path)
    assert main(["dream", "--dry-run", *ws]) == 0
    out = capsys.readouterr().out
    assert "+++ b/MEMORY.md" in out and "+- 用户计划" in out and "去日本京都旅行" in out
    assert tree(root.path) == before


def test_dry_run_on_a_fresh_root_writes_nothing(root: MemoryRoot, capsys) -> None:
    note(root, clock.now(UTC), "用户喜欢美式咖啡")
    before = tree(root.path)
    ws = ["--workspace", str(root.path), "--timezone", "UTC", "--json"]
    assert main(["dream", "--dry-run", *ws]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "done" and "+- 用户喜欢美式咖啡" in out["diff"]
    after = tree(root.path)

    # the only trace allowed is the empty advisory lock file of the root lock
    def unlocked(files: dict[str, bytes]) -> dict[str, bytes]:
        return {k: v for k, v in files.items() if not k.endswith(".lock")}

    assert unlocked(after) == unlocked(before)
    assert all(after[k] == b"" for k in after.keys() - before.keys())


@pytest.mark.parametrize("days", ["0", "31", "abc", "-3", "2.5", ""])
def test_bad_days_exit_2(root: MemoryRoot, days: str, capsys) -> None:
    note(root, clock.now(UTC), "用户喜欢美式咖啡")
    before = tree(root.path)
    with pytest.raises(SystemExit) as exit_info:  # argparse's error: status 2, one line
        main(["dream", "--days", days, "--workspace", str(root.path), "--timezone", "UTC"])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "--days" in captured.err
    assert tree(root.path) == before


def test_library_refuses_bad_days(root: MemoryRoot) -> None:
    from memory.errors import UsageError

    seed(root)
    for days in (0, 31):
        with pytest.raises(UsageError):
            dream(root, days=days)
    assert not root.state_dir.joinpath("state.json").exists()


def test_proposal_losing_a_prior_item_is_refused(root: MemoryRoot) -> None:
    seed(root)
    root.memory_md.write_text(
        "# MEMORY\n\n- 用户喜欢美式咖啡 <!-- src: memory/2026-11-28.md#L4 -->\n"
        "- Maria lives in Lisbon <!-- src: memory/2026-11-28.md#L5 -->\n",
        encoding="utf-8",
    )
    inputs = gather(root, NOW.date(), DreamOptions(days=3))
    coffee, maria = inputs.prior
    kept = MemoryItem("用户爱喝美式咖啡", (SourceRef("memory/2026-11-29.md", 4, 4),))
    with pytest.raises(DreamRefused, match="lose 2 prior"):
        check_accounting(inputs, Proposal(keep=[kept]))
    with pytest.raises(DreamRefused, match="Maria"):
        check_accounting(inputs, Proposal(keep=[coffee, kept]))
    check_accounting(inputs, Proposal(keep=[coffee], archive=[(maria, "pruned")]))
    merged = MemoryItem("用户一直喜欢美式咖啡", coffee.sources + kept.sources)
    check_accounting(inputs, Proposal(keep=[merged], archive=[(maria, "overflow")]))
    assert parse_note(root, at(28).date())[0].text == "用户喜欢美式咖啡"
