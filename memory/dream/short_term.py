"""The short-term store: candidates staged by the light phase, with their phase signals.

``memory/.dreams/short-term.json`` (written only inside a dream's transaction, under the
root's lock). Each candidate keeps the fields of DESIGN.md (``key, text, refs,
first_seen, last_seen, days, recall_count, unique_queries, confidence, status``), plus a
fingerprint of every line it cites (rehydration drops a candidate whose line changed),
its origin (``light`` or ``backfill``) and its light and REM hits. The text is canonical
JSON (sorted keys, candidates sorted by key), so removing what was added restores the
bytes exactly. An unreadable store is set aside and rebuilt by the next light phase.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any, Literal, cast

from memory.daily_notes import MAX_BULLET_CHARS
from memory.paths import MemoryRoot
from memory.provenance import SourceRef
from memory.transaction import Transaction

log = logging.getLogger(__name__)

FILE = "short-term.json"
Status = Literal["staged", "promoted", "deferred", "rejected", "expired"]
STATUSES: tuple[Status, ...] = ("staged", "promoted", "deferred", "rejected", "expired")
Origin = Literal["light", "backfill"]


def line_hash(text: str) -> str:
    """The fingerprint of one cited line as it was staged (its judged beginning)."""
    return hashlib.sha1(text[:MAX_BULLET_CHARS].strip().encode("utf-8")).hexdigest()[:12]


def candidate_key(first: SourceRef, first_line: str) -> str:
    """A stable key: the first cited line and its text (an edited line is a new key)."""
    raw = f"{first.path}#L{first.start}\0{line_hash(first_line)}"
    return hashlib.sha1(raw.encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class Candidate:
    key: str
    text: str
    refs: tuple[SourceRef, ...]
    first_seen: date
    last_seen: date
    days: int
    recall_count: int
    unique_queries: int
    confidence: float
    status: Status = "staged"
    origin: Origin = "light"
    lines: tuple[tuple[str, str], ...] = ()  # ("path#Ln", line_hash) of every cited line
    light_hits: int = 0
    light_last: date | None = None
    rem_hits: int = 0
    rem_last: date | None = None
    since: str = ""  # recalls recorded before this time do not count (a re-staged line)
    note: str = ""  # why it was rejected, deferred or expired
    promoted_on: date | None = None

    def contract(self) -> dict[str, Any]:
        """The DESIGN.md shape of a staged candidate."""
        return {
            "key": self.key,
            "text": self.text,
            "refs": [str(r) for r in self.refs],
            "first_seen": self.first_seen.isoformat(),
            "last_seen": self.last_seen.isoformat(),
            "days": self.days,
            "recall_count": self.recall_count,
            "unique_queries": self.unique_queries,
            "confidence": self.confidence,
            "status": self.status,
        }

    def to_dict(self) -> dict[str, Any]:
        data = self.contract()
        data.update(
            origin=self.origin,
            lines=dict(self.lines),
            light_hits=self.light_hits,
            light_last=_day(self.light_last),
            rem_hits=self.rem_hits,
            rem_last=_day(self.rem_last),
            since=self.since,
            note=self.note,
            promoted_on=_day(self.promoted_on),
        )
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Candidate:
        refs = tuple(SourceRef.parse(str(r)) for r in data["refs"])
        if not refs or any(r is None for r in refs):
            raise ValueError("bad refs")
        status = str(data["status"])
        origin = str(data.get("origin", "light"))
        if status not in STATUSES or origin not in ("light", "backfill"):
            raise ValueError("bad status or origin")
        return cls(
            key=str(data["key"]),
            text=str(data["text"]),
            refs=tuple(r for r in refs if r is not None),
            first_seen=date.fromisoformat(data["first_seen"]),
            last_seen=date.fromisoformat(data["last_seen"]),
            days=int(data["days"]),
            recall_count=int(data["recall_count"]),
            unique_queries=int(data["unique_queries"]),
            confidence=float(data["confidence"]),
            status=cast(Status, status),
            origin=cast(Origin, origin),
            lines=tuple(sorted((str(k), str(v)) for k, v in dict(data.get("lines", {})).items())),
            light_hits=int(data.get("light_hits", 0)),
            light_last=_parse_day(data.get("light_last")),
            rem_hits=int(data.get("rem_hits", 0)),
            rem_last=_parse_day(data.get("rem_last")),
            since=str(data.get("since", "")),
            note=str(data.get("note", "")),
            promoted_on=_parse_day(data.get("promoted_on")),
        )

    def with_status(self, status: Status, note: str = "") -> Candidate:
        return replace(self, status=status, note=note)


def _day(day: date | None) -> str | None:
    return day.isoformat() if day else None


def _parse_day(value: Any) -> date | None:
    return date.fromisoformat(str(value)) if value else None


@dataclass
class ShortTerm:
    """The store as read: candidates by key, and whether the file could not be trusted."""

    candidates: dict[str, Candidate] = field(default_factory=dict)
    problem: str = ""
    loaded_digest: str = field(default_factory=lambda: text_digest(None))  # the file as read

    def render(self) -> str | None:
        """Canonical JSON, one candidate a line; None when there is nothing to keep (the
        file is removed)."""
        if not self.candidates:
            return None
        items = ",\n".join(
            json.dumps(self.candidates[k].to_dict(), ensure_ascii=False, sort_keys=True)
            for k in sorted(self.candidates)
        )
        return '{"version": 1, "candidates": [\n' + items + "\n]}\n"

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {status: 0 for status in STATUSES}
        for candidate in self.candidates.values():
            out[candidate.status] += 1
        out["backfill"] = sum(1 for c in self.candidates.values() if c.origin == "backfill")
        out["total"] = len(self.candidates)
        return out

    def signals(self) -> dict[str, int]:
        """Light and REM hits recorded over all candidates."""
        values = self.candidates.values()
        return {
            "light": sum(c.light_hits for c in values),
            "rem": sum(c.rem_hits for c in values),
        }


def text_digest(text: str | None) -> str:
    return hashlib.sha256((text or "").encode("utf-8")).hexdigest()


def store_path(root: MemoryRoot) -> str:
    """The store's root-relative path (for transactions)."""
    return root.relative(root.state_dir) + "/" + FILE


