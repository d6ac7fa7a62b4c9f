"""One fact said again, recognised by what it names: the same values of the same thing.

A note line often says a fact again in other words, or beside another detail: "Still on
the 10mg amlodipine" after "Doctor upped the amlodipine to 10mg from 2026-06-08";
"Cardiology on 2026-12-15, the user is taking her" after "cardiology is moved to 15
December"; "咖啡不要加糖，上次你推荐的店给用户加了" beside "喝咖啡不加糖，少冰"; "还是喜欢喝
乌龙茶" after "改喝乌龙茶了". The wording tests (:func:`memory.dream.judge.relations.same_fact`,
:func:`memory.dream.judge.restate.restates`) ask for the same numbers written the same way
and most words in common, so these stay apart.

:func:`says_again` takes two statements of one subject, close by embedding
(:data:`AGAIN_COSINE`), both negating something the other speaks of or neither (an aside
to the listener, "别记错", is no negation of the fact), both plans still to come or neither,
for one fact when one of:

- **values**: the shorter one's values (dates by month and day, times, numbers with their
  unit: :func:`values`) are all the other's, there is at least one, and the two name one
  thing beyond their subject (a content word or, in Chinese, a character pair in common);
- **confirmed**: one names the value the other says something changed to ("改喝乌龙茶了" /
  "还是喜欢喝乌龙茶": :func:`~memory.dream.judge.relations.confirms`);
- **wording**: neither gives a value and one's main assertion (its first clause, without a
  speaker's label, "still", "again", a negation written "不要" / "别" as "不") lies within
  the other.

Whether one of them gives a new value for the other is not asked here: the caller's change
judgement decides that first (a change, whatever it shares, is no restatement). Pure
functions.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from memory.dream.judge.relations import Said, confirms, subject_words
from memory.dream.judge.restate import RESTATE_COSINE, main_assertion
from memory.dream.judge.shared import SHARED
from memory.dream.judge.slots import anchors, typed_values
from memory.dream.similarity import NEGATION, cjk_bigrams, negation_conflict
from memory.search.stemming import stem
from memory.segment import content_words, has_cjk

AGAIN_COSINE = 0.90  # the embedding floor: both say something about one thing
GRAM_SHARE = 0.75  # of a Chinese main assertion's character pairs found in the other

# Clock times as one form ("9点半", "上午9点", "7pm", "9:30" -> "9:30"), before typing.
_ZH_TIME = re.compile(
    r"(?P<part>上午|早上|下午|晚上|中午)?\s*(?P<h>\d{1,2})\s*点(?P<m>半|\d{1,2}分?)?"
)
_EN_TIME = re.compile(r"(?i)\b(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ap>am|pm|a\.m\.|p\.m\.)")
_ISO_DAY = re.compile(r"^(?:\d{4})-(\d{2}-\d{2})$")


def _clock(hour: int, minute: int, after_noon: bool) -> str:
    if after_noon and hour < 12:
        hour += 12
    return f"{hour}:{minute:02d}"


def _zh_time(m: re.Match[str]) -> str:
    minute = m["m"] or ""
    minutes = 30 if minute == "半" else int(minute.rstrip("分") or 0)
    return " " + _clock(int(m["h"]), minutes, m["part"] in ("下午", "晚上")) + " "


def _en_time(m: re.Match[str]) -> str:
    return " " + _clock(int(m["h"]), int(m["m"] or 0), m["ap"].lower().startswith("p")) + " "


# An identifier: letters then digits in one word ("A100s", "v2.3", "CS2040", "COM2-04-02"),
# a model, a version, a course or a room, never a measure ("10mg", "5pm" open with digits).
_IDENTIFIER = re.compile(r"(?<![\w.])[A-Za-z]+\d[\w.-]*")


@lru_cache(maxsize=50_000)
def identifiers(text: str) -> frozenset[str]:
    """The identifiers ``text`` writes (:data:`_IDENTIFIER`), lower-cased, a plural's "s"
    and a final dot dropped."""
    return frozenset(re.sub(r"s$", "", m.rstrip(".").lower()) for m in _IDENTIFIER.findall(text))


@lru_cache(maxsize=50_000)
def values(text: str) -> frozenset[str]:
    """The values ``text`` gives, typed and in one form: a date by its month and day (a
    note's "15 December" is the item's "2026-12-15"), a clock time however written, a
    number with its unit, an identifier as itself ("C1", "A100s": :func:`identifiers`, no
    number)."""
    out = {f"id={name}" for name in identifiers(text)}
    plain = _IDENTIFIER.sub(" # ", text)  # a word no unit, as the identifier was
    plain = _EN_TIME.sub(_en_time, _ZH_TIME.sub(_zh_time, plain))
    for kind, found in typed_values(plain).items():
        for value in found:
            day = _ISO_DAY.match(value) if kind == "date" else None
            out.add(f"{kind}={day.group(1) if day else value}")
    return frozenset(out)


_LABEL = re.compile(r"^[^:：\s]{1,12}(?:：|: )")
_AGAIN = re.compile(r"还是|仍然|依然|一直|照样|也|又|(?i:\b(?:still|again|also|too)\b)")
_NOT = re.compile(r"不要|不用|不想|别")  # a negation as "不" writes it


@lru_cache(maxsize=50_000)
def _bare(text: str) -> str:
    return _NOT.sub("不", _AGAIN.sub("", _LABEL.sub("", text, count=1)))


@lru_cache(maxsize=50_000)
def _grams(text: str) -> frozenset[str]:
    return frozenset(cjk_bigrams(text.replace("用户", " "), singles=False))


@lru_cache(maxsize=50_000)
def _words(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in content_words(text) if not w[:1].isdigit())


def _within(short: str, long: str) -> bool:
    """``short``'s main assertion says something, all of it within ``long``."""
    main = _bare(main_assertion(_LABEL.sub("", short, count=1)))
    if has_cjk(main):
        grams = _grams(main)
        return len(grams) >= 2 and len(grams & _grams(_bare(long))) >= GRAM_SHARE * len(grams)
    words = _words(main) - {"user"}
    return len(words) >= 2 and words <= _words(_bare(long))


