"""Is a question's gold answer still said in a memory? (a diagnostic of the eval's negatives)

The eval's ``no_match`` deletes a question's annotated evidence lines and counts the
question as unanswerable; a conversation often says the same thing again elsewhere. This
tests, for a question with a gold ``answer``, whether some remaining line still holds it:

- the answer's *words*: content words (:func:`memory.segment.content_words`: lower case,
  punctuation and stop words dropped) with the keyword index's light English stemming
  (``paintings`` ~ ``painting``); an English word must be a word of the line, a Chinese one
  a substring of it (jieba cuts the answer alone differently from the line around it);
- **strict**: one line holds every word, or, for a list answer ("Kickboxing, Taekwondo"),
  each item is held whole by some line; **loose**: strict, or one line holds most of the
  words (more than half: 2 of 3, 3 of 4);
- the lines read are a memory's content lines: comments stripped, blank lines and
  headings (``# ...``) left out (a session heading's date is no one's answer).

It is a word test, not a judgement: a date worked out from the session's day ("7 May 2023"
for "yesterday"), a count ("两次") or a yes/no is seldom said in words, so such answers read
as absent even where the memory still implies them; a short, common answer ("Single",
"上海") can read as present in an unrelated line. A yes/no verdict is no word a line says
("Likely yes, ...": the words after it are tested); an answer without other content words
("Yes", "No", none given) is not tested (:func:`answer_words` is empty).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from memory.provenance import strip_comments
from memory.search.stemming import stem
from memory.segment import content_words, has_cjk

LOOSE_SHARE = 0.5  # loose: a line holds more than this share of the answer's words
# Verdict words of a yes/no answer ("no" and "not" are stop words already).
VERDICTS = frozenset("yes yeah likely unlikely probably maybe possibly definitely".split())
# A list answer's items: "Kickboxing, Taekwondo", "Pottery, painting, and camping".
_ITEMS = re.compile(r"\s*(?:[,;，、；]|\band\b)\s*", re.IGNORECASE)


@dataclass(frozen=True)
class AnswerFound:
    """Whether the lines hold all (``strict``) or most (``loose``) of an answer's words."""

    strict: bool
    loose: bool


@dataclass(frozen=True)
class Said:
    """A line as the test reads it: its stemmed content words and its lower-cased text."""

    words: frozenset[str]
    text: str


def said(lines: Iterable[str]) -> list[Said]:
    """``lines`` read once for :func:`find_answer`."""
    return [Said(frozenset(stem(w) for w in content_words(line)), line.lower()) for line in lines]


def answer_words(answer: object) -> tuple[str, ...]:
    """The distinct content words of a gold answer, stemmed (empty: nothing to test)."""
    if answer is None:
        return ()
    words = [w for w in content_words(str(answer)) if w not in VERDICTS]
    return tuple(dict.fromkeys(stem(w) for w in words))


def answer_items(answer: object) -> list[tuple[str, ...]]:
    """The words of each item of a list answer (fewer than two items: not a list)."""
    if answer is None:
        return []
    items = [answer_words(part) for part in _ITEMS.split(str(answer))]
    items = [item for item in items if item]
    return items if len(items) >= 2 else []


def _held(words: Sequence[str], line: Said) -> int:
    """How many of ``words`` the line holds (English as words, Chinese as substrings)."""
    return sum(1 for w in words if (w in line.text if has_cjk(w) else w in line.words))


def _best(words: Sequence[str], lines: Sequence[Said]) -> int:
    """The most of ``words`` one line holds."""
    best = 0
    for line in lines:
        best = max(best, _held(words, line))
        if best == len(words):
            break
    return best


def find_answer(answer: object, lines: Sequence[Said]) -> AnswerFound | None:
    """Whether ``lines`` still say a gold answer: strict when one line holds every word of
    it, or, for a list answer, every item is held whole by some line (a multi-hop answer
    is said in several places); loose when one line holds more than half of its words.
    ``None`` when the answer has no words to test."""
    words = answer_words(answer)
    if not words:
        return None
    best = _best(words, lines)
    items = answer_items(answer)
    strict = best == len(words) or (
        bool(items) and all(_best(item, lines) == len(item) for item in items)
    )
    return AnswerFound(strict=strict, loose=strict or best > LOOSE_SHARE * len(words))


def holders(answer: object, lines: Sequence[Said]) -> list[Said]:
    """The lines that hold the whole answer, or the whole of one item of a list answer."""
    units = [answer_words(answer), *answer_items(answer)]
    units = [unit for unit in units if unit]
    return [line for line in lines if any(_held(u, line) == len(u) for u in units)]


def content_lines(root: Path) -> list[str]:
    """The content lines of a memory root's ``MEMORY.md`` and ``memory/*.md``: comments
    stripped, blank lines and headings left out."""
    files = [root / "MEMORY.md", *sorted((root / "memory").glob("*.md"))]
    out = []
    for file in files:
        if not file.is_file():
            continue
        for raw in strip_comments(file.read_text("utf-8")).splitlines():
            line = raw.strip()
            if line and not line.startswith("#"):
                out.append(line)
    return out
