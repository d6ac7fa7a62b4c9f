"""The usage ledger: what counts as a use, how items are known, concurrent writers."""

from __future__ import annotations

import subprocess
import sys
from datetime import date
from pathlib import Path

from mem_support import at

from memory.paths import MemoryRoot
from memory.provenance import SourceRef
from memory.usage import Use, read_ledger, record_uses, repair, store_path, uses_in, uses_of_hits

REPO = Path(__file__).resolve().parents[2]
MEMORY = (
    "# MEMORY\n\n## Facts\n"
    "- The user keeps bees <!-- src: memory/2026-11-20.md#L4 -->\n"
    "- A line written by hand\n"
    "- The user lives in Lyon <!-- src: memory/2026-11-21.md#L3-L4 -->\n"
)
ARCHIVE = (
    "# Memory Archive\n\nItems that left MEMORY.md.\n\n"
    "- The user lived in Paris <!-- src: memory/2026-10-01.md#L3; reason: superseded; "
    "archived: 2026-11-21 -->\n"
)


def seeded(root: MemoryRoot) -> MemoryRoot:
    root.memory_md.write_text(MEMORY, encoding="utf-8")
    root.notes_dir.mkdir(parents=True, exist_ok=True)
    root.archive.write_text(ARCHIVE, encoding="utf-8")
    return root


def test_hits_and_reads_on_memory_and_the_archive_are_uses(root: MemoryRoot) -> None:
    seeded(root)
    core = uses_in(root, "MEMORY.md", 4, 6)
    assert core == [
        Use("core", (SourceRef("memory/2026-11-20.md", 4, 4),)),
        Use("core", (), "A line written by hand"),
        Use("core", (SourceRef("memory/2026-11-21.md", 3, 4),)),
    ]
    hits = [{"path": "memory/archive.md", "start_line": 5, "end_line": 5}]
    assert uses_of_hits(root, hits) == [Use("archive", (SourceRef("memory/2026-10-01.md", 3, 3),))]
    assert uses_in(root, "memory/2026-11-20.md", 1, 9) == []  # a note line is not an item


def test_an_item_is_known_by_its_lines_so_its_history_survives_every_dream(
    root: MemoryRoot,
) -> None:
    seeded(root)
    record_uses(root, uses_in(root, "MEMORY.md", 4, 6), when=at(25, 10), via="search")
    record_uses(root, uses_in(root, "MEMORY.md", 6, 6), when=at(28, 9), via="get")
    ledger = read_ledger(root)
    lyon = (SourceRef("memory/2026-11-21.md", 3, 4),)
    # the same fact, merged since with a new mention, renumbered in MEMORY.md
    merged = (SourceRef("memory/2026-11-21.md", 4, 4), SourceRef("memory/2026-11-29.md", 2, 2))
    assert ledger.usage(lyon).count == 2
    assert ledger.usage(merged, since=date(2026, 11, 26)) == (
        ledger.usage(merged).__class__(2, 1, date(2026, 11, 28))
    )
    assert ledger.usage((), "A line written by hand").count == 1
    assert ledger.usage((), "A line  written by hand").count == 1  # spacing does not matter
    assert ledger.usage((SourceRef("memory/2026-11-20.md", 5, 5),)).count == 0


WRITER = """
import os, sys
from datetime import datetime
from zoneinfo import ZoneInfo
os.fsync = lambda fd: None  # the locking is under test, not the disk
from memory.paths import MemoryRoot
from memory.provenance import SourceRef
from memory.usage import Use, record_uses
root = MemoryRoot.at(sys.argv[1])
writer, count = int(sys.argv[2]), int(sys.argv[3])
when = datetime(2026, 11, 29, 10, 0, tzinfo=ZoneInfo("Asia/Shanghai"))
for n in range(count):
    use = Use("core", (SourceRef(f"memory/2026-11-{writer + 1:02d}.md", n + 1, n + 1),))
    record_uses(root, [use], when=when, via="search")
"""


def test_eight_concurrent_writers_lose_nothing_and_a_torn_line_is_set_aside(
    root: MemoryRoot,
) -> None:
    count = 300
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(root.path), str(n), str(count)], cwd=REPO
        )
        for n in range(8)
    ]
    assert [w.wait(timeout=120) for w in writers] == [0] * 8
    with open(store_path(root), "ab") as handle:
        handle.write(b'{"time": "2026-11-29T10:00:00+08:00", "day": "2026-11-2')  # a crash
    ledger = read_ledger(root)
    assert len(ledger.uses) == 8 * count and ledger.bad_lines == 1
    for n in range(8):
        lines = (SourceRef(f"memory/2026-11-{n + 1:02d}.md", 1, count),)
        assert ledger.usage(lines).count == count
    assert ledger.needs_repair(date(2026, 11, 29))
    assert repair(root, date(2026, 11, 29)) == 1
    assert read_ledger(root).bad_lines == 0 and len(read_ledger(root).uses) == 8 * count
    assert store_path(root).with_name("usage.jsonl.bad").read_bytes().startswith(b'{"time"')


def test_a_use_recorded_after_a_crash_stays_whole(root: MemoryRoot) -> None:
    seeded(root)
    record_uses(root, uses_in(root, "MEMORY.md", 4, 4), when=at(25, 10), via="search")
    with open(store_path(root), "ab") as handle:
        handle.write(b'{"time": "2026-11-25T10:00:00+08:00", "via": "se')  # killed mid-write
    record_uses(root, uses_in(root, "MEMORY.md", 4, 4), when=at(26, 10), via="prompt")
    ledger = read_ledger(root)
    assert (len(ledger.uses), ledger.bad_lines) == (2, 1)
    assert [u.via for u in ledger.uses] == ["search", "prompt"]