def write_store(
    root: MemoryRoot, txn: Transaction, store: ShortTerm, text: str | None = None
) -> None:
    """Add the store (``text``: its rendering, if already made) to ``txn``: its text, or
    its removal when nothing is left."""
    text = store.render() if text is None else text
    if text is not None:
        txn.write(store_path(root), text)
    elif (root.state_dir / FILE).exists():
        txn.delete(store_path(root))


def load_short_term(root: MemoryRoot) -> ShortTerm:
    """The store; a missing file is empty, an unreadable one is reported and treated as empty
    (the light phase rebuilds it; the bad file is kept aside when the dream commits)."""
    path = root.state_dir / FILE
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ShortTerm()
    except (OSError, UnicodeDecodeError) as exc:
        return _broken(root, f"unreadable ({exc.__class__.__name__})")
    store = load_short_term_text(raw)
    return _broken(root, store.problem) if store.problem else store


def load_short_term_text(raw: str) -> ShortTerm:
    """The store in ``raw``; a malformed one comes back empty, with ``problem`` set."""
    try:
        data = json.loads(raw)
        entries = data["candidates"]
        candidates = [Candidate.from_dict(item) for item in entries]
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        return ShortTerm(problem=f"malformed ({exc.__class__.__name__})")
    return ShortTerm({c.key: c for c in candidates}, loaded_digest=text_digest(raw))


def _broken(root: MemoryRoot, why: str) -> ShortTerm:
    message = f"the short-term store {FILE} was {why}; it is rebuilt from the notes"
    log.warning("%s: %s", root.path, message)
    return ShortTerm(problem=message)
