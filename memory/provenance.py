"""Source references (``memory/2026-11-28.md#L12``, ``...#L4-L5``) and the trailing HTML
comment that carries them: ``<!-- src: REF; REF; reason: superseded; archived: 2026-11-30 -->``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

_REF = re.compile(r"^(?P<path>[^#\s;][^#;]*?)#L(?P<start>\d+)(?:-L?(?P<end>\d+))?$")
_COMMENT = re.compile(r"\s*<!--\s*(?P<body>.*?)\s*-->\s*$")
_FIELD = re.compile(r"^(?P<key>[a-z_]+)\s*:\s*(?P<value>.*)$")
_ANY_COMMENT = re.compile(r"\s*<!--.*?-->")


def _root_relative(path: str) -> bool:
    """A path that can only name a file inside a root: relative, no ``..``, no ``~``,
    no backslash (a bogus ``../../etc/passwd`` is no source)."""
    if path.startswith(("/", "~")) or "\\" in path or "\x00" in path:
        return False
    return ".." not in path.split("/")


@dataclass(frozen=True, order=True)
class SourceRef:
    """Lines ``start``..``end`` (1-based, inclusive) of the root-relative file ``path``."""

    path: str
    start: int
    end: int

    @classmethod
    def parse(cls, text: str) -> SourceRef | None:
        return _parse_ref(text)

    def __str__(self) -> str:
        if self.end == self.start:
            return f"{self.path}#L{self.start}"
        return f"{self.path}#L{self.start}-L{self.end}"

    def lines(self) -> range:
        return range(self.start, self.end + 1)


@lru_cache(maxsize=65536)
def _parse_ref(text: str) -> SourceRef | None:
    match = _REF.match(text.strip())
    if not match:
        return None
    start = int(match.group("start"))
    end = int(match.group("end") or start)
    path = match.group("path").strip()
    if start < 1 or end < start or not _root_relative(path):
        return None
    return SourceRef(path, start, end)


@dataclass(frozen=True)
class Provenance:
    """The parsed trailing comment of a bullet."""

    sources: tuple[SourceRef, ...] = ()
    fields: tuple[tuple[str, str], ...] = ()

    def get(self, key: str) -> str | None:
        return dict(self.fields).get(key)

    def render(self) -> str:
        parts = [str(ref) for ref in self.sources]
        if parts:
            parts[0] = f"src: {parts[0]}"
        parts.extend(f"{key}: {value}" for key, value in self.fields)
        return f"<!-- {'; '.join(parts)} -->" if parts else ""


def ref_lines(refs: Iterable[SourceRef]) -> set[tuple[str, int]]:
    """Every ``(path, line)`` the references cite."""
    return {(ref.path, n) for ref in refs for n in ref.lines()}


def compress_refs(refs: Iterable[SourceRef]) -> tuple[SourceRef, ...]:
    """Sorted, de-duplicated references, adjacent lines of a file joined into ranges."""
    lines: dict[str, set[int]] = defaultdict(set)
    for ref in refs:
        lines[ref.path].update(ref.lines())
    out: list[SourceRef] = []
    for path in sorted(lines):
        numbers = sorted(lines[path])
        start = prev = numbers[0]
        for n in numbers[1:]:
            if n != prev + 1:
                out.append(SourceRef(path, start, prev))
                start = n
            prev = n
        out.append(SourceRef(path, start, prev))
    return tuple(out)


def split_comment(text: str) -> tuple[str, Provenance | None]:
    """``"text <!-- src: a#L1 -->"`` -> ``("text", Provenance(...))``; no comment -> None."""
    match = _COMMENT.search(text)
    if not match:
        return text.rstrip(), None
    body = match.group("body")
    if not body.startswith("src:"):
        return text.rstrip(), None
    sources: list[SourceRef] = []
    fields: list[tuple[str, str]] = []
    for part in body.split(";"):
        part = part.strip()
        if part.startswith("src:"):
            part = part[4:].strip()
        ref = SourceRef.parse(part)
        if ref:
            sources.append(ref)
            continue
        field = _FIELD.match(part)
        if field:
            fields.append((field.group("key"), field.group("value").strip()))
    return text[: match.start()].rstrip(), Provenance(tuple(sources), tuple(fields))


def strip_comments(text: str) -> str:
    """Remove every HTML comment (provenance) from ``text``."""
    return _ANY_COMMENT.sub("", text)


class Span(Protocol):
    """Lines of one memory file (a search hit, a chunk): the shape the stores read."""

    @property
    def path(self) -> str: ...
    @property
    def start_line(self) -> int: ...
    @property
    def end_line(self) -> int: ...


def hit_field(hit: object | Mapping[str, Any], name: str) -> Any:
    """``name`` of a hit given as an object or as its dict (the console's JSON)."""
    return hit[name] if isinstance(hit, Mapping) else getattr(hit, name)