_CLAUSE = re.compile(r"[，,;；。!！?？]")


def _negated(text: str, other: str) -> bool:
    """Whether ``text`` negates something of what ``other`` speaks of: a clause of it with a
    negation that shares a content word or a Chinese character pair with ``other`` (an aside
    to the listener, "别记错", "don't be late", negates nothing of the fact)."""
    for clause in _CLAUSE.split(_LABEL.sub("", text, count=1)):
        if not NEGATION.search(clause):
            continue
        if _words(clause) & _words(other) or _grams(clause) & _grams(other):
            return True
    return False


# Words that focus or count what a statement says ("only", "every", "most"), no thing of it.
_FOCUS = frozenset(
    stem(w)
    for w in (
        "only just also even still again always never ever really very quite most mostly "
        "more less least all every each some any much many same other others"
    ).split()
)


def _one_thing(a: Said, b: Said, besides: frozenset[str] = frozenset()) -> bool:
    """The two name one thing beyond whom they are about: an anchor (a content word that is
    no value nor slot word, nor one of ``besides``) in common, or one's Chinese anchor
    inside the other's text."""
    who = subject_words(a.subject) | {"user", "用户"} | besides
    mine, theirs = anchors(a.text) - who, anchors(b.text) - who
    if mine & theirs:
        return True
    for one, other in ((mine, b.text), (theirs, a.text)):
        grams = _grams(other)
        if any(has_cjk(w) and len(w) > 1 and cjk_bigrams(w, singles=False) <= grams for w in one):
            return True
    return False


# A year, or a month of a year, as :func:`values` writes it ("year=2025", "num:=2027",
# "date=november2026", "date=2027年1月"): when a value holds, not what it is.
_SCOPE = re.compile(
    r"^(?:year=|num:=(?:19|20)\d\d$|date=\D*(?:19|20)\d\d\D*$|date=(?:19|20)\d\d年\d+月$)"
)


