"""Judgements about pairs of items: whose fact it is, the same fact twice, a new value.

``subject_of`` names whom an item is about (``user``, ``user/father``, ``张伟``,
``Tom/wife``): statements about different subjects never merge and never replace each
other. ``same_fact`` accepts restatements and paraphrases (also across Chinese and
English when embeddings are available); ``replaces`` accepts a newer value for the same
slot: a change marker within one topic family (:mod:`memory.dream.similarity`), a new
number for the same measured thing, or a new date for the same plan. A future plan never
replaces a present fact ("moving to Portland in September" leaves "lives in Austin").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory.dream.similarity import CHANGE, features, near_duplicate, supersedes
from memory.overlap import containment, jaccard
from memory.segment import content_words, has_cjk

_REL = {
    "father": "父亲 爸爸 爸 老爸 父 father dad",
    "mother": "母亲 妈妈 妈 老妈 母 mother mum mom mam",
    "parents": "父母 爸妈 parents",
    "wife": "妻子 老婆 太太 媳妇 wife",
    "husband": "丈夫 老公 先生 husband",
    "partner": "男朋友 女朋友 男友 女友 对象 伴侣 partner boyfriend girlfriend fiancé fiancée",
    "son": "儿子 son",
    "daughter": "女儿 daughter",
    "child": "孩子 宝宝 kids children child kid",
    "brother": "哥哥 弟弟 brother",
    "sister": "姐姐 妹妹 sister",
    "grandparent": "爷爷 奶奶 外公 外婆 姥姥 姥爷 grandmother grandfather grandma grandpa",
    "grandchild": "孙子 孙女 外孙 外孙女 grandson granddaughter grandchildren",
    "friend": "朋友 闺蜜 好友 friend",
    "colleague": "同事 colleague coworker",
    "boss": "老板 领导 经理 主任 boss manager",
    "advisor": "导师 advisor supervisor",
    "roommate": "室友 roommate flatmate",
    "pet": "猫 狗 宠物 仓鼠 cat dog pet hamster",
}
_REL_OF = {w: k for k, words in _REL.items() for w in words.split()}
_ZH_REL = "|".join(sorted((w for w in _REL_OF if not w.isascii()), key=len, reverse=True))
_EN_REL = "|".join(sorted((w for w in _REL_OF if w.isascii()), key=len, reverse=True))
_ZH_SUBJECT = re.compile(rf"^(?P<who>用户|[\u4e00-\u9fff]{{2,4}}?)的?(?P<rel>{_ZH_REL})")
_ZH_WHO = re.compile(r"^(?P<who>用户|[\u4e00-\u9fff]{2,3})")
_EN_SUBJECT = re.compile(
    rf"(?i)^(?P<who>the user|user|[A-Z][a-z]+(?: [A-Z][a-z]+)?)'s\s+(?:\w+\s+)?(?P<rel>{_EN_REL})\b"
)
_EN_WHO = re.compile(r"^(?P<who>The user|the user|[A-Z][a-z]+(?: [A-Z][a-z]+)?)\b")
_NUMBER = re.compile(r"\d+(?:[.:]\d+)?")
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")
_FUTURE = re.compile(
    r"(?i)要|将|打算|计划|准备|下周|下个月|明年|\bwill\b|\bgoing to\b|\bplans? to\b|"
    r"\bplanning\b|\bare moving\b|\bis moving\b|\bstarts? (?:at|on)\b|\bnext\b"
)


def subject_of(text: str, names: frozenset[str] = frozenset()) -> str:
    """Whom an item is about; ``user`` unless it names someone else first."""
    for pattern in (_ZH_SUBJECT, _EN_SUBJECT):
        match = pattern.match(text)
        if match:
            who = _who(match.group("who"), names)
            return f"{who}/{_REL_OF[match.group('rel').lower()]}"
    for name in sorted(names, key=len, reverse=True):
        if text.startswith(name):
            return name
    match = _EN_WHO.match(text)
    if match and not has_cjk(text[:12]):
        return _who(match.group("who"), names)
    return "user"


def _who(word: str, names: frozenset[str]) -> str:
    if word.lower() in ("用户", "the user", "user"):
        return "user"
    return word if word in names or word[:1].isupper() else "user"


@dataclass(frozen=True)
class Said:
    """An item's text with what the pair judgements need of it."""

    text: str
    subject: str
    kind: str
    future: bool = False  # a plan whose date is after its note's


def _core(text: str) -> frozenset[str]:
    return frozenset(w for w in content_words(_ISO.sub(" ", text)) if not w.isdigit())


def same_fact(a: Said, b: Said, cosine: float | None = None) -> bool:
    """Two wordings of one fact about one subject."""
    if a.subject != b.subject:
        return False
    if near_duplicate(a.text, b.text):
        return True
    if set(_NUMBER.findall(a.text)) != set(_NUMBER.findall(b.text)):
        return False
    if cosine is None:
        return False
    if has_cjk(a.text) != has_cjk(b.text):
        return a.kind == b.kind and cosine >= CROSS_LANGUAGE_COSINE
    overlap = containment(_core(a.text), _core(b.text))
    return a.kind == b.kind and cosine >= SAME_COSINE and overlap >= 0.5


SAME_COSINE = 0.93
CROSS_LANGUAGE_COSINE = 0.88


def _slot_numbers(text: str) -> dict[str, set[str]]:
    """Numbers keyed by the words around them ("体重 78 公斤" -> {体重, 公斤})."""
    out: dict[str, set[str]] = {}
    clean = _ISO.sub(" ", text)
    for match in _NUMBER.finditer(clean):
        around = clean[max(0, match.start() - 8) : match.end() + 6]
        for word in content_words(around):
            if not word[:1].isdigit():
                out.setdefault(word, set()).add(match.group(0))
    return out


def replaces(newer: Said, older: Said) -> bool:
    """Whether ``newer`` gives a new value for what ``older`` said about the same subject."""
    if newer.subject != older.subject or same_fact(newer, older):
        return False
    if newer.future and not older.future and older.kind != "plan":
        return False  # a plan does not change the present
    if supersedes(newer.text, older.text):
        return True
    new_nums, old_nums = _slot_numbers(newer.text), _slot_numbers(older.text)
    shared = set(new_nums) & set(old_nums) - {"用户", "user"}
    if shared and all(new_nums[w] != old_nums[w] for w in shared) and newer.kind == older.kind:
        return jaccard(_core(newer.text), _core(older.text)) >= 0.2
    new_dates, old_dates = set(_ISO.findall(newer.text)), set(_ISO.findall(older.text))
    if new_dates and old_dates and new_dates != old_dates:
        overlap = containment(_core(newer.text), _core(older.text))
        changed = bool(CHANGE.search(newer.text)) or bool(
            re.search(
                r"改到|改成|推迟|提前|延期|moved|pushed|postponed|rescheduled|slips", newer.text
            )
        )
        return overlap >= (0.5 if changed else 0.75)
    return False


def is_future(text: str) -> bool:
    return bool(_FUTURE.search(text))


__all__ = ["Said", "features", "replaces", "same_fact", "subject_of"]
