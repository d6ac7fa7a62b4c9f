"""What the web console shows about one memory root: read-only views, plain dicts."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from bot.console_timeline import timeline_dict
from bot.services import BotServices
from memory.errors import PathOutsideRoot, UsageError
from memory.memory_file import read_archive, read_memory
from memory.paths import MemoryRoot
from memory.provenance import SourceRef
from memory.recovery import ensure_recovered
from memory.search.tools import readable_path
from memory.session_log import display_line, is_session_path
from plugins.status_text import dreaming_info, memory_counts

if TYPE_CHECKING:
    from memory.resolve import Resolution

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MAX_SOURCE_LINES = 200


def _refs(sources: tuple[SourceRef, ...]) -> list[dict[str, Any]]:
    return [{"ref": str(s), "path": s.path, "start": s.start, "end": s.end} for s in sources]


def diary_sections(text: str) -> list[str]:
    """A diary file's ``## `` sections (the file's title left out), in order."""
    sections: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith("## "):
            sections.append([line])
        elif sections:
            sections[-1].append(line)
    return ["\n".join(lines).strip() + "\n" for lines in sections]


def _day(text: str) -> date:
    if not _DATE.match(text):
        raise UsageError(f"not a date (YYYY-MM-DD): {text!r}")
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise UsageError(f"not a date (YYYY-MM-DD): {text!r}") from None


@dataclass(frozen=True)
class ChatEntry:
    """A chat whose memory the console can show: its scope key, title and folder."""

    key: str
    title: str
    folder: str


@dataclass(frozen=True)
class ConsoleTurn:
    """One message of the owner's console conversation, to show again after a reload."""

    role: str
    text: str
    time: str | None


class ConsoleView:
    """Read-only views of ``root`` for the console; every path stays inside the root."""

    def __init__(self, services: BotServices, root: MemoryRoot) -> None:
        self.services = services
        self.root = root
        ensure_recovered(root)

    def today(self) -> str:
        """The bot's date (its one clock), for the console to tell this year from others."""
        return self.services.clock().date().isoformat()

    def memory_items(self) -> list[dict[str, Any]]:
        return [
            {
                "text": i.text,
                "section": i.section,
                "line": i.line,
                "sources": _refs(i.sources),
                "conflict": i.conflict,  # the open conflict it is a side of ("" for none)
            }
            for i in read_memory(self.root).items
        ]

    def conflicts(self) -> list[dict[str, Any]]:
        """The open conflicts of MEMORY.md: each id with its numbered sides and sources."""
        from memory.conflicts import conflicts_json, open_conflicts

        return conflicts_json(open_conflicts(read_memory(self.root).items))

    def resolve(self, cid: str, action: str, side: int | None, now: datetime) -> Resolution:
        """Settle one (the owner's action): keep one side, drop one, or keep both."""
        from memory.resolve import resolve

        done = resolve(self.root, cid, action, side, now=now, by="console")
        self.services.search.discard(self.root)  # MEMORY.md and the archive changed
        return done

    def source(self, ref: str) -> dict[str, Any]:
        parsed = SourceRef.parse(ref)
        if parsed is None:
            raise UsageError(f"not a source reference (PATH#Ln or PATH#Ln-Lm): {ref!r}")
        # Only the memory files a source can name (never scopes/ or bookkeeping).
        path = self.root.resolve(readable_path(self.root, parsed.path))
        if not path.is_file():
            raise UsageError(f"no such file: {parsed.path}")
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        if is_session_path(parsed.path):  # a turn as said, not its JSON
            lines = [display_line(line) for line in lines]
        end = min(parsed.end, parsed.start + MAX_SOURCE_LINES - 1)
        return {
            "ref": str(parsed),
            "path": parsed.path,
            "start": parsed.start,
            "end": end,
            "lines": lines[parsed.start - 1 : end],
            "exists": parsed.start <= len(lines),
        }

    def note_dates(self) -> list[str]:
        return [d.isoformat() for d in reversed(self.root.note_dates())]

    def note(self, day: str) -> str:
        path = self.root.daily_note(_day(day))
        if not path.is_file():
            raise UsageError(f"no daily note for {day}")
        if not self.root.contains(path):
            raise PathOutsideRoot(f"the note of {day} leads outside the memory root")
        return path.read_text(encoding="utf-8", errors="replace")

    def archive(self) -> list[dict[str, Any]]:
        return [
            {
                "text": a.text,
                "reason": a.reason,
                "archived": a.archived,
                "sources": _refs(a.sources),
            }
            for a in read_archive(self.root)
        ]

    def diary(self) -> list[dict[str, str]]:
        folder = self.root.diary_dir
        if not folder.is_dir():
            return []
        entries = []
        for path in sorted(folder.glob("*.md"), reverse=True):
            if _DATE.match(path.stem) and path.is_file() and self.root.contains(path):
                text = path.read_text(encoding="utf-8", errors="replace")
                entries.append({"date": path.stem, "text": text})
        return entries

    def dreaming(self) -> dict[str, Any]:
        info = dreaming_info(self.services, self.root).to_dict()
        counts = memory_counts(self.root)
        info["counts"] = {
            "items": counts.get("items", 0),
            "archive_items": counts.get("archive_items", 0),
            "notes": len(counts.get("notes") or {}),
        }
        return info

    def dreams(self) -> dict[str, Any]:
        """The Dreams view: the dreaming state (phases, counts, next run), the diary in
        sections, and apart from it the backfill lane (its diary entries and the
        candidates it staged)."""
        from memory.dream.backfill import MARK
        from memory.dream.short_term import load_short_term

        info = self.dreaming()
        entries: list[dict[str, str]] = []
        backfill: list[dict[str, str]] = []
        for entry in self.diary():
            for section in diary_sections(entry["text"]):
                lane = backfill if MARK in section else entries
                lane.append({"date": entry["date"], "text": section})
        store = load_short_term(self.root)
        staged = sorted(
            (c for c in store.candidates.values() if c.origin == "backfill"),
            key=lambda c: (c.first_seen, c.key),
        )
        info["diary"] = entries
        info["backfill"] = {"entries": backfill, "candidates": [c.contract() for c in staged]}
        info["timeline"] = timeline_dict(self.root, self.services.config.memory_token_budget)
        return info

    def remove_backfill_staged(self) -> dict[str, Any]:
        """Remove the candidates a backfill staged, and nothing else (the owner's action)."""
        from memory.dream.backfill import rollback_short_term

        return rollback_short_term(self.root).to_dict()

    def index(self) -> dict[str, Any]:
        """The search index's state: files, chunks, vectors still being computed."""
        status = self.services.search.status(self.root)
        keys = ("files", "chunks", "vectors", "pending", "state", "provider")
        return {key: status.get(key) for key in keys}

    def search(self, query: str, limit: int = 8) -> list[dict[str, Any]]:
        if not query.strip():
            raise UsageError("the search query is empty")
        hits = self.services.search.search(self.root, query, limit=limit)
        return [hit.to_dict() for hit in hits]

    def people(self) -> dict[str, Any]:
        """The chat's members and their cards (with sources); empty outside groups."""
        from memory.people.view import people_view

        return people_view(self.root).to_dict()

    def person(self, name: str) -> dict[str, Any]:
        """One member's card with its sources (by label, display name, id or slug)."""
        from memory.people.directory import load_directory
        from memory.people.view import card_view

        found = load_directory(self.root).find(name)
        if len(found) != 1:
            what = "nobody" if not found else f"{len(found)} people"
            raise UsageError(f"{what} in this chat called {name!r}")
        return card_view(self.root, found[0]).to_dict()