def _held(a: frozenset[str], b: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """The values of ``a`` and ``b`` but their years and months of a year, when both name
    one and other values: then the years say when the values hold ("£520 from November
    2026" / "now £520, keeping it for 2027"); a year only one names is a value of its own
    ("Dutch C1 by summer 2027" / "English C1")."""
    rest_a = frozenset(v for v in a if not _SCOPE.match(v))
    rest_b = frozenset(v for v in b if not _SCOPE.match(v))
    if rest_a and rest_b and rest_a != a and rest_b != b:
        return rest_a, rest_b
    return a, b


def says_again(a: Said, b: Said, cosine: float | None) -> bool:
    """Whether ``a`` and ``b`` state one fact (see the module)."""
    if cosine is None or a.subject != b.subject:
        return False
    if cosine < AGAIN_COSINE and not (
        cosine >= RESTATE_COSINE and identifiers(a.text) & identifiers(b.text)
    ):
        return False  # one identifier both name is one thing, whatever the asides say
    if a.future != b.future:
        return False  # a plan and what came of it ("要搬家了" / "搬完了") are two facts
    if _negated(a.text, b.text) != _negated(b.text, a.text):
        return False
    va, vb = _held(values(a.text), values(b.text))
    short, long = (a, b) if (len(va), len(a.text)) <= (len(vb), len(b.text)) else (b, a)
    vs, vl = (va, vb) if short is a else (vb, va)
    if vs and not vs <= vl:
        return False  # another date, time or number: another fact, or a new value
    if negation_conflict(a.text, b.text):
        return False
    if vs:
        return _one_thing(a, b) or bool(identifiers(a.text) & identifiers(b.text))
    if confirms(a.text, b.text) or confirms(b.text, a.text):
        return True
    return not vl and (_within(short.text, long.text) or _within(long.text, short.text))


# Whom a line is about when it speaks of a person: its speaker or listener (I, my, you,
# 我, 你), the user, or someone it points at (he, she, 他, 她).
_PERSON = re.compile(
    r"\bI(?:'m|'ve|'ll|'d)?\b|(?i:\b(?:me|my|mine|myself|you|your|yours|he|she|him|her|his|"
    r"hers|the user)\b)|我(?!们)|你|您|他|她|用户|自己|本人"
)
PERSONAL_KINDS = frozenset({"identity", "work", "health"})  # kinds always someone's own


def of_a_thing(said: Said) -> bool:
    """Whether ``said`` tells of a thing rather than of a person: no person in its words
    (:data:`_PERSON`, after its speaker's label) and a kind no one holds alone (an age, a
    job, a health matter are always someone's own: :data:`PERSONAL_KINDS`)."""
    return said.kind not in PERSONAL_KINDS and not _PERSON.search(_LABEL.sub("", said.text, 1))


def told_again(a: Said, b: Said, cosine: float | None) -> bool:
    """Whether two statements of different subjects (two members: "Kofi: still €45 for
    broadband" / "Broadband is €45 a month, split four ways") state one fact of a thing
    both tell of: both :func:`of_a_thing`, and :func:`says_again` of them under one subject
    by the values they name (the shorter one's all the other's, at least one, and a thing
    in common). A person's fact said by two members, or one with no value, stays apart:
    nothing tells whose it is."""
    if a.subject == b.subject or cosine is None or cosine < AGAIN_COSINE:
        return False
    if not (of_a_thing(a) and of_a_thing(b)) or not (values(a.text) and values(b.text)):
        return False
    one, other = replace(a, subject=SHARED), replace(b, subject=SHARED)
    return says_again(one, other, cosine)


_CLAUSE_END = re.compile(r"[，,;；。.!！?？~～\s]+$")


def same_words(a: Said, b: Said, cosine: float | None) -> bool:
    """Whether two members (two subjects, each read as its speaker) say one fact of someone
    else in the same words ("赵婷婷：小宝对花生过敏" / "钱小燕：小宝对花生过敏，寿宴的菜别放花生"):
    close by embedding (:data:`AGAIN_COSINE`), no person pointed at by a pronoun (:data:`
    _PERSON`: "我对花生过敏" said by two is two people's fact), the shorter one (without its
    label, "still", "again") written whole in the other, with three words or Chinese
    character pairs at least, the same values, and no negation of one another."""
    if a.subject == b.subject or cosine is None or cosine < AGAIN_COSINE:
        return False
    if a.future != b.future or values(a.text) != values(b.text):
        return False
    bodies = []
    for said in (a, b):
        body = _LABEL.sub("", said.text, count=1)
        if _PERSON.search(body):
            return False
        bodies.append(" ".join(_bare(body).split()))
    short, long = sorted(bodies, key=len)
    short = _CLAUSE_END.sub("", short)
    size = len(_grams(short)) if has_cjk(short) else len(_words(short))
    if size < 3 or short not in long:
        return False
    return not negation_conflict(a.text, b.text)


# A line saying it tells a fact again: a reminder ("reminder that", not a reminder set "for"
# a time or "to" do something), "mentioned again", "再次提到", "又说了一遍".
_TOLD_AGAIN = re.compile(
    r"(?i)\b(?:reminded|reiterated|repeated)\b|\breminder\b(?!\s+(?:for|to|at|on)\b)"
    r"|\b(?:mention|say|said|tell|told|remind|note|stress)\w*(?:\s+\w+){0,3}?\s+"
    r"(?:again|once more)\b|\bagain\s+(?:mention|say|said|tell|told|remind|note)\w*"
    r"|(?:再次|又|再一次|重新)(?:提到|提起|提了|说|讲|强调|提醒|叮嘱|嘱咐|确认)|重申|说了一遍"
)


@lru_cache(maxsize=50_000)
def told_as_again(line: str) -> bool:
    """Whether a note line says it tells something again (:data:`_TOLD_AGAIN`)."""
    return _TOLD_AGAIN.search(line) is not None


def retold(told: Said, other: Said, cosine: float | None) -> bool:
    """Whether ``told``, from a line that says it tells a fact again (:func:`told_as_again`),
    tells ``other``'s fact: one subject, close by embedding (:data:`RESTATE_COSINE`: the
    line's own words say it was said before), both plans or neither, one thing in common
    beyond the subject and a focus word (:func:`_one_thing`, :data:`_FOCUS`, or words of one
    stem, :func:`_akin`), no value
    ``other`` does not name, and neither negating what the other affirms
    (:func:`negation_conflict`; a negated detail, "can't eat normal pasta" beside "eats
    only gluten-free", is none). Which candidate, and no change either way, is for the
    caller."""
    if cosine is None or cosine < RESTATE_COSINE or told.subject != other.subject:
        return False
    if told.future != other.future or has_cjk(told.text) != has_cjk(other.text):
        return False
    if not values(told.text) <= values(other.text):
        return False
    if not (_one_thing(told, other, _FOCUS) or _akin(told, other)):
        return False
    return not negation_conflict(told.text, other.text)


AKIN_PREFIX = 6  # letters two English words of one stem share at least ("allergic", "allergy")


def _akin(a: Said, b: Said) -> bool:
    """The two name one thing by English words of one stem the light stemmer leaves apart:
    a short plural ("nuts" / "nut") or a shared beginning of :data:`AKIN_PREFIX` letters
    ("allergic" / "allergy"), beyond their subject and focus words."""
    who = subject_words(a.subject) | {"user"} | _FOCUS
    mine = {w.rstrip("s") for w in anchors(a.text) - who if w.isascii()}
    theirs = {w.rstrip("s") for w in anchors(b.text) - who if w.isascii()}
    if mine & theirs:
        return True
    return any(
        len(x) >= AKIN_PREFIX and len(y) >= AKIN_PREFIX and x[:AKIN_PREFIX] == y[:AKIN_PREFIX]
        for x in mine
        for y in theirs
    )


# "Still" restatements: a line asserting that a value holds ("Still on 10mg donepezil",
# "Bia: Still at St James's, same ward", "Arjun is still a postdoc here") names what
# another live item of its subject states ("GP increased Mum's donepezil to 10mg").
_STILL = re.compile(r"(?i)\bstill\b")
# A "still" under a modal is a plan or a promise ("will still cycle to work"), no value held.
_MODAL_STILL = re.compile(r"(?i)\b(?:will|would|'ll|shall|going\s+to|gonna)\s+still\b")
# Where the held value ends: a clause mark, or a word opening another assertion.
_STILL_END = re.compile(
    r"[，,;；。!！?？(（]|\s[-–—]\s"
    r"|(?i:\s(?:and|but|so|because|since|when|while|though|til|till|until|unless|if)\s)"
)
# Verbs that only carry a held value ("still lives in York", "still takes 2.5mg"),
# and words that say it holds ("same", "here", "now"): none is the value.
_CARRIERS = frozenset(
    stem(w)
    for w in (
        "be is am are was live lives living take takes taking work works working use uses "
        "using stay stays staying keep keeps keeping have has having do does doing go goes "
        "going get gets same here there now nothing everything one"
    ).split()
)
STILL_COSINE = 0.55  # the embedding floor: the two speak of one thing


@lru_cache(maxsize=50_000)
def held_value(text: str) -> frozenset[str]:
    """What an English "still" line says holds: the content words (stemmed) from "still"
    to the end of its clause, less the carrying verbs (:data:`_CARRIERS`); empty for a
    line with no "still"."""
    found = _STILL.search(_LABEL.sub("", text, count=1))
    if found is None or has_cjk(text) or _MODAL_STILL.search(text):
        return frozenset()
    rest = _LABEL.sub("", text, count=1)[found.end() :]
    clause = _STILL_END.split(rest, maxsplit=1)[0]
    return frozenset(stem(w) for w in content_words(clause)) - _CARRIERS


def still_restates(still: Said, other: Said, cosine: float | None) -> bool:
    """Whether ``still``, a line asserting that a value holds, says again what ``other``
    states: one subject (or a measured value, :func:`_measured`, where a pronoun's subject
    may be misread), close by embedding (:data:`STILL_COSINE`), neither a plan, no
    negation of one another, and every word of the held value (:func:`held_value`, at
    least one) and every value of ``still`` within ``other``. Whether ``other`` is an old
    value is for the caller (only live items are compared)."""
    if cosine is None or cosine < STILL_COSINE:
        return False
    if still.future or other.future or has_cjk(other.text):
        return False
    held = held_value(still.text)
    if not held or not held <= _words_all(other.text):
        return False
    mine = values(still.text)
    if not mine <= values(other.text):
        return False
    if still.subject != other.subject and not _measured(held, mine):
        return False  # two people's facts, unless one measured thing ("2.5mg warfarin")
    if _negated(still.text, other.text) or _negated(other.text, still.text):
        return False
    return not negation_conflict(still.text, other.text)


def _measured(held: frozenset[str], found: frozenset[str]) -> bool:
    """A held value naming a measure of a thing: a number with its unit and a word beside
    it ("10mg donepezil"), which a pronoun's misread subject ("her warfarin") cannot hide."""
    return any(v.startswith("num:") and not v.startswith("num:=") for v in found) and any(
        not w[:1].isdigit() for w in held
    )


@lru_cache(maxsize=50_000)
def _words_all(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in content_words(text))


__all__ = [
    "AGAIN_COSINE",
    "STILL_COSINE",
    "held_value",
    "identifiers",
    "of_a_thing",
    "retold",
    "same_words",
    "says_again",
    "still_restates",
    "told_again",
    "told_as_again",
    "values",
]
