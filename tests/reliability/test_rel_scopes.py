"""Chat scopes never share a memory folder: names are encoded without collisions, the
index refuses two chats on one folder, and folders named by the old scheme move over."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from bot_support import BotFactory, group

from bot.errors import ScopeConflict
from bot.messages import Scope
from bot.scopes import ScopeDirectory, ScopeEntry, folder_name, legacy_safe_id
from memory.daily_notes import append_section

FAMILY = "家庭群"
# The folder name the old scheme gave the family group: any chat could be named this.
FAMILY_OLD = "id-" + hashlib.sha1(FAMILY.encode()).hexdigest()[:8]

HOSTILE_IDS = [
    FAMILY,
    FAMILY_OLD,
    "",
    ".",
    "..",
    "../../etc",
    "a/b",
    "a b",
    "a_b",
    "a%20b",
    "%",
    "%25",
    "~" + "0" * 64,
    "-100123",
    "Alice",
    "alice",
    "x" * 300,
    "x" * 301,
    "家" * 100,
    "é",  # NFC
    "e\u0301",  # NFD
    "\u202eevil",
    "tab\there",
    "nul\x00byte",
    "emoji🐄",
    "id-" + hashlib.sha1(b"a b").hexdigest()[:8],
    "a_b-" + hashlib.sha1(b"a b").hexdigest()[:8],
]


def test_encoded_names_are_distinct_and_safe() -> None:
    names = [folder_name(i) for i in HOSTILE_IDS]
    assert len(set(names)) == len(HOSTILE_IDS)
    for name in names:
        assert name and "/" not in name and "\x00" not in name
        assert not name.startswith(".")
        assert len(name.encode("utf-8")) <= 200
    # Plain ids keep their name, so existing folders of plain chats stay where they are.
    for plain in ("42", "-100123", "wx_alice", "Alice.Smith@home"):
        assert folder_name(plain) == legacy_safe_id(plain) == plain
    assert folder_name(FAMILY) == FAMILY  # readable


def test_the_old_scheme_collided() -> None:
    """What the fix is about: the old names let a chat pick another chat's folder."""
    assert legacy_safe_id(FAMILY) == legacy_safe_id(FAMILY_OLD) == FAMILY_OLD
    assert folder_name(FAMILY) != folder_name(FAMILY_OLD)


def test_a_group_named_like_a_hash_cannot_read_another_groups_memory(
    make_bot: BotFactory,
) -> None:
    bot, _ = make_bot()
    family = group("wechat", FAMILY, "mum", "/memory status").scope
    root = bot.services.scopes.root_for(family)
    append_section(root, "Daily Summary", ["mum: 保险箱的位置在书房的画后面"], now=bot.clock())
    (own,) = bot.handle(group("wechat", FAMILY, "mum", "/memory search 保险箱"))
    assert "书房的画后面" in own
    (other,) = bot.handle(group("wechat", FAMILY_OLD, "eve", "/memory search 保险箱"))
    assert "书房的画后面" not in other and other.startswith("记忆里没有与")
    folders = {e.folder for e in bot.services.scopes.entries()}
    assert len(folders) == 2


def _scope(chat: str) -> Scope:
    return Scope("wechat", chat, True, chat)


def test_the_index_refuses_two_chats_on_one_folder(tmp_path: Path) -> None:
    directory = ScopeDirectory(tmp_path)
    first = directory.root_for(_scope("first"))
    # A hand-edited index points another chat at the first chat's folder.
    index = json.loads(directory.index_path.read_text(encoding="utf-8"))
    index["wechat:group:second"] = {"folder": index["wechat:group:first"]["folder"], "title": ""}
    directory.index_path.write_text(json.dumps(index), encoding="utf-8")
    (first.notes_dir / "2026-11-29.md").write_text("- first's secret\n", encoding="utf-8")
    reread = ScopeDirectory(tmp_path)
    # Neither chat is served a folder two chats claim: it is set aside for a person.
    assert not first.path.exists()
    aside = list((tmp_path / "scopes" / "wechat").glob("shared~*"))
    assert len(aside) == 1 and (aside[0] / "memory" / "2026-11-29.md").exists()
    assert reread.root_for(_scope("first")).path == first.path
    assert not (first.path / "memory" / "2026-11-29.md").exists()
    # And at run time a chat whose folder another chat holds is refused.
    fresh = ScopeDirectory(tmp_path / "other-ws")
    taken = fresh.folder_for(_scope("first"))
    fresh._entries["wechat:group:intruder"] = ScopeEntry("wechat:group:intruder", taken, "")
    with pytest.raises(ScopeConflict, match="already belongs to wechat:group:intruder"):
        fresh.root_for(_scope("first"))


def test_folders_named_by_the_old_scheme_move_to_the_new_names(tmp_path: Path) -> None:
    old_folder = f"scopes/wechat/group-{FAMILY_OLD}"
    root = tmp_path / old_folder
    (root / "memory").mkdir(parents=True)
    (root / "MEMORY.md").write_text("- 家里的猫叫咪咪\n", encoding="utf-8")
    sessions = root / "memory" / ".bot" / "sessions"
    sessions.mkdir(parents=True)
    old_session = sessions / f"{legacy_safe_id('wechat:group:' + FAMILY)}.json"
    old_session.write_text('{"window": []}', encoding="utf-8")
    plain = tmp_path / "scopes" / "telegram" / "user-42"
    (plain / "memory").mkdir(parents=True)
    index = {
        f"wechat:group:{FAMILY}": {"folder": old_folder, "title": FAMILY},
        "telegram:user:42": {"folder": "scopes/telegram/user-42", "title": "bob"},
    }
    (tmp_path / "scopes" / "index.json").write_text(json.dumps(index), encoding="utf-8")
    directory = ScopeDirectory(tmp_path)
    moved = directory.root_for(_scope(FAMILY))
    assert moved.path == tmp_path / "scopes" / "wechat" / f"group-{FAMILY}"
    assert (moved.path / "MEMORY.md").read_text(encoding="utf-8") == "- 家里的猫叫咪咪\n"
    assert not root.exists()
    assert directory.session_path(_scope(FAMILY)).read_text() == '{"window": []}'
    assert directory.root_for(Scope("telegram", "42")).path == plain
    # The literal old name is now a chat of its own with an empty memory.
    literal = directory.root_for(_scope(FAMILY_OLD))
    assert literal.path == root and not literal.memory_md.exists()
    saved = json.loads(directory.index_path.read_text(encoding="utf-8"))
    assert saved[f"wechat:group:{FAMILY}"]["folder"] == f"scopes/wechat/group-{FAMILY}"
