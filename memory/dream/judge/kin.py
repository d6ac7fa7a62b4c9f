"""The words of a subject's relatives and the people around it, and which a statement names.

``REL_OF`` maps a relation word to its kind ("mum" -> "mother"); ``others_named`` finds the
people around a subject (relatives, neighbours, classmates); ``relations_named`` and
``kin_named`` the relations a statement names beyond its subject and its speaker.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory.dream.judge.core_words import core_words
from memory.search.stemming import stem

REL_WORDS = {
    "father": "父亲 爸爸 爸 老爸 老爷子 父 father dad",
    "mother": "母亲 妈妈 妈 老妈 母 mother mum mom mam",
    "parents": "父母 爸妈 parents",
    "wife": "妻子 老婆 太太 媳妇 wife",
    "husband": "丈夫 老公 先生 husband",
    "partner": "男朋友 女朋友 男友 女友 对象 伴侣 partner boyfriend girlfriend fiancé fiancée",
    "son": "儿子 son",
    "daughter": "女儿 闺女 daughter",
    "child": "孩子 宝宝 kids children child kid",
    "brother": "哥哥 弟弟 brother",
    "sister": "姐姐 妹妹 sister",
    "grandparent": "爷爷 奶奶 外公 外婆 姥姥 姥爷 grandmother grandfather grandma grandpa",
    "grandchild": "孙子 孙女 外孙 外孙女 grandson granddaughter grandchildren",
    "friend": "朋友 闺蜜 好友 friend bestie bff",
    "colleague": "同事 colleague coworker",
    "boss": "老板 领导 经理 主任 boss manager",
    "advisor": "导师 advisor supervisor",
    "roommate": "室友 roommate flatmate",
    "pet": "猫 狗 宠物 仓鼠 cat dog pet hamster",
}


# a relation word -> its kind ("mum" -> "mother"), public: beings and the join read it
REL_OF = {w: k for k, words in REL_WORDS.items() for w in words.split()}


# The people around a subject: its relations (:data:`REL_OF`, no pet or boss, a job's
# word too) and those it lives and works among.
_PEOPLE = {w for w, kind in REL_OF.items() if kind not in ("pet", "boss")} | set(
    (
        "邻居 侄子 侄女 外甥 外甥女 表弟 表妹 表哥 表姐 堂弟 堂妹 堂哥 堂姐 舅舅 叔叔 阿姨 "
        "姑姑 婶婶 舅妈 姨妈 嫂子 姐夫 妹夫 弟媳 公公 婆婆 岳父 岳母 同学 客户 房东 租客 队友 "
        "neighbour neighbor nephew niece cousin uncle aunt auntie classmate client customer "
        "landlord landlady tenant teammate housemate stepson stepdaughter grandson "
        "granddaughter"
    ).split()
)


EN_OTHERS = re.compile(
    r"(?i)\b(?:"
    + "|".join(sorted((w for w in _PEOPLE if w.isascii()), key=len, reverse=True))
    + r")(?:s|'s)?\b"
)


ZH_OTHERS = re.compile(
    "|".join(sorted((w for w in _PEOPLE if not w.isascii() and len(w) > 1), key=len, reverse=True))
    + "|(?<=[我你他她的])["
    + "".join(w for w in _PEOPLE if not w.isascii() and len(w) == 1)
    + "]"
)


def others_named(text: str) -> frozenset[str]:
    """The people around a subject ``text`` names (:data:`_PEOPLE`: relatives, neighbours,
    classmates…), but a partner (the value of one's own stage: "有女朋友了"), lower-cased."""
    found = {m.group(0).lower() for m in EN_OTHERS.finditer(text)}
    found |= {m.group(0) for m in ZH_OTHERS.finditer(text)}
    return frozenset(w for w in found if REL_OF.get(w) != "partner")


# the relation words as one alternation each, longest first
ZH_REL = "|".join(sorted((w for w in REL_OF if not w.isascii()), key=len, reverse=True))
EN_REL = "|".join(sorted((w for w in REL_OF if w.isascii()), key=len, reverse=True))
REL_STEM = {stem(w.lower()): rel for w, rel in REL_OF.items()}


# A relation named as who says it ("supervisor 说 proposal 可以延到…"): no one the plan is for.
_SPEAKER = re.compile(
    rf"(?i)(?:{EN_REL}|{ZH_REL})\s*(?:说|讲|告诉|通知|同意|\b(?:said|says|told|agreed)\b)"
)


@lru_cache(maxsize=50_000)
def relations_named(text: str, who: frozenset[str]) -> frozenset[str]:
    """The relations a statement names beyond its subject and its speakers (带儿子, the
    kids): whose plan it is, whom it is for."""
    core = core_words(_SPEAKER.sub(" ", text)) - who
    return frozenset(REL_STEM[w] for w in core if w in REL_STEM)


# "我爸", "我妈": a relation after the speaker's own pronoun, read as one word.
_MY = re.compile(r"(?:我|你|他|她)(?=[\u4e00-\u9fff])")


# Who speaks ("老爸：…", "Mum: …"): the name before a line's colon, no one it tells of.
_SPOKEN_BY = re.compile(r"^[^：:，,。\s]{1,12}\s?[：:]")


def kin_named(text: str, who: frozenset[str]) -> frozenset[str]:
    """The relations ``text`` names (:func:`relations_named`), "我爸" as "爸" too, past whoever
    says it ("妈妈：陈师傅换工作了" names no mother)."""
    text = _SPOKEN_BY.sub(" ", text)
    return relations_named(text, who) | relations_named(_MY.sub(" ", text), who)
