"""A restatement: one statement's main assertion said again inside another.

"李娜还是住浦东，没搬家哈" restates "李娜住在上海浦东，周末经常回北京看爸妈"; "I'm vegetarian,
remember it when suggesting recipes" restates "The user is vegetarian, have been for ten
years". The main assertion is a statement's first clause before its asides and reasons
(a comma, "when", "because", "so", "所以", "因为"...). One statement restates another when
the content words of its main assertion all lie within the other (in Chinese: most of its
character pairs, or each of its words beyond the subject's name written in the other, so
"住杨浦宿舍" lies within "住在上海杨浦，学校宿舍"), both say the same
numbers, in the same language, close by embedding (their asides may differ; the embedding
says they are about the same thing), and neither only one says that something changed (a
change said beside an old value is a new value, not a restatement). Pure functions.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory.dream.judge.core_words import core_words
from memory.dream.judge.relations import Said, subject_words
from memory.dream.judge.slots import typed_values
from memory.dream.judge.told_change import clear_change
from memory.dream.similarity import cjk_bigrams, negation_conflict
from memory.segment import content_words, has_cjk

RESTATE_COSINE = 0.88  # the embedding floor: the same thing, whatever the asides say

_ASIDE = re.compile(
    r"[，,;；。!！?？(（]|\s[-–—]\s"
    r"|(?i:\s(?:when|because|since|so|but|as|if|though|although|which|while|whenever)\s)"
    r"|因为|所以|但是|不过|觉得|如果|since"
)
_NUMBER = re.compile(r"\d+")
# A change said not to have happened ("没搬家", "hasn't moved") is none.
_NO_CHANGE = re.compile(
    r"(?:没有?|不|未|别)(?:再)?(?:搬|换|改|跳槽)|(?i:\b(?:hasn'?t|haven'?t|didn'?t|not|never)\s+"
    r"(?:\w+\s+)?(?:moved|changed|switched))"
)


@lru_cache(maxsize=50_000)
def main_assertion(text: str) -> str:
    """The first clause of ``text``, before its asides and reasons."""
    return _ASIDE.split(text, maxsplit=1)[0].strip()


@lru_cache(maxsize=50_000)
def _changes(text: str) -> bool:
    return clear_change(_NO_CHANGE.sub(" ", text))


@lru_cache(maxsize=50_000)
def _numbers(text: str) -> frozenset[str]:
    return frozenset(_NUMBER.findall(text))


# What a restatement adds to the fact it says again: a speaker's label, "still", "again".
_LABEL = re.compile(r"^[^:：\s]{1,12}(?:：|: )")
_AGAIN = re.compile(r"还是|仍然|依然|一直|照样|也|又|(?i:\b(?:still|again|also|too)\b)")
GRAM_SHARE = 0.75  # of a Chinese main assertion's character pairs found in the other


@lru_cache(maxsize=50_000)
def _bare(text: str) -> str:
    return _AGAIN.sub("", _LABEL.sub("", text, count=1))


@lru_cache(maxsize=50_000)
def _grams(text: str) -> frozenset[str]:
    return frozenset(cjk_bigrams(text.replace("用户", " "), singles=False))


def _inside(short: str, long: str, who: frozenset[str] = frozenset()) -> bool:
    """``short``'s main assertion says something, all of it within ``long`` (Chinese:
    most of its character pairs, since one word may be cut two ways: 浦东 / 上海浦东; or
    each of its words, beyond those naming the subject ``who``, written in ``long``)."""
    main = _bare(main_assertion(short))
    if has_cjk(main):
        grams = _grams(main)
        if len(grams) >= 3 and len(grams & _grams(_bare(long))) >= GRAM_SHARE * len(grams):
            return True
        return _words_written_in(main, _bare(long), who)
    words = core_words(main)
    return bool(words) and words <= core_words(_bare(long))


ZH_WORDS = 3  # a Chinese main assertion's words found in the other, at least


def _words_written_in(main: str, long: str, who: frozenset[str]) -> bool:
    """Each Chinese word of ``main`` but those naming the subject is written in ``long``, and
    there are :data:`ZH_WORDS` of them ("王五住杨浦宿舍" in "王五住在上海杨浦，学校宿舍": one
    word in the other's run of characters, where the character pairs across it differ)."""
    words = [w for w in content_words(main) if has_cjk(w) and w != "用户" and w not in who]
    return len(words) >= ZH_WORDS and all(w in long for w in words)


_VALUE = re.compile(r"\d+(?:[.:]\d+)?")


@lru_cache(maxsize=50_000)
def _values(text: str) -> frozenset[str]:
    """The numbers, times and weekdays ``text`` names (a weekday by its number)."""
    weekdays = typed_values(text).get("weekday", frozenset())
    return frozenset(_VALUE.findall(text)) | frozenset("weekday " + d for d in weekdays)


def values_again(newer: str, older: str) -> bool:
    """Whether ``newer`` names values (numbers, times, weekdays) and each of them is one
    ``older`` names ("had her first Tuesday swim lesson at 5:30" after "lessons move to
    Tuesdays at 5:30pm from next week"): it names no new value of what they share."""
    new = _values(newer)
    return bool(new) and new <= _values(older)


@lru_cache(maxsize=50_000)
def in_chinese(text: str) -> bool:
    """Whether ``text`` asserts in Chinese: its main assertion, after a speaker's label, has
    Chinese characters ("用户：I don't eat coriander, 记一下" asserts in English, its label
    and its aside to the listener are Chinese)."""
    return has_cjk(main_assertion(_LABEL.sub("", text, count=1)))


_CLAUSES = re.compile(r"[，,;；。!！?？]")


@lru_cache(maxsize=50_000)
def one_language(text: str) -> str:
    """``text`` as it asserts in its own language (:func:`in_chinese`): without a speaker's
    label or clauses in the other language ("用户：I don't eat coriander, 记一下" -> "I don't
    eat coriander"); ``text`` itself when nothing is in the other language. A line mixing
    two languages embeds close to everything of both, its translation no closer."""
    zh = in_chinese(text)
    body = _LABEL.sub("", text, count=1)
    clauses = [c.strip() for c in _CLAUSES.split(body) if c.strip()]
    kept = [c for c in clauses if has_cjk(c) == zh]
    if has_cjk(text) == zh and len(kept) == len(clauses):
        return text
    return ", ".join(kept) or text


def restates(a: Said, b: Said, cosine: float | None) -> bool:
    """Whether one of ``a`` and ``b`` says again what the other says (see the module)."""
    if cosine is None or cosine < RESTATE_COSINE or a.subject != b.subject:
        return False
    if has_cjk(a.text) != has_cjk(b.text) or _numbers(a.text) != _numbers(b.text):
        return False
    if _changes(a.text) != _changes(b.text) or a.future != b.future:
        return False
    who = subject_words(a.subject)
    if not (_inside(a.text, b.text, who) or _inside(b.text, a.text, who)):
        return False
    return not negation_conflict(a.text, b.text)


__all__ = [
    "RESTATE_COSINE",
    "in_chinese",
    "main_assertion",
    "one_language",
    "restates",
    "values_again",
]
