"""Is a question's gold answer still said in a memory? (a diagnostic of the eval's negatives)

The eval's ``no_match`` deletes a question's annotated evidence lines and counts the
question as unanswerable; a conversation often says the same thing again elsewhere. This
tests, for a question with a gold ``answer``, whether some remaining line still holds it:

- the answer's *words*: content words (:func:`memory.segment.content_words`: lower case,
  punctuation and stop words dropped) with the keyword index's light English stemming
  (``paintings`` ~ ``painting``); an English word must be a word of the line, a Chinese one
  a substring of it (jieba cuts the answer alone differently from the line around it);
- **strict**: one line holds every word; **loose**: one line holds most of them (more than
  half: 2 of 3, 3 of 4);
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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from memory.provenance import strip_comments
from memory.search.stemming import stem
from memory.segment import content_words, has_cjk

LOOSE_SHARE = 0.5  # loose: a line holds more than this share of the answer's words
# Verdict words of a yes/no answer ("no" and "not" are stop words already).
VERDICTS = frozenset("yes yeah likely unlikely probably maybe possibly definitely".split())


@dataclass(frozen=True)
class AnswerFound:
    """Whether some line holds all (``strict``) or most (``loose``) of an answer's words."""

    strict: bool
    loose: bool


def answer_words(answer: object) -> tuple[str, ...]:
    """The distinct content words of a gold answer, stemmed (empty: nothing to test)."""
    if answer is None:
        return ()
    words = [w for w in content_words(str(answer)) if w not in VERDICTS]
    return tuple(dict.fromkeys(stem(w) for w in words))


def _held(words: Sequence[str], line: str) -> int:
    """How many of ``words`` the line holds (English as words, Chinese as substrings)."""
    mine = {stem(w) for w in content_words(line)}
    lowered = line.lower()
    return sum(1 for w in words if (w in lowered if has_cjk(w) else w in mine))


def find_answer(words: Sequence[str], lines: Iterable[str]) -> AnswerFound:
    """Whether one of ``lines`` holds every one of ``words`` (strict) or more than half
    of them (loose); ``words`` from :func:`answer_words`, not empty."""
    if not words:
        raise ValueError("no answer words to look for")
    best = 0
    for line in lines:
        best = max(best, _held(words, line))
        if best == len(words):
            break
    return AnswerFound(strict=best == len(words), loose=best > LOOSE_SHARE * len(words))


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
