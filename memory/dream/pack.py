"""Packing under the cap: short items of one subject and topic share one item, so that no
durable fact is lost to the cap while another item's place could hold two.

MEMORY.md holds at most ``max_items`` items. When the engine's ranked items are more than
that, the lowest-ranked would leave for the archive as ``overflow``. Before anything
leaves, :func:`plan` packs: each durable item below the cut (in rank order) joins a kept
item of the same subject, language and topic as a clause of it ("The user runs parkrun at
Heaton Park; The user's parkrun best is 26:40", "女儿对花生过敏；上三年级了"); when no kept
item takes it, two kept items that fit together share one place and it takes the place
freed. Only as much packing as the cap needs is done: with room for every item nothing is
packed. A packed item holds at most :data:`MAX_PARTS` clauses and :data:`MAX_TOKENS`
tokens, and cites every line of its clauses, each clause grounded in its own lines.

What goes together (:func:`affinity`): for the user, a topic word in common (not "like",
"every day") and embeddings close; for another person, who is one topic, also two kinds
of fact about them (her allergy, her school). Never two subjects (two members of a group,
the user and the user's daughter), two languages, two values of one slot
(:func:`two_values`), or a pair the engine judges a change of one another or the slot model
reads as one slot. An item below the cut that a kept one may hold the slot of (perhaps its
older value) is not saved: it leaves as before. Which items may pack at all, and which
may only take a freed place (an event), the engine says (:class:`Entry`). The wording
(:func:`packed_text`) is the host's, then each clause parted by "；" or "; ", the subject
the host opens with not said again ("用户不吃香菜；不喝酒"), so the next dream reads the item
clause by clause (:mod:`memory.dream.judge.clauses`) and may retire one clause and keep
the rest.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from memory.dream.join import MAX_PARTS, joiner, part
from memory.dream.judge.clauses import Split
from memory.dream.judge.slots import GOAL, typed_values
from memory.dream.similarity import features
from memory.search.stemming import stem
from memory.segment import has_cjk
from memory.tokens import estimate_tokens

MAX_TOKENS = 64  # a packed item stays readable: about two short sentences
# Two items pack when close in meaning (this cosine) and on one topic (:func:`affinity`).
# The embeddings put any two statements of one user near 0.85, so a word in common is what
# says one topic.
SHARED_COSINE = 0.85
# words said of any topic: the user, now, liking, how often ("喜欢", "every")
_GENERIC = frozenset(
    "user users now currently still also like likes love loves enjoy enjoys prefer prefers "
    "hate hates every day days week usually often always really "
    "start started starts begin began since time times year years month months "
    "用户 现在 目前 还是 一直 喜欢 不喜欢 爱 讨厌 每天 每周 经常 常常 总是 时候 "
    "开始 今年 去年".split()
)
# a number, a date or a year says when or how much, never what about ("2027年", "31岁",
# "一只", "三次", "6月"): a word with a digit, or opening with a Chinese numeral
_NUMERIC = re.compile(r"\d|^[零〇一二两三四五六七八九十百千万几半每]")
_MONTHS = frozenset(
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday".split()
)


@dataclass(frozen=True)
class Entry:
    """One ranked item as packing reads it: ``can`` whether it may be packed at all."""

    text: str
    subject: str
    parts: int = 1
    can: bool = True
    alone: bool = False  # may take a place packing frees, never packed itself (an event)


# ``fits(i, j)``: how well entries i and j go together (higher better), None if never
Fits = Callable[[int, int], float | None]


@lru_cache(maxsize=65536)
def topic(text: str) -> frozenset[str]:
    """The topic words of ``text``: its content words (English by stem), not the user, a
    word said of any statement ("now"), a number, a date or a year ("2027年", "一只"), or
    one Chinese character (a unit or a bare verb: "岁", "叫")."""
    return frozenset(
        stem(w.lower())
        for w in features(text).words
        if w.lower() not in _GENERIC
        and w.lower() not in _MONTHS
        and not _NUMERIC.search(w)
        and not (has_cjk(w) and len(w) < 2)  # one character: a unit, a verb ("年", "叫")
    )


@lru_cache(maxsize=65536)
def two_values(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` give two values of one type on one topic ("rent is £1,150",
    "rent goes up to £1,240"): one slot told twice, never two clauses of one item. A goal
    beside a value held is two slots; each clause is read alone, so a value held beside a
    goal in one statement ("weighs 84 kg and wants under 80") is still a value held."""
    return any(_two_values(x, y) for x in _CLAUSES.split(a) for y in _CLAUSES.split(b))


