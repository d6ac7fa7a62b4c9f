"""Entity join: the details of one named thing of one subject, in one item.

A memory of about thirty items reads better, and holds more under its cap, when what is
said of one named thing (a pet, a relative, a client) sits in one item, the way a person's
own notes do: "The user has a border collie called Bess" and "Bess is 11 now, slowing
down a bit" are one entry, "用户养了一只猫，叫团子" and "团子三岁了，是只英短" another. The
extractive engine asks this module, after supersession and expiry (nothing out of date is
joined in) and before the cap, which live items to join: items of one subject, in one
language, that name one thing other than the subject's owner, each later one about it
(:func:`about`: the name opens a clause, "Bess is 11 now", not "went out for Owen's
birthday"), no two judged a change of one another (the engine says which pairs are kept
apart). The joined wording is the first-said item's, then each detail, parted by "；"
(Chinese) or "; " (English), at most :data:`MAX_PARTS` parts and :data:`MAX_TOKENS`
tokens; it cites every line of its parts, so every part stays grounded in its own lines.

A named thing is read as the judge package reads names: in English a run of capitalised
words (:func:`memory.dream.judge.named.names`) or a capitalised word the chat writes inside
a sentence (:func:`memory.dream.judge.beings.names_in`), not a relation word (Mum), not a
place (a word the chat writes after "in", "to", "from", ...: "lives in Leeds"); in Chinese
a name the chat gives with 叫 ("养了一只仓鼠，叫芝麻", "名字叫 Lucky"), a name given someone
(:func:`memory.dream.judge.relations.alias_of`, as the engine collects them), or one opening
a clause before an age (:func:`memory.dream.judge.beings.holders`, "团子三岁了"). The
owner's own names (the user, a member of the chat) name no thing: every statement about Bia
names Bia. A statement of where someone lives or works (:func:`placed`) joins nothing: it
is what changes most, and stays whole for the next dream's supersede pass.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from memory.dream.judge.beings import holders, names_in
from memory.dream.judge.kin import REL_OF
from memory.dream.judge.named import names
from memory.segment import has_cjk
from memory.tokens import estimate_tokens

MAX_PARTS = 3  # a joined item holds at most this many statements
MAX_TOKENS = 160  # ... and no more tokens than a promoted item may
ZH_JOINER = "；"
EN_JOINER = "; "

# a place is what one lives in, goes to or comes from: "in Leeds", "moving to Manchester"
_PLACE = re.compile(
    r"\b(?:in|to|from|near|into|around|across|outside|towards|via|on)\s+"
    r"(?P<place>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*)"
)
# a name a Chinese line gives with 叫 ("一只仓鼠，叫芝麻", "名字叫 Lucky", "名叫小美")
_ZH_CALLED = re.compile(
    r"(?:名字叫|名叫|叫做|叫)\s*(?P<name>[A-Z][a-z]+|[\u4e00-\u9fff]{2,3}?)"
    r"(?=[，,。；;、！!\s]|$|今年|[0-9]|是)"
)
# words of a capitalised run that name a kind of thing, not one thing ("Pet Clinic", "& Co")
_KIND_WORDS = frozenset(
    "co ltd inc llc plc bank clinic school hospital street road lane avenue park office team "
    "club group company university college centre center church station mc st dr mr mrs ms "
    "prof".split()
)
_WORD = re.compile(r"[a-z][a-z'’-]*")
# where a clause opens: the start (after a speaker's label and a summary's "The user said"),
# or after a clause's or sentence's stop
_OPENS = (
    r"(?:^(?:(?:The user|[^:：\s]{1,16})(?:：|: ))?"
    r"(?:(?i:the user\s+(?:said|mentioned|noted|added|explained|told the assistant)"
    r"(?:\s+that)?,?\s+)|用户(?:提到|说|表示)[，,：:]?)?"
    r"|[，,；;。!?！？]\s*|[.!?]\s+)"
)
# ... and what may stand before the name there: "the", "the user's brother", "用户的仓鼠"
_BEFORE = (
    r"(?:(?i:the\s+|(?:the user's|my|our|his|her)\s+(?:[a-z]+\s+){1,2})"
    r"|用户的?[\u4e00-\u9fff]{1,3}?)?"
)
_CAPITAL = re.compile(r"\b[A-Z][a-z]+\b")
_USER_LABEL = re.compile(r"^(?:The user|用户)(?:：|: )")
_END = re.compile(r"[。.!！\s]+$")


@dataclass(frozen=True)
class Entry:
    """One live item as the join reads it."""

    text: str
    subject: str  # whom it is about ("user", "user/pet", "Bia")
    parts: int = 1  # how many statements it already joins (a joined item of a prior dream)


@dataclass(frozen=True)
class Chat:
    """What the whole chat says of names: ``members``, its speakers' names; ``aliases``, a
    name the chat gave someone and whom (``("芝麻", "user/pet")``); ``places``, the words it
    writes after a place preposition; ``called``, the Chinese names it gives with 叫;
    ``known``, the capitalised words it writes inside a sentence (:func:`beings.names_in`),
    lower-cased."""

    members: frozenset[str] = frozenset()
    aliases: tuple[tuple[str, str], ...] = ()
    places: frozenset[str] = frozenset()
    called: frozenset[str] = frozenset()
    known: frozenset[str] = frozenset()


def read_chat(
    texts: Iterable[str], members: Iterable[str] = (), aliases: dict[str, str] | None = None
) -> Chat:
    """The :class:`Chat` of ``texts`` (every note line and prior item)."""
    places: set[str] = set()
    called: set[str] = set()
    texts = list(texts)
    for text in texts:
        for match in _PLACE.finditer(text):
            places.update(_WORD.findall(match.group("place").lower()))
        if has_cjk(text):
            called.update(m.group("name") for m in _ZH_CALLED.finditer(text))
    who = frozenset(members)
    pairs = tuple(sorted((aliases or {}).items()))
    known = frozenset(w.lower() for w in names_in(texts))
    return Chat(who, pairs, frozenset(places), frozenset(called - who), known)


def owner(subject: str) -> str:
    """Whose a subject's things are: ``user/pet`` is the user's."""
    return subject.split("/")[0]


def _own_names(entry: Entry, chat: Chat) -> frozenset[str]:
    """The names that name the owner or a member of the chat, lower-cased."""
    own = {owner(entry.subject).lower(), "user"}
    for member in chat.members:
        own |= {member.lower(), *member.lower().split()}
    own |= {name.lower() for name, whom in chat.aliases if "/" not in whom}
    return frozenset(own)


# where someone lives or works, in Chinese ("住在成华区", "在重庆做建筑设计")
_ZH_PLACED = re.compile(
    r"住在|(?:在|去|到)[\u4e00-\u9fff]{2,6}?(?:做|工作|上班|读书|读|当|开|住|定居)"
)


def placed(text: str) -> bool:
    """Whether ``text`` says where someone is: a named place after "in", "to", "from"...
    ("lives in Harrogate with carers visiting", "works in Hull"), or 住在 / 在…工作. Where
    one lives or works is what changes most: such a statement stays its own item, whole
    for the next dream's supersede pass to retire."""
    if has_cjk(text):
        return _ZH_PLACED.search(text) is not None
    named = {w for run in names(text) for w in _WORD.findall(run)}
    return any(set(_WORD.findall(m.group("place").lower())) & named for m in _PLACE.finditer(text))


