"""The session log as evidence for the light phase, ingested incrementally.

Each session log of the dream's window has a cursor in ``memory/.dreams/sessions.json``:
how many whole lines were ingested, how many bytes they take, and the SHA-256 of those
bytes. The next dream reads only the lines after the cursor, provided the bytes before it
are unchanged; a log that was rewritten (``forget`` turns lines into tombstones) or
truncated no longer matches its hash and is read again from the start. The light phase
keys candidates by the lines they cite, so a line read twice is one mention, never two.

Only what users said is evidence (the assistant's own turns are not); in a group the
statement keeps its speaker (``张三: 明天去杭州``). Lines cited by live candidates (``keep``)
are read again each time, so a new restatement merges with what was staged before.
The cursors move only when the dream commits (:meth:`SessionLog.cursor_text` goes into
its transaction); a dream that fails or is skipped reads the same lines next time.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from memory import session_log
from memory.daily_notes import NoteLine
from memory.paths import MemoryRoot

if TYPE_CHECKING:
    from memory.dream.context import DreamContext

log = logging.getLogger(__name__)

FILE = "sessions.json"
SECTION = "Session log"
Line = tuple[str, int]


@dataclass(frozen=True)
class Cursor:
    """How far one log was ingested: whole lines, their bytes and the bytes' hash."""

    lines: int = 0
    size: int = 0
    digest: str = hashlib.sha256(b"").hexdigest()


def cursor_path(root: MemoryRoot) -> Path:
    return root.state_dir / FILE


def load_cursors(root: MemoryRoot) -> dict[str, Cursor]:
    """The stored cursors by log path; a missing or unreadable file means none (every log
    is read from the start, which counts nothing twice)."""
    try:
        data = json.loads(cursor_path(root).read_text(encoding="utf-8"))
        return {
            str(path): Cursor(int(c["lines"]), int(c["size"]), str(c["digest"]))
            for path, c in data["cursors"].items()
        }
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        log.warning("%s: session cursors unreadable (%s); logs are read again", root.path, exc)
        return {}


def cursors_text(cursors: dict[str, Cursor]) -> str:
    data = {"version": 1, "cursors": {p: asdict(cursors[p]) for p in sorted(cursors)}}
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


@dataclass(frozen=True)
class Ingested:
    """One log's lines read by this dream."""

    path: str
    day: date
    fresh: list[NoteLine]  # statements after the cursor (all of them when ``reread``)
    kept: list[NoteLine]  # statements before the cursor that live candidates cite
    reread: bool  # the bytes before the cursor changed: read from the start
    cursor: Cursor  # where the log ends now (whole lines)
    new_bytes: int  # bytes after the old cursor (the whole log when reread)


def ingest(
    root: MemoryRoot, day: date, cursor: Cursor | None, keep: Iterable[int] = ()
) -> Ingested:
    """The statements of ``day``'s log after ``cursor`` (and the ``keep`` line numbers)."""
    relative = session_log.relative_path(day)
    try:
        data = session_log.log_path(root, day).read_bytes()
    except FileNotFoundError:
        data = b""
    whole = data[: data.rfind(b"\n") + 1]  # an unterminated last line waits for the next dream
    start = cursor or Cursor()
    reread = cursor is not None and (
        len(whole) < start.size or hashlib.sha256(whole[: start.size]).hexdigest() != start.digest
    )
    if reread:
        log.info("%s changed before its cursor (rewritten or cut); reading it again", relative)
        start = Cursor()
    wanted = set(keep)
    fresh: list[NoteLine] = []
    kept: list[NoteLine] = []
    raws = whole.decode("utf-8", errors="replace").split("\n")[:-1] if whole else []
    for number, raw in enumerate(raws, start=1):
        if number <= start.lines and number not in wanted:
            continue
        text = session_log.said(session_log.parse_line(raw, number))
        if text is None:
            continue
        line = NoteLine(relative, number, text, day, SECTION)
        (fresh if number > start.lines else kept).append(line)
    end = Cursor(len(raws), len(whole), hashlib.sha256(whole).hexdigest())
    return Ingested(relative, day, fresh, kept, reread, end, len(whole) - start.size)


class SessionLog:
    """The light phase's evidence source for ``sessions/*.jsonl`` (an ``EvidenceSource``)."""

    name = "session log"

    def __init__(
        self,
        root: MemoryRoot,
        today: date,
        days: int,
        cursors: dict[str, Cursor] | None = None,
        keep: Iterable[Line] = (),
    ) -> None:
        self.root = root
        first = today - timedelta(days=days - 1)
        stored = load_cursors(root) if cursors is None else cursors
        by_path: dict[str, set[int]] = {}
        for path, number in keep:
            by_path.setdefault(path, set()).add(number)
        self.logs: list[Ingested] = [
            ingest(
                root,
                day,
                stored.get(session_log.relative_path(day)),
                by_path.get(session_log.relative_path(day), ()),
            )
            for day in session_log.log_dates(root)
            if first <= day <= today
        ]

    def lines(self) -> Sequence[NoteLine]:
        """The new statements and the ones live candidates cite, oldest first."""
        out = [line for item in self.logs for line in (*item.kept, *item.fresh)]
        return sorted(out, key=lambda n: (n.day, n.path, n.line))

    def owns(self, path: str) -> bool:
        return session_log.is_session_path(path)

    def text(self, raw: str) -> str | None:
        return session_log.statement(raw)

    @property
    def reread(self) -> list[str]:
        return [item.path for item in self.logs if item.reread]

    @property
    def new_bytes(self) -> int:
        return sum(item.new_bytes for item in self.logs)

    def cursors(self) -> dict[str, Cursor]:
        """The cursors to store when the dream commits (the window's logs only)."""
        return {item.path: item.cursor for item in self.logs}

    def cursor_text(self) -> str:
        return cursors_text(self.cursors())


LIVE = ("staged", "deferred", "promoted")


def session_source(ctx: DreamContext) -> SessionLog:
    """The dream's session-log source: the window's logs from their stored cursors, plus
    the lines the live candidates of the short-term store cite."""
    keep = [
        (ref.path, n)
        for cand in ctx.short_term.candidates.values()
        if cand.status in LIVE
        for ref in cand.refs
        if session_log.is_session_path(ref.path)
        for n in ref.lines()
    ]
    return SessionLog(ctx.root, ctx.now.date(), ctx.options.days, keep=keep)


def used_source(sources: Iterable[object]) -> SessionLog | None:
    """The session-log source among a light phase's sources (its cursors are committed)."""
    return next((s for s in sources if isinstance(s, SessionLog)), None)


def window_digest(root: MemoryRoot, today: date, days: int) -> str:
    """The window's session logs by name and size (part of a dream's input hash: a log
    only grows, and a rewrite by forget changes its size); "" when the window has none."""
    first = today - timedelta(days=days - 1)
    parts = []
    for day in session_log.log_dates(root):
        if first <= day <= today:
            path = session_log.log_path(root, day)
            with contextlib.suppress(OSError):
                parts.append(f"{path.name}:{path.stat().st_size}")
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest() if parts else ""
