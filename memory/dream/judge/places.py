"""A place inside a statement about something else, and a move to another place.

"The user's brother Yusuf is a pharmacist in Cardiff", "works at Tesco in Leeds",
"在重庆做建筑设计", "在杭州一家外贸公司做跟单": the place modifies what one is or does, and a
later move ("Yusuf is moving to Manchester", "何俊调回成都了") changes the place alone. The
role and the employer still hold, so only the place leaves (:func:`split_place`); a
statement whose place is the whole fact ("lives in Leeds", "在上海工作") is not read here.

Pure functions over text; whose words a statement names (``who``) come from the caller.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory.dream.judge.label import LABEL as _LABEL
from memory.search.stemming import stem
from memory.segment import content_words

# A place's name in English is capitalised ("Cardiff", "St Albans"); a month, a weekday or
# a pronoun is no place.
_EN_NAME = r"(?!(?:January|February|March|April|May|June|July|August|September|October|"
_EN_NAME += r"November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|"
_EN_NAME += r"I)\b)[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)*"
# The subject moves ("is moving to Manchester", "moved back to Leeds", "调回成都了", "搬到杭州"):
# the word after the move, to where it ends (a particle, a place of work, a clause's end).
_EN_MOVE = re.compile(
    r"(?i:\b(?:moving|moved|moves|move|relocat(?:ed|ing|es|e)|transferr(?:ed|ing))"
    rf"(?:\s+back)?\s+to\s+)(?P<place>{_EN_NAME})"
)
_ZH_MOVE = re.compile(
    r"(?:搬到|搬去|搬回|调到|调去|调回|派到|派去)(?P<place>[\u4e00-\u9fff]{2,4}?)"
    r"(?=了|去|工作|上班|分部|分公司|总部|定居|发展|[，,。！!；;\s]|$)"
)
# The place as a modifier. English: a verb, what one is or does, then "in <Place>" ("is a
# pharmacist in Cardiff"); Chinese: 在<place> before what one does there (做, 当, 一家…).
_EN_PLACED = re.compile(
    r"^(?P<pre>.*?\b(?:is|are|was|works|work|worked|working|teaches|studies)\s+)"
    rf"(?P<what>[^,;]*?\S)\s+in\s+(?:the\s+)?(?P<place>{_EN_NAME})(?P<rest>(?:[,;].*)?)$"
)
_ZH_PLACED = re.compile(
    r"在(?![一这那每某])(?P<place>[\u4e00-\u9fff]{2,4}?)(?P<then>一家|一所|做|当|读|教|开)(?=[\u4e00-\u9fff])"
)
_CLAUSE = re.compile(r"[，,;；。!！?？]")
_SENTENCE = re.compile(r"[;；。!！?？]")
_NAMED = re.compile(r"叫(?P<name>[\u4e00-\u9fff]{2,3})(?=[，,。]|$)")
# What may stand before a move besides whose statement it is: a pronoun, an auxiliary.
_MOVER = frozenset(
    stem(w)
    for w in "user 用户 i we he she they is are was has have had just finally now move moving "
    "moved 我 我们 他 她 他们 已经 终于 搬家 搬".split()
)


@dataclass(frozen=True)
class Placed:
    """A statement's place as a modifier: the place, the statement without it, and the
    statement's subject in that place."""

    place: str
    without: str
    there: str


def placed(text: str) -> Placed | None:
    """The place ``text`` names as a modifier of something else (see above), or None."""
    english = _EN_PLACED.match(text)
    if english is not None and not _CLAUSE.search(english.group("pre")):
        pre, place = english.group("pre"), english.group("place")
        without = pre + english.group("what") + english.group("rest")
        return Placed(place, without, f"{pre}in {place}")
    chinese = _ZH_PLACED.search(text)
    if chinese is None:
        return None
    start = chinese.start()
    then = chinese.group("then")
    # "在杭州一家外贸公司做跟单" keeps its 在 ("在一家外贸公司做跟单"); "在重庆做建筑设计" drops it
    cut = start + 1 if then in ("一家", "一所") else start
    without = text[:cut] + text[chinese.end("place") :]
    clause_start = max((m.end() for m in _CLAUSE.finditer(text, 0, start)), default=0)
    before = text[clause_start:start]
    if not _LABEL.sub("", before).strip():
        # the clause opens with 在: its subject is the one named before ("叫何俊，在重庆…")
        named = _NAMED.search(text, 0, start)
        label = _LABEL.match(text)
        before = named.group("name") if named else (label.group(0) if label else "")
        before = before or text[:clause_start].rstrip("，,")
    return Placed(chinese.group("place"), without, f"{before}在{chinese.group('place')}")


def moved_to(text: str, theirs: frozenset[str]) -> str:
    """The place ``text`` says its subject moves to ("is moving to Manchester" ->
    Manchester), or "": before the move, in its clause, stand only the subject's words
    (``theirs``: whose statement it is, and the words of the one it is compared with), a
    pronoun or an auxiliary, never another thing ("the office moved to Dallas")."""
    for pattern in (_EN_MOVE, _ZH_MOVE):
        for match in pattern.finditer(text):
            head = _LABEL.sub("", text[: match.start()], count=1)
            before = _SENTENCE.split(head)[-1]  # "陈静搬家了，搬到福田了": 陈静 moved
            words = {stem(w.lower()) for w in content_words(before)} - theirs - _MOVER
            if not words:
                return match.group("place")
    return ""


# Any place a statement names: in English a capitalised name after "in", "near", "from" or
# "to"; in Chinese 在, 住 or 来自 before a name.
_ANY_PLACE = re.compile(rf"\b(?:in|near|from|to)\s+(?:the\s+)?{_EN_NAME}|在|住|来自|老家")


def names_place(text: str) -> bool:
    """Whether ``text`` names where anyone is (see :data:`_ANY_PLACE`)."""
    return bool(_ANY_PLACE.search(text))


def other_place(old: str, new: str) -> bool:
    """Two places, neither naming the other ("Cardiff" / "Manchester"; not "重庆" / "重庆市")."""
    a, b = old.lower(), new.lower()
    return bool(a and b) and a not in b and b not in a


__all__ = ["Placed", "moved_to", "names_place", "other_place", "placed"]
