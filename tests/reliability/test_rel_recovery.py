"""A crashed commit is finished before anything reads the root: at the bot's start, on
every message, in status and search; the text status says a recovery ran. Bookkeeping
that cannot be trusted (an empty or hostile manifest) is set aside, never fatal."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from bot_support import BotFactory, owner

from memory.cli import main
from memory.dream import DreamOptions, run_dream
from memory.forget import apply_forget, plan_forget
from memory.history import undo
from memory.paths import MemoryRoot
from memory.recovery import ensure_recovered, pending
from tests.memory.mem_support import NOW, at, copy_root, note, read

OPTIONS = DreamOptions(days=3, engine="extractive")


class Crash(BaseException):
    """Stands for the process dying where nothing can catch it."""


def _crash_at(point: str):  # type: ignore[no-untyped-def]
    def fault(where: str) -> None:
        if where == point:
            raise Crash(where)

    return fault


def seed(root: MemoryRoot) -> None:
    """A root whose next dream supersedes one item (MEMORY.md and archive both change)."""
    note(root, at(27), "用户最喜欢拿铁", "The user's sister Maria lives in Lisbon")
    assert run_dream(root, OPTIONS, model=None, now=at(27, 23, 58)).status == "done"
    note(root, at(29), "用户改喝美式了", "The user plays tennis every Saturday")


def files(root: MemoryRoot) -> tuple[str | None, ...]:
    return (read(root.memory_md), read(root.archive), read(root.diary(NOW.date())))


def crashed_between_moves(root: MemoryRoot) -> tuple[str | None, ...]:
    """Kill a dream after MEMORY.md moved, before the archive did; the files it meant."""
    reference = copy_root(root, root.path.parent / f"{root.path.name}-reference")
    assert run_dream(reference, OPTIONS, model=None, now=NOW).status == "done"
    with pytest.raises(Crash):
        run_dream(root, OPTIONS, model=None, now=NOW, fault=_crash_at("moved MEMORY.md"))
    assert files(root)[0] == files(reference)[0] and files(root)[1] != files(reference)[1]
    return files(reference)


def test_status_recovers_first_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    root = MemoryRoot.at(tmp_path / "root")
    seed(root)
    new = crashed_between_moves(root)
    assert main(["status", "--workspace", str(root.path)]) == 0
    text = capsys.readouterr().out
    assert "recovered at" in text and "finished an interrupted commit" in text
    assert files(root) == new
    assert main(["status", "--workspace", str(root.path), "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["archive_items"] == 1 and not status["pending_recovery"]
    # a dream's commit: MEMORY.md, archive, diary, phase reports, stores, state, snapshot,
    # the tiers
    assert status["last_recovery"]["actions"] == ["finished an interrupted commit (13 file(s))"]


def test_search_recovers_first(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    root = MemoryRoot.at(tmp_path / "root")
    seed(root)
    new = crashed_between_moves(root)
    args = ["search", "拿铁", "--workspace", str(root.path), "--provider", "none", "--json"]
    assert main(args) == 0
    assert files(root) == new
    hits = json.loads(capsys.readouterr().out)
    assert any(h["path"] == "memory/archive.md" for h in hits)


def test_the_bot_recovers_at_start_and_before_each_message(
    make_bot: BotFactory, tmp_path: Path
) -> None:
    workspace = MemoryRoot.at(tmp_path / "ws")
    seed(workspace)
    new = crashed_between_moves(workspace)
    bot, _ = make_bot()
    assert files(workspace) == new  # at start, before any message
    # A dream in another process dies mid-commit while the bot runs.
    note(workspace, at(29, 23, 56), "The user now plays squash on Sundays")
    with pytest.raises(Crash):
        run_dream(workspace, OPTIONS, model=None, now=NOW, fault=_crash_at("moved MEMORY.md"))
    assert pending(workspace)
    (status,) = bot.handle(owner("/memory status"))
    assert not pending(workspace)
    assert "Recovered at " in status and "finished an interrupted commit" in status
    assert "squash" in (read(workspace.memory_md) or "")


@pytest.mark.parametrize(
    "manifest",
    [
        "",
        "{not json",
        '{"target": "MEMORY.md"}',
        '[{"target": "../../outside.md", "data": "0.data"}]',
        '[{"target": "MEMORY.md", "data": "../../../outside.md"}]',
        '[{"target": "MEMORY.md", "data": null, "lock": 5}]',
    ],
)
def test_a_manifest_that_cannot_be_trusted_is_set_aside(
    tmp_path: Path, manifest: str, caplog: pytest.LogCaptureFixture
) -> None:
    root = MemoryRoot.at(tmp_path / "root")
    seed(root)
    before = files(root)
    outside = tmp_path / "outside.md"
    outside.write_text("not memory\n", encoding="utf-8")
    commit = root.state_dir / "commit"
    commit.mkdir()
    (commit / "manifest.json").write_text(manifest, encoding="utf-8")
    (commit / "0.data").write_text("- injected\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        actions = ensure_recovered(root)
    assert len(actions) == 1 and actions[0].startswith("set aside a commit that cannot be trusted")
    assert files(root) == before and outside.read_text(encoding="utf-8") == "not memory\n"
    assert (root.state_dir / "commit.broken-1" / "manifest.json").exists()
    assert sum("set aside" in r.getMessage() for r in caplog.records) == 1
    # Dreams, undo and forget work again.
    assert run_dream(root, OPTIONS, model=None, now=NOW).status == "done"
    assert undo(root).startswith("undone")
    assert apply_forget(root, plan_forget(root, "Lisbon")) >= 1


def test_every_command_survives_an_empty_manifest(tmp_path: Path) -> None:
    root = MemoryRoot.at(tmp_path / "root")
    seed(root)
    (root.state_dir / "commit").mkdir()
    (root.state_dir / "commit" / "manifest.json").write_text("", encoding="utf-8")
    assert run_dream(root, OPTIONS, model=None, now=NOW).status == "done"


def test_lines_appended_after_a_crashed_forget_survive_its_recovery(tmp_path: Path) -> None:
    root = MemoryRoot.at(tmp_path / "root")
    seed(root)
    path = root.daily_note(at(29).date())
    with pytest.raises(Crash):
        apply_forget(root, plan_forget(root, "美式"), fault=_crash_at("committed"))
    assert "美式" in path.read_text(encoding="utf-8")  # not moved yet
    note(root, at(29, 23, 57), "The user started learning the violin")
    assert ensure_recovered(root) == ["finished an interrupted commit (1 file(s))"]
    text = path.read_text(encoding="utf-8")
    assert "美式" not in text and "- [forgotten]" in text
    assert text.endswith("## Daily Summary (23:57)\n- The user started learning the violin\n")
