"""Which language a message is written in: pure functions, by script and common words.

Scripts are counted in *units* roughly the size of a word: a Latin or Cyrillic word is
one, Chinese characters count 1/1.5 each (a Chinese word is about 1.5 characters).
Commands, mentions, links and file references are left out first. One Chinese character
is enough to say Chinese (no other language we speak writes it); a Latin-script language
needs two words (``ok`` alone says nothing). Languages sharing a script are told apart by
the common words their catalogues list.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Script:
    pattern: re.Pattern[str]
    by_character: bool  # units are characters (Han, kana), else words
    weight: float  # units per character or word
    minimum: float  # the fewest units that say anything


SCRIPTS: dict[str, Script] = {
    "Han": Script(re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"), True, 1 / 1.5, 0.6),
    "Kana": Script(re.compile(r"[\u3040-\u30ff]"), True, 1 / 1.5, 0.6),
    "Hangul": Script(re.compile(r"[\uac00-\ud7af]+"), False, 1.0, 1.0),
    "Cyrillic": Script(re.compile(r"[\u0400-\u04ff]+"), False, 1.0, 2.0),
    "Latin": Script(re.compile(r"[A-Za-z\u00c0-\u024f]+"), False, 1.0, 2.0),
}
# Left out before counting: slash commands, @mentions, links, paths and source refs.
_NOISE = re.compile(r"(?:^|\s)/\w+|@\S+|\S*(?:://|/|#L\d)\S*")


@dataclass(frozen=True)
class Candidate:
    """A language the bot can speak, as detection sees it."""

    code: str
    script: str
    words: tuple[str, ...] = ()


def script_units(text: str) -> dict[str, float]:
    """Units of each script in ``text`` (noise left out); scripts absent are left out."""
    clean = _NOISE.sub(" ", text)
    units: dict[str, float] = {}
    for name, script in SCRIPTS.items():
        found = script.pattern.findall(clean)
        if found:
            units[name] = len(found) * script.weight
    return units


def detect_language(text: str, candidates: Sequence[Candidate]) -> str | None:
    """The code of the candidate ``text`` is written in, or None when it says too little."""
    units = script_units(text)
    known = {c.script for c in candidates}
    scored = [(u, s) for s, u in units.items() if s in known]
    if not scored:
        return None
    best_units, script = max(scored)
    if best_units < SCRIPTS[script].minimum:
        return None
    same = [c for c in candidates if c.script == script]
    if len(same) == 1:
        return same[0].code
    words = {w.lower() for w in re.findall(r"\w+", text)}
    hits = [(len(words & set(c.words)), -i, c.code) for i, c in enumerate(same)]
    top = max(hits)
    return top[2] if top[0] > 0 else None