# clauses part at a comma or semicolon (not "£1,150") or at an "and" ("weighs 84 kg and ...")
_CLAUSES = re.compile(r"[，；;]|,(?!\d{3})|\s+and\s+")


def _two_values(a: str, b: str) -> bool:
    if not topic(a) & topic(b):
        return False
    if bool(GOAL.search(a)) != bool(GOAL.search(b)):
        return False  # a value aimed for is no value held ("weighs 84 kg", "wants under 80 kg")
    va, vb = typed_values(a), typed_values(b)
    return any(va[kind] != vb[kind] for kind in va.keys() & vb.keys())


def affinity(
    a: str,
    b: str,
    cosine: float | None,
    same_kind: bool,
    who: frozenset[str] = frozenset(),
    personal: bool = False,
) -> float | None:
    """How well two statements of one subject go together as clauses of one item (higher
    better), None if they do not. ``who``: the subject's own words ("李婷", "daughter"),
    which say whose, not what about; empty for the user. They go together when ``cosine``
    is at least :data:`SHARED_COSINE` and they share a topic word, or, for another
    person, tell two kinds of fact (her age and her school): one person is one topic, but
    two statements of one kind about her without a word in common may be two values of one
    slot ("负责测试", "升任组长"). ``personal``: either is of a kind always one's own
    (health, work, identity): for the user it goes only with its own kind (an allergy is no
    clause of a pet's item, whatever word they share). Never two values of one slot
    (:func:`two_values`). Without
    embeddings (``cosine`` None), one kind and a topic word in common."""
    mine = frozenset(stem(w.lower()) for w in who)
    shared = len(topic(a) & topic(b) - mine)
    if cosine is None:
        cosine = SHARED_COSINE if same_kind and shared else 0.0
    if not mine and personal and not same_kind:
        return None  # the user's health, work or identity and another kind: two topics
    if cosine < SHARED_COSINE or not (shared or (mine and not same_kind)) or two_values(a, b):
        return None
    return cosine + 0.05 * min(shared, 2)


def opening(text: str, who: Sequence[str]) -> str:
    """The subject ``text`` opens with ("用户", "The user", a Chinese name of ``who``), or ""
    when what follows it reads as its own ("用户的", "The user's", "张伟："). An English name
    stays: the next dream reads a clause's subject from "The user" or a Chinese name, not
    from a clause opening with "is"."""
    names = sorted((n for n in who if has_cjk(n)), key=len, reverse=True)
    for name in ("用户", "The user", "the user", *names):
        if not text.startswith(name):
            continue
        rest = text[len(name) :]
        if has_cjk(name) and rest[:1] and rest[:1] not in "的：:，, ":
            return name
        if not has_cjk(name) and re.match(r" [a-z]", rest) and not rest.startswith(" 's"):
            return name
    return ""


def packed_text(texts: Sequence[str], who: Sequence[str] = ()) -> str:
    """The wording of a packed item: the host's statement, then each clause, the subject
    the host opens with not said again ("用户不吃香菜；不喝酒"; ``who``: the subject's names)."""
    host = part(texts[0], True)
    said = opening(host, who)
    out = [host]
    for text in texts[1:]:
        clause = part(text, False)
        if said and opening(clause, who) == said:
            clause = clause[len(said) :].lstrip() or clause
        out.append(clause)
    return joiner(texts[0]).join(out)


