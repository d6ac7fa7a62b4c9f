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
from memory.segment import STOPWORDS, has_cjk, word_frequency, word_spans
from memory.speaker import SURNAMES

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
# A Chinese subject written out bare, a thing's name before a verb that sets or changes its
# value ("房租涨到3300了", "周会改到周二", "面粉供应商换成五得利了", "年会在万豪酒店"): the
# verbs a schedule, a place, an amount or a supplier is given by, a closed class.
_ZH_SETS = re.compile(
    r"(?:改|换|调|挪|移|推|延|涨|降|定|订|约|变|搬|升|减|加)(?:到|成|为|在|去|至|了)|"
    r"推迟|提前|延期|取消|照常|一直|还是|依然|仍然|每[天周月年次人]|是|在|从|由"
)
# when, opening the words before it ("下个月房租…", "这周例会…"): no subject
_ZH_WHEN = re.compile(
    r"^(?:[今明后昨前]天|[今明昨]晚|早上|上午|中午|下午|晚上|周末|平时|最近|现在|以后|之前|"
    r"(?:这|本|下|上|每)(?:个)?(?:周[一二三四五六日天末]?|星期[一二三四五六日天]?|礼拜|月)|"
    r"\d{4}年|\d{1,2}月(?:\d{1,2}[日号])?|(?:19|20)\d{2}-\d{2}-\d{2}|"
    # a holiday or a school break names when, as a day does
    r"春节|过年|元旦|五一|国庆|中秋|端午|清明|寒假|暑假|周末)\s*"
)
# the last character of a thing's name that no person's name ends in, a closed class of
# bound nouns (a meeting, a fee, a banquet, a room, a team, a ticket): "周会" is no 周某
PERSON_FREQUENCY = 1000  # a word a family name opens as common as this names no one ("方案")
_ZH_THING_END = frozenset("会费租宴礼单表室点期组团队群所店馆厅场楼课班赛展票价款线站")


def thing_of(text: str) -> str:
    """The thing a Chinese ``text`` names bare before its value (:func:`_zh_bare_thing`:
    "寿宴改到聚贤楼了" -> "寿宴"), "" when it opens otherwise."""
    text = hearsay(text) or text
    if not has_cjk(text[:1]) or not _zh_bare_thing(text):
        return ""
    text = _ZH_WHEN.sub("", text, count=1)
    verb = _ZH_SETS.search(text)
    return text[: verb.start()] if verb else ""


# What an English line opens with when it names a thing: its words after "the", "our" and
# an owner's "'s" ("The shop's flour comes from …" -> "flour comes", "Standup moved" ->
# "standup moved"); the first two are enough to tell one thing from another.
_EN_THING = re.compile(
    r"(?i)^(?:(?:the|our|this|that)\s+)?(?:[\w-]+'s\s+)?(?P<thing>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
)
JOB_WORDS = frozenset("工作 上班 job work shift".split())  # a person's job named bare


def thing_words(body: str) -> frozenset[str]:
    """The words a group's shared line names its thing by (:func:`shared_thing`; in Chinese
    the words of :func:`thing_of`, "公司 年会" of "公司年会在万豪酒店"; in English the first
    two after an article or owner), lower-cased, a person's job named bare left out; empty
    when it opens otherwise."""
    text = hearsay(body) or body.strip()
    if has_cjk(text[:1]):
        named = thing_of(_ZH_OPENER.sub("", text, count=1))
        words = [w for w, _, _ in word_spans(named)] if named else []
    else:
        match = _EN_THING.match(text)
        words = match.group("thing").lower().split() if match else []
    return frozenset(w for w in words if len(w) > 1 and w not in STOPWORDS) - JOB_WORDS


def _zh_bare_thing(text: str) -> bool:
    """Whether a Chinese ``text`` opens with a thing named bare, its value set or changed
    next (:data:`_ZH_SETS`): two characters or more, no number, not a person's name (a
    word of two or three characters a family name opens, no common dictionary word,
    unless it ends as a thing's name does)."""
    text = _ZH_WHEN.sub("", text, count=1)
    verb = _ZH_SETS.search(text)
    if verb is None:
        return False
    named = text[: verb.start()]
    if not 2 <= len(named) <= 10 or not all("\u4e00" <= c <= "\u9fff" for c in named):
        return False
    first = word_spans(named)[0][0]
    if len(first) < 2 or _ZH_WHEN.match(first) or first in ("我们", "咱们", "大家"):
        return False
    person = first[0] in SURNAMES and len(first) <= 3 and word_frequency(first) < PERSON_FREQUENCY
    return not person or first[-1] in _ZH_THING_END


# Words told as someone else's ("听房东说…", "房东通知…", "Mark told me …", "I heard …"):
# what follows is about whom or what it names, not about the teller.
_ZH_HEARSAY = re.compile(
    r"^(?:听说|据说|听(?P<who>[^，,：:。！!？?\s]{1,6}?)(?:说|讲)|"
    r"据?(?P<teller>[^，,：:。！!？?\s]{1,6}?)(?:说|讲|通知|告诉我|跟我说|表示|提到)(?!不定|明|法|话))"
    r"(?:了)?[，,：:]?\s*"
)
_EN_HEARSAY = re.compile(
    r"(?i)^(?:I(?:'ve)?\s+(?:just\s+)?heard(?:\s+that)?|apparently|"
    r"(?:[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)?|(?:my|our|the)\s+\w+)\s+"
    r"(?:said|says|told me|tells me|told us|tells us|mentioned|reckons|announced|confirmed))"
    r"(?:\s+that)?[,:]?\s+"
)


def hearsay(text: str) -> str:
    """What ``text`` (a member's words, first person intact) tells as heard from someone
    ("听房东说房租要涨" -> "房租要涨", "Mark told me the offsite moved to Bath" -> "the
    offsite moved to Bath"), "" when it tells nothing so."""
    pattern = _ZH_HEARSAY if has_cjk(text[:1]) else _EN_HEARSAY
    match = pattern.match(text.strip())
    if match is None or match.end() >= len(text.strip()):
        return ""
    return text.strip()[match.end() :]


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
    text = hearsay(text) or text  # "Mark told me the offsite moved": the offsite's
    if any(name and name in text for name in names):
        return False
    if has_cjk(text):
        if _ZH_PERSON.search(text):
            return False
        text = _ZH_OPENER.sub("", text, count=1)
        when = _ZH_WHEN.sub("", text, count=1)  # "国庆全家去青岛": the family's
        if not (_ZH_GROUP.match(when) or _ZH_TIMED.match(text) or _zh_bare_thing(text)):
            return False  # no subject written out: the speaker's own, as often as not
    elif _EN_PERSON.search(text) or _EN_DROPPED.match(text):
        return False
    # a relation or someone named first ("Mum's party moved", "奶奶的药") is theirs: read
    # as the user's words, whose relation is named bare
    label = "用户：" if has_cjk(text[:1]) else "The user: "
    return subject_of(label + text, names) == "user"
