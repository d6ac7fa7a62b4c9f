"""Line-aware chunking of memory markdown into small, citable pieces.

A chunk keeps its file and its 1-based start and end line. Short bullets are grouped with
their neighbours (up to ``max_lines`` lines, ``dialogue_lines`` for conversation turns
``- Name: ...`` whose meaning leans on the turns around them, and ``max_chars`` characters;
consecutive chunks of a block may share ``overlap`` lines, and search then keeps the best of
overlapping hits); headings and blank lines end a group; a line longer than ``max_chars``
is cut into several chunks that all cite that line. Provenance comments
(``<!-- src: ... -->``) are stripped from the text; line numbers stay those of the file.

A chunk of conversation turns that are all greetings, thanks or acknowledgements ("thanks!",
"好的", "ok") is not indexed: it holds no fact, and in a small memory it would otherwise
fill the last places of the top 5.

``MEMORY.md`` and the archive hold items: each bullet is its own chunk (so an item's rank,
and an archived item's status, is its own), and in the archive only the bullets are indexed
(its title and intro are not memory).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory.chatter import is_greeting_or_ack
from memory.provenance import strip_comments

_COMMENT = re.compile(r"<!--(.*?)-->", re.DOTALL)
_IMPORTANCE = re.compile(r"importance\s*[:=]\s*([0-9]*\.?[0-9]+)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
_SPEAKER = re.compile(r"^\s*[-*]\s+(?:\[[^\]]{1,20}\]\s*)?[^\s:：][^:：]{0,30}(?::\s|：)")
_JOINERS = "\u200d\ufe0e\ufe0f"
_BULLET = re.compile(r"^\s*[-*+]\s")
CHUNKER_VERSION = "items-2"  # part of the index signature: a change re-chunks every file
ARCHIVE_PATH = "memory/archive.md"
ITEM_FILES = ("MEMORY.md", ARCHIVE_PATH)  # one item per chunk
BULLETS_ONLY = (ARCHIVE_PATH,)  # lines that are not bullets are not indexed


@dataclass(frozen=True)
class Chunk:
    """A piece of one file: ``text`` is what search shows, lines are 1-based and inclusive."""

    path: str
    start_line: int
    end_line: int
    text: str
    importance: float | None = None


@dataclass(frozen=True)
class ChunkerConfig:
    max_lines: int = 2
    dialogue_lines: int = 3
    max_chars: int = 520
    overlap: int = 0
    sessions: bool = True  # session logs (``sessions/*.jsonl``) are indexed, a turn a chunk


def is_turn(line: str) -> bool:
    """True for a conversation turn bullet: ``- Name: text`` (or ``- [id] Name: text``)."""
    return _SPEAKER.match(line) is not None


def is_chatter_turn(line: str) -> bool:
    """A conversation turn that says nothing but a greeting, thanks or acknowledgement."""
    match = _SPEAKER.match(line)
    return match is not None and is_greeting_or_ack(strip_comments(line[match.end() :]))


def importance_of(line: str) -> float | None:
    """The ``importance: X`` marker in a line's HTML comment, clamped to [0, 1]."""
    for comment in _COMMENT.findall(line):
        match = _IMPORTANCE.search(comment)
        if match:
            return min(1.0, max(0.0, float(match.group(1))))
    return None


def split_long(text: str, max_chars: int) -> list[str]:
    """Cut ``text`` into pieces of at most ``max_chars`` code points, preferring spaces.

    Python strings index code points, so an astral character (an emoji, a rare CJK
    ideograph: a surrogate pair in UTF-16) is never split; a zero-width joiner or variation
    selector stays with the character before it.
    """
    pieces: list[str] = []
    rest = text
    while len(rest) > max_chars:
        cut = rest.rfind(" ", max_chars // 2, max_chars + 1)
        if cut <= 0:
            cut = max_chars
            while cut > 1 and (rest[cut] in _JOINERS or rest[cut - 1] == "\u200d"):
                cut -= 1
        pieces.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        pieces.append(rest)
    return [p for p in pieces if p]


def _max_importance(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return max(present) if present else None


def chunk_text(path: str, text: str, config: ChunkerConfig | None = None) -> list[Chunk]:
    """Chunks of one file's text; ``path`` is stored as given (root-relative)."""
    cfg = config or ChunkerConfig()
    if path.endswith(".jsonl"):
        from memory.search.session_chunks import session_chunks

        return session_chunks(path, text, cfg)
    per_item = path in ITEM_FILES
    bullets_only = path in BULLETS_ONLY
    chunks: list[Chunk] = []
    group: list[tuple[int, str, float | None]] = []

    def flush() -> None:
        if group and all(is_chatter_turn(line) for _, line, _ in group):
            group.clear()
        if group:
            chunks.append(
                Chunk(
                    path,
                    group[0][0],
                    group[-1][0],
                    "\n".join(line for _, line, _ in group),
                    _max_importance([imp for _, _, imp in group]),
                )
            )
            group.clear()

    for number, raw in enumerate(text.splitlines(), start=1):
        line = strip_comments(raw).rstrip()
        if not line.strip() or _HEADING.match(line) or (bullets_only and not _BULLET.match(line)):
            flush()
            continue
        importance = importance_of(raw)
        if len(line) > cfg.max_chars:
            flush()
            for piece in split_long(line, cfg.max_chars):
                chunks.append(Chunk(path, number, number, piece, importance))
            continue
        size = sum(len(existing) + 1 for _, existing, _ in group)
        dialogue = bool(group) and _SPEAKER.match(group[0][1]) is not None
        if (
            (per_item and bool(group) and _BULLET.match(line) is not None)
            or len(group) >= (cfg.dialogue_lines if dialogue else cfg.max_lines)
            or size + len(line) > cfg.max_chars
        ):
            carry = group[len(group) - cfg.overlap :] if 0 < cfg.overlap < len(group) else []
            flush()
            if sum(len(t) + 1 for _, t, _ in carry) + len(line) <= cfg.max_chars:
                group.extend(carry)
        group.append((number, line, importance))
    flush()
    return chunks