def things(entry: Entry, chat: Chat) -> frozenset[str]:
    """The named things ``entry`` tells of, other than its owner (see the module),
    lower-cased."""
    text = entry.text
    found: set[str] = set()
    if has_cjk(text):
        found.update(n for n in chat.called if n in text)
        found.update(name for name, whom in chat.aliases if "/" in whom and name in text)
        found.update(h for h in holders(text) if has_cjk(h) and h in text)
    else:
        # a run of capitalised words, or a capitalised word the chat names elsewhere
        # ("The user: Pickle is scared of thunder" opens a sentence with Pickle)
        words = {w for run in names(text) for w in _WORD.findall(run)}
        words |= {w.lower() for w in _CAPITAL.findall(text)} & chat.known
        found.update(
            w
            for w in words
            if len(w) >= 3 and w not in _KIND_WORDS and w not in chat.places and w not in REL_OF
        )
    return frozenset(n.lower() for n in found) - _own_names(entry, chat)


def about(text: str, thing: str) -> bool:
    """Whether ``text`` tells of ``thing`` (lower-cased) as what a clause is about: it opens
    the clause ("Bess is 11 now", "The user said Yusuf has moved", "用户：团子三岁了"), after
    no more than a relation ("The user's brother Yusuf", "用户的仓鼠芝麻两岁了"). A thing
    named inside a clause ("went out for Owen's birthday", "The user and Owen got the keys")
    is only mentioned."""
    if has_cjk(thing):
        return re.search(_OPENS + _BEFORE + re.escape(thing), text) is not None
    # an English name goes on as a clause's subject does: a verb, an owner's 's, or what it
    # is ("Hale & Co, an architecture firm"); "Goal: Dutch C1" names a language
    name = rf"(?i:{re.escape(thing)})(?:\s+&\s+[A-Z]\w*)?(?:'s\b|\s+[a-z]|,\s+[a-z])"
    return re.search(_OPENS + _BEFORE + name, text) is not None


