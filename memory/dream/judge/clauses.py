"""A statement that packs several facts, one of which a newer statement changes.

"用户的体重是 78 公斤，目标是减到 72 公斤" and then "体重降到了 75 公斤": the weight
changed, the goal did not. ``split_changed`` finds the clauses the newer statement gives a
new value for (:func:`memory.dream.judge.slots.changes_value`, each clause read with the
statement's subject before it) and returns what stays and what leaves, each worded as a
fact about that subject; None when the change is to the whole statement (no clause, or
every clause, holds the changed slot). A newer statement in the other language ("moved to
Porto" against "…，住在杭州，…") shares no value word with any clause: it changes the
clauses on its topic.

A clause that hangs on the one before it (it opens with 不然, 不过, because, …, or, in
English, says no verb after a verb other than "is": "drinks strong tea, about four cups a
day") leaves with it: when what would stay is only such clauses, the whole statement is the
changed one (:func:`split_at`). An English list after "I'm" ("im priya, 34, a dentist")
reads each item with the copula ("im 34"). When no value shows the clause, the engine asks
the pair judgement of each clause (:func:`parts` words them; ``extractive``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory.dream.judge.places import moved_to, names_place, placed
from memory.dream.judge.relations import (
    EN_SUBJECT,
    ZH_SUBJECT,
    Said,
    moved_away,
    whose,
)
from memory.dream.judge.reversal import reverses
from memory.dream.judge.single_slots import swapped
from memory.dream.judge.slots import anchors, changes_value
from memory.dream.similarity import features
from memory.segment import has_cjk

DETAIL_CHARS = 4  # a Chinese clause this short, after a changed one, is its detail
DETAIL_WORDS = 3  # ... an English one of this many words

# Clauses part at a comma or semicolon (not the comma of "£6,000"), and in English at an
# "and" that opens a new predicate of the same subject ("weighs 84 kg and wants to get
# under 80"): what follows it is a verb, so it reads as a sentence with the subject before it.
_VERBS = (
    "is|are|was|were|has|had|have|does|doesn't|did|didn't|can|can't|will|would|should|must|"
    "wants|needs|hopes|plans|works|lives|likes|loves|prefers|hates|takes|goes|uses|drinks|"
    "eats|runs|plays|teaches|studies|keeps|gets|owns|drives|walks|swims|trains|calls|visits|"
    "charges|earns|pays|rents|shares|speaks|reads|writes|cooks|sleeps|wakes|tries|aims"
)
_SPLIT = re.compile(rf"\s*(?:[，;；]|(?<!\d),|,(?!\d{{3}}))\s*|\s+and\s+(?=(?:{_VERBS})\b)")
# So does an "and" before a subject pronoun after a clause with a verb ("works at tiger tea
# on saturdays and i bus there"): a sentence of its own; not "Tom and I", "she and I".
_PRONOUN = r"(?i:i|we|he|she|they)\b(?!')"
_AND_PRONOUN = re.compile(rf"\s+and\s+(?={_PRONOUN}\s+\w)")
_OWN_SUBJECT = re.compile(rf"^{_PRONOUN}\s+\w")
_JOINT = re.compile(rf"(?:\b[A-Z][a-z]+|\b{_PRONOUN}|\b(?i:you|me|mum|dad))$")
# Chinese writes no spaces between words: a space between two Chinese characters parts
# clauses said without punctuation ("用户姓周 七十三了", voice input). Only a split of a
# changed statement reads it; :func:`packed` counts punctuated clauses.
_ZH_GAP = re.compile(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])")
_STARTS_WITH_VERB = re.compile(rf"^(?:{_VERBS})\b")
_LABEL = re.compile(r"^(?P<who>用户|The user|[^:：\s]{1,12})(?:：|: )")
_WHO = re.compile(r"^(?:用户|The user|the user)")


@dataclass(frozen=True)
class Split:
    """What stays of a packed statement, and what a newer value retires."""

    kept: str
    retired: str


def lead(text: str) -> str:
    """Whom the statement names first ("用户的儿子", "用户", "The user's son"), or the
    speaker of a line that names no one ("用户：房租每个月 4500" -> 用户)."""
    label = _LABEL.match(text)
    body = text[label.end() :] if label else text
    for pattern in (ZH_SUBJECT, EN_SUBJECT, _WHO):
        match = pattern.match(body)
        if match:
            return match.group(0)
    return label.group("who") if label else ""


# "charges £65 for a full service and £15 for a puncture": two values under one verb; the
# second conjunct opens with its value, so it reads as a sentence with the words before the
# first conjunct's value ("The user charges £15 for a puncture").
_GAP = re.compile(r"\s+and\s+(?=[£$€¥]?\d)")
_VALUE = re.compile(r"[£$€¥]?\d")


def _clauses(body: str, *, own: bool = True) -> list[str]:
    """The clauses of ``body``; ``own``: also at an "and" before a subject of its own."""
    out: list[str] = []
    for clause in _SPLIT.split(body.strip().rstrip("。.")):
        for piece in (_own_subjects(clause) if own else [clause]) if clause else []:
            out += _gapped(piece)
    return out


def _own_subjects(clause: str) -> list[str]:
    """``clause``, or its parts at an "and" that opens a sentence with its own subject."""
    out: list[str] = []
    start = 0
    for match in _AND_PRONOUN.finditer(clause):
        head = clause[start : match.start()]
        if _JOINT.search(head) or not _ANY_VERB.search(head) or has_cjk(head):
            continue
        out.append(head)
        start = match.end()
    return [*out, clause[start:]]


def _gapped(clause: str) -> list[str]:
    """``clause``, or its two conjuncts when it joins two values under one verb (above)."""
    gap = _GAP.search(clause)
    first = _VALUE.search(clause, 0, gap.start()) if gap else None
    if gap is None or first is None or first.start() == 0:
        return [clause]
    return [clause[: gap.start()], clause[: first.start()] + clause[gap.end() :]]


def packed(said: Said) -> bool:
    """Whether a statement packs several clauses (several facts, perhaps), as the change
    judgement was trained to read them: an "and" before a subject of its own ("…and i bus
    there") parts clauses only when a change is split."""
    return len(_clauses(_LABEL.sub("", said.text, count=1), own=False)) > 1


@dataclass(frozen=True)
class Parts:
    """The clauses of a packed statement, each also worded as a fact about its subject."""

    clauses: tuple[str, ...]
    standing: tuple[str, ...]
    who: str
    zh: bool


def parts(older: Said) -> Parts | None:
    """The clauses of ``older`` (see :func:`split_changed`), None for one clause."""
    who = lead(older.text)
    body = _LABEL.sub("", older.text, count=1)
    clauses = _clauses(body)
    zh = has_cjk(body)
    if len(clauses) < 2 and zh:
        clauses = _ZH_GAP.split(body.strip().rstrip("。"))  # spoken without commas
    if len(clauses) < 2:
        return None
    named = older.subject if "/" not in older.subject and older.subject != "user" else ""
    # "王小雨的雅思考试定在11月21日，在上海考": 王小雨 is whom it is about; so is 一鸣 (a
    # Chinese name of three by its given name) of "一鸣是硕士一年级，…，每周三下午两点到四点"
    given = named[1:] if len(named) == 3 and has_cjk(named) else ""
    who = who or next((n for n in (named, given) if n and body.startswith(n)), "")
    label = _LABEL.match(older.text)
    # a speaker's label that names no one in the words ("陈静：豆豆满五岁") stays a label:
    # "陈静豆豆…" would read as 陈静's 豆豆
    member = label is not None and who == label.group("who") and not _WHO.match(who)
    mark = ("：" if zh else ": ") if member else ""
    # an English line in the speaker's own words keeps its label ("The user: im maddie"):
    # "The user im maddie" reads as no sentence
    spoken = label is not None and not zh and who == label.group("who")
    standing = tuple(_standing(c, who, mark, zh, spoken) for c in _listed(clauses))
    return Parts(tuple(clauses), standing, who, zh)


def _standing(clause: str, who: str, mark: str, zh: bool, spoken: bool) -> str:
    if not who or clause.startswith(who):
        return clause
    if zh:
        return f"{who}{mark}{clause}"
    if spoken and not _STARTS_WITH_VERB.match(clause):
        mark = ": "
    return f"{who}{mark or ' '}{clause}"


# An English list of what one is after "I'm" ("im maddie, 16, year 11 at ashgrove high"):
# each item without a verb of its own reads as a sentence with the copula before it.
_COPULA = re.compile(r"(?i)^(?P<head>.*?\b(?:i'?m|i am|is|am|are|was)\s+)\S")
_ANY_VERB = re.compile(
    rf"(?i)\b(?:{_VERBS}|am|i'?m|\w+ed|\w+ing|do|go|went|got|make|made|live|work|like|love)\b"
)


def _listed(clauses: list[str]) -> list[str]:
    copula = _COPULA.match(clauses[0])
    if copula is None or has_cjk(clauses[0]):
        return clauses
    head = copula.group("head")
    return [clauses[0]] + [c if _ANY_VERB.search(c) else head + c for c in clauses[1:]]


# A clause that opens with a word tying it to the clause before it ("不然写不动代码",
# "不过月底可能搬", "because caffeine keeps her up") says nothing alone: it leaves with the
# clause it hangs on. So does an English phrase without a verb after a verb other than
# "is" ("drinks strong tea, about four cups a day": how much of that tea).
_DEPENDENT = re.compile(
    r"^(?:不然|要不然|否则|不过|但是|但|可是|因为|所以|因此|于是|而且|并且|然后|结果|免得|以免|省得)"
    r"|(?i:^(?:otherwise|because|cause|cos|coz|so|but|though|although|which|since|or else|"
    r"unless|while)\b)"
)


def _dependent(clauses: tuple[str, ...], i: int) -> bool:
    clause = clauses[i]
    if _DEPENDENT.match(clause):
        return True
    if has_cjk(clause) or _COPULA.match(clauses[0]) or _OWN_SUBJECT.match(clause):
        return False
    return not _ANY_VERB.search(clause) and not _VALUE.match(clause)


def units(split: Parts) -> list[int]:
    """For each clause of ``split``, the clause it hangs on (see :data:`_DEPENDENT`): itself,
    or the nearest one before it that hangs on none."""
    out: list[int] = []
    for i in range(len(split.clauses)):
        out.append(out[i - 1] if i and _dependent(split.clauses, i) else i)
    return out


def changed_clauses(older: Said, newer: Said, *, by_words: bool = False) -> list[bool] | None:
    """Which clauses of ``older`` ``newer`` gives a new value for (see :func:`split_changed`),
    None when ``older`` is one clause."""
    split = parts(older)
    if split is None:
        return None
    who, standing = split.who, split.standing
    mine = whose(newer, older) | anchors(who)
    changed = [changes_value(newer.text, c, mine) for c in standing]
    if not any(changed):  # another value of a one-value slot ("在大疆做…" / "在小鹏做…")
        changed = [bool(swapped(newer.text, c, mine)) for c in standing]
    if not any(changed):  # its own thing turned or ended ("…，不吃辣" / "现在特别能吃辣")
        changed = _details_with(split.clauses, [reverses(newer.text, c, mine) for c in standing])
    if by_words and not any(changed):
        changed = _most_shared(newer.text, list(standing), mine)
    if not any(changed) and who and split.zh != has_cjk(newer.text):
        # told in the other language, so no value word is shared: the clauses on its topic
        topics = features(newer.text).families
        changed = [bool(topics & features(c).families) for c in standing]
    return changed


def _details_with(clauses: tuple[str, ...], changed: list[bool]) -> list[bool]:
    """``changed``, each short clause right after a changed one changed too: a detail of
    it ("不加糖" of "喜欢喝美式咖啡", "eats everything" of "is allergic to nothing")."""
    out = list(changed)
    for i in range(1, len(out)):
        out[i] = out[i] or (out[i - 1] and _short(clauses[i]))
    return out


def _short(clause: str) -> bool:
    """Four Chinese characters or fewer, or three English words."""
    if has_cjk(clause):
        return len(re.sub(r"\W", "", clause)) <= DETAIL_CHARS
    return len(clause.split()) <= DETAIL_WORDS


def split_at(older: Said, changed: list[bool]) -> Split | None:
    """``older`` apart at the clauses ``changed`` marks: None when they are all of it (a
    clause hanging on a changed one leaves with it) or what stays reads as no sentence."""
    split = parts(older)
    if split is None or len(changed) != len(split.clauses) or not any(changed):
        return None
    clauses, who, zh = split.clauses, split.who, split.zh
    hits = list(changed)
    for i in range(1, len(hits)):
        hits[i] = hits[i] or (hits[i - 1] and _dependent(clauses, i))
    if all(hits):
        return None
    kept_clauses = [c for c, hit in zip(clauses, hits, strict=True) if not hit]
    if hits[0] and not zh and not (who and all(_reads_alone(c, who) for c in kept_clauses)):
        return None  # an English clause without its subject reads as no sentence
    joint = "，" if zh else ", "
    return Split(_worded(split, hits, False, joint), _worded(split, hits, True, joint))


def _reads_alone(clause: str, who: str) -> bool:
    """An English clause read after its subject reads as a sentence: it opens with a verb,
    with the subject, or with a subject of its own ("i bus there")."""
    return bool(
        _STARTS_WITH_VERB.match(clause) or clause.startswith(who) or _OWN_SUBJECT.match(clause)
    )


def _worded(split: Parts, hits: list[bool], side: bool, joint: str) -> str:
    """The clauses on one side of a split, the first worded about its subject."""
    picked = [i for i, hit in enumerate(hits) if hit == side]
    return joint.join([split.standing[picked[0]], *(split.clauses[i] for i in picked[1:])])


def split_changed(older: Said, newer: Said, *, by_words: bool = False) -> Split | None:
    """The clauses of ``older`` that ``newer`` changes, apart from the rest (see above).
    ``by_words``: when no value's type shows which clause changed (the learned judgement
    found the change), the one clause sharing clearly the most words with ``newer``
    ("要加全脂牛奶" of "每天早上一杯拿铁，要加全脂牛奶" for "改加燕麦奶了，全脂的喝了不舒服")."""
    changed = changed_clauses(older, newer, by_words=by_words)
    if changed is None or all(changed):
        return None
    return split_at(older, changed)


def split_place(older: Said, newer: Said) -> Split | None:
    """``older`` apart at its place when ``newer`` moves the subject elsewhere
    (:func:`relations.moved_away`): "Yusuf is a pharmacist in Cardiff" keeps "Yusuf is a
    pharmacist" and retires "Yusuf is in Cardiff"; None when ``older`` names no place as a
    modifier, or no move."""
    where = placed(older.text)
    if where is None or not moved_away(newer, older):
        return None
    return Split(where.without, where.there)


def moves_only(newer: Said, older: Said) -> bool:
    """``newer`` says only that its subject moves to a place ("is moving to Manchester for a
    hospital pharmacy job") and ``older`` names no place ("Yusuf is a pharmacist"): the move
    changes where one is, nothing ``older`` says."""
    if names_place(older.text) or "home" in features(older.text).families:
        return False
    if len(_clauses(_LABEL.sub("", newer.text, count=1))) > 1:
        return False  # "Dan's moving to London, so Marta Silva is our coach now": more
    return bool(moved_to(newer.text, _grams(_LABEL.sub("", older.text, count=1))))


def _most_shared(newer: str, clauses: list[str], mine: frozenset[str]) -> list[bool]:
    """The one clause sharing the most words (character pairs in Chinese) with ``newer``,
    beyond the subject's, when it shares some and no other as many."""
    theirs = _grams(newer) - mine
    shared = [len(theirs & (_grams(c) - mine)) for c in clauses]
    best = max(shared)
    if best == 0 or shared.count(best) > 1:
        return [False] * len(clauses)
    return [n == best for n in shared]


def _grams(text: str) -> frozenset[str]:
    return features(text).grams - _GENERIC


_GENERIC = frozenset({"用户", "user", "the", "user's"})

__all__ = [
    "Parts",
    "Split",
    "changed_clauses",
    "lead",
    "moves_only",
    "packed",
    "parts",
    "split_at",
    "split_changed",
    "split_place",
    "units",
]
