"""What MEMORY.md and the archive say about which lines are current, for ranking.

Every generated MEMORY.md item and archive entry cites the lines it came from
(:mod:`memory.provenance`). Search reads four things from those citations:

- ``superseded``: the archive entries a newer item replaced (``reason: superseded``);
- ``replaced``: the note lines such an entry was distilled from, unless an item still in
  MEMORY.md or archived for another reason cites them too (a packed line whose other
  facts still hold): the old wording of a replaced fact. A chunk holding one and no line
  of a live item must not outrank the item that replaced it either;
- for each current MEMORY.md item, the date of its newest dated source (the day the dream
  last saw evidence for it): it is the current word on what older notes say of the same
  question;
- for each superseded entry, the current items that may have replaced it: those citing a
  line dated no earlier than the entry's newest source, no later than the day it was
  archived and within the days a dream reads by default before it (the dream that retired
  it read those lines, and the new value was among them), and none of the entry's own lines
  (an item that does is what is left of a packed line whose other clause changed). Search
  gives the one of them most like the question the relevance of the old wording (the
  entry, or its note lines), so a question asked in the old fact's words ("where do I
  live?" against "lives in Berlin") finds the new one ("moved to Porto");
- for each note line, the current items citing it (``cited``): when the line answers the
  question itself, the item distilled from it takes on its relevance (a question in the
  first person, "where do I work?", matches the user's own words, "I work as a nurse",
  far better than the item's third person, "The user is Lena, a nurse").

Both files are read again only when their size or modification time changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cached_property

from memory.errors import MalformedFile
from memory.memory_file import ArchivedItem, MemoryItem, read_archive, read_memory
from memory.paths import MemoryRoot
from memory.provenance import ref_lines
from memory.search.chunker import ARCHIVE_PATH
from memory.search.ranking import CORE_PATH, note_date
from memory.search.store import FileRow
from memory.segment import content_words
from memory.speaker import USER_NAMES

Key = tuple[int, int] | None
DREAM_DAYS = 3  # the days of notes a dream reads by default (memory.dream.DreamOptions.days)


@dataclass(frozen=True)
class Currency:
    superseded: frozenset[tuple[str, int]] = frozenset()
    replaced: frozenset[tuple[str, int]] = frozenset()
    live: frozenset[tuple[str, int]] = frozenset()  # lines an item not superseded cites
    successors: Mapping[tuple[str, int], frozenset[int]] = field(default_factory=dict)
    as_of: Mapping[int, date] = field(default_factory=dict)  # MEMORY.md line -> newest source
    cited: Mapping[tuple[str, int], frozenset[int]] = field(default_factory=dict)  # -> items
    words: Mapping[int, frozenset[str]] = field(default_factory=dict)  # item line -> its words

    @cached_property
    def cited_paths(self) -> frozenset[str]:
        """The files with a line that an item cites or that an item may have replaced:
        :meth:`successors_of` and :meth:`distilled_from` find nothing in any other."""
        return frozenset(path for path, _ in (*self.successors, *self.cited))

    def distilled_from(
        self, path: str, start: int, end: int, text: str, answers: Callable[[str], bool]
    ) -> set[int]:
        """The MEMORY.md lines of the items distilled from lines ``start..end`` of ``path``
        (``text``, one line a line) that answer the question themselves (``answers``), or
        from a chunk of one line, and that share a content word with the line (other than
        the user's own name: an item holds the part of the line it was distilled from): the
        item is the curated word on what that line says. A line of a chunk that only sits
        beside the matching one lends nothing (an item citing "I go swimming" is no answer
        to a question its neighbour "I am allergic to peanuts" matched)."""
        if not self.cited:
            return set()
        lines = text.split("\n")
        whole = len(lines) == end - start + 1
        out: set[int] = set()
        for n in range(start, end + 1):
            items = self.cited.get((path, n))
            if not items or not whole or not (start == end or answers(lines[n - start])):
                continue
            said = _words(lines[n - start])
            out |= {i for i in items if self.words.get(i, frozenset()) & said}
        return out

    def successors_of(self, path: str, start: int, end: int) -> set[int]:
        """The MEMORY.md lines of the items that may have replaced what lines ``start..end``
        of ``path`` say: a superseded entry's possible successors, and those of the entries
        distilled from a note chunk holding only a replaced fact's lines."""
        out: set[int] = set()
        if self.successors and (
            (path, start) in self.superseded or self.holds_replaced(path, start, end)
        ):
            for n in range(start, end + 1):
                out |= self.successors.get((path, n), frozenset())
        return out

    def holds_replaced(self, path: str, start: int, end: int) -> bool:
        """Whether lines ``start..end`` of ``path`` hold the old wording of a replaced fact
        and no line an item not superseded cites."""
        if not self.replaced:
            return False
        lines = [(path, n) for n in range(start, end + 1)]
        return any(x in self.replaced for x in lines) and not any(x in self.live for x in lines)


NO_CURRENCY = Currency()


def currency_of(items: list[MemoryItem], archived: list[ArchivedItem]) -> Currency:
    """The :class:`Currency` of MEMORY.md's ``items`` and the archive's entries."""
    old = [a for a in archived if a.reason == "superseded"]
    kept = [a for a in archived if a.reason != "superseded"]
    live = ref_lines(ref for i in items for ref in i.sources) | ref_lines(
        ref for a in kept for ref in a.sources
    )
    replaced = ref_lines(ref for a in old for ref in a.sources) - live
    successors: dict[tuple[str, int], set[int]] = {}
    for entry in old:
        after = _newest(r.path for r in entry.sources)
        until = _day(entry.archived)
        if until is not None:  # what the retiring dream read: its last DREAM_DAYS days
            earliest = until - timedelta(days=DREAM_DAYS - 1)
            after = earliest if after is None else max(after, earliest)
        own = ref_lines(entry.sources)  # an item citing these is what is left of a packed line
        heirs = {
            item.line
            for item in items
            if not ref_lines(item.sources) & own
            and any(_between(note_date(r.path), after, until) for r in item.sources)
        }
        if heirs:
            successors.setdefault((ARCHIVE_PATH, entry.line), set()).update(heirs)
            for line in own & replaced:
                successors.setdefault(line, set()).update(heirs)
    as_of = {i.line: d for i in items if (d := _newest(r.path for r in i.sources)) is not None}
    cited: dict[tuple[str, int], set[int]] = {}
    for item in items:
        for line in ref_lines(item.sources):
            cited.setdefault(line, set()).add(item.line)
    return Currency(
        superseded=frozenset((ARCHIVE_PATH, a.line) for a in old),
        replaced=frozenset(replaced),
        live=frozenset(live),
        successors={line: frozenset(heirs) for line, heirs in successors.items()},
        as_of=as_of,
        cited={line: frozenset(found) for line, found in cited.items()},
        words={i.line: _words(i.text) for i in items},
    )


class CurrencyReader:
    """Keeps the last :class:`Currency` of one root and reads the files again only when the
    index saw one of them change."""

    def __init__(self, root: MemoryRoot) -> None:
        self.root = root
        self._keys: tuple[Key, Key] | None = None
        self._currency = NO_CURRENCY

    def read(self, files: Mapping[str, FileRow]) -> Currency:
        core, archive = files.get(CORE_PATH), files.get(ARCHIVE_PATH)
        keys = (_key(core), _key(archive))
        if keys != self._keys:
            items = self._items() if core is not None else []
            archived = self._archived() if archive is not None else []
            self._keys, self._currency = keys, currency_of(items, archived)
        return self._currency

    def _items(self) -> list[MemoryItem]:
        try:
            return read_memory(self.root).generated
        except (MalformedFile, OSError):  # unreadable: nothing in it is known to be current
            return []

    def _archived(self) -> list[ArchivedItem]:
        try:
            return read_archive(self.root)
        except (MalformedFile, OSError):  # not text: nothing in it is known to be superseded
            return []


def _words(text: str) -> frozenset[str]:
    return frozenset(w for w in content_words(text) if w not in USER_NAMES)


def _newest(paths: Iterable[str]) -> date | None:
    days = [d for d in map(note_date, paths) if d is not None]
    return max(days) if days else None


def _day(text: str) -> date | None:
    try:
        return date.fromisoformat(text.strip()) if text.strip() else None
    except ValueError:
        return None


def _between(day: date | None, after: date | None, until: date | None) -> bool:
    """Whether ``day`` is no earlier than ``after`` and no later than ``until`` (a bound
    that is ``None`` does not bound): a fact can change on the day it was said."""
    if day is None:
        return False
    return (after is None or day >= after) and (until is None or day <= until)


def _key(row: FileRow | None) -> Key:
    return None if row is None else (row.size, row.mtime)