def groups(
    entries: Sequence[Entry], chat: Chat, apart: Callable[[int, int], bool]
) -> list[list[int]]:
    """The entries to join, each group in the entries' order (first said first): entries
    of one language and owner that name one thing, each later one about it (:func:`about`:
    "Bess is 11 now" after "The user has a border collie called Bess"), no two ``apart`` (a
    change of one another, a conflict), within :data:`MAX_PARTS` and :data:`MAX_TOKENS`. An entry
    joins the group of the first earlier entry that takes it."""
    named = [frozenset() if placed(e.text) else things(e, chat) for e in entries]
    home: dict[int, list[int]] = {}
    out: list[list[int]] = []
    for j, entry in enumerate(entries):
        if not named[j]:
            continue
        for i in range(j):
            shared = frozenset(t for t in named[i] & named[j] if about(entry.text, t))
            if not shared or has_cjk(entries[i].text) != has_cjk(entry.text):
                continue
            if entries[i].subject != entry.subject:
                continue
            group = home.get(i, [i])
            if any(apart(k, j) for k in group):
                continue
            if sum(entries[k].parts for k in group) + entry.parts > MAX_PARTS:
                continue
            if estimate_tokens(joined([entries[k].text for k in [*group, j]])) > MAX_TOKENS:
                continue
            if i not in home:
                out.append(group)
                home[i] = group
            group.append(j)
            home[j] = group
            break
    return out


def part(text: str, first: bool) -> str:
    """One statement as a part of a joined item: a detail without the user's label (the
    item is the user's already), each without its closing stop."""
    body = text if first else _USER_LABEL.sub("", text, count=1)
    return _END.sub("", body) or text


def joiner(text: str) -> str:
    """What joins the statements of an item in ``text``'s language ("；" or "; ")."""
    return ZH_JOINER if has_cjk(text) else EN_JOINER


def joined(texts: Sequence[str]) -> str:
    """The wording of one joined item: the first statement, then each detail."""
    return joiner(texts[0]).join(part(t, i == 0) for i, t in enumerate(texts))


def count_parts(text: str) -> int:
    """How many statements an item may join already (1 for one with no joiner in it)."""
    return 1 + text.count(joiner(text))


__all__ = [
    "EN_JOINER",
    "MAX_PARTS",
    "MAX_TOKENS",
    "ZH_JOINER",
    "Chat",
    "Entry",
    "about",
    "count_parts",
    "groups",
    "joined",
    "joiner",
    "owner",
    "part",
    "placed",
    "read_chat",
    "things",
]