def _can_join(entries: Sequence[Entry], a: list[int], b: list[int]) -> bool:
    if sum(entries[k].parts for k in (*a, *b)) > MAX_PARTS:
        return False
    return estimate_tokens(packed_text([entries[k].text for k in sorted((*a, *b))])) <= MAX_TOKENS


def _fit(entries: Sequence[Entry], fits: Fits, a: list[int], b: list[int]) -> float | None:
    """How well two groups go together: the worst pair of their members; None if never."""
    if entries[a[0]].subject != entries[b[0]].subject:
        return None
    if has_cjk(entries[a[0]].text) != has_cjk(entries[b[0]].text):
        return None
    worst: float | None = None
    for i in a:
        for j in b:
            got = fits(min(i, j), max(i, j))
            if got is None:
                return None
            worst = got if worst is None else min(worst, got)
    if worst is None or not _can_join(entries, a, b):
        return None
    return worst


def plan(
    entries: Sequence[Entry], cap: int, fits: Fits, shadows: Callable[[int, int], bool]
) -> list[list[int]]:
    """The items to keep, each a group of entries (rank order, the host first), at most
    ``cap`` of them, in rank order; then every entry left out alone (see the module).
    ``shadows(k, x)``: whether entry k may hold entry x's slot (x perhaps its older value):
    such an x is not saved, it leaves as before."""
    groups: dict[int, list[int]] = {i: [i] for i in range(min(cap, len(entries)))}
    out_left: list[int] = []
    for x in range(cap, len(entries)):
        can, alone = entries[x].can, entries[x].alone
        if not (can or alone) or any(shadows(k, x) for k in range(x)):
            out_left.append(x)
            continue
        hosts = [
            (got, h)
            for h, group in groups.items()
            if can
            and all(entries[k].can for k in group)
            and (got := _fit(entries, fits, group, [x])) is not None
        ]
        if hosts:
            _, h = max(hosts, key=lambda t: (t[0], -t[1]))
            groups[h].append(x)
            continue
        pairs = [
            (got, a, b)
            for a in groups
            for b in groups
            if a < b
            and all(entries[k].can for k in (*groups[a], *groups[b]))
            and (got := _fit(entries, fits, groups[a], groups[b])) is not None
        ]
        if not pairs:
            out_left.append(x)
            continue
        _, a, b = max(pairs, key=lambda t: (t[0], -t[1], -t[2]))
        groups[a] = sorted(groups[a] + groups.pop(b))
        groups[x] = [x]
    kept = [groups[h] for h in sorted(groups)]
    return kept + [[x] for x in out_left]


def joined_statements(text: str, who: frozenset[str]) -> list[str]:
    """The statements an item joined ("用户不吃香菜；不喝酒" -> "用户不吃香菜", "用户不喝酒"),
    each with the subject its first opens with (:func:`pack.packed_text` said it once)."""
    pieces = [p.strip() for p in text.split(joiner(text)) if p.strip()]
    head = opening(pieces[0], sorted(who)) if pieces else ""
    out = pieces[:1]
    for piece in pieces[1:]:
        if head and not opening(piece, sorted(who)) and not piece.startswith(head):
            piece = head + ("" if has_cjk(head) else " ") + piece
        out.append(piece)
    return out


def split_joined(text: str, hits: list[bool], who: frozenset[str]) -> Split | None:
    """The joined ``text`` apart at the statements ``hits`` marks (see
    :func:`joined_statements`): None unless some, not all, are marked."""
    pieces = joined_statements(text, who)
    if len(hits) != len(pieces) or all(hits) or not any(hits):
        return None
    kept = [p for p, hit in zip(pieces, hits, strict=True) if not hit]
    gone = [p for p, hit in zip(pieces, hits, strict=True) if hit]
    words = sorted(who)
    return Split(packed_text(kept, words), packed_text(gone, words))


__all__ = [
    "MAX_TOKENS",
    "Entry",
    "Fits",
    "affinity",
    "joined_statements",
    "opening",
    "packed_text",
    "plan",
    "split_joined",
    "topic",
    "two_values",
]
