"""A secret in a note the bot did not write (by hand, by another tool) reaches nothing the
dream writes: MEMORY.md, the archive, the diary, the phase reports, the stores."""

from __future__ import annotations

from mem_support import at

from memory.dream import DreamOptions, run_dream
from memory.memory_file import read_memory
from memory.paths import MemoryRoot

SECRETS = ("lotus_2026home", "qin_1988wifi", "sk-live-abcdefghijklmnop1234", "Kiwi-Tango-55")
NOTE = """# Daily Memory: 2026-11-28

## Daily Summary (23:55)
- User: the new wifi password is lotus_2026home, don't share it
- 用户: 家里路由器的密码是 qin_1988wifi，别外传
- User: my API key for the shop is sk-live-abcdefghijklmnop1234
- User: I changed my bank password to Kiwi-Tango-55 after the phishing mail
- User: I work as a pharmacist in Porto
- 用户: 我对芒果过敏
"""


def test_secrets_in_a_hand_written_note_reach_no_file_the_dream_writes(root: MemoryRoot) -> None:
    root.notes_dir.mkdir(parents=True, exist_ok=True)
    note = root.notes_dir / "2026-11-28.md"
    note.write_text(NOTE, encoding="utf-8")
    run_dream(root, DreamOptions(days=3, engine="extractive", force=True), model=None, now=at(29))
    kept = " ".join(item.text for item in read_memory(root).items)
    assert "pharmacist" in kept and "芒果" in kept
    written = {
        path: path.read_text(encoding="utf-8", errors="replace")
        for path in root.path.rglob("*")
        if path.is_file() and path != note and ".index" not in path.parts
    }
    assert root.memory_md in written and len(written) > 3  # diary, reports, state too
    for path, text in written.items():
        for secret in SECRETS:
            assert secret not in text, (secret, path)
