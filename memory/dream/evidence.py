"""Where a candidate's evidence comes from: source lines, their live text, and recalls.

- :class:`EvidenceSource`: what the light phase reads lines from (the daily notes today; a
  session-log source plugs in beside it). A source also reads one live line back, for
  rehydration.
- :class:`LiveLines`: the live text of cited lines, each file read once.
- :class:`RecallIndex`: which recalls stand for which line; a hit covering several lines
  counts for the lines that share a word with its query (for all of them if none does).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Protocol

from memory.daily_notes import NoteLine, bullet_text, read_lines
from memory.dream.judgement import concepts
from memory.dream.scoring import Evidence
from memory.errors import MemoryEngineError
from memory.paths import MemoryRoot, day_of
from memory.recall_store import Recall

log = logging.getLogger(__name__)

Line = tuple[str, int]  # (root-relative path, 1-based line)
MAX_JUDGED_CHARS = 2000  # a longer line is judged by its beginning (a dream stays linear)


class EvidenceSource(Protocol):
    """One kind of evidence file (daily notes, session logs)."""

    @property
    def name(self) -> str: ...

    def lines(self) -> Sequence[NoteLine]:
        """The source's lines in the dream's window, oldest first."""
        ...

    def owns(self, path: str) -> bool:
        """Whether ``path`` is one of this source's files."""
        ...

    def text(self, raw: str) -> str | None:
        """The statement a raw line of one of its files holds (None: not a statement)."""
        ...


DERIVED = ("memory/dreams/", "memory/dreaming/")  # the dream's own output: never evidence


@dataclass(frozen=True)
class DailyNotes:
    """The bullets of the dated notes ``FOLDER/YYYY-MM-DD.md``. The default folder,
    ``memory``, also owns dated notes in its subfolders (history replayed by a backfill),
    never the diaries, the phase reports or dot-folders."""

    notes: Sequence[NoteLine]
    folder: str = "memory"
    name: str = "daily notes"

    def lines(self) -> Sequence[NoteLine]:
        return self.notes

    def owns(self, path: str) -> bool:
        folder, _, name = path.rpartition("/")
        if day_of(name) is None or not name.endswith(".md"):
            return False
        if folder == self.folder:
            return True
        nested = self.folder == "memory" and folder.startswith("memory/")
        return nested and not path.startswith(DERIVED) and "/." not in folder

    def text(self, raw: str) -> str | None:
        return bullet_text(raw)


def judged(text: str) -> str:
    return text[:MAX_JUDGED_CHARS]


class LiveLines:
    """The live text of lines the sources own; each file is read at most once."""

    def __init__(
        self, root: MemoryRoot, sources: Sequence[EvidenceSource], known: dict[str, list[str]]
    ) -> None:
        self.root = root
        self.sources = sources
        self.files: dict[str, list[str] | None] = dict(known)
        self._owner: dict[str, EvidenceSource | None] = {}
        self._texts: dict[Line, str | None] = {}  # a file is read once: its lines stay

    def _file(self, path: str) -> list[str] | None:
        if path not in self.files:
            try:
                self.files[path] = read_lines(self.root.resolve(path))
            except (MemoryEngineError, OSError) as exc:
                log.warning("cannot read %s: %s", path, exc)
                self.files[path] = None
        return self.files[path]

    def source_of(self, path: str) -> EvidenceSource | None:
        if path not in self._owner:
            self._owner[path] = next((s for s in self.sources if s.owns(path)), None)
        return self._owner[path]

    def text(self, path: str, line: int) -> str | None:
        """The statement at ``path#Lline`` now; None when the line or file is gone."""
        key = (path, line)
        if key not in self._texts:
            source = self.source_of(path)
            lines = self._file(path) if source is not None else None
            if source is None or lines is None or not 1 <= line <= len(lines):
                self._texts[key] = None
            else:
                self._texts[key] = source.text(lines[line - 1])
        return self._texts[key]

    def note_line(self, path: str, line: int) -> NoteLine | None:
        text = self.text(path, line)
        day = day_of(path)
        if not text or day is None:
            return None
        return NoteLine(path, line, text, day, "")


class RecallIndex:
    """Recalls by the line they stand for."""

    def __init__(self, recalls: Sequence[Recall], live: LiveLines) -> None:
        self.recalls = recalls
        self.times = [_parse_time(r.time) for r in recalls]
        self.by_line: dict[Line, list[int]] = defaultdict(list)
        for number, recall in enumerate(recalls):
            covered = [(ref.path, n) for ref in recall.refs for n in ref.lines()]
            if len(covered) > 1:
                asked = concepts(recall.query)
                shared = [
                    line for line in covered if asked & concepts(judged(live.text(*line) or ""))
                ]
                covered = shared or covered
            for line in covered:
                self.by_line[line].append(number)

    def recalled_lines(self) -> set[Line]:
        return set(self.by_line)

    def evidence(
        self,
        lines: Iterable[Line],
        concept_count: int,
        *,
        since: str = "",
        light: tuple[int, date | None] = (0, None),
        rem: tuple[int, date | None] = (0, None),
    ) -> Evidence:
        """The evidence of a statement citing ``lines`` (recalls before ``since`` left out)."""
        cited = set(lines)
        start = _parse_time(since) if since else None
        numbers = {n for line in cited for n in self.by_line.get(line, ())}
        if start is not None:
            numbers = {n for n in numbers if (t := self.times[n]) is None or t >= start}
        chosen = [self.recalls[n] for n in sorted(numbers)]
        days = {d for path, _ in cited if (d := day_of(path)) is not None}
        return Evidence(
            mention_lines=len(cited),
            mention_days=frozenset(days),
            recall_scores=tuple(r.score for r in chosen),
            recall_contexts=len({(r.query.casefold(), r.day) for r in chosen}),
            recall_days=frozenset(r.day for r in chosen),
            concepts=concept_count,
            light_hits=light[0],
            light_last=light[1],
            rem_hits=rem[0],
            rem_last=rem[1],
        )


def _parse_time(text: str) -> datetime | None:
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        return None
    return value if value.tzinfo is not None else None
