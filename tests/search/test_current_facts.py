"""Current facts first, end to end: the real dream retires an old home and writes the move,
and every search surface (the service, the model's ``memory_search`` tool, the CLI) puts
the MEMORY.md item first, in English, in Chinese and across the two; the superseded archive
entry never outranks the item that replaced it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from conftest import write

from memory.dream import DreamOptions, run_dream
from memory.memory_file import read_archive, read_memory
from memory.paths import MemoryRoot
from memory.search.service import Hit, MemorySearch, SearchSettings
from memory.search.tools import memory_search

ZONE = ZoneInfo("Europe/Lisbon")
OLD_DAY, NEW_DAY = date(2026, 9, 22), date(2026, 11, 29)
REPO = Path(__file__).resolve().parents[2]

OTHER = {  # what else the user said, so the memory is not only the move
    "en": [
        "User: I am allergic to peanuts",
        "User: my daughter Mia starts school next week",
        "User: I prefer green tea over coffee",
        "User: I go swimming every Tuesday evening",
        "User: can you write an email to my landlord",
    ],
    "zh": [
        "用户: 我对花生过敏",
        "用户: 女儿小满下周开学",
        "用户: 我喜欢喝绿茶，不喝咖啡",
        "用户: 我每周二晚上去游泳",
        "用户: 帮我给房东写封邮件",
    ],
}
OLD = {"en": "User: hi, I live in Berlin", "zh": "用户: 你好，我住在柏林"}
NEW = {"en": "User: I moved to Porto last month", "zh": "用户: 我上个月搬到了波尔图"}
QUESTION = {"en": "where do I live?", "zh": "我住在哪里"}


def _note(root: MemoryRoot, day: date, lines: list[str]) -> None:
    body = "".join(f"- {line}\n" for line in lines)
    write(
        root.path,
        f"memory/{day}.md",
        f"# Daily Memory: {day}\n\n## Trimmed Context (10:00)\n{body}",
    )


def _dream(root: MemoryRoot, day: date) -> None:
    now = datetime(day.year, day.month, day.day, 23, 55, tzinfo=ZONE)
    report = run_dream(root, DreamOptions(days=3, engine="extractive"), model=None, now=now)
    assert report.status == "done", report.reason


def _moved(base: Path, lang: str) -> MemoryRoot:
    """Two dreams: the first keeps the old home, the second retires it for the move."""
    base.mkdir(parents=True)
    (base / "memory").mkdir()
    root = MemoryRoot.at(base)
    other = OTHER[lang]
    _note(root, OLD_DAY, [OLD[lang], *other[:2]])
    _dream(root, OLD_DAY)
    _note(root, OLD_DAY + timedelta(days=20), other[2:4])
    _dream(root, OLD_DAY + timedelta(days=20))
    _note(root, NEW_DAY, [NEW[lang], other[4]])
    _dream(root, NEW_DAY)
    return root


def _move_item(root: MemoryRoot) -> int:
    lines = [i.line for i in read_memory(root).items if "Porto" in i.text or "波尔图" in i.text]
    assert len(lines) == 1, read_memory(root).items
    return lines[0]


def _archived_home(root: MemoryRoot) -> int:
    old = [a for a in read_archive(root) if "Berlin" in a.text or "柏林" in a.text]
    assert [a.reason for a in old] == ["superseded"], read_archive(root)
    return old[0].line


def _first_and_order(hits: list[Hit] | list[dict[str, object]], item: int, entry: int) -> None:
    spans = [
        (h.path, h.start_line) if isinstance(h, Hit) else (h["path"], h["start_line"]) for h in hits
    ]
    assert spans[0] == ("MEMORY.md", item), spans
    if ("memory/archive.md", entry) in spans:
        assert spans.index(("memory/archive.md", entry)) > 0


@pytest.fixture(scope="module")
def roots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, MemoryRoot]:
    base = tmp_path_factory.mktemp("moved")
    return {lang: _moved(base / lang, lang) for lang in ("en", "zh")}


@pytest.mark.parametrize(
    ("memory_lang", "question_lang"), [("en", "en"), ("zh", "zh"), ("zh", "en"), ("en", "zh")]
)
def test_the_move_the_dream_wrote_ranks_first(
    roots: dict[str, MemoryRoot], memory_lang: str, question_lang: str
) -> None:
    root = roots[memory_lang]
    item, entry = _move_item(root), _archived_home(root)
    svc = MemorySearch(root, SearchSettings(provider="local"))
    try:
        question = QUESTION[question_lang]
        _first_and_order(svc.search(question, now=NEW_DAY), item, entry)
        _first_and_order(memory_search(svc, question)["results"], item, entry)
        # asked about the old home itself, the archive still answers: archived, not forgotten
        berlin = "Berlin" if memory_lang == "en" else "柏林"
        assert ("memory/archive.md", entry) in [
            (h.path, h.start_line) for h in svc.search(berlin, now=NEW_DAY)
        ]
    finally:
        svc.close()


def test_the_command_line_puts_the_move_first(roots: dict[str, MemoryRoot]) -> None:
    root = roots["zh"]
    args = ["search", QUESTION["zh"], "--workspace", str(root.path), "--json", "--no-record"]
    done = subprocess.run(
        [sys.executable, "-m", "memory", *args, "--now", NEW_DAY.isoformat()],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=120,
        check=True,
    )
    _first_and_order(json.loads(done.stdout), _move_item(root), _archived_home(root))
