"""Facts a person has only one of at a time (where they live, where they work, their
birthday, ...): two statements that fill one slot with different values contradict each
other, whatever else they share. Pure functions.

A value is the words after the slot's trigger, to the next punctuation ("我家在南山区" ->
南山区, "Ann moved to Berlin last year" -> Berlin); two values agree when one contains the
other (南山区 / 南山).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory.dream.similarity import CHANGE, negation_conflict, supersedes

_ZH_VALUE = r"(?P<value>[^\s，,。.！!？?；;、]{1,16}?)"
_EN_VALUE = r"(?P<value>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3})"
_ZH_END = r"(?:了|啦|呢|的|去了|住|工作|上班|$|(?=[\s，,。.！!？?；;]))"

SLOTS: dict[str, tuple[re.Pattern[str], ...]] = {
    "home": (
        re.compile(rf"(?:住在|家在|住|搬到了?|搬去了?|搬家到|定居在?){_ZH_VALUE}{_ZH_END}"),
        re.compile(
            rf"(?i:\b(?:live|lives|living|lived|moved|moving|relocated|based)\s+(?:in|to)\s+)"
            rf"{_EN_VALUE}"
        ),
    ),
    "work": (
        re.compile(rf"(?:在|入职|加入了?|跳槽到|去了?){_ZH_VALUE}(?:工作|上班|实习|任职)"),
        re.compile(
            rf"(?i:\b(?:works?|working|worked|joined|employed)\s+(?:at|for|by)?\s*){_EN_VALUE}"
        ),
    ),
    "birthday": (
        re.compile(r"生日(?:是|在)?(?P<value>\d{1,2}月\d{1,2}[日号]?)"),
        re.compile(r"(?i:\bbirthday is (?:on )?)(?P<value>[\w ]{3,20}?)(?=$|[,.;!?])"),
    ),
    "hometown": (
        re.compile(rf"(?:老家在?|来自|老家是){_ZH_VALUE}{_ZH_END}"),
        re.compile(rf"(?i:\b(?:comes?|am|is) from\s+){_EN_VALUE}"),
    ),
}
_CORRECTION = re.compile(
    r"(?i)(不对|其实|更正|纠正|说错了|\bactually\b|\bcorrection\b|\bI meant\b)"
)


@dataclass(frozen=True)
class Slot:
    name: str
    value: str


def slots(text: str) -> dict[str, str]:
    """Every slot ``text`` fills, with its value (casefolded)."""
    out: dict[str, str] = {}
    for name, patterns in SLOTS.items():
        for pattern in patterns:
            match = pattern.search(text)
            if match and match.group("value").strip():
                out[name] = match.group("value").strip().casefold()
                break
    return out


def _agree(a: str, b: str) -> bool:
    return a in b or b in a


def same_slot_value(new: str, old: str) -> bool:
    """Both fill the same slots, with values that agree (a restatement in other words)."""
    a, b = slots(new), slots(old)
    return bool(a) and set(a) == set(b) and all(_agree(a[n], b[n]) for n in a)


def contradicts(new: str, old: str) -> bool:
    """``new`` states something ``old`` cannot also be: the same slot with another value,
    or (the dream's own tests) a replacement or a negation of it."""
    a, b = slots(new), slots(old)
    shared = set(a) & set(b)
    if shared:
        return any(not _agree(a[name], b[name]) for name in shared)
    return supersedes(new, old) or negation_conflict(new, old)


def marks_change(text: str) -> bool:
    """The statement says something changed or corrects an earlier one."""
    return CHANGE.search(text) is not None or _CORRECTION.search(text) is not None
