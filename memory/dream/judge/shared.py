"""Whether a group member's line tells of something the group shares (pure).

In a group chat a line gets its speaker as subject when it names no one else, so "Sam: rent
goes to €640 each from February" is Sam's and "Niamh: we agreed €625 each" Niamh's, and the
second never retires the first. Most lines with no one else named are the speaker's own
("I work nights", "搬完了，现在住 Dover"); a line is about a shared thing (the flat's rent,
the club's venue, the meeting room) when it names no person at all and its grammatical
subject is a thing: no first person singular, no second person, no third person (which may
be the speaker), no member's name, no relation ("Mum's ..."), and, for Chinese, which drops
its subject when it is the speaker ("新房子看好了"), a subject written out: the group's own
(我们, 咱们, 大家) or a noun phrase owning it ("周六的聚餐", "CS2040 的 lab").

A shared statement keeps its speaker's subject (its pairs with the speaker's other lines are
judged as before); the supersede pass also compares it with the other members' shared
statements (:data:`SHARED`), and the contradiction verdict still leaves two members'
values with no word of a change side by side.
"""

from __future__ import annotations

import re

from memory.dream.judge.relations import subject_of
from memory.segment import has_cjk

SHARED = "group"  # the subject two members' shared statements are judged under, together

# A person: the speaker (I, me, my), whom they talk to (you), or a third person (who may be
# the speaker: "X said she ..."); "we", "our", "us" are the group's, so not among them.
_EN_PERSON = re.compile(
    r"\bI(?:'m|'ve|'ll|'d)?\b|(?i:\b(?:me|my|mine|myself|you|your|yours|you're|you'll|"
    r"he|she|him|her|his|hers|himself|herself|he's|she's|the user)\b)"
)
_ZH_PERSON = re.compile(r"我(?!们)|你|您|他|她|用户|自己|本人")
# What opens a report of someone's words in a summary ("Niamh said the rent is ...").
_EN_REPORT = re.compile(
    r"^(?P<who>[A-Z][\w'.-]*(?: [A-Z][\w'.-]*)?)\s+(?:said|says|mentioned|noted|announced|"
    r"confirmed|reminded everyone|told everyone|told the group)(?:\s+that)?[,:]?\s+"
)
_ZH_REPORT = re.compile(
    r"^(?P<who>[\u4e00-\u9fff]{2,4}?)(?:说|提到|表示|通知|宣布)(?:了)?[，,：:]?"
)
# An opener that announces and names nothing ("宣布一下，", "跟大家说一下：", "提醒各位，").
_ZH_OPENER = re.compile(r"^[^，,：:。！!]{0,8}?(?:一下|个事|大家|各位)[，,：:！!]\s*")
_ZH_GROUP = re.compile(r"^(?:我们|咱们|咱|大家|全家|全组|全员)")
# A Chinese subject written out as a noun phrase a time or a code owns ("周六的聚餐",
# "下个月的房租", "CS2040 的 lab"): no one's own (a person's "X的" is theirs, "家里的" too).
_ZH_TIMED = re.compile(
    r"^(?:(?:这|本|下|上|每)?(?:个)?(?:周|星期|礼拜)[一二三四五六日天末]?|(?:这|本|下|上)个?月|"
    r"[今明后]天|[今明]晚|[今明]年|\d{1,2}月(?:\d{1,2}[日号])?|[A-Za-z0-9][\w.-]*)\s*的\s*\S"
)
# An English line opening with its verb, a number or an adverb has dropped its subject, the
# speaker ("Found a flat, moving in on the 7th", "27 and still a student", "still at X").
_EN_DROPPED = re.compile(
    r"(?i)^(?:\w{2,}ed|found|got|went|came|left|took|made|began|bought|sold|\d|still|just|"
    r"finally|now|back|off|first|last|also|really)\b"
)


def reported(text: str) -> tuple[str, str] | None:
    """``(who, words)`` of a summary's report of someone's words ("Niamh said the rent is
    €600" -> ``("Niamh", "the rent is €600")``), or None."""
    for pattern in (_EN_REPORT, _ZH_REPORT):
        match = pattern.match(text)
        if match and match.end() < len(text):
            return match.group("who"), text[match.end() :]
    return None


def shared_thing(body: str, names: frozenset[str]) -> bool:
    """Whether ``body`` (what a group member said, in their own words: first person intact)
    tells of a thing the group shares rather than of a person (see the module's docstring);
    ``names``: the chat's members and the names it gives people."""
    text = body.strip()
    if not text:
        return False
    if any(name and name in text for name in names):
        return False
    if has_cjk(text):
        if _ZH_PERSON.search(text):
            return False
        text = _ZH_OPENER.sub("", text, count=1)
        if not (_ZH_GROUP.match(text) or _ZH_TIMED.match(text)):
            return False  # no subject written out: the speaker's own, as often as not
    elif _EN_PERSON.search(text) or _EN_DROPPED.match(text):
        return False
    # a relation or someone named first ("Mum's party moved", "奶奶的药") is theirs: read
    # as the user's words, whose relation is named bare
    label = "用户：" if has_cjk(text[:1]) else "The user: "
    return subject_of(label + text, names) == "user"
