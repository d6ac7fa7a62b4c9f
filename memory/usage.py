"""The usage ledger: each use of a MEMORY.md item or an archive entry, and when.

``memory/.dreams/usage.jsonl``, one JSON object a use::

    {"time": "2026-11-29T10:02:11+08:00", "day": "2026-11-29", "via": "search",
     "tier": "core", "refs": ["memory/2026-11-28.md#L4"]}

A use is an item shown to the model as relevant to a message (``prompt``: a core item whose
words the message shares, an archived item given as a hint), returned by a search
(``search``) or read through ``memory_get`` (``get``). An item is known by the lines it
cites, which survive every dream (its MEMORY.md line does not): an item's uses are the uses
whose lines it shares, so a merged, demoted or returned item keeps its history. A
hand-written item (no sources) is known by the hash of its text.

Writers take a lock and add their lines in one write, so concurrent writers (threads or
processes) lose nothing; a line that does not parse is skipped and counted, and
:func:`repair` sets such lines aside and drops uses older than ``KEEP_DAYS``.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any, Literal, cast

from memory.jsonl_store import append_records, compact, parsed_lines
from memory.memory_file import ArchivedItem, MemoryItem, parse_archive, parse_memory
from memory.paths import MemoryRoot
from memory.provenance import SourceRef, Span, hit_field
from memory.textfile import read_optional

log = logging.getLogger(__name__)

FILE = "usage.jsonl"
KEEP_DAYS = 365
Via = Literal["prompt", "search", "get"]
Tier = Literal["core", "archive"]
VIAS = ("prompt", "search", "get")
Line = tuple[str, int]


def text_key(text: str) -> str:
    """How a hand-written item (no sources) is known in the ledger."""
    return hashlib.sha1(" ".join(text.split()).encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class Use:
    """One use of one item: its tier and what it is known by (its sources, or its text)."""

    tier: Tier
    refs: tuple[SourceRef, ...]
    text: str = ""

    @classmethod
    def of(cls, item: MemoryItem | ArchivedItem, tier: Tier) -> Use:
        return cls(tier, tuple(item.sources), "" if item.sources else item.text)


@dataclass(frozen=True)
class Recorded:
    time: str
    day: date
    via: Via
    tier: Tier
    refs: tuple[SourceRef, ...]
    key: str = ""  # hand-written items

    def to_json(self) -> str:
        data: dict[str, object] = {
            "time": self.time,
            "day": self.day.isoformat(),
            "via": self.via,
            "tier": self.tier,
        }
        if self.refs:
            data["refs"] = [str(r) for r in self.refs]
        else:
            data["key"] = self.key
        return json.dumps(data, ensure_ascii=False)


def store_path(root: MemoryRoot) -> Path:
    return root.state_dir / FILE


def _lock(root: MemoryRoot) -> Path:
    return root.state_dir / "locks" / f"{FILE}.lock"


def record_uses(root: MemoryRoot, uses: Iterable[Use], *, when: datetime, via: Via) -> int:
    """Record ``uses`` on ``when``'s day; the number recorded. Never raises for a ledger it
    cannot write (an answer must not fail for bookkeeping): that is logged, 0 returned."""
    stamp = when.isoformat(timespec="seconds")
    lines = []
    for use in uses:
        if not use.refs and not use.text.strip():
            continue
        key = "" if use.refs else text_key(use.text)
        lines.append(Recorded(stamp, when.date(), via, use.tier, use.refs, key).to_json() + "\n")
    return append_records(store_path(root), lines, lock=_lock(root), what="use(s)")


def parse_use(line: str) -> Recorded | None:
    try:
        data = json.loads(line)
        refs = tuple(SourceRef.parse(str(r)) for r in data.get("refs", ()))
        key = str(data.get("key", ""))
        if any(r is None for r in refs) or not (refs or key):
            return None
        if data["via"] not in VIAS or data["tier"] not in ("core", "archive"):
            return None
        return Recorded(
            str(data["time"]),
            date.fromisoformat(str(data["day"])),
            cast(Via, data["via"]),
            cast(Tier, data["tier"]),
            tuple(r for r in refs if r is not None),
            key,
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


@dataclass(frozen=True)
class Usage:
    """How often an item was used (``recent``: within the window asked for) and when last."""

    count: int = 0
    recent: int = 0
    last: date | None = None


@dataclass
class Ledger:
    """The ledger as read, indexed by the lines (or text keys) the uses name."""

    uses: list[Recorded] = field(default_factory=list)
    bad_lines: int = 0
    digest: str = hashlib.sha256(b"").hexdigest()

    def __post_init__(self) -> None:
        self._by_line: dict[Line, list[int]] = defaultdict(list)
        self._by_key: dict[str, list[int]] = defaultdict(list)
        for number, use in enumerate(self.uses):
            for ref in use.refs:
                for n in ref.lines():
                    self._by_line[(ref.path, n)].append(number)
            if use.key:
                self._by_key[use.key].append(number)

    def needs_repair(self, today: date) -> bool:
        """Unreadable lines, or uses older than ``KEEP_DAYS``, to take out."""
        oldest = min((u.day for u in self.uses), default=today)
        return bool(self.bad_lines) or (today - oldest).days > KEEP_DAYS

    def usage(
        self, sources: Sequence[SourceRef], text: str = "", *, since: date | None = None
    ) -> Usage:
        """The uses of an item citing ``sources`` (hand-written: known by ``text``);
        ``recent`` counts those on or after ``since``."""
        if sources:
            numbers = {
                i for r in sources for n in r.lines() for i in self._by_line.get((r.path, n), ())
            }
        else:
            numbers = set(self._by_key.get(text_key(text), ()))
        days = [self.uses[i].day for i in numbers]
        recent = sum(1 for d in days if since is None or d >= since)
        return Usage(len(days), recent, max(days, default=None))


def read_ledger(root: MemoryRoot) -> Ledger:
    """Every readable use, oldest first; unreadable lines are counted, never fatal."""
    try:
        raw = store_path(root).read_bytes()
    except FileNotFoundError:
        return Ledger()
    except OSError as exc:
        log.error("usage ledger of %s unreadable: %s", root.path, exc)
        return Ledger(bad_lines=1, digest=hashlib.sha256(b"unreadable").hexdigest())
    uses, bad = [], 0
    for _, use in parsed_lines(raw, parse_use):
        if use is None:
            bad += 1
        else:
            uses.append(use)
    return Ledger(uses, bad, hashlib.sha256(raw).hexdigest())


def repair(root: MemoryRoot, today: date) -> int:
    """Rewrite the ledger without unreadable lines and uses older than ``KEEP_DAYS``, under
    the writers' lock; the lines removed (unreadable ones kept in ``usage.jsonl.bad``)."""
    oldest = today - timedelta(days=KEEP_DAYS)
    bad, old = compact(store_path(root), lock=_lock(root), parse=parse_use, oldest=oldest)
    return bad + old


# what a hit or a read stands for --------------------------------------------------------


def uses_in(root: MemoryRoot, path: str, start: int, end: int) -> list[Use]:
    """The items of MEMORY.md or the archive on lines ``start``..``end`` of ``path`` (none
    for any other file: a note line is a recall of its own, not an item's use)."""
    if path == "MEMORY.md":
        doc = parse_memory(read_optional(root.memory_md) or "")
        return [Use.of(i, "core") for i in doc.items if start <= i.line <= end]
    if path == root.relative(root.archive):
        entries = parse_archive(read_optional(root.archive) or "")
        return [Use.of(a, "archive") for a in entries if start <= a.line <= end]
    return []


def uses_of_hits(root: MemoryRoot, hits: Iterable[Span | Mapping[str, Any]]) -> list[Use]:
    """The items the search hits (objects or their dicts) fall on."""
    out: list[Use] = []
    for hit in hits:
        path = str(hit_field(hit, "path"))
        start, end = int(hit_field(hit, "start_line")), int(hit_field(hit, "end_line"))
        out += uses_in(root, path, start, end)
    return out
