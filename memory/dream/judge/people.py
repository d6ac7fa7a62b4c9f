"""One person, many names: the forms one dream's notes call one person by, linked.

A chat calls the same person by a relation and by a name ("my sister Anna", then "Anna",
then "my sister"; "我妈" and "王秀兰"), lets them speak under a label that is itself a
relation ("妈妈：我换工作了" beside the user's "我妈换工作了"), or by a familiar form of
their name ("陈建国" and "陈叔"). Subjects are read line by line
(:func:`relations.subject_of`), so each form is a subject of its own, and a new value told
under one form leaves the old one told under another. The notes say which forms are one
person:

- a line that names someone both by a relation and by a name ("my sister Anna", "Anna, my
  sister", "用户的姐姐小雨在杭州", "我妈王秀兰"; :func:`given`): the name is that relation's
  for the whole dream. A Chinese name is only read there when the notes use it on its own
  too (it opens another line, or it is a member's): "用户的妈妈高血压" names no one;
- a member whose label is a relation word ("妈妈", "Mum", "老爸"): the user's relation so
  called (:func:`kin_label`).

:func:`linked` turns those pairs into one subject per person, with guards: two names given
one relation ("my sister Anna", "my sister Beth") are two people, so neither is linked and
each stays its own subject; a name given two relations is linked to neither; the user is
never linked to anyone.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping

from memory.dream.judge.address import compatible, familiar_form
from memory.dream.judge.dates import CALENDAR_WORDS
from memory.dream.judge.kin import EN_REL as _EN_REL
from memory.dream.judge.kin import REL_OF
from memory.dream.judge.kin import ZH_REL as _ZH_REL
from memory.dream.judge.label import LABEL
from memory.dream.judge.relations import _NO_NAME, alias_of
from memory.segment import has_cjk, tokens, word_frequency
from memory.speaker import SURNAMES

USER = "user"
# kinds that name a group of people, never one ("the kids", "朋友", "同事", a pet): a member so
# labelled, or a name given such a relation, is no one's one relation
_MANY = frozenset({"parents", "child", "friend", "colleague", "roommate", "grandchild", "pet"})
_EN_NAME = r"(?P<name>[A-Z][a-z]+(?: (?!(?:I|The|In|On|At|And|But)\b)[A-Z][a-z]+)?)"
_EN_OWN = r"(?:\b(?i:my|our)|\b[Tt]he user's)\s+"
_EN_AGE = r"(?:(?i:older|younger|little|big|baby|eldest|youngest|twin|late|step)\s+)?"
# "my sister Anna", "the user's mum, Linda,", "my brother (Tom)", "my sister called Anna"
_EN_AFTER = re.compile(
    rf"{_EN_OWN}{_EN_AGE}(?P<rel>(?i:{_EN_REL}))\b(?:,\s*|\s*\(\s*|\s+)"
    rf"(?:(?:is\s+)?(?:called|named)\s+)?{_EN_NAME}\b"
)
# "Anna, my sister,", "Linda (the user's mother)"
_EN_BEFORE = re.compile(
    rf"(?:^|[\s,;(])(?:[A-Z][a-z]+\s+)?{_EN_NAME}(?:,\s*|\s*\(\s*){_EN_OWN}{_EN_AGE}"
    rf"(?P<rel>(?i:{_EN_REL}))\b"
)
# "用户的姐姐小雨", "我妈王秀兰", "用户的妈妈（王秀兰）", "我姐姐叫小雨"
# a sibling by one character after the user ("我姐陈静", worded "用户姐陈静")
SIBLING = {"姐": "sister", "妹": "sister", "哥": "brother", "弟": "brother"}
_ZH_AFTER = re.compile(
    rf"(?:用户|我)(?:的)?(?P<rel>{_ZH_REL}|[姐妹哥弟](?![姐妹哥弟]))[（(，,]?\s*(?:叫做|名叫|叫|是)?"
    r"(?P<rest>[\u4e00-\u9fff]{2,3})"
)
# "王秀兰（我妈）", "小雨（用户的姐姐）"
_ZH_BEFORE = re.compile(
    rf"(?P<name>[\u4e00-\u9fff]{{2,3}})[（(](?:用户|我)的?(?P<rel>{_ZH_REL})[）)]"
)
_NOT_NAMES = frozenset(w.lower() for w in REL_OF) | _NO_NAME | CALENDAR_WORDS | {USER}
# a Chinese name's shape: a family name first, 小/老/阿 and one character, or one doubled
_SURNAME = f"[{''.join(sorted(SURNAMES))}]"
_ZH_SHAPE = re.compile(rf"^(?:{_SURNAME}[\u4e00-\u9fff]{{1,2}}|[小老阿][\u4e00-\u9fff])$")
_ZH_NOT_NAME = re.compile(r"^(?:老是|老在|老说|老要|小时|阿姨)")
# a word jieba's dictionary counts this often is a common word ("高血压" 876, "小学"), not a
# name (most names are no word of it; "王秀兰" 6, "乐乐" 14)
COMMON_WORD = 100


_ZH_SIBLING_OPENING = re.compile(r"^(?:用户：)?(?:用户|我)的?(?P<rel>[姐妹哥弟])(?![姐妹哥弟])")


def sibling(text: str) -> str:
    """``user/sister`` or ``user/brother`` for a line opening with the user's sibling by one
    character ("用户姐陈静住在江北区", "我哥在深圳"), "" otherwise."""
    match = _ZH_SIBLING_OPENING.match(text)
    return f"{USER}/{SIBLING[match.group('rel')]}" if match else ""


def kin_label(member: str) -> str:
    """``user/<kind>`` for a member whose label is one relation word ("妈妈", "Mum",
    "老爸"), "" otherwise (a name, or a kind that names many: "同事", "朋友")."""
    kind = REL_OF.get(member.lower(), "")
    return f"{USER}/{kind}" if kind and kind not in _MANY else ""


def _zh_name(rest: str, members: frozenset[str], used: frozenset[str]) -> str:
    """The name that opens ``rest`` (what follows a relation word): a member's, or one
    shaped as a name (:data:`_ZH_SHAPE`, or a character doubled: "乐乐") that the notes use
    on its own (``used``: the words lines open with) and that is no common word
    (:data:`COMMON_WORD`); "" when none."""
    for size in (3, 2):
        name = rest[:size]
        if len(name) < size:
            continue
        if name in members:
            return name
        shaped = _ZH_SHAPE.match(name) or (size == 2 and name[0] == name[1])
        if not shaped or name not in used or _ZH_NOT_NAME.match(name) or name in REL_OF:
            continue
        if word_frequency(name) < COMMON_WORD:
            return name
    return ""


# a character that follows a subject, no given name's last ("陈静会辞掉…" is 陈静's)
_AFTER_SUBJECT = frozenset("会在是要说的和也都就又还去到把被给跟已正刚才没不能想")


def opening_person(body: str, known: Iterable[str], used: frozenset[str]) -> str:
    """The person ``body`` opens with (what the user said past the label, a summary's line
    or a prior item as worded): one of ``known`` (the chat's members and the people its
    other lines are about; longest first, an English one as a whole word, not its
    possessive), else a Chinese full name (a family name first) the notes use on its own
    (``used``: :func:`openers`; "王芳搬回福田区了"); "" when it opens with no one."""
    for name in sorted(known, key=len, reverse=True):
        if not name or not body.startswith(name):
            continue
        after = body[len(name) : len(name) + 1]
        if has_cjk(name[:1]) or not (after.isalnum() or after in ("'", "’")):
            return name
    if not has_cjk(body[:1]) or body.startswith("用户") or body[:1] not in SURNAMES:
        return ""  # a nickname ("豆豆", "小雨") may be a relative's, called so by the user
    name = _zh_name(body, frozenset(), used)
    if len(name) == 3 and name[2] in _AFTER_SUBJECT:
        name = name[:2] if _zh_name(name[:2], frozenset(), used | {name[:2]}) else ""
    return name


def openers(texts: Iterable[str]) -> frozenset[str]:
    """The two or three characters each text and clause opens with (past a speaker's label)
    as a word of their own: where a Chinese name used on its own stands. jieba's first word
    says where the word ends: it is the word, or a longer one no dictionary knows ("林晓在"),
    or one character of it ("周" of "周天佑"); not a prefix of a known word ("高血" of
    "高血压")."""
    out: set[str] = set()
    for text in texts:
        body = LABEL.sub("", text.strip(), count=1)
        for clause in re.split(r"[，,；;。.!！?？、\s]+", body):
            if not has_cjk(clause[:3]) or len(clause) < 2:
                continue
            first = tokens(clause[:8])[0]
            for word in (clause[:2], clause[:3]):
                if len(word) < 2 or not has_cjk(word[-1]):
                    continue
                whole = first == word or (len(first) == 1 and word.startswith(first))
                if whole or (first.startswith(word) and not word_frequency(first)):
                    out.add(word)
    return frozenset(out)


def given(
    text: str, members: frozenset[str] = frozenset(), used: frozenset[str] = frozenset()
) -> list[tuple[str, str]]:
    """The (name, relation subject) pairs ``text`` gives: someone named both ways ("The
    user's sister Anna lives in Leeds" -> ("Anna", "user/sister")); a Chinese name only
    when a member's or used on its own (``used``: :func:`openers`)."""
    out: list[tuple[str, str]] = []
    found = alias_of(text)
    if found:
        out.append(found)
    for pattern in (_EN_AFTER, _EN_BEFORE):
        for match in pattern.finditer(text):
            name = match.group("name")
            words = name.split()
            if len(words) == 2 and words[1].lower() in _NOT_NAMES:
                name = words[0]  # "my sister Anna Sunday": Anna
            if name.lower() not in _NOT_NAMES:
                out.append((name, f"{USER}/{REL_OF[match.group('rel').lower()]}"))
    for match in _ZH_AFTER.finditer(text):
        rest = text[match.start("rest") :]
        name = _zh_name(rest, members, used)
        if name:
            rel = match.group("rel")
            out.append((name, f"{USER}/{REL_OF.get(rel) or SIBLING[rel]}"))
    for match in _ZH_BEFORE.finditer(text):
        name = _zh_name(match.group("name"), members, used | {match.group("name")})
        if name and name == match.group("name"):
            out.append((name, f"{USER}/{REL_OF[match.group('rel')]}"))
    return [(n, w) for n, w in out if n.lower() not in _NOT_NAMES and w.split("/")[0] == USER]


def same_name(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are one name written whole and short: a Chinese name of three
    and its given name ("周天佑", "天佑"), an English full name and its first ("Raj Iyer",
    "Raj")."""
    short, full = sorted((a, b), key=len)
    if short == full:
        return True
    if len(full) == 3 and full[0] in SURNAMES and full[1:] == short:
        return True
    return full.isascii() and full.split()[0] == short and " " in full


def _people(names: Iterable[str]) -> list[set[str]]:
    """``names`` grouped into the people they name (:func:`same_name`)."""
    groups: list[set[str]] = []
    for name in sorted(names, key=len, reverse=True):
        home = next((g for g in groups if any(same_name(name, n) for n in g)), None)
        if home is None:
            groups.append({name})
        else:
            home.add(name)
    return groups


def _by_relation(pairs: Iterable[tuple[str, str]]) -> dict[str, list[set[str]]]:
    """The people (their names) each relation subject is given, a kind naming many
    (:data:`_MANY`) and the user left out. Names in two scripts ("Lin Xiao", "林晓") may
    be one person written twice: people are told apart within one script."""
    names_of: dict[tuple[str, bool], set[str]] = defaultdict(set)
    for name, whom in pairs:
        if not name or name.lower() == USER or whom == USER or "/" not in whom:
            continue
        if whom.split("/", 1)[1] not in _MANY:
            names_of[whom, name.isascii()].add(name)
    out: dict[str, list[set[str]]] = defaultdict(list)
    for (whom, _), names in sorted(names_of.items()):
        out[whom] += _people(names)
    return dict(out)


def _apart(persons: list[set[str]]) -> bool:
    """Whether ``persons`` (one relation's) are two people or more for sure: two in one
    script."""
    scripts = [next(iter(p)).isascii() for p in persons]
    return len(scripts) != len(set(scripts))


# Calling someone by a relation word ("妈，你换工作了？", "Mum, did you move?"): the first
# word of the user's line, then a comma, an exclamation or a "you"
_EN_CALLED = "|".join(w for w in _EN_REL.split("|") if REL_OF[w] not in _MANY)
_VOCATIVE = re.compile(
    rf"^(?:(?P<zh>{_ZH_REL})(?:[，,！!~～]|你|您)|(?P<en>(?i:{_EN_CALLED}))(?:[,!]|\s+you\b))"
)


def addressed(lines: Iterable[tuple[str | None, str]]) -> list[tuple[str, str]]:
    """The (member, relation subject) pairs the user's calls tell: a line of the user's
    opening by calling someone by a relation word (:data:`_VOCATIVE`) speaks to the member
    whose line is right before it, or, when none, right after it ("王秀兰：我换工作了" then
    "用户：妈，换哪了？": 王秀兰 is the user's mother). ``lines``: (speaker, body) in the
    notes' order, ``None`` as speaker between lines not one after another, "用户"/"User"
    for the user's."""
    seq = list(lines)
    out: list[tuple[str, str]] = []
    for i, (speaker, body) in enumerate(seq):
        if speaker not in ("用户", "User"):
            continue
        match = _VOCATIVE.match(body.strip())
        if match is None:
            continue
        word = match.group("zh") or match.group("en")
        kind = REL_OF[word.lower()]
        if kind in _MANY:
            continue
        near = [seq[j][0] for j in (i - 1, i + 1) if 0 <= j < len(seq)]
        member = next((s for s in near if s and s not in ("用户", "User")), "")
        if member:
            out.append((member, f"{USER}/{kind}"))
    return out


def unclaimed(
    weak: Iterable[tuple[str, str]], strong: Iterable[tuple[str, str]]
) -> list[tuple[str, str]]:
    """The pairs of ``weak`` (a call's: :func:`addressed`) whose name and relation no pair of
    ``strong`` (a name written with a relation, a label) gives another: "妈，…" after 陈静's
    line says nothing of 陈静 when the notes call her the user's sister."""
    strong = list(strong)
    named = {name for name, _ in strong}
    given_to = {whom for _, whom in strong}
    return [(n, w) for n, w in weak if n not in named and w not in given_to]


def linked(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Each name linked to the one relation it is given (``pairs``: (name, relation
    subject)), when that relation is given no one else and the name no other relation;
    the user never (see the module's docstring)."""
    pairs = list(pairs)
    relations_of: dict[str, set[str]] = defaultdict(set)
    for name, whom in pairs:
        relations_of[name].add(whom)
    out: dict[str, str] = {}
    for whom, persons in _by_relation(pairs).items():
        if _apart(persons):
            continue  # two people share the relation word: neither is it alone
        for person in persons:  # one a script: "Lin Xiao" and "林晓" may be one
            for name in person:
                if len(relations_of[name]) == 1:
                    out[name] = whom
    return out


def shared_relations(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """The names given a relation another person is given too ("my sister Anna", "my
    sister Beth"), each with its person's longest name: each person is their own subject,
    not the relation's."""
    return {
        name: max(person, key=len)
        for persons in _by_relation(pairs).values()
        if _apart(persons)
        for person in persons
        for name in person
    }


def familiar(subjects: Iterable[str], members: frozenset[str]) -> dict[str, str]:
    """The subjects that are familiar forms of a Chinese name ("老陈", "陈师傅": read so by
    :func:`relations.subject_of` when no member has the family name), each linked to the one
    person of that family name they call: the member or the name of three the subjects
    give, else the first form. None when two such people have the family name, or two forms
    say a different sex or age ("陈叔" / "陈阿姨", "小陈" / "老陈")."""
    forms: dict[str, set[str]] = defaultdict(set)
    full: dict[str, set[str]] = defaultdict(set)
    for subject in subjects:
        if subject and familiar_form(subject) == subject:
            forms[_family_name(subject)].add(subject)  # 老陈, 陈师傅: 陈
        elif len(subject) == 3 and subject[0] in SURNAMES and has_cjk(subject):
            full[subject[0]].add(subject)
    for member in members:
        if len(member) in (2, 3) and member[0] in SURNAMES and familiar_form(member) != member:
            full[member[0]].add(member)
    out: dict[str, str] = {}
    for surname, called in forms.items():
        people = full.get(surname, set())
        if len(people) > 1 or len(called) + len(people) < 2:
            continue
        everyone = sorted(called | people)
        if all(compatible(a, b) for a in everyone for b in everyone):
            head = min(people) if people else min(called)
            out.update({form: head for form in called if form != head})
    return out


def _family_name(form: str) -> str:
    """The family name of a familiar form: "陈" of "老陈" and of "陈师傅"."""
    return form[1] if form[0] in "老小" and len(form) == 2 else form[0]


def canonical(subject: str, links: Mapping[str, str]) -> str:
    """``subject`` as its person is linked (``links``: name -> relation subject): "Anna" ->
    "user/sister", "Linda/husband" -> "user/mother-husband"; itself otherwise."""
    if subject in links:
        return links[subject]
    who, _, rel = subject.partition("/")
    if rel and who in links and "/" not in rel:
        return f"{links[who]}-{rel}"
    return subject


__all__ = [
    "addressed",
    "canonical",
    "familiar",
    "given",
    "kin_label",
    "linked",
    "openers",
    "opening_person",
    "same_name",
    "shared_relations",
    "sibling",
    "unclaimed",
]
