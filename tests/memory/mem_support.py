"""Helpers for the memory engine's tests: notes on disk, tree snapshots, a model config."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from memory.daily_notes import append_section
from memory.paths import MemoryRoot
from memory.provenance import SourceRef, split_comment

SHANGHAI = ZoneInfo("Asia/Shanghai")
UTC = ZoneInfo("UTC")
# "Now" of most dream tests: the evening of 2026-11-29 in Shanghai.
NOW = datetime(2026, 11, 29, 23, 58, tzinfo=SHANGHAI)


def at(day: int, hour: int = 23, minute: int = 55, month: int = 11) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=SHANGHAI)


def note(root: MemoryRoot, when: datetime, *bullets: str, title: str = "Daily Summary") -> Path:
    return append_section(root, title, list(bullets), now=when)


def days_before(now: datetime, n: int) -> datetime:
    return now - timedelta(days=n)


def tree(path: Path) -> dict[str, bytes]:
    """Every file under ``path`` (relative path -> bytes)."""
    return {
        p.relative_to(path).as_posix(): p.read_bytes()
        for p in sorted(path.rglob("*"))
        if p.is_file()
    }


def copy_root(src: MemoryRoot, dest: Path) -> MemoryRoot:
    shutil.copytree(src.path, dest)
    return MemoryRoot.at(dest)


def read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.exists() else None


def bullets(path: Path) -> list[str]:
    """The ``- `` lines of a markdown file."""
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("- ")]


def generated(path: Path) -> list[tuple[str, tuple[SourceRef, ...], dict[str, str]]]:
    """(text, sources, fields) of every bullet with a ``src`` comment."""
    out = []
    for line in bullets(path):
        text, prov = split_comment(line[2:])
        if prov is not None and prov.sources:
            out.append((text, prov.sources, dict(prov.fields)))
    return out


def model_config(tmp: Path, url: str, name: str = "config.json") -> Path:
    path = tmp / name
    path.write_text(
        json.dumps({"open_ai_api_base": url, "open_ai_api_key": "sk-test-0123456789abcdef"}),
        encoding="utf-8",
    )
    return path


def write_jsonl(path: Path, turns: Sequence[dict[str, str]]) -> Path:
    path.write_text(
        "".join(json.dumps(t, ensure_ascii=False) + "\n" for t in turns), encoding="utf-8"
    )
    return path


class Crash(BaseException):
    """Stands for the process dying: not an Exception, so nothing may catch it."""


def crash_at(point: str) -> Callable[[str], None]:
    """A fault hook that "dies" at the commit point named ``point``."""

    def fault(where: str) -> None:
        if where == point:
            raise Crash(where)

    return fault
