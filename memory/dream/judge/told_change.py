"""Whether a statement tells that something changed, and the new value it names.

``clear_change`` reads a change word ("改成", "no longer"), a move ("搬到", "postponed"), an
age reached or a value moving to a new number; ``tells_change`` is the same past the words
saying a value holds now ("现在每月工资12000元" tells none); ``changed_to`` is the words of
the value a change names ("改喝乌龙茶" -> 乌龙茶).
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory.dream.judge.slots import NEWS
from memory.dream.similarity import CHANGE
from memory.search.stemming import stem
from memory.segment import content_words

# The words of a thing moved in time or place ("改到", "postponed", "moved").
MOVED = re.compile(
    r"(?i)改到|改成|推迟|提前|延期|延到|延后|顺延|推到|\bmoved\b|\bpushed\b|postponed|"
    r"rescheduled|slips|\bextended\b"
)


# A change to a new value, the value after it ("改喝乌龙茶", "switched to oat milk"), and the
# words of a slot (住, drinks) no value is named by.
CHANGE_TO = re.compile(
    r"(?:改喝|改吃|改用|改成|换成|换到|搬到|搬去|跳槽到|转到|改到|改为|升为|现在住(?!的)|现在在|现在是|"
    r"(?i:switched to|moved to|changed to|now (?:drinks?|lives? in|works? (?:at|for)|uses?)|"
    r"gone fully|upped (?:\w+ )*?to|raised (?:\w+ )*?to|up to|cut down to|down to))\s*"
    r"(?P<value>[\u4e00-\u9fff]{1,6}|[\w.:-]+(?:\s+[\w.:-]+)?)"
)
SLOT_WORDS = frozenset(
    "住 住在 搬 搬家 搬到 喝 吃 用 工作 上班 在 是 有 现在 还是 改 改到 改成 最近 每天 一直 "
    "live lives living moved move moving drink drinks eat eats use uses work works now still "
    "again switched changed".split()
)
SLOT_WORDS |= frozenset(stem(w) for w in SLOT_WORDS)  # as the core words are written


@lru_cache(maxsize=50_000)
def changed_to(text: str) -> frozenset[str]:
    """The words of the new values ``text`` says a change to ("改喝乌龙茶" -> 乌龙茶's words,
    "搬到良渚")."""
    out: set[str] = set()
    for match in CHANGE_TO.finditer(text):
        out.update(w for w in content_words(match.group("value")) if w not in SLOT_WORDS)
    return frozenset(out)


# An age reached, said so ("turned 42 today", "今天满 8 岁"): the age changed.
_AGE_REACHED = re.compile(r"(?i)\bturn(?:ed|s)\s+\d{1,3}\b|满\s*\d{1,3}\s*岁")
# A value moving to a new number ("rent goes to €640", "rose to 5.2%", "房租涨到4800"): a
# number after the move (not "goes to Riverside Primary", where one goes, no value).
_TO_NUMBER = re.compile(
    r"(?i)\b(?:go|goes|going|went|gone|rises?|rose|risen|increase[sd]?|jump(?:s|ed)?|"
    r"drop(?:s|ped)?|f[ae]ll(?:s|en)?)\s+(?:up\s+|down\s+)?to\s+[£$€¥]?\s*\d"
    r"|(?:涨|降|升|加|减|调)(?:到|至)\s*[0-9零一二两三四五六七八九十百千万]"
)


# A line announcing a change ("change of plan, …", "计划有变", "改主意了").
_ANNOUNCED = re.compile(r"(?i)\bchange of plans?\b|计划有变|改主意了")


@lru_cache(maxsize=50_000)
def clear_change(text: str) -> bool:
    """Whether ``text`` says that something changed ("改成", "搬到", "no longer", "moved to",
    "turned 42", "change of plan")."""
    return bool(
        CHANGE.search(text)
        or _ANNOUNCED.search(text)
        or MOVED.search(text)
        or changed_to(text)
        or _AGE_REACHED.search(text)
        or _TO_NUMBER.search(text)
    )


# Words saying a value holds now ("现在", "目前", "now", "currently"): the present, no change
# (a value changed says so: "涨到", "went up", "了", "down to").
NOW = re.compile(r"(?i)\b(?:now|currently|these days|nowadays|at the moment)\b|现在|目前|如今")


def tells_change(text: str) -> bool:
    """Whether ``text`` says that something changed, past the words saying a value holds
    now ("现在每月工资12000元" tells none, "现在房租涨到3300元了" does)."""
    plain = NOW.sub(" ", text)
    return bool(NEWS.search(plain) or clear_change(plain))
