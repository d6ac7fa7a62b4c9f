"""The layout of a memory root (DESIGN.md), and safe resolution of paths inside it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path

from memory.errors import PathOutsideRoot

NOTE_NAME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})\.md$")
_DATED_NAME = re.compile(r"(?:^|/)(\d{4})-(\d{2})-(\d{2})\.(?:md|jsonl)$")


@lru_cache(maxsize=4096)
def day_of(path: str) -> date | None:
    """The date a dated file is named after (``memory/2026-11-28.md``,
    ``sessions/2026-11-28.jsonl``); None for any other path."""
    match = _DATED_NAME.search(path)
    if not match:
        return None
    try:
        return date(*map(int, match.groups()))
    except ValueError:
        return None


@dataclass(frozen=True)
class MemoryRoot:
    """One chat scope's memory: ``MEMORY.md`` plus the ``memory/`` folder."""

    path: Path

    @classmethod
    def at(cls, path: str | Path) -> MemoryRoot:
        return cls(Path(path).expanduser().resolve())

    @property
    def memory_md(self) -> Path:
        return self.path / "MEMORY.md"

    @property
    def notes_dir(self) -> Path:
        return self.path / "memory"

    @property
    def archive(self) -> Path:
        return self.notes_dir / "archive.md"

    @property
    def diary_dir(self) -> Path:
        return self.notes_dir / "dreams"

    @property
    def reports_dir(self) -> Path:
        """``memory/dreaming/``: the phase reports (``light/``, ``rem/``, ``deep/``)."""
        return self.notes_dir / "dreaming"

    def phase_report(self, phase: str, day: date) -> Path:
        return self.reports_dir / phase / f"{day.isoformat()}.md"

    @property
    def state_dir(self) -> Path:
        return self.notes_dir / ".dreams"

    @property
    def index_dir(self) -> Path:
        return self.notes_dir / ".index"

    def daily_note(self, day: date) -> Path:
        return self.notes_dir / f"{day.isoformat()}.md"

    def diary(self, day: date) -> Path:
        return self.diary_dir / f"{day.isoformat()}.md"

    def note_dates(self) -> list[date]:
        """Dates of the daily notes present, oldest first."""
        if not self.notes_dir.is_dir():
            return []
        days = []
        for child in self.notes_dir.iterdir():
            match = NOTE_NAME.match(child.name)
            if match and child.is_file() and self.contains(child):
                try:
                    days.append(date(*map(int, match.groups())))
                except ValueError:
                    continue
        return sorted(days)

    def contains(self, path: Path) -> bool:
        """True when ``path``, symlinks followed, is the root or inside it."""
        resolved = path.resolve()
        return resolved == self.path or self.path in resolved.parents

    def relative(self, path: Path) -> str:
        """``path`` relative to the root, with forward slashes."""
        return path.resolve().relative_to(self.path).as_posix()

    def resolve(self, relative: str) -> Path:
        """Resolve a root-relative path, refusing anything that escapes the root."""
        if not relative or "\x00" in relative:
            raise PathOutsideRoot(f"invalid path: {relative!r}")
        candidate = (self.path / relative).resolve()
        if candidate != self.path and self.path not in candidate.parents:
            raise PathOutsideRoot(f"path is outside the memory root: {relative}")
        return candidate
