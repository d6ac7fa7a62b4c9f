"""Daily notes ``memory/YYYY-MM-DD.md``: locked appends and parsing into cited lines."""

from __future__ import annotations

import contextlib
import logging
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

from memory.atomic import atomic_write_text, file_lock
from memory.errors import StorageError
from memory.paths import MemoryRoot
from memory.redact import DEFAULT, Redaction, redact
from memory.textfile import clean_text, read_optional

SECTION_TITLES = ("Trimmed Context", "Daily Summary", "Context Overflow Recovery")
_BULLET = re.compile(r"^\s*[-*+]\s+(?P<text>.+?)\s*$")
_HEADING = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<title>.+?)\s*$")
_SPEAKER = re.compile(
    r"^(?:\[[^\]]{1,20}\]\s*)?(?P<name>[^:：\s][^:：]{0,30}?)\s*[:：]\s+(?P<rest>.+)$"
)
MAX_BULLET_CHARS = 2000

log = logging.getLogger(__name__)


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


def _clean_bullet(text: str, redaction: Redaction) -> str:
    flat = " ".join(redact(clean_text(text), redaction).split())
    return flat[:MAX_BULLET_CHARS]


def note_lock(root: MemoryRoot, path: Path) -> Path:
    """The lock that serialises every writer of the daily note ``path`` (appends, forget)."""
    return root.state_dir / "locks" / f"{path.name}.lock"


def pending_append_path(root: MemoryRoot, path: Path) -> Path:
    """While an append runs, this marker holds the note's size before it."""
    return root.state_dir / "locks" / f"{path.name}.append"


def repair_note(root: MemoryRoot, path: Path) -> bool:
    """Cut back an append that a killed process left unfinished; True if it cut.

    Call with :func:`note_lock` held: a marker then always belongs to a dead writer.
    """
    marker = pending_append_path(root, path)
    try:
        size = int(marker.read_text(encoding="utf-8").strip())
    except FileNotFoundError:
        return False
    except (OSError, ValueError):
        log.warning("unreadable append marker %s removed", marker)
        marker.unlink(missing_ok=True)
        return False
    cut = False
    with contextlib.suppress(FileNotFoundError):
        if path.stat().st_size > size >= 0:
            os.truncate(path, size)
            cut = True
            log.warning("%s: an unfinished append was cut back to %d bytes", path.name, size)
    marker.unlink(missing_ok=True)
    return cut


def torn_notes(root: MemoryRoot) -> list[Path]:
    """Notes with an append marker (a dead writer's, or one running now)."""
    folder = root.state_dir / "locks"
    if not folder.is_dir():
        return []
    return [root.notes_dir / m.name.removesuffix(".append") for m in folder.glob("*.md.append")]


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _append_whole(root: MemoryRoot, path: Path, header_text: str, section: str) -> None:
    """Append ``section`` in one go; on any failure the file is cut back to its old size."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        size = os.fstat(fd).st_size
        if size == 0:
            data = header_text + section
        else:
            data = section if os.pread(fd, 1, size - 1) == b"\n" else "\n" + section
        marker = pending_append_path(root, path)
        atomic_write_text(marker, str(size))
        try:
            _write_all(fd, data.encode("utf-8"))
            os.fsync(fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, size)
                os.fsync(fd)
                marker.unlink()
            raise
        marker.unlink()
    finally:
        os.close(fd)


def append_section(
    root: MemoryRoot,
    title: str,
    bullets: Sequence[str],
    *,
    now: datetime,
    redaction: Redaction = DEFAULT,
) -> Path:
    """Append ``## title (HH:MM)`` and its bullets to the note of ``now``'s date.

    The header is written once, when the file is created. Writers are serialised by a lock,
    and each section is appended whole: a failed write (a full disk) is cut back at once,
    and one a killed process left half done is cut back by the next writer or reader, so
    a note never holds a torn section. Works on any existing file, UTF-8 or not.
    Secrets are redacted. ``now`` should be aware and in the scope's timezone.
    Raises :class:`StorageError` when the disk refuses the write.
    """
    day = now.date()
    path = root.daily_note(day)
    lines = [_clean_bullet(b, redaction) for b in bullets]
    body = "".join(f"- {line}\n" for line in lines if line)
    if not body:
        raise ValueError("append_section needs at least one non-empty bullet")
    section = f"\n## {title} ({now:%H:%M})\n{body}"
    try:
        with file_lock(note_lock(root, path)):
            repair_note(root, path)
            path.parent.mkdir(parents=True, exist_ok=True)
            _append_whole(root, path, header(day), section)
    except OSError as exc:
        raise StorageError.of(exc, root.relative(path)) from exc
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
