"""The names a question uses, to tell "someone the memory never heard of" at once.

"What did Jon do for his dance studio?" asked of a memory that never mentions a Jon is
about nobody it knows: whatever it finds about dance studios is about someone else. Both
retrievers miss this (the other words match, and a bi-encoder puts one person's news close
to another's), so a question whose every name is absent from the memory gets no hits.

A name is a word written with a capital letter that does not start a sentence (and is not
a month or a weekday, which questions name freely and notes write as dates). Chinese has no
capitals, so a Chinese question names nothing here. Pure text processing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'’\-]*|[.?!。？！]")
_ABBREVIATION = re.compile(r"[A-Z][a-z]{0,2}")  # Dr. Mr. Mrs. St.: their dot ends nothing
_CALENDAR = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec "
    "monday tuesday wednesday thursday friday saturday sunday".split()
)


def names(query: str) -> list[str]:
    """The capitalised words of ``query`` that do not open a sentence, in order: ``"Did
    Jon meet Gina in May?"`` -> ``["Jon", "Gina"]``."""
    out = []
    opening = True
    previous = ""
    for match in _WORD.finditer(query):
        word = match.group(0)
        if word in ".?!。？！":
            opening = opening or not (word == "." and _ABBREVIATION.fullmatch(previous))
            previous = ""
            continue
        capital = word[0].isupper() and len(word) > 1
        after_dot = query[match.end() : match.end() + 1] == "."
        if after_dot and _ABBREVIATION.fullmatch(word):
            capital = False  # a title (Dr. Seuss): the name is what follows
        if not opening and capital and word.lower() not in _CALENDAR:
            out.append(word)
        opening = False
        previous = word
    return out


def names_unheard(
    query: str, unheard: Collection[str], tokenize: Callable[[str], Iterable[str]]
) -> bool:
    """True when ``query`` names someone or something and none of its names is in the
    memory: every term of every name is in ``unheard`` (the query terms no chunk holds).
    ``tokenize`` gives a name's query terms (a name that gives none is no name)."""
    terms = [t for name in names(query) for t in tokenize(name)]
    return bool(terms) and all(t in unheard for t in terms)
