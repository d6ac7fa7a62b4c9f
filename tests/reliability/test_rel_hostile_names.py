"""A table of hostile chat names and inputs fed to the real bot and the command line:
every chat gets a folder of its own inside the workspace, every bad input one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bot_support import BotFactory, group, owner, private
from test_rel_scopes import HOSTILE_IDS

from memory.cli import main
from tests.memory.mem_support import write_jsonl


def test_hostile_chat_names_each_get_their_own_memory(make_bot: BotFactory) -> None:
    bot, _ = make_bot()
    chats = [("wechat", chat, True) for chat in HOSTILE_IDS]
    chats += [("telegram", chat, False) for chat in HOSTILE_IDS[:4]]
    roots = {}
    for number, (platform, chat, is_group) in enumerate(chats):
        text = f"the code word of chat {number} is zebra{number}x"
        message = group(platform, chat, "u1", text) if is_group else private(platform, chat, text)
        bot.handle(message)
        bot.conversations.flush(message.scope, bot.clock())
        roots[number] = bot.services.scopes.root_for(message.scope)
    workspace = bot.services.scopes.workspace
    assert len({r.path for r in roots.values()}) == len(chats)
    for number, root in roots.items():
        assert workspace / "scopes" in root.path.parents  # never outside, never the owner's
        notes = "".join(p.read_text(encoding="utf-8") for p in root.notes_dir.glob("*.md"))
        assert f"zebra{number}x" in notes
        others = [f"zebra{n}x" for n in roots if n != number]
        assert not any(o in notes for o in others), number
    index = json.loads((workspace / "scopes" / "index.json").read_text(encoding="utf-8"))
    assert len({v["folder"] for v in index.values()}) == len(index)


HOSTILE_COMMANDS = [
    "/memory dream 99999999999999999999999",
    "/memory dream -1",
    "/memory dream 1e3",
    "/memory forget a",
    "/memory forget " + "*" * 5000,
    "/memory search \x00\x00",
    "/memory undo now please",
    "/memory status " + "x" * 3000,
    "/dreaming " + "on" * 1000,
    "/memory " + "\u202e" * 50,
    "/MEMORY DREAM 0",
]


@pytest.mark.parametrize("text", HOSTILE_COMMANDS)
def test_hostile_chat_commands_get_one_short_line(make_bot: BotFactory, text: str) -> None:
    bot, _ = make_bot()
    (reply,) = bot.handle(owner(text))
    assert reply and len(reply) < 400, reply
    assert not reply.startswith("Dream started")


def _cli_cases(tmp: Path) -> list[list[str]]:
    ws = str(tmp / "ws")
    bad_jsonl = tmp / "bad.jsonl"
    bad_jsonl.write_bytes(b'{"role": "user", "content": "\xff"}\n{not json\n')
    deep = tmp / "deep.jsonl"
    deep.write_text("[" * 50_000 + "]" * 50_000 + "\n", encoding="utf-8")
    a_file = tmp / "a-file"
    a_file.write_text("x", encoding="utf-8")
    return [
        ["dream", "--workspace", ws, "--days", "1e9"],
        ["dream", "--workspace", ws, "--days", "-3"],
        ["dream", "--workspace", str(tmp / "missing")],
        ["dream", "--workspace", str(a_file)],
        ["flush", str(bad_jsonl), "--workspace", ws],
        ["flush", str(deep), "--workspace", ws],
        ["flush", str(tmp / "missing.jsonl"), "--workspace", ws],
        ["forget", "x", "--workspace", ws, "--yes"],
        ["status", "--workspace", ws, "--timezone", "Mars/Olympus"],
        ["dream", "--workspace", ws, "--config", str(bad_jsonl)],
    ]


def test_hostile_command_lines_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    (tmp_path / "ws" / "memory").mkdir(parents=True)
    write_jsonl(tmp_path / "ok.jsonl", [{"role": "user", "content": "hi"}])
    before = sorted(p.relative_to(tmp_path).as_posix() for p in (tmp_path / "ws").rglob("*"))
    for args in _cli_cases(tmp_path):
        code = _run(args)
        err = capsys.readouterr().err
        assert code == 2, (args, err)
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, (args, err)
    after = sorted(p.relative_to(tmp_path).as_posix() for p in (tmp_path / "ws").rglob("*"))
    assert after == before


def _run(args: list[str]) -> int:
    try:
        return main(args)
    except SystemExit as done:  # argparse refuses before the command runs
        return int(done.code or 0)
