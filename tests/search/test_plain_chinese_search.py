"""Search reads Traditional characters and Cantonese as Simplified Mandarin (issue 13): a
Simplified query finds a note written in Traditional or Cantonese, and the other way round;
the snippet shows the note as it was written."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from conftest import write

from memory.paths import MemoryRoot
from memory.search.service import MemorySearch, SearchSettings
from memory.segment import content_words

NOW = date(2026, 11, 30)


def hk_root(tmp_path: Path) -> MemoryRoot:
    base = tmp_path / "hk"
    write(base, "MEMORY.md", "# MEMORY\n\n## Preferences\n- The user wants short answers\n")
    write(
        base,
        "memory/2026-11-28.md",
        "# Daily Memory: 2026-11-28\n\n## Trimmed Context (14:05)\n\n"
        "- 用戶話佢而家喺銀行返工，每日搭地鐵\n"
        "- 用戶養咗一隻貓叫豆豆\n"
        "- Deploy failed with ECONNREFUSED because postgres was down\n",
    )
    write(
        base,
        "memory/2026-11-29.md",
        "# Daily Memory: 2026-11-29\n\n## Trimmed Context (09:10)\n\n"
        "- 用户下周三要去上海出差，住在静安区\n",
    )
    return MemoryRoot.at(base)


def test_traditional_and_simplified_are_the_same_words() -> None:
    assert {"用户", "地铁", "上班"} <= set(content_words("用戶搭地鐵返工"))
    assert "现在" in content_words("佢而家喺銀行")
    assert "猫" in content_words("養咗一隻貓")


def test_simplified_query_finds_cantonese_note(tmp_path: Path) -> None:
    svc = MemorySearch(hk_root(tmp_path), SearchSettings(provider="none"))
    hits = svc.search("用户现在在银行上班吗", now=NOW)
    assert hits and hits[0].path == "memory/2026-11-28.md"
    assert "銀行返工" in hits[0].snippet  # the note as written
    hits = svc.search("用户的猫叫什么", now=NOW)
    assert hits and "貓叫豆豆" in hits[0].snippet
    svc.close()


def test_traditional_query_finds_simplified_note(tmp_path: Path) -> None:
    svc = MemorySearch(hk_root(tmp_path), SearchSettings(provider="none"))
    hits = svc.search("用戶去上海出差住喺邊度", now=NOW)
    assert hits and hits[0].path == "memory/2026-11-29.md"
    assert "静安区" in hits[0].snippet
    svc.close()
