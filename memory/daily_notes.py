"""Daily notes ``memory/YYYY-MM-DD.md``: locked appends and parsing into cited lines."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

from memory.atomic import file_lock
from memory.paths import MemoryRoot
from memory.redact import redact
from memory.textfile import read_optional

SECTION_TITLES = ("Trimmed Context", "Daily Summary", "Context Overflow Recovery")
_BULLET = re.compile(r"^\s*[-*+]\s+(?P<text>.+?)\s*$")
_HEADING = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<title>.+?)\s*$")
_SPEAKER = re.compile(
    r"^(?:\[[^\]]{1,20}\]\s*)?(?P<name>[^:：\s][^:：]{0,30}?)\s*[:：]\s+(?P<rest>.+)$"
)
MAX_BULLET_CHARS = 2000


@dataclass(frozen=True)
class NoteLine:
    """One bullet of a daily note, with the reference that cites it."""

    path: str  # relative to the root
    line: int  # 1-based
    text: str  # the bullet's text, without the leading "- "
    day: date
    section: str

    @property
    def ref(self) -> str:
        return f"{self.path}#L{self.line}"


def header(day: date) -> str:
    return f"# Daily Memory: {day.isoformat()}\n"


def _clean_bullet(text: str) -> str:
    flat = " ".join(redact(text).split())
    return flat[:MAX_BULLET_CHARS]


def append_section(root: MemoryRoot, title: str, bullets: Sequence[str], *, now: datetime) -> Path:
    """Append ``## title (HH:MM)`` and its bullets to the note of ``now``'s date.

    The header is written once, when the file is created. Writers are serialised by a lock,
    and each section is one write, so concurrent writers never interleave lines.
    Secrets are redacted. ``now`` should be aware and in the scope's timezone.
    """
    day = now.date()
    path = root.daily_note(day)
    lines = [_clean_bullet(b) for b in bullets]
    body = "".join(f"- {line}\n" for line in lines if line)
    if not body:
        raise ValueError("append_section needs at least one non-empty bullet")
    section = f"\n## {title} ({now:%H:%M})\n{body}"
    with file_lock(root.state_dir / "locks" / f"{path.name}.lock"):
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a+", encoding="utf-8", newline="\n") as handle:
            handle.seek(0, os.SEEK_END)
            if handle.tell() == 0:
                handle.write(header(day))
            else:
                handle.seek(handle.tell() - 1)
                if handle.read(1) != "\n":
                    handle.write("\n")
            handle.write(section)
            handle.flush()
            os.fsync(handle.fileno())
    return path


def parse_note(root: MemoryRoot, day: date) -> list[NoteLine]:
    """The bullets of one daily note, each with its 1-based line number."""
    path = root.daily_note(day)
    text = read_optional(path)
    if text is None:
        return []
    return parse_note_text(text, root.relative(path), day)


def parse_note_text(text: str, relative: str, day: date) -> list[NoteLine]:
    """The bullets of a note's ``text``, cited as ``relative#Ln``."""
    section = ""
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        heading = _HEADING.match(raw)
        if heading:
            section = re.sub(r"\s*\([^)]*\)\s*$", "", heading.group("title"))
            continue
        bullet = bullet_text(raw)
        if bullet is not None:
            out.append(NoteLine(relative, number, bullet, day, section))
    return out


def bullet_text(raw: str) -> str | None:
    """The text of a bullet line (``"- text"`` -> ``"text"``); None for any other line."""
    bullet = _BULLET.match(raw)
    return bullet.group("text") if bullet else None


def read_lines(path: Path) -> list[str]:
    """A file's lines (no newlines); empty when the file does not exist."""
    return (read_optional(path) or "").splitlines()


def split_speaker(text: str) -> tuple[str | None, str]:
    """``"张三: 明天见"`` -> ``("张三", "明天见")``; text without a speaker -> ``(None, text)``."""
    match = _SPEAKER.match(text)
    if not match:
        return None, text
    return match.group("name").strip(), match.group("rest").strip()
