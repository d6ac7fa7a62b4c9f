"""The files of ``people/<slug>/``: ``observations.md`` (the ledger), ``card.md`` (stable
facts, each citing its premises) and ``archive.md`` (what left either, and why).

Every line is a bullet whose trailing comment holds its provenance, as in MEMORY.md::

    ## Observations
    - 王芳: 李四下个月结婚 <!-- src: memory/2026-11-30.md#L2; id: o2; by: telegram-7 -->
    ## Inductions
    - 李四: 我周末通常去爬山 <!-- src: memory/2026-11-29.md#L6; id: i1; confidence: 0.40 -->

    # 李四
    - 李四: 我家在南山区 <!-- src: memory/2026-11-29.md#L4; id: c1; premises: o1 -->
      - 王芳: 李四住在福田 <!-- src: memory/2026-12-01.md#L3; premises: o6; status: open -->

An observation's text is who said it and what they said. A card line either is such an
observation (the simplest deduction: it follows from itself) or a conclusion worded by
the model; in both cases ``premises`` names the ledger entries it follows from and ``src``
their source lines. An indented ``status: open`` line under a card line is a conflicting
observation the dream did not decide.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from memory.paths import MemoryRoot
from memory.people.directory import FOLDER
from memory.provenance import Provenance, SourceRef, compress_refs, split_comment

OBSERVATIONS, CARD, ARCHIVE = "observations.md", "card.md", "archive.md"
KINDS = ("observation", "induction")
_SECTIONS = {"## Observations": "observation", "## Inductions": "induction"}


@dataclass
class Entry:
    """One ledger entry, one card line or one archived line."""

    id: str
    text: str  # "speaker: statement", or a worded conclusion on a card
    refs: tuple[SourceRef, ...]
    kind: str = "observation"  # or "induction" (ledger only)
    day: str = ""
    by: str = ""  # the speaker's slug ("" when they have no lasting id)
    confidence: float | None = None  # inductions
    premises: tuple[str, ...] = ()  # card lines: the ledger ids they follow from
    seen: int = 1  # restatements folded in
    uses: int = 0  # times shown in a prompt or cited as a premise
    status: str = ""  # "open" on a conflict line
    reason: str = ""  # archived lines: why
    archived: str = ""  # archived lines: when
    conflicts: list[Entry] = field(default_factory=list)  # card lines: open conflicts
    raw: str = ""  # a line written by hand (no provenance): kept exactly as it is

    @property
    def by_hand(self) -> bool:
        return bool(self.raw)

    def fields(self) -> list[tuple[str, str]]:
        out = [("id", self.id)] if self.id else []
        out += [("day", self.day)] if self.day else []
        out += [("by", self.by)] if self.by else []
        if self.confidence is not None:
            out.append(("confidence", f"{self.confidence:.2f}"))
        out += [("premises", ",".join(self.premises))] if self.premises else []
        out += [("seen", str(self.seen))] if self.seen > 1 else []
        out += [("uses", str(self.uses))] if self.uses else []
        out += [("status", self.status)] if self.status else []
        out += [("archived", self.archived)] if self.archived else []
        out += [("reason", self.reason)] if self.reason else []
        return out

    def render(self, indent: str = "") -> str:
        if self.raw:
            return self.raw
        comment = Provenance(compress_refs(self.refs), tuple(self.fields())).render()
        return f"{indent}- {self.text} {comment}".rstrip()


def _entry(text: str, prov: Provenance, kind: str) -> Entry:
    get = prov.get
    confidence = get("confidence")
    return Entry(
        id=get("id") or "",
        text=text,
        refs=prov.sources,
        kind=kind,
        day=get("day") or "",
        by=get("by") or "",
        confidence=float(confidence) if confidence else None,
        premises=tuple(p for p in (get("premises") or "").split(",") if p.strip()),
        seen=int(get("seen") or 1),
        uses=int(get("uses") or 0),
        status=get("status") or "",
        reason=get("reason") or "",
        archived=get("archived") or "",
    )


def parse_entries(text: str) -> list[Entry]:
    """The entries of a people file: its bullets (a bullet without provenance was written
    by hand and is kept verbatim; headings and other prose are the file's own and are
    written again). Raises ValueError on a malformed number."""
    out: list[Entry] = []
    kind = "observation"
    for raw in text.splitlines():
        stripped = raw.strip()
        if stripped in _SECTIONS:
            kind = _SECTIONS[stripped]
            continue
        if not stripped.startswith("- "):
            continue
        body, prov = split_comment(stripped[2:])
        if prov is None:  # written by hand: kept as it is, never changed by a dream
            out.append(Entry("", body, (), kind=kind, raw=raw.rstrip()))
            continue
        entry = _entry(body, prov, kind)
        nested = raw.startswith((" ", "\t"))
        if nested and entry.status == "open" and out:
            out[-1].conflicts.append(entry)
        else:
            out.append(entry)
    return out


@dataclass
class PersonFiles:
    """A person's ledger, card and archive, as read (or about to be written)."""

    slug: str
    name: str
    observations: list[Entry] = field(default_factory=list)
    card: list[Entry] = field(default_factory=list)
    archive: list[Entry] = field(default_factory=list)

    @property
    def ledger(self) -> dict[str, Entry]:
        return {e.id: e for e in self.observations if e.id}

    def next_id(self, prefix: str) -> str:
        used = {e.id for e in (*self.observations, *self.card, *self.archive)}
        used |= {c.id for e in self.card for c in e.conflicts}
        number = 1
        while f"{prefix}{number}" in used:
            number += 1
        return f"{prefix}{number}"

    def archive_entry(self, entry: Entry, day: str, reason: str) -> None:
        self.archive.append(replace(entry, archived=day, reason=reason, conflicts=[]))

    def render_observations(self) -> str:
        lines = [f"# Observations: {self.name}", "", "## Observations"]
        lines += [e.render() for e in self.observations if e.kind == "observation"]
        lines += ["", "## Inductions"]
        lines += [e.render() for e in self.observations if e.kind == "induction"]
        return "\n".join(lines) + "\n"

    def render_card(self) -> str:
        lines = [f"# {self.name}", ""]
        for entry in self.card:
            lines.append(entry.render())
            lines += [c.render("  ") for c in entry.conflicts]
        return "\n".join(lines) + "\n"

    def render_archive(self) -> str:
        lines = [f"# Archive: {self.name}", ""] + [e.render() for e in self.archive]
        return "\n".join(lines) + "\n"


def person_dir(root: MemoryRoot, slug: str) -> Path:
    return root.path / FOLDER / slug


def relative(slug: str, name: str) -> str:
    return f"{FOLDER}/{slug}/{name}"


def read_person(root: MemoryRoot, slug: str, name: str) -> PersonFiles:
    """A person's files (empty ones when missing). Raises ValueError when one is malformed."""
    folder = person_dir(root, slug)
    out = PersonFiles(slug, name)
    for attr, file in (("observations", OBSERVATIONS), ("card", CARD), ("archive", ARCHIVE)):
        path = folder / file
        if path.is_file():
            setattr(out, attr, parse_entries(path.read_text(encoding="utf-8")))
    return out
