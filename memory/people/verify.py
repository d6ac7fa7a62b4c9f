"""The people verifier: what the model words must follow from the ledger.

A **card line** (a deduction) is accepted only if it names premises, every premise is a
recorded observation of this person (not an induction, not an unknown id), it is no
pattern and no doubt (an induction aimed at a card is refused however it is worded), and
its premises support it (the grounding verifier's word and character-pair share, with
the person's own names and the speakers' heads set aside). An **induction** must name
observations that support it and carries a confidence in [0, 0.9]. Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from memory.dream.grounding import SUPPORT_THRESHOLD, support
from memory.people.files import Entry
from memory.people.fold import statement_of
from memory.people.reasoning import INDUCTION, MAX_CONFIDENCE, is_hedged, is_induction


@dataclass(frozen=True)
class Check:
    ok: bool
    reason: str = ""


_WORD = re.compile(r"[A-Za-z]{4,}")
_SUFFIX = re.compile(r"(?:ies|es|s|ing|ed)$")


def _stem(match: re.Match[str]) -> str:
    """A crude English stem: "lives" and "live", "moved" and "move" compare equal."""
    word = match.group(0).lower()
    stem = _SUFFIX.sub("", word).removesuffix("e")
    return stem if len(stem) >= 3 else word


def _without(text: str, names: Iterable[str]) -> str:
    for name in sorted(set(names), key=len, reverse=True):
        if name:
            text = text.replace(name, " ")
    return _WORD.sub(_stem, text)


def _premises(
    premises: Sequence[str], ledger: Mapping[str, Entry]
) -> tuple[list[Entry], str | None]:
    if not premises:
        return [], "cites no premises"
    found = []
    for pid in premises:
        entry = ledger.get(pid)
        if entry is None:
            return [], f"cites an unknown premise {pid!r}"
        found.append(entry)
    return found, None


def _supported(text: str, premises: Sequence[Entry], names: Iterable[str]) -> Check:
    names = list(names)
    sources = [_without(statement_of(e.text), names) for e in premises]
    share = support(_without(text, names), sources)
    if share < SUPPORT_THRESHOLD:
        return Check(False, f"not supported by its premises (support {share:.2f})")
    return Check(True)


def check_deduction(
    text: str, premises: Sequence[str], ledger: Mapping[str, Entry], names: Iterable[str]
) -> Check:
    """May ``text`` go on the card, following from ``premises``?"""
    if not text.strip():
        return Check(False, "empty text")
    if is_induction(text):
        return Check(False, "an induction never goes on a card")
    if is_hedged(text):
        return Check(False, "a doubt is no deduction")
    found, missing = _premises(premises, ledger)
    if missing:
        return Check(False, missing)
    if any(e.kind == "induction" for e in found):
        return Check(False, "a deduction cannot rest on an induction")
    return _supported(text, found, names)


def check_induction(
    text: str,
    premises: Sequence[str],
    confidence: object,
    ledger: Mapping[str, Entry],
    names: Iterable[str],
) -> Check:
    """May ``text`` join the ledger as a pattern drawn from ``premises``?"""
    if not text.strip():
        return Check(False, "empty text")
    if not isinstance(confidence, int | float) or isinstance(confidence, bool):
        return Check(False, "an induction needs a numeric confidence")
    if not 0.0 <= float(confidence) <= MAX_CONFIDENCE:
        return Check(False, f"confidence must be between 0 and {MAX_CONFIDENCE}")
    found, missing = _premises(premises, ledger)
    if missing:
        return Check(False, missing)
    return _supported(INDUCTION.sub(" ", text), found, names)  # the pattern word is its own
