"""``MEMORY.md`` and ``memory/archive.md``: parsing into items and rendering back."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from memory.paths import MemoryRoot
from memory.provenance import Provenance, SourceRef, ref_lines, split_comment, strip_comments
from memory.textfile import read_text

TITLE = "# MEMORY"
ARCHIVE_TITLE = "# Memory Archive"
ARCHIVE_INTRO = "Items that left MEMORY.md: why, when, and their sources. Still searchable."
_BULLET = re.compile(r"^- (?P<body>.*\S)\s*$")
_SECTION = re.compile(r"^##\s+(?P<title>.+?)\s*$")
CONFLICT = "conflict"  # the provenance field naming an item's open conflict ("c1")
SETTLED = "settled"  # a conflict a person settled by keeping both sides
_MARK = re.compile(r"\s*\[open conflict [^\]]*\]\s*$")


def conflict_mark(cid: str) -> str:
    """What MEMORY.md (and so the prompt) shows after an item in open conflict ``cid``."""
    return f"[open conflict {cid}]"


@dataclass(frozen=True)
class MemoryItem:
    """One bullet. Generated items cite their sources; hand-written ones have none."""

    text: str
    sources: tuple[SourceRef, ...] = ()
    section: str = ""
    line: int = 0  # 1-based line in the file it was read from; 0 for a new item
    fields: tuple[tuple[str, str], ...] = ()
    raw: str = ""  # the verbatim line, for hand-written items

    @property
    def handwritten(self) -> bool:
        return not self.sources

    @property
    def conflict(self) -> str:
        """The id of the open conflict this generated item is in ("" for none)."""
        return "" if self.handwritten else dict(self.fields).get(CONFLICT, "")

    def render(self) -> str:
        if self.handwritten and self.raw:
            return self.raw
        comment = Provenance(self.sources, self.fields).render()
        mark = f" {conflict_mark(self.conflict)}" if self.conflict else ""
        return f"- {self.text}{mark} {comment}".rstrip()


def cited_lines(items: Iterable[MemoryItem]) -> set[tuple[str, int]]:
    """Every ``(path, line)`` that some item of ``items`` cites."""
    return ref_lines(ref for item in items for ref in item.sources)


@dataclass
class MemoryDoc:
    """MEMORY.md as sections of entries: items, or other lines kept verbatim."""

    title: str = TITLE
    sections: list[tuple[str, list[MemoryItem | str]]] = field(default_factory=list)

    @property
    def items(self) -> list[MemoryItem]:
        return [e for _, entries in self.sections for e in entries if isinstance(e, MemoryItem)]

    @property
    def generated(self) -> list[MemoryItem]:
        return [i for i in self.items if not i.handwritten]


def parse_memory(text: str) -> MemoryDoc:
    doc = MemoryDoc(sections=[("", [])])
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if number == 1 and line.startswith("# "):
            doc.title = line
            continue
        heading = _SECTION.match(line)
        if heading:
            doc.sections.append((heading.group("title"), []))
            continue
        section, entries = doc.sections[-1]
        bullet = _BULLET.match(line)
        if bullet:
            body, prov = split_comment(bullet.group("body"))
            if prov and prov.sources:
                if prov.get(CONFLICT):  # the mark is shown, not part of the item's text
                    body = _MARK.sub("", body)
                entries.append(
                    MemoryItem(body, prov.sources, section, number, prov.fields, raw=line)
                )
            else:
                # raw, not the stripped line: a hand-written bullet is kept verbatim
                entries.append(
                    MemoryItem(strip_comments(body).strip(), (), section, number, (), raw)
                )
            continue
        entries.append(line)
    return doc


def read_memory(root: MemoryRoot) -> MemoryDoc:
    return parse_memory(read_text(root.memory_md))


def render_memory(old: MemoryDoc, generated: Iterable[MemoryItem]) -> str:
    """A new MEMORY.md: ``old``'s hand-written lines in place, ``generated`` items by section."""
    by_section: dict[str, list[MemoryItem]] = {}
    for item in generated:
        by_section.setdefault(item.section, []).append(item)
    out = [old.title or TITLE]
    seen_sections = set()
    for section, entries in old.sections:
        kept: list[str] = [
            e if isinstance(e, str) else e.render()
            for e in entries
            if isinstance(e, str) or e.handwritten
        ]
        while kept and not kept[-1].strip():  # the blank line before the next heading
            kept.pop()  # would otherwise land between this heading and its items
        kept += [item.render() for item in by_section.pop(section, [])]
        seen_sections.add(section)
        if section:
            if not any(line.strip() for line in kept):
                continue  # a section left empty by the dream disappears
            out += ["", f"## {section}"]
        out += kept
    for section, items in by_section.items():
        out += ["", f"## {section}"] if section else [""]
        out += [item.render() for item in items]
    return _tidy(out)


def _tidy(lines: list[str]) -> str:
    tidy: list[str] = []
    for line in lines:
        if not line.strip() and (not tidy or not tidy[-1].strip()):
            continue
        if line.startswith("## ") and tidy and tidy[-1].strip():
            tidy.append("")
        tidy.append(line)
    while tidy and not tidy[-1].strip():
        tidy.pop()
    return "\n".join(tidy) + "\n"


@dataclass(frozen=True)
class ArchivedItem:
    text: str
    sources: tuple[SourceRef, ...]
    reason: str
    archived: str
    line: int


def parse_archive(text: str) -> list[ArchivedItem]:
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        bullet = _BULLET.match(raw.rstrip())
        if not bullet:
            continue
        body, prov = split_comment(bullet.group("body"))
        prov = prov or Provenance()
        out.append(
            ArchivedItem(
                body, prov.sources, prov.get("reason") or "", prov.get("archived") or "", number
            )
        )
    return out


def read_archive(root: MemoryRoot) -> list[ArchivedItem]:
    return parse_archive(read_text(root.archive))


def archive_entry(item: MemoryItem, reason: str, day: date) -> str:
    """One archive bullet for ``item``, leaving the core for ``reason``."""
    fields = (*item.fields, ("reason", reason), ("archived", day.isoformat()))
    fields = tuple((k, v) for k, v in fields if k not in ("reason", "archived")) + fields[-2:]
    return MemoryItem(item.text, item.sources, fields=fields).render()


def render_archive(old_text: str, entries: list[str]) -> str:
    """``old_text`` with ``entries`` appended (the archive only grows; forget alone deletes)."""
    if not old_text.strip():
        old_text = f"{ARCHIVE_TITLE}\n\n{ARCHIVE_INTRO}\n\n"
    if not entries:
        return old_text
    if not old_text.endswith("\n"):
        old_text += "\n"
    return old_text + "".join(f"{e}\n" for e in entries)


def prompt_memory(root: MemoryRoot, max_chars: int = 4000) -> str:
    """MEMORY.md for a system prompt: provenance comments stripped, cut to ``max_chars``
    at a line boundary."""
    text = read_text(root.memory_md)
    lines = [strip_comments(line).rstrip() for line in text.splitlines()]
    out: list[str] = []
    used = 0
    for line in lines:
        if used + len(line) + 1 > max_chars:
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out).strip()
