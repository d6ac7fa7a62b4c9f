"""What a person's card shows: to the model (the speaker's card in the prompt), to a chat
(``/memory people``) and to the web console (JSON). Read only; the ledger never goes into
a prompt."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memory.paths import MemoryRoot
from memory.people.directory import Directory, Person, load_directory
from memory.people.files import Entry, read_person
from memory.provenance import compress_refs


@dataclass(frozen=True)
class CardLine:
    text: str
    sources: tuple[str, ...]
    premises: tuple[str, ...]
    open: tuple[CardLine, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "sources": list(self.sources),
            "premises": list(self.premises),
            "open": [c.to_dict() for c in self.open],
        }


@dataclass(frozen=True)
class CardView:
    slug: str
    id: str
    name: str
    labels: tuple[str, ...]
    lines: tuple[CardLine, ...] = ()
    inductions: tuple[tuple[str, float], ...] = ()  # the ledger's patterns, for admins' eyes
    observations: int = 0
    archived: int = 0
    unreadable: bool = False

    @property
    def open_count(self) -> int:
        return sum(len(line.open) for line in self.lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "id": self.id,
            "name": self.name,
            "labels": list(self.labels),
            "card": [line.to_dict() for line in self.lines],
            "open": self.open_count,
            "inductions": [{"text": t, "confidence": c} for t, c in self.inductions],
            "observations": self.observations,
            "archived": self.archived,
            "unreadable": self.unreadable,
        }


def _line(entry: Entry) -> CardLine:
    return CardLine(
        entry.text,
        tuple(str(r) for r in compress_refs(entry.refs)),
        entry.premises,
        tuple(_line(c) for c in entry.conflicts),
    )


def card_view(root: MemoryRoot, person: Person) -> CardView:
    """``person``'s card as stored (a file that cannot be read shows as ``unreadable``)."""
    labels = tuple(sorted(person.all_labels()))
    try:
        files = read_person(root, person.slug, person.name)
    except (OSError, ValueError):
        return CardView(person.slug, person.id, person.name, labels, unreadable=True)
    return CardView(
        person.slug,
        person.id,
        person.name,
        labels,
        tuple(_line(e) for e in files.card),
        tuple((e.text, e.confidence or 0.0) for e in files.observations if e.kind == "induction"),
        sum(1 for e in files.observations if e.kind == "observation"),
        len(files.archive),
    )


@dataclass
class PeopleView:
    people: list[CardView] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"people": [p.to_dict() for p in self.people]}


def people_view(root: MemoryRoot, directory: Directory | None = None) -> PeopleView:
    directory = directory or load_directory(root)
    people = sorted(directory.people.values(), key=lambda p: (p.name.casefold(), p.slug))
    return PeopleView([card_view(root, p) for p in people])


def prompt_card(view: CardView, max_chars: int) -> str:
    """The card as a prompt block's lines (no sources), open conflicts marked as such,
    within ``max_chars`` (whole lines only)."""
    out: list[str] = []
    used = 0
    for line in view.lines:
        texts = [f"- {line.text}"] + [
            f"  - unresolved, another account: {c.text}" for c in line.open
        ]
        size = sum(len(t) + 1 for t in texts)
        if used + size > max_chars:
            break
        out += texts
        used += size
    return "\n".join(out)
