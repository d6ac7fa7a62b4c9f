"""Whether a newer value retires an older one, or the two stay side by side as an open
conflict (pure).

A newer statement that gives a new value for what an older one said (the judge's
``replaces``) retires it when the change is clear: it says so ("改成", "搬到", "no longer",
"moved to"), or it came on a later day from the same speaker (a weight, an age, where one
lives). It is an open conflict when nothing settles which is right:

- the newer one doubts rather than replaces ("好像", "maybe", "not sure", a question);
- both were said the same day, with no word of a change;
- different people said them (in a group), with no word of a change, unless the newer is
  its subject's own word about themselves ("Priya: Omar works at Bean Scene", then "Omar:
  I'm a bus driver now"): whom a fact is about knows it best.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Literal

from memory.dream.judge.told_change import clear_change

DOUBT = re.compile(
    r"(?i)(好像|可能|也许|大概|似乎|不确定|不太确定|不知道|记不清|说不准|还是说|或者是|吗[？?]?$|"
    r"[？?]\s*$|\bmaybe\b|\bperhaps\b|\bnot sure\b|\bunsure\b|\bI think\b|\bmight\b|"
    r"\bprobably\b|\bor (?:is|was) it\b|\bmay (?:be|live|work|have)\b|\bI guess\b)"
)

Verdict = Literal["replace", "open"]


@dataclass(frozen=True)
class Side:
    """One statement of the pair: what it says, the day it was said, and who said it
    (empty when unknown: a prior item, a private chat)."""

    text: str
    day: date
    speakers: frozenset[str] = frozenset()
    about: str = ""  # whom it is about (a subject of the judge's), when known


def doubts(text: str) -> bool:
    """Whether ``text`` doubts rather than states ("我好像住在北京？", "maybe Munich")."""
    return bool(DOUBT.search(text))


def verdict(newer: Side, older: Side) -> Verdict:
    """What becomes of ``older`` when ``newer`` gives a new value for the same thing."""
    if doubts(newer.text):
        return "open"
    if clear_change(newer.text):
        return "replace"
    if newer.day == older.day:
        return "open"
    if newer.about and newer.about == older.about and newer.about in newer.speakers:
        return "replace"  # its subject's own word, later than another's about them
    if newer.speakers and older.speakers and not newer.speakers & older.speakers:
        return "open"
    return "replace"
