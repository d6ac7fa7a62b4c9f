"""The recall store: every search hit shown to the model or printed by ``memory search``.

``memory/.dreams/recalls.jsonl``, one JSON object a line::

    {"time": "2026-11-29T10:02:11+08:00", "day": "2026-11-29", "query": "咖啡",
     "refs": ["memory/2026-11-28.md#L4"], "score": 0.71, "via": "tool"}

``refs`` are the note lines the hit stands for: a hit on a daily note is its own lines; a
hit on MEMORY.md or the archive becomes the sources its items cite (their line numbers
change with every dream, the notes' never do). Writers take a lock and add their lines in
one write, so concurrent writers (threads or processes) lose nothing. A line that does not
parse (torn by a crash, garbage) is skipped and counted, never fatal: the dream reports it
and :func:`repair` sets the bad lines aside. Queries are redacted before they are stored.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

from memory.jsonl_store import append_records, compact, parsed_lines
from memory.memory_file import parse_archive, parse_memory
from memory.paths import MemoryRoot
from memory.provenance import SourceRef, Span, hit_field
from memory.redact import redact

log = logging.getLogger(__name__)

FILE = "recalls.jsonl"
MAX_QUERY_CHARS = 500
KEEP_DAYS = 120  # recalls older than this are dropped when the store is repaired


class HitLike(Span, Protocol):
    """A search hit (``memory.search.service.Hit`` is one)."""

    @property
    def score(self) -> float: ...


@dataclass(frozen=True)
class Recall:
    time: str
    day: date
    query: str
    refs: tuple[SourceRef, ...]
    score: float
    via: str

    def to_json(self) -> str:
        data = {
            "time": self.time,
            "day": self.day.isoformat(),
            "query": self.query,
            "refs": [str(r) for r in self.refs],
            "score": round(self.score, 6),
            "via": self.via,
        }
        return json.dumps(data, ensure_ascii=False)


@dataclass(frozen=True)
class RecallRead:
    """The store as read: the recalls, how many lines were unreadable, a digest of it all."""

    recalls: tuple[Recall, ...]
    bad_lines: int
    digest: str


def store_path(root: MemoryRoot) -> Path:
    return root.state_dir / FILE


def recalls_lock(root: MemoryRoot) -> Path:
    """The lock every writer of the recall store holds."""
    return root.state_dir / "locks" / f"{FILE}.lock"


def _sources_of(root: MemoryRoot, path: str, start: int, end: int) -> tuple[SourceRef, ...]:
    """The note lines a hit stands for (MEMORY.md and archive hits: their items' sources)."""
    if path == "MEMORY.md":
        text = _read(root.memory_md)
        items = [(i.line, i.sources) for i in parse_memory(text).items]
    elif path == root.relative(root.archive):
        items = [(a.line, a.sources) for a in parse_archive(_read(root.archive))]
    else:
        return (SourceRef(path, start, end),)
    return tuple(ref for line, sources in items if start <= line <= end for ref in sources)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def record_hits(
    root: MemoryRoot,
    query: str,
    hits: Iterable[HitLike | Mapping[str, Any]],
    *,
    when: datetime,
    via: str,
) -> int:
    """Record each hit as one recall of ``query`` on ``when``'s day; the number recorded.

    Never raises for a store it cannot write (a search must not fail for bookkeeping):
    the failure is logged and 0 returned.
    """
    query = " ".join(redact(query).split())[:MAX_QUERY_CHARS]
    lines = []
    for hit in hits:
        start, end = int(hit_field(hit, "start_line")), int(hit_field(hit, "end_line"))
        refs = _sources_of(root, str(hit_field(hit, "path")), start, end)
        if not refs or not query:
            continue
        recall = Recall(
            when.isoformat(timespec="seconds"),
            when.date(),
            query,
            refs,
            float(hit_field(hit, "score")),
            via,
        )
        lines.append(recall.to_json() + "\n")
    return append_records(store_path(root), lines, lock=recalls_lock(root), what="recall(s)")


def parse_recall(line: str) -> Recall | None:
    """One stored line, or None when it is not a well-formed recall."""
    try:
        data = json.loads(line)
        refs = tuple(SourceRef.parse(str(r)) for r in data["refs"])
        if not refs or any(r is None for r in refs):
            return None
        return Recall(
            str(data["time"]),
            date.fromisoformat(str(data["day"])),
            str(data["query"]),
            tuple(r for r in refs if r is not None),
            float(data["score"]),
            str(data.get("via", "")),
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def read_recalls(root: MemoryRoot) -> RecallRead:
    """Every readable recall, oldest first; unreadable lines are counted, never fatal."""
    try:
        raw = store_path(root).read_bytes()
    except FileNotFoundError:
        return RecallRead((), 0, hashlib.sha256(b"").hexdigest())
    except OSError as exc:
        log.error("recall store of %s unreadable: %s", root.path, exc)
        return RecallRead((), 1, hashlib.sha256(b"unreadable").hexdigest())
    recalls: list[Recall] = []
    bad = 0
    for _, recall in parsed_lines(raw, parse_recall):
        if recall is None:
            bad += 1
        else:
            recalls.append(recall)
    return RecallRead(tuple(recalls), bad, hashlib.sha256(raw).hexdigest())


def repair(root: MemoryRoot, today: date) -> int:
    """Rewrite the store without unreadable lines and recalls older than ``KEEP_DAYS``,
    under the writers' lock (nothing appended meanwhile is lost); the lines removed.
    Unreadable lines are kept aside in ``recalls.jsonl.bad`` for inspection."""
    oldest = today - timedelta(days=KEEP_DAYS)
    bad, old = compact(store_path(root), lock=recalls_lock(root), parse=parse_recall, oldest=oldest)
    if not bad and not old:
        return 0
    log.warning(
        "recall store of %s repaired: %d unreadable line(s) set aside, %d old recall(s) dropped",
        root.path,
        bad,
        old,
    )
    return bad + old
