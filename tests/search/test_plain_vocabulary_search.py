"""Search reads the everyday words of Hong Kong and Taiwan as the mainland's (issue 13):
a Simplified query with "出租车" or "冰箱" finds a Cantonese note with "的士" or "雪櫃", and
shows it as written."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from conftest import write

from memory.paths import MemoryRoot
from memory.search.service import MemorySearch, SearchSettings


def test_simplified_query_finds_hong_kong_words(tmp_path: Path) -> None:
    base = tmp_path / "hk"
    write(base, "MEMORY.md", "# MEMORY\n\n## Preferences\n- The user wants short answers\n")
    write(
        base,
        "memory/2026-11-28.md",
        "# Daily Memory: 2026-11-28\n\n## Trimmed Context (14:05)\n\n"
        "- 用戶話佢每朝搭的士返工\n"
        "- 用戶屋企個雪櫃壞咗\n"
        "- Deploy failed with ECONNREFUSED because postgres was down\n",
    )
    svc = MemorySearch(MemoryRoot.at(base), SearchSettings(provider="none"))
    hits = svc.search("用户坐出租车吗", now=date(2026, 11, 30))
    assert hits and "的士" in hits[0].snippet  # the note as written
    hits = svc.search("冰箱坏了", now=date(2026, 11, 30))
    assert hits and "雪櫃" in hits[0].snippet
    svc.close()
