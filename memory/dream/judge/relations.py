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
from functools import cached_property, lru_cache

from memory.dream.judge.address import (
    after_lead,
    apposed,
    familiar_form,
    familiar_names,
    opening_name,
    told_of,
    unaddressed,
)
from memory.dream.judge.core_words import ANY_DAY, GENERIC, core_words, undated
from memory.dream.judge.dates import find, month_number
from memory.dream.judge.kin import EN_REL, REL_OF, REL_WORDS, ZH_REL, relations_named
from memory.dream.judge.label import LABEL as _LABEL
from memory.dream.judge.measures import (
    NOT_MEASURED,
    NUMBER,
    new_number,
    nothing_shared,
    numbers_apart,
    of_another_relative,
    of_then,
    other_distance,
)
from memory.dream.judge.places import moved_to, other_place, placed
from memory.dream.judge.single_slots import FORMER, ORIGIN
from memory.dream.judge.slots import GOAL, ISO_DATE, new_value, typed_values
from memory.dream.judge.told_change import CHANGE_TO, MOVED, SLOT_WORDS, changed_to, clear_change
from memory.dream.similarity import (
    CHANGE,
    FAMILIES,
    NEGATION,
    features,
    near_duplicate,
    supersedes,
    topic_values,
)
from memory.dream.text_memo import persisted
from memory.overlap import containment, jaccard
from memory.search.stemming import stem
from memory.segment import STOPWORDS, content_words, has_cjk
from memory.speaker import SURNAMES

# "用户对猫毛过敏" is the user's (no one is called 用户对); "张伟家的狗" is 张伟's dog.
ZH_SUBJECT = re.compile(rf"^(?P<who>用户|(?!用户)[\u4e00-\u9fff]{{2,4}}?)家?的?(?P<rel>{ZH_REL})")
_ZH_WHO = re.compile(r"^(?P<who>用户|[\u4e00-\u9fff]{2,3})")
# a relation's own relation right after it ("brother's friend", "哥哥的朋友")
_CHAINED = re.compile(rf"(?i)(?:'s\s+(?:\w+\s+)?(?P<en>{EN_REL})\b|的(?P<zh>{ZH_REL}))")
EN_SUBJECT = re.compile(
    rf"(?i)^(?P<who>the user|user|[A-Z][a-z]+(?: [A-Z][a-z]+)?)'s\s+(?:\w+\s+)?(?P<rel>{EN_REL})\b"
)
_EN_WHO = re.compile(r"^(?P<who>The user|the user|[A-Z][a-z]+(?: [A-Z][a-z]+)?)\b")
_FUTURE = re.compile(
    r"(?i)要|将|打算|计划|准备|下周|下个月|明年|\bwill\b|\bgoing to\b|\bplans? to\b|"
    r"\bplanning\b|\bare moving\b|\bis moving\b|\bstarts? (?:at|on)\b|\bnext\b"
)


# A relation named bare at the start, as its speaker calls it ("Mum moved into Oakwood",
# "我妈住院了", "My wife is a nurse"): the speaker's relation. A one-character Chinese word
# (妈, 猫) only after 我 ("妈妈" is two).
_EN_BARE = re.compile(rf"^(?:(?i:my|our)\s+(?P<rel>(?i:{EN_REL}))|(?P<cap>(?i:{EN_REL})))(?:'s)?\b")
_EN_CAP = "|".join(w.capitalize() for w in EN_REL.split("|"))
_ZH_MULTI_REL = "|".join(w for w in ZH_REL.split("|") if len(w) > 1)
_ZH_BARE = re.compile(rf"^(?:(?:我们|我|咱)的?(?P<rel>{ZH_REL})|(?P<cap>{_ZH_MULTI_REL}))")
_EN_OWNER = re.compile(rf"\b(?:(?i:my|our)\s+(?P<rel>(?i:{EN_REL}))|(?P<cap>{_EN_CAP}))'s\b")
# An opener that announces what follows and says nothing itself.
_OPENER = re.compile(
    r"(?:另外|还有|对了|顺便)?(?:跟大家)?(?:(?:宣布|通知|报告|更新|告诉大家)(?:一下|个事|一件事)?"
    r"|(?:商量|说)?(?:一下|个事|一件事))[，,：:]\s*"
    r"|(?i:(?:quick\s+)?(?:update|news|fyi|btw|heads up|announcement)\s*[,:!-]\s*)"
    # hearsay: whom what was heard names is whom it is about ("听说陈晨换工作了")
    r"|(?:听说|据说)[，,：:]?\s*|(?i:(?:I\s+|I've\s+|just\s+)?heard(?:\s+that)?,?\s+)"
    r"|(?i:apparently,?\s+)"
)
# A relation's words reported ("老板说…", "my boss said that …"), and their opening pronoun
# when they are about the relation itself ("妈妈说她下个月去北京").
_TOLD = re.compile(
    r"\s*(?:跟我说|告诉我|对我说|说|讲|觉得|认为|通知我?)[，,：:]?\s*"
    r"|(?i:\s+(?:said|says|told me|tells me|thinks|thought|reckons)(?:\s+that)?[,:]?\s+)"
)
_THIRD_PERSON = re.compile(r"(?i)他|她|它|\b(?:he|she|his|her|they|their)\b")
# A summary's report of what the user said ("The user mentioned that …", "用户提到，…").
_REPORTED = re.compile(
    r"(?:用户(?:提到|提起|说起|表示|告诉助手|跟助手说)[，,：:]?\s*)"
    r"|(?i:the user\s+(?:mentioned|said|noted|shared|explained|added|told the assistant|"
    r"reported|brought up)(?:\s+that)?[,:]?\s+)"
)
_POSSESSIVE = re.compile(r"^[A-Z][a-z]+(?: [A-Z][a-z]+)?'s\s")
# Kin no group calls its own together: a member's child or partner.
_OWN_KIN = frozenset(
    "女儿 儿子 闺女 大女儿 小女儿 大儿子 小儿子 老公 老婆 丈夫 妻子 男朋友 女朋友 未婚夫 "
    "未婚妻".split()
)
_SUMMARY_OWN = re.compile(rf"^(?i:their|his|her)\s+(?=(?i:{EN_REL})\b)")
_SAID_BY_USER = re.compile(r"^(?:用户|The user|the user|User)(?:：|: )")


@lru_cache(maxsize=50_000)
@persisted("relations.subject_of")
def subject_of(text: str, names: frozenset[str] = frozenset()) -> str:
    """Whom an item is about; ``user`` unless it names someone else first. A line said by
    someone ("The user: Mum moved into Oakwood", "张伟：我女儿考上了") that opens with a
    relation named bare is about the speaker's relation. An opener that only announces
    ("另外宣布一下，", "Quick update: ") names no one: whom the rest names is whom it is about."""
    opener = _OPENER.match(text)
    if opener and opener.end() < len(text):
        text = text[opener.end() :]
    heard = _heard(text, names)
    if heard:
        return heard
    reported = _REPORTED.match(text)
    if reported and reported.end() < len(text):
        # "The user mentioned Joan's 87th birthday is …": about whom the words name, if
        # they name a relation, a member or someone's own ("Joan's"), else the user's
        rest = text[reported.end() :]
        # a summary's "their friend" ("The user said their friend pays …") is the user's
        rest = _SUMMARY_OWN.sub("my ", rest, count=1)
        if _POSSESSIVE.match(rest):
            return subject_of(rest, names)
        inner = subject_of(("用户：" if has_cjk(rest[:1]) else "The user: ") + rest, names)
        if "/" in inner or inner in names:
            return inner
    told = told_of(text, names) or apposed(text, names)
    if told:  # "刘洋陈晨在银行上班": a teller's frame dropped, the words are the member's
        return subject_of(told, names)
    rest = after_lead(text)  # "2027-05-03陈晨搬到…", "In the group chat, Omar said …"
    if rest and (opening_name(rest, names) or _a_name(rest, names)):
        return subject_of(rest, names)
    for pattern in (ZH_SUBJECT, EN_SUBJECT):
        match = pattern.match(text)
        if match and not _member_and_frame(match.group("who"), names):
            who = _who(match.group("who"), names)
            rel = _nested(match.group("who"), match.group("rel"))
            named = who != "user" or match.group("who").lower() in ("用户", "the user", "user")
            told = _relation_told(text, match.end(), who, names) if named else ""
            if told:  # "王刚的爸说生日宴改到周六了" (but not a stranger's: "张伟的妈说…")
                return told
            chained = _CHAINED.match(text, match.end())
            if chained:  # "the user's brother's friend": the relation's own relation
                second = (chained.group("en") or chained.group("zh")).lower()
                rel = f"{REL_OF[match.group('rel').lower()]}-{REL_OF[second]}"
            return f"{who}/{rel}"
    bare = _bare_relation(text, names)
    if bare:
        return bare
    for name in sorted(names, key=len, reverse=True):
        if text.startswith(name):
            return _framed(text, name, names) or _joint(text, name, names) or name
    label = _SAID_BY_USER.match(text)
    if label and names:
        # the user's words about a member ("The user: Omar drives a Fiat") are the member's,
        # as another member's are ("Priya: Omar drives a Fiat")
        member = _member_told(text[label.end() :], "user", names, others=False)
        if member:
            return member
    for word, name in _kin_names(names).items():
        if text.startswith(word):
            return name  # "老爷子的寿宴…" in a group where 赵老爷子 speaks
    for word, name in familiar_names(names).items():
        if text.startswith(word):
            return subject_of(name + text[len(word) :], names)  # "老陈…" of 陈晨
    form = familiar_form(text)
    if form and form not in familiar_names(names):
        return form  # "陈师傅的修车铺搬了": someone called so, no member
    match = _EN_WHO.match(text)
    if match and not has_cjk(text[:12]):
        who = _who(match.group("who"), names)
        if who != "user" and who not in names and _a_body(text, match.end()):
            return "user"  # "Oakwood staff now manage …": a place's staff, no one named
        return (_pair(text, match.group("who"), names) if who != "user" else "") or who
    return "user"


# Words told as heard from someone, the teller named ("听我妈说…", worded "听用户的妈说…";
# "妈妈告诉我…"; "Mum told me …", "Mark told Priya …"): whom they are about is whom what
# follows names, or the teller when it opens with a third person ("听孙丽说她换工作了").
_ZH_HEARD = re.compile(
    r"^(?:听(?P<teller>[^，,：:。！？\s]{1,8}?)(?:说|讲)|"
    r"(?P<told>[^，,：:。！？\s]{1,8}?)(?:告诉|跟)(?:我|他|她|用户)说?)(?:了)?[，,：:]?\s*"
)
_EN_HEARD = re.compile(
    r"^(?P<teller>(?:(?:[Mm]y|[Oo]ur|[Tt]he user's|[A-Z][a-z]+'s)\s+)?[A-Za-z][\w-]*"
    r"(?:\s+[A-Z][a-z]+)?)\s+(?:told|tells)\s+(?:me|us|the user|him|her|them|"
    r"[A-Z][a-z]+)(?:\s+that)?[,:]?\s+"
)
_PRONOUN_FIRST = re.compile(r"(?i)^(?:他|她|(?:he|she)\b)")


def _heard(text: str, names: frozenset[str]) -> str:
    """Whom ``text`` is about when (after its speaker's label) it tells what someone said
    (:data:`_ZH_HEARD`, :data:`_EN_HEARD`): the teller's subject when the words open with
    "he"/"she"; whom the words name, read as the speaker's (a Chinese teller written
    "用户的妈" was the speaker's own: the label the wording dropped); the speaker when they
    name no one ("听王刚的爸说奶奶住院了": 王刚's line). "" when no such frame opens it."""
    label = _LABEL.match(text)
    lead = text[: label.end()] if label else ""
    body = text[len(lead) :]
    chinese = has_cjk(body[:1])
    match = (_ZH_HEARD if chinese else _EN_HEARD).match(body)
    if match is None or match.end() >= len(body):
        return ""
    teller = match.group("teller") or match.group("told") if chinese else match.group("teller")
    if teller.lower() in _NO_NAME or teller.lower() in ("i", "we", "you"):
        return ""
    rest = body[match.end() :]
    if chinese and not lead and ("的" in teller or teller.startswith("用户")):
        # "听用户的妈说…", "用户妈妈告诉他…": the user's own line, its label dropped
        lead = ("用户" if teller.startswith("用户") else teller.split("的", 1)[0]) + "："
    if _PRONOUN_FIRST.match(rest):
        told = subject_of(lead + teller, names)
        return told if told != subject_of(lead + "x", names) else ""
    inner = subject_of(lead + rest, names)
    if inner != "user" or lead:
        return inner
    return ""


# Kin :data:`REL_OF` has no kind for (cousins, aunts and uncles, nieces and nephews): a
# relative all the same, never the speaker.
_OTHER_KIN = re.compile(
    r"^(?:[表堂][姐妹哥弟]|叔叔|阿姨|舅舅|舅妈|姑姑|姑父|姨妈|姨父|婶婶|伯伯|伯母|侄子|侄女|外甥|亲戚)"
    r"|(?i:^(?:cousin|aunt|auntie|uncle|niece|nephew|in-laws?|relatives?)\b)"
)


def _relation_told(text: str, at: int, who: str, names: frozenset[str]) -> str:
    """Whom a relation's words are about when ``text`` reports them right after naming the
    relation at ``at`` ("王刚的爸说生日宴改到周六了", "The user's mom said dad's surgery
    moved", the wording of "我爸说…", "my mom said…"): as a relation named bare is read
    (:func:`_bare_relation`), whom the words name, else ``who``'s own (the banquet is no
    more the father's than it was in "我爸说…"); "" when no words are reported or they open
    with "he"/"she" (the relation's own: "用户的老公说他下个月去上海出差")."""
    told = _TOLD.match(text, at)
    if told is None or told.end() >= len(text) or _THIRD_PERSON.match(text, told.end()):
        return ""
    zh = has_cjk(text[:1])
    lead = ("用户：" if zh else "The user: ") if who == "user" else f"{who}{'：' if zh else ': '}"
    words = text[told.end() :]
    if not zh:  # "dad's surgery": a relation named bare as a sentence opens it
        words = words[:1].upper() + words[1:]
    inner = subject_of(lead + words, names)
    if inner == "user" and _OTHER_KIN.match(words):
        return ""  # "用户的妈说表妹搬到…": a relative no relation here names, not the speaker
    return who if inner == "user" else inner


def _a_name(text: str, names: frozenset[str]) -> bool:
    """Whether ``text`` opens, in English, with a capitalised word that may name someone
    (as :data:`_EN_WHO` reads one: not a word that names no one)."""
    match = _EN_WHO.match(text)
    if match is None or has_cjk(text[:12]):
        return False
    return _who(match.group("who"), names) != "user"


def _nested(owner: str, rel: str) -> str:
    """The relation ``rel`` of ``owner``; of a relation's own ("闺蜜的男朋友": the friend's
    boyfriend) both, so it is neither the friend nor the speaker's own boyfriend."""
    mine = REL_OF[rel.lower()]
    theirs = REL_OF.get(owner.lower())
    return f"{theirs}-{mine}" if theirs is not None else mine


_BODY_AFTER = re.compile(r"\s+(?P<word>[a-z]+)\b")


def _a_body(text: str, at: int) -> bool:
    """Whether the capitalised words ending at ``at`` name a place or a body the next word
    is ("Oakwood staff", "Harrogate council"): a thing's name, not a person's."""
    after = _BODY_AFTER.match(text, at)
    return after is not None and after.group("word") in _BODIES


# A member telling, reminding or asking another ("李秀英提醒王小雨…", "Niamh reminded Kofi
# that …", "Sam said Kofi is moving out"): the words are about the other member.
_ZH_FRAME = re.compile(
    r"(?:：|:\s*)?(?:又|也|再|特意|专门)?(?:提醒|叮嘱|嘱咐|告诉|通知|让|说)(?:了)?(?:一下)?[，,：:]?\s*"
)
_EN_FRAME = re.compile(
    r"(?::\s*|\s+)(?:reminded|reminds|told|tells|asked|asks|warned|warns|said|says|mentioned)"
    r"(?:\s+(?:everyone|everybody|the group|the others|us|all))?(?:\s+that)?\s+"
)


def _member_and_frame(who: str, names: frozenset[str]) -> bool:
    """Whether ``who``, read as a relation's owner, is a member and a frame's verb ("王建国说"
    of "王建国说老爷子的寿宴改了"): the member's words, no one's relation named "王建国说"."""
    return any(who.startswith(n) and _ZH_FRAME.fullmatch(who[len(n) :]) for n in names)


def _framed(text: str, name: str, names: frozenset[str]) -> str:
    """Whom the words of ``name``'s frame are about ("李秀英提醒王小雨下周复查": 王小雨's), when
    the frame's object is another member or a kin word one member is called by, else ""."""
    rest = text[len(name) :]
    frame = (_EN_FRAME if name.isascii() else _ZH_FRAME).match(rest)
    if frame is None:
        return ""
    words = rest[frame.end() :]
    others = [n for n in names if n != name] + list(_kin_names(names))
    for other in sorted(others, key=len, reverse=True):
        after = words[len(other) : len(other) + 1]
        if words.startswith(other) and (has_cjk(other[:1]) or not after.isalpha()):
            return _pair(words, other, names) or subject_of(words, names)
    return ""


def _bare_relation(text: str, names: frozenset[str]) -> str:
    """``who/relation`` for a relation named bare at the start of what someone said (the
    user, unless the line opens with a member's name and a colon), else ""."""
    who, body = "user", text
    label = _SAID_BY_USER.match(text)
    if label:
        body = text[label.end() :]
    else:
        for name in sorted(names, key=len, reverse=True):
            for mark in ("：", ": "):
                if text.startswith(name + mark):
                    who, body = name, text[len(name) + len(mark) :]
                    break
            if body is not text:
                break
    if body is text and (has_cjk(text[:1]) or not text[:1].isupper()):
        return ""  # a Chinese line without a speaker: "妈妈" may be anyone's in a group
    for pattern in (ZH_SUBJECT, EN_SUBJECT):  # "The user: the user's mum is ..."
        match = pattern.match(body)
        if match:
            whose = _who(match.group("who"), names)
            rel = _nested(match.group("who"), match.group("rel"))
            return f"{whose if whose != 'user' else who}/{rel}"
    match = _ZH_BARE.match(body) if has_cjk(body[:1]) else _EN_BARE.match(body)
    if match is None:
        # or whose a thing said is ("GP increased Mum's donepezil"): a relation's possessive
        owner = _EN_OWNER.search(body) if label or who != "user" else None
        if owner is None:
            return ""
        return f"{who}/{REL_OF[(owner.group('rel') or owner.group('cap')).lower()]}"
    rel = match.group("rel") or match.group("cap")
    if match.group("cap") and rel.isascii() and not rel[:1].isupper():
        return ""  # "dog walking is ...": a relation opens a sentence with a capital
    told = _TOLD.match(body, match.end())
    if told and not _THIRD_PERSON.match(body, told.end()):
        # what a relation said of the speaker ("老板说工资涨到一万五", "Mum said I need a
        # break") is about whom it names, else the speaker's own; a member's words read
        # as theirs ("Ben: Dad said Grandpa's dinner …" names Ben's grandpa, not the user's)
        lead = text[: len(text) - len(body)] if who != "user" else ""
        inner = subject_of(lead + body[told.end() :], names)
        return inner if inner not in ("user", who) else ""
    if who != "user" and match.group("cap") and rel not in _OWN_KIN:
        # a member naming a relation bare ("王建国：奶奶83岁了") may speak of one the whole
        # group calls so: whose it is stays the speaker's line, as it was; a child or a
        # partner named bare ("王芳：女儿换幼儿园了") is the speaker's own
        return ""
    return f"{who}/{REL_OF[rel.lower()]}"


def bare_kin(body: str) -> str:
    """The kind of relation a speaker's words open with, named bare or as theirs ("妈妈搬到
    海淀区了", "Mum moved to York", "my son is 8": ``mother``, ``son``); "" when they open
    otherwise or report the relation's words ("妈妈说…": whom those name)."""
    match = _ZH_BARE.match(body) if has_cjk(body[:1]) else _EN_BARE.match(body)
    if match is None:
        return ""
    rel = match.group("rel") or match.group("cap")
    if match.group("cap") and rel.isascii() and not rel[:1].isupper():
        return ""
    if _TOLD.match(body, match.end()):
        return ""
    return REL_OF[rel.lower()]


_ZH_NAMED = re.compile(
    rf"^(?P<who>用户|[\u4e00-\u9fff]{{2,4}}?)的?(?P<rel>{ZH_REL})(?:的名字)?(?:叫做|名叫|叫)"
    r"(?P<name>[\u4e00-\u9fff]{2,3}?)(?=[，,。；、\s]|$|今年|[0-9])"
)
_EN_NAMED = re.compile(
    rf"^(?P<who>The user|the user|[A-Z][a-z]+)'s\s+(?:\w+\s+)?(?P<rel>{EN_REL}),?\s+"
    r"(?:is called\s+|is named\s+|named\s+|called\s+)?(?P<name>[A-Z][a-z]+)\b"
)
# A relation named bare, then its name, as its speaker says it ("The user: Mum is Joan, she's
# 86", "Tom: my wife is called Sarah"): the name of the speaker's relation.
_EN_BARE_NAMED = re.compile(
    rf"^(?:(?P<who>The user|the user|User|[A-Z][a-z]+(?: [A-Z][a-z]+)?): )?"
    rf"(?:(?i:my|our)\s+)?(?P<rel>(?i:{EN_REL}))\s+(?:is called|is named|'s called|is)\s+"
    r"(?P<name>[A-Z][a-z]+)(?=\s*(?:[,.;!]|$|and\b|who\b))"
)


@lru_cache(maxsize=50_000)
def alias_of(text: str, names: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """The name a statement gives someone and whom it names ("用户的儿子叫豆豆" ->
    (豆豆, user/son); "Tom's wife Sarah is a pilot" -> (Sarah, Tom/wife); "The user: Mum is
    Joan" -> (Joan, user/mother))."""
    for pattern in (_ZH_NAMED, _EN_NAMED, _EN_BARE_NAMED):
        match = pattern.match(text)
        if match and match.group("name") not in names:
            who = _who(match.group("who") or "user", names)
            return match.group("name"), f"{who}/{REL_OF[match.group('rel').lower()]}"
    return None


def aliased(text: str, subject: str, aliases: dict[str, str]) -> str:
    """The subject of a statement that opens (after its speaker's label, or a summary's
    "The user said") with a name the chat gave someone ("豆豆量了身高" and "The user said
    Layla had her first swim lesson" are about the user's children), else ``subject``."""
    if not aliases or "/" in subject:
        return subject
    body = _LABEL.sub("", text, count=1)
    reported = _REPORTED.match(body)
    if reported:
        body = body[reported.end() :]
    longest: str | None = None  # the longest name it opens with (the first of equals)
    for name in aliases:
        if (longest is None or len(name) > len(longest)) and body.startswith(name):
            after = body[len(name) : len(name) + 1]
            if not name.isascii() or after in ("", " ", "'"):
                longest = name
    return subject if longest is None else aliases[longest]


# Capitalised words that open a sentence and name no one ("The doctor lowered ...",
# "This week ..."): whom such a line is about is not "The".
_NO_NAME = frozenset(
    "the a an this that these those there here my our your his her its their it we they he "
    "she i you today yesterday tomorrow now then also and but so after before since when "
    # a conjunction, a preposition, a question word or a reply opens a clause, names no one
    "because if although though unless until till once while whether as for with without "
    "at in on from during by to of about over under into every each all both some no not "
    "what who how why where which yes yeah ok okay sorry thanks please".split()
)
# A place or a body's name before the body ("Oakwood staff", "Harrogate council", "Leeds
# office"): the words after a capitalised opener that make it a thing's name, not a person's.
_BODIES = frozenset(
    "staff team council office clinic hospital surgery pharmacy school college university "
    "nursery centre center club society committee group company firm management nurses "
    "carers doctors board branch store shop station".split()
)


_AND = re.compile(r"\s*(?:和|与)\s*|\s+(?:and|&)\s+")  # not 跟 (to, with: "李娜跟何涛说…")
_ZH_FULL_NAME = re.compile(rf"[{''.join(sorted(SURNAMES))}][\u4e00-\u9fff]")
_EN_NAME = re.compile(r"[A-Z][a-z]+\b")


def _joint(text: str, name: str, names: frozenset[str]) -> str:
    """Whom a member's line ("name: …") is about when it opens, after an announcing opener,
    with two people joined ("陈磊：王磊和陈静搬到广州了", "Sam: Kofi and Niamh are on bins"):
    the pair (:func:`_pair`), or "". A pair its speaker is one of ("王磊：我和陈静住在南山",
    worded "王磊：王磊和陈静…", or unlabelled "王磊和陈静…" once worded) is not read as a
    pair: it is the speaker's household, as the speaker's "we" goes on to be ("我们搬去广州
    了"), and the wording cannot tell it from a report."""
    rest = text[len(name) :]
    for mark in ("：", ": "):
        if rest.startswith(mark):
            return _member_told(rest[len(mark) :], name, names)
    return ""


def _member_told(body: str, speaker: str, names: frozenset[str], *, others: bool = True) -> str:
    """Whom ``body``, said by ``speaker``, is about when it opens (after an announcing opener
    and the members it calls on: :func:`address.unaddressed`) with another member, alone or
    joined to someone (``others``: or with two people joined, members or not); "" else."""
    opener = _OPENER.match(body)
    body = unaddressed(body[opener.end() :] if opener else body, names)
    for other in sorted(names, key=len, reverse=True):
        if body.startswith(other) and other != speaker:
            # or about the other member alone ("Sam: Kofi is moving out")
            return _pair(body, other, names) or subject_of(body, names)
    for form, other in familiar_names(names).items():
        if body.startswith(form) and other != speaker:  # "李明：芳姐跳槽了" of 王芳
            return subject_of(other + body[len(form) :], names)
    if familiar_form(body):  # "王芳：老陈在小区门口开了个修车铺": 老陈's, as a member's is
        told = subject_of(body, names)
        return told if told != speaker else ""
    match = _EN_WHO.match(body)
    if others and match and not has_cjk(body[:12]) and match.group("who") != speaker:
        return _pair(body, match.group("who"), names)
    return ""


def _pair(text: str, name: str, names: frozenset[str]) -> str:
    """``A+B`` (in a fixed order) for ``text`` opening with ``name`` and another joined to
    it ("Tom and Sarah moved to Leeds", "王磊和陈静搬到广州了"), else "". The other is a
    member, a kin word one member is called by, or a name: in Chinese a family name and one
    character (a given name of two is cut at one: the pair's name is the same each time it
    is written), in English a capitalised word."""
    rest = text[len(name) :]
    joined = _AND.match(rest)
    if joined is None:
        return ""
    after = rest[joined.end() :]
    other = next((n for n in sorted(names, key=len, reverse=True) if after.startswith(n)), "")
    other = other or next((n for w, n in _kin_names(names).items() if after.startswith(w)), "")
    if not other:
        shaped = (_ZH_FULL_NAME if has_cjk(name[:1]) else _EN_NAME).match(after)
        other = shaped.group(0) if shaped else ""
    if not other or other == name or other.lower() in _NO_NAME or other in REL_OF:
        return ""
    if name.lower() in _NO_NAME or name.lower() in ("用户", "the user", "user"):
        return ""
    return "+".join(sorted((name, other)))


@lru_cache(maxsize=1_024)
def _kin_names(names: frozenset[str]) -> dict[str, str]:
    """The kin words the chat's members are called by, each the member it names: a Chinese
    name made of a family name and a kin word or title of two characters or more ("赵老爷子":
    老爷子), when one member alone is so called."""
    found: dict[str, list[str]] = {}
    for name in names:
        for word in _ZH_MULTI_REL.split("|"):
            if name.endswith(word) and 1 <= len(name) - len(word) <= 2 and has_cjk(name[:1]):
                found.setdefault(word, []).append(name)
    return {w: ns[0] for w, ns in sorted(found.items(), key=lambda x: -len(x[0])) if len(ns) == 1}


def _who(word: str, names: frozenset[str]) -> str:
    if word.lower() in ("用户", "the user", "user"):
        return "user"
    if word in _kin_names(names):
        return _kin_names(names)[word]
    if word in familiar_names(names):
        return familiar_names(names)[word]
    if word not in names and word.split()[0].lower() in _NO_NAME:
        return "user"
    return word if word in names or word[:1].isupper() else "user"


@dataclass(frozen=True)
class Said:
    """An item's text with what the pair judgements need of it."""

    text: str
    subject: str
    kind: str
    future: bool = False  # a plan whose date is after its note's
    past: bool = False  # it names a month or a year gone by its note's day ("去年", "last year")

    @cached_property
    def key(self) -> str:
        """The five fields in one string, made once a statement (what the verdict cache's
        digests read: :func:`memory.dream.verdicts.pair_key`)."""
        return (
            f"{self.text}\x1f{self.subject}\x1f{self.kind}\x1f{int(self.future)}"
            f"\x1f{int(self.past)}"
        )


@lru_cache(maxsize=4_096)
def subject_words(subject: str) -> frozenset[str]:
    """The words that name a subject (``user/mother``: "mother", "mum", "妈妈", ...), no
    word of what is said about them: two statements about one's mum share "mum" whatever
    they say."""
    who, _, rel = subject.partition("/")
    words = set(core_words(who.replace("/", " ")))
    if rel:
        words |= {stem(w.lower()) for w in REL_WORDS.get(rel, rel).split()}
        words |= set(core_words(REL_WORDS.get(rel, rel)))
    return frozenset(words)


def whose(a: Said, b: Said) -> frozenset[str]:
    """The words naming the subjects of ``a`` and ``b`` (:func:`subject_words`): what two
    statements share by being about one person, not by what they say."""
    return subject_words(a.subject) | subject_words(b.subject)


def same_fact(a: Said, b: Said, cosine: float | None = None) -> bool:
    """Two wordings of one fact about one subject."""
    if a.subject != b.subject:
        return False
    if near_duplicate(a.text, b.text):
        return True
    if _numbers(a.text) != _numbers(b.text):
        return False
    if _swapped(a.text, b.text):  # 住在上海 is not 住在北京
        return False
    if _same_main_clause(a.text, b.text, subject_words(a.subject)):
        return True  # "allergic to penicillin, in case it comes up" / ", found out the hard way"
    if cosine is None or a.kind != b.kind:
        return False
    if has_cjk(a.text) != has_cjk(b.text):
        return cosine >= CROSS_LANGUAGE_COSINE
    if cosine < SAME_COSINE or containment(core_words(a.text), core_words(b.text)) < 0.5:
        return False
    return not _other_name(a.text, b.text)


_NAME_WORD = re.compile(r"^(?:[\u4e00-\u9fff]{3,}|[A-Z][a-z]+[A-Z]?\w*)$")


def _other_name(a: str, b: str) -> bool:
    """Each names a thing the other does not, in the same frame ("氨氯地平 早上吃" / "每天早上
    吃一片硝苯地平"): a name-like word (three Chinese characters or more, a capitalised
    English word) of the smaller statement missing from the larger, and one of the larger
    missing from the smaller: two values alike by embedding, no restatement."""
    small, large = sorted((a, b), key=lambda t: len(core_words(t)))
    only_small = core_words(small) - core_words(large) - SLOT_WORDS
    only_large = core_words(large) - core_words(small) - SLOT_WORDS
    if any(x in y or y in x for x in only_small for y in core_words(large)):
        return False  # 浦东 inside 上海浦东: one name cut two ways
    names_small = [w for w in only_small if _NAME_WORD.match(w)]
    names_large = [w for w in only_large if _NAME_WORD.match(w)]
    return bool(names_small) and bool(names_large)


def translation(a: Said, b: Said) -> bool:
    """Whether two statements in two languages, close by embedding, may be one fact: one
    subject and kind, the same numbers and months (a month by its year and number, whatever
    its words), and both negated or neither ("不喝酒" / "does not drink alcohol")."""
    return (
        a.subject == b.subject
        and a.kind == b.kind
        and _numbers_and_months(a.text) == _numbers_and_months(b.text)
        and bool(NEGATION.search(a.text)) == bool(NEGATION.search(b.text))
    )


_ZH_MONTH_YEAR = re.compile(r"(?P<y>(?:19|20)\d{2})\s*年\s*(?P<m>1[0-2]|0?[1-9])\s*月")
_EN_MONTH_YEAR = re.compile(
    r"(?i)\b(?P<m>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?P<y>(?:19|20)\d{2})\b"
)


@lru_cache(maxsize=50_000)
def _numbers_and_months(text: str) -> tuple[frozenset[str], frozenset[tuple[int, int]]]:
    """A statement's numbers beside the months it names ("2027年7月" and "July 2027" are
    one month, not the numbers 2027 and 7 against 2027)."""
    months = {(int(m["y"]), int(m["m"])) for m in _ZH_MONTH_YEAR.finditer(text)}
    months |= {(int(m["y"]), month_number(m["m"])) for m in _EN_MONTH_YEAR.finditer(text)}
    rest = _EN_MONTH_YEAR.sub(" ", _ZH_MONTH_YEAR.sub(" ", text))
    return _numbers(rest), frozenset(months)


_CLAUSE = re.compile(r"[，,;；。!！?？]")


@lru_cache(maxsize=50_000)
def _main_clause(text: str) -> str:
    """The first clause: what a statement asserts, before its asides and reasons."""
    return _CLAUSE.split(text, maxsplit=1)[0].strip()


def _same_main_clause(a: str, b: str, who: frozenset[str] = frozenset()) -> bool:
    """Both lead with the same assertion (of two content words or more beyond ``who``, the
    words naming the subject, one of them having more to say after it): the rest are asides,
    the fact is one. A first clause that only names someone ("Raj Iyer is Raj, backend
    engineer, ...") asserts nothing to compare."""
    main_a, main_b = _main_clause(a), _main_clause(b)
    if main_a == a and main_b == b:
        return False
    if len(core_words(main_a) - who) < 2 or len(core_words(main_b) - who) < 2:
        return False
    return core_words(main_a) == core_words(main_b) or near_duplicate(main_a, main_b)


@lru_cache(maxsize=50_000)
def _numbers(text: str) -> frozenset[str]:
    return frozenset(n.replace(",", "") for n in NUMBER.findall(text))


SAME_COSINE = 0.93
CROSS_LANGUAGE_COSINE = 0.88


@lru_cache(maxsize=50_000)
def _change_clauses(text: str) -> str:
    """The clauses of ``text`` that name a change's new value (:data:`CHANGE_TO`), with the
    clause before each when it says the change ("陈静搬家了，搬到福田了"), joined; ``text``
    when none does."""
    pieces = _CLAUSE.split(text)
    keep: set[int] = set()
    for i, piece in enumerate(pieces):
        if CHANGE_TO.search(piece):
            keep.add(i)
            if i and CHANGE.search(pieces[i - 1]):
                keep.add(i - 1)
    return "，".join(pieces[i] for i in sorted(keep)) if keep else text


_FAMILY_WORDS = frozenset(w for words in FAMILIES.values() for w in words)


@lru_cache(maxsize=50_000)
def _values(text: str) -> frozenset[str]:
    """The words naming a value (上海, berlin), not the slot (住, lives) or its topic."""
    return frozenset(w for w in core_words(text) if w not in SLOT_WORDS | _FAMILY_WORDS)


def swapped_value(a: str, b: str, *, exclusive: int = 2) -> bool:
    """Statements of one topic family naming different values ("住在上海" / "住在北京";
    "上海" and "上海浦东" overlap, so they do not), at least ``exclusive`` of them exclusive
    (where one lives, a favourite)."""
    fa, fb = features(a), features(b)
    if fa.exclusive + fb.exclusive < exclusive or not fa.families & fb.families:
        return False
    va, vb = _values(a), _values(b)
    only_a, only_b = va - vb, vb - va  # what both name (a subject, a city) is no swap
    return bool(only_a and only_b) and not any(x in y or y in x for x in only_a for y in vb)


def _swapped(a: str, b: str) -> bool:
    """Another value named: for two exclusive statements, or when one says it changed."""
    changed = clear_change(a) or clear_change(b)
    return swapped_value(a, b, exclusive=1 if changed else 2)


# A value said to hold now, whatever later day the statement also names.
_PRESENT_VALUE = re.compile(r"(?i)(?:\b(?:is|are|'s) now|现在是|现在)\s*[£$€¥]?\s*\d")


def former(text: str) -> bool:
    """Whether ``text`` tells of a value held before, not now (``single_slots.FORMER``), with
    no word of a change to a new one."""
    return bool(FORMER.search(text)) and not changed_to(text)


_TAG = re.compile(r"\[[^\]]{1,20}\]")


# Adverbs between what changed and the change ("周会已经改到…", "the venue has now moved to"):
# a closed class, no thing.
_WHEN_DONE = frozenset(
    "已经 已 也 都 又 还 就 刚 刚刚 终于 正式 暂时 临时 统一 全部 already now also finally "
    "officially just".split()
)


def _changed_thing(newer: Said, older: Said, target: frozenset[str]) -> bool:
    """A change with no topic family in common ("寿宴改到聚贤楼" / "寿宴定在福满楼", "the
    venue moved to X" / "the venue is Y"): the word the change is said of, right before its
    marker in the newer's clause, names what the older is about too (not whose it is, not a
    slot word or the new value; two characters or more)."""
    if has_cjk(newer.text) != has_cjk(older.text):
        return False
    old_core = core_words(_TAG.sub(" ", older.text)) - SLOT_WORDS - whose(newer, older) - target
    for match in CHANGE_TO.finditer(newer.text):
        clause = _CLAUSE.split(_TAG.sub(" ", newer.text[: match.start()]))[-1]
        words = [w for w in content_words(clause) if w not in STOPWORDS]
        while words and words[-1].lower() in _WHEN_DONE:
            words.pop()  # "周会已经改到…": what changed is 周会, not 已经
        if words and len(words[-1]) > 1 and stem(words[-1]) in old_core:
            return True
    return False


# A thing moved ("公司搬到福田了", "the office moved to Shoreditch"), and where a statement
# places a thing it names ("公司在南山科技园", "office is in Camden").
_MOVES = re.compile(r"搬到|搬去|迁到|迁往|(?i:\b(?:moved|relocated|moving|relocating)\s+to\b)")
_PLACED_AT = (
    r"\s*(?:的)?(?:地址|位置)?\s*(?:现在)?"
    r"(?:在|位于|设在|(?i:\s+(?:is\s+|was\s+)?(?:in|at|based in)\b))"
)


def moved_unplaced(newer: Said, older: Said) -> bool:
    """Whether ``newer`` moves a thing ``older`` names but never places ("公司搬到福田了" /
    "在公司负责订单系统": what one does at the company, no address of it; "the office moved
    to Shoreditch" / "runs the office's payroll"): ``older`` holds no value of the slot
    that changed, so nothing of it is replaced."""
    who = whose(newer, older)
    for match in _MOVES.finditer(newer.text):
        clause = _CLAUSE.split(_TAG.sub(" ", newer.text[: match.start()]))[-1]
        words = [w for w in content_words(clause) if w not in STOPWORDS and w not in GENERIC]
        words = [w for w in words if w.lower() not in _WHEN_DONE and stem(w.lower()) not in who]
        if not words or len(words[-1]) < 2 or words[-1] in SLOT_WORDS:
            continue
        rest = _CLAUSE.split(newer.text[match.end() :], maxsplit=1)[0]
        if typed_values(rest):
            continue  # moved to a day, an hour ("book club moved to Wednesdays"): no place
        thing = words[-1]
        written = re.search(re.escape(thing), clause, re.IGNORECASE)
        named = thing.isascii() and (written is None or written.group(0)[:1].isupper())
        if thing.lower() in REL_OF or named or not (thing.isascii() or features(thing).families):
            continue  # someone moving ("Dan's moving to London"), or no thing one has
        if thing.lower() not in older.text.lower():
            continue  # another thing (:func:`other_thing_changed` judges it)
        if not re.search(re.escape(thing) + _PLACED_AT, older.text, re.IGNORECASE):
            return True
    return False


def of_origin(newer: str, older: str) -> bool:
    """Whether ``older`` tells where one comes from and ``newer`` does not: no value of it."""
    return bool(ORIGIN.search(older)) and not ORIGIN.search(newer)


def replaces(newer: Said, older: Said, cosine: float | None = None, *, loose: bool = True) -> bool:
    """Whether ``newer`` gives a new value for what ``older`` said about the same subject
    (``cosine``: their embeddings', when there are embeddings). ``loose``: the last resort
    too, a change word and a topic family in common (``similarity.supersedes``), the
    loosest of the rules."""
    if newer.subject != older.subject or same_fact(newer, older):
        return False
    if former(newer.text) and not former(older.text):
        return False  # "以前在纺织厂当会计" tells what was, not what is
    if of_then(newer, older):
        return False  # "去年房租每月3200元": last year's rent, beside this year's
    if GOAL.search(newer.text) and not (GOAL.search(older.text) or is_future(older.text)):
        return False  # "wants to get down to 85 kg" is a goal, no value held
    # a plan does not change the present, unless it says a value holds now ("her day rate
    # is now £520 and she's keeping it for 2027")
    future = newer.future and not older.future and older.kind != "plan"
    if future and not _PRESENT_VALUE.search(newer.text):
        return False
    if of_origin(newer.text, older.text):
        return False  # "老家在湖南长沙" holds wherever one lives now
    if moved_unplaced(newer, older):
        return False  # "公司搬到福田了" moves no "在公司负责订单系统"
    if moved_away(newer, older):
        return True  # "Yusuf is moving to Manchester": "a pharmacist in Cardiff" moved
    old_core, new_core = core_words(older.text), core_words(newer.text)
    target = changed_to(newer.text)
    plans = "plan" in (newer.kind, older.kind)
    # what changed is the topic of the clauses naming the new values ("搬到福田了" of
    # "陈静搬家了，搬到福田了，周凯公司在福田" moves a home, whatever else the line says)
    families = features(_change_clauses(newer.text)).families & features(older.text).families
    fresh = bool(target) and not plans and not target & old_core
    if fresh and (_added(newer.text) or (families and other_thing_changed(newer, older))):
        return False  # "也开始喝乌龙茶" adds a drink; "把公司搬到苏州" moves no home
    if fresh and (families or _changed_thing(newer, older, target)):
        return True  # "改喝乌龙茶了" replaces "喜欢喝绿茶"; "寿宴改到聚贤楼" the venue
    same_language = has_cjk(newer.text) == has_cjk(older.text)
    who = whose(newer, older)
    if new_number(newer, older, who):
        return True  # the same measured thing, a new number
    new_days, old_days = _days(newer.text), _days(older.text)
    if new_days and old_days and not new_days & old_days and same_language:
        # what the plan is, beyond whose it is: a name shared by any two of one's plans
        marks = _change_words(newer.text)  # "改成" says it moved, not what moved
        overlap = containment(new_core - who - marks, old_core - who)
        changed = bool(marks)
        others = relations_named(newer.text, who) != relations_named(older.text, who)
        # a new date said with no word of a change is another occurrence ("physio on the
        # 3rd" and "physio on the 10th": weekly), not the plan moved
        if not others and changed and overlap >= 0.3:
            return True  # the same plan, a new date
    if same_language and other_distance(newer.text, older.text):
        return False  # "a 10k in 61 min" is another record than "a 5k in 28 min"
    if (
        new_value(newer.text, older.text, cosine, who)
        and not of_another_relative(newer, older, who)
        and not numbers_apart(newer.text, older.text, who)
        and not nothing_shared(newer.text, older.text, who)
    ):
        return True  # the same slot, a new value of the same type
    if _stopped(newer.text, older.text, who):
        return True  # "stopped the statin" ends "a statin at night"
    # The old value said again ("我还是住浦东，没搬家") is no replacement.
    distinctive = (old_core & new_core) - SLOT_WORDS
    if distinctive and not target and len(distinctive) * 3 >= len(old_core - SLOT_WORDS):
        return False
    if newer.kind != older.kind or not loose:
        return False
    return supersedes(newer.text, older.text) and _names_new_value(newer.text, older.text)


def thing_moved(newer: Said, older: Said) -> bool:
    """Whether ``newer`` says one thing both name changed and gives it a value ``older``
    does not name (:func:`clear_change`, :func:`_names_new_value`), no doubt, no value still
    to come over a present one: asked of two members' lines on one thing each names bare
    ("周会定在每周一上午十点" / "周会已经改到每周二下午三点了"), whose thing is settled."""
    if newer.future and not older.future and older.kind != "plan":
        return False
    if not clear_change(newer.text) or former(newer.text) or holds(newer.text):
        return False
    return _names_new_value(newer.text, older.text) and not confirms(newer.text, older.text)


def _names_new_value(newer: str, older: str) -> bool:
    """What the loosest rule needs beyond a change word and a topic in common: the newer names
    a value of the topic the older does not ("改喝红茶", "switched to oat milk") or a value it
    changed to ("改喝大麦茶"), stops one ("咖啡我戒了"), negates, or
    says mostly what the older says; not a change of another thing of the topic ("moved the
    coffee machine to the kitchen", "换了一个新的咖啡杯", "now eats more beans")."""
    if topic_values(newer) - topic_values(older) or features(newer).negated:
        return True
    if changed_to(newer) - core_words(older) or _STOP.search(newer):
        return True  # "改喝大麦茶": the value it changed to; "咖啡我戒了": the value stopped
    return jaccard(core_words(newer), core_words(older)) >= 0.5


def moved_away(newer: Said, older: Said) -> bool:
    """``newer`` moves its subject ("is moving to Manchester", "调回成都了") from the place
    ``older`` names as a modifier ("a pharmacist in Cardiff", "在重庆做建筑设计"):
    :mod:`judge.places`, read with whose statements they are."""
    where = placed(older.text)
    if where is None:
        return False
    # who moves is named in the older's own words, not its speaker's label ("陈静：周凯在深圳…"
    # is not moved by "陈静搬家了")
    to = moved_to(newer.text, core_words(_LABEL.sub("", older.text, count=1)))
    return bool(to) and other_place(where.place, to)


# Told as an addition, two ways. A statement told beside what one has ("also takes
# metformin 500 mg with dinner", "另外每天吃一片维生素D") names another thing of the kind, no
# new value of one told before (:func:`told_beside`); a change told as an addition ("也开始喝
# 乌龙茶", "also switched to ...") leaves the old value, a wider class, as the change word
# already says something began.
_BESIDE = re.compile(
    r"(?i)\balso\b|\bas well\b|\btoo\s*(?:[,.;!?]|$)|另外|此外"
    # "又领养了一只橘猫", "还报了个游泳班", "也喜欢画水彩": one more thing of a kind one
    # has, taken up or got (the words of getting, liking, learning), beside the first
    r"|(?:又|还|也)(?:开始)?(?:养了|买了|领养|报了|学了|在学|加入了?|参加了?|办了|添了|"
    r"喜欢|爱上了?|迷上了?|会说|会)"
)
_ADDED = re.compile(r"也|另外|同时|(?i:\balso\b|\bas well\b|\btoo\b|\bin addition\b)")


def told_beside(text: str) -> bool:
    """Whether ``text`` is told beside what one has (:data:`_BESIDE`)."""
    return bool(_BESIDE.search(text))


def _added(text: str) -> bool:
    return bool(_ADDED.search(text))


def other_thing_changed(newer: Said, older: Said) -> bool:
    """The word right before a change names a thing of another topic family than the older's
    ("把公司搬到苏州" / "住在上海浦东", "her office moved to Dallas" / "lives in Austin"), or,
    after 把, a thing the older does not name: another thing moved, the older's value holds."""
    theirs = features(older.text).families
    who = whose(newer, older)
    for match in CHANGE_TO.finditer(newer.text):
        clause = _CLAUSE.split(_TAG.sub(" ", newer.text[: match.start()]))[-1]
        words = [w for w in content_words(clause) if w not in STOPWORDS and w not in GENERIC]
        words = [w for w in words if stem(w.lower()) not in who and w not in SLOT_WORDS]
        if not words:
            continue
        families = features(words[-1]).families
        if families and not families & theirs:
            return True
        if (
            "把" in clause
            and len(words[-1]) > 1
            and not core_words(words[-1]) & core_words(older.text)
        ):
            return True  # "把跑步时间改到晚上": the time of the run moved, not "跑步5公里"
    return False


@lru_cache(maxsize=50_000)
def _change_words(text: str) -> frozenset[str]:
    """The words of ``text``'s change markers ("改成", "moved"), as the core words are written."""
    out: set[str] = set()
    for pattern in (CHANGE, MOVED):
        for match in pattern.finditer(text):
            out.update(stem(w) for w in content_words(match.group(0)))
            out.add(stem(match.group(0).strip().lower()))
    return frozenset(out)


_STOP = re.compile(
    r"(?i)\b(?:stopped|quit|gave up|given up|dropped|no longer (?:takes?|uses?|has|does|goes)|"
    r"(?:is|are|was|were) no longer)\b"
    r"|不再|停了|停掉|戒了|戒掉|不吃了|不用了|不去了|不练了|退了"
    # a course or a state of a while told as over ("化疗结束了", "石膏拆了", "the cast came
    # off", "physio is over"): what the older says one is in holds no more
    r"|(?:全部|都|终于|已经|总算)?(?:结束了|拆了|拆掉了|痊愈了|康复了)"
    r"|(?i:\b(?:came off|(?:is|was|are|were) over|(?:has|have) healed|healed up"
    r"|(?:has|have) ended)\b)"
)


def confirms(newer: str, older: str) -> bool:
    """``older`` says a value changed to something ("搬到滨江区", "switched to oat milk") and
    ``newer`` names that value again ("现在住滨江区江南大道"): it goes on from the change,
    it does not undo it."""
    target = changed_to(older)
    return bool(target) and target <= (core_words(newer) | _values(newer))


_HOLDS = re.compile(r"(?i)\bstill\b|依然|仍然|仍在|还是(?!做|写|在做)|没搬|没换|没变")


def holds(text: str) -> bool:
    """Whether ``text`` says its value holds ("still on 10mg", "还是住浦东"), with no word
    of a change: it restates, it replaces nothing."""
    return bool(_HOLDS.search(text)) and not clear_change(text)


def one_day(text: str) -> bool:
    """Whether ``text`` names a particular day (what happened or will happen then)."""
    return bool(_days(text))


def _stopped(newer: str, older: str, who: frozenset[str] = frozenset()) -> bool:
    """``newer`` says the thing ``older`` is about has stopped: the thing named after the
    stop within its clause is mostly ``older``'s (:func:`_stopped_thing`; not a slot word),
    or what stopped, right before it, is ``older``'s ("停了", "home carers have stopped",
    "Mr Byrne is no longer the landlord": the last of the two words before the stop and its
    auxiliary, not whose statements they are, ``who``: :func:`_head`), and ``older``
    itself says no stop."""
    if _STOP.search(older) or _goes_on(newer, older):
        return False
    # when it is taken or done and the light verb say nothing of what: "vitamin D every
    # morning" is not "stopped taking the morning iron tablets"
    theirs = core_words(older) - SLOT_WORDS - _WHEN_WORDS
    for match in _STOP.finditer(newer):
        clause = _CLAUSE.split(newer[match.end() :], maxsplit=1)[0]
        # "甜食一口都不吃了": not one bite of it, the thing before the bite
        before = _NOT_ONE.sub("", _CLAUSE.split(newer[: match.start()])[-1])
        told = core_words(clause)  # what the stop is said of, and the most of it the older's
        after = _stopped_thing(clause, theirs)
        if has_cjk(before):
            stopped = core_words(before[-8:])
        else:
            words = _AUXILIARY.sub("", before).split()[-2:]
            stopped = core_words(" ".join(words)) - who
            # an older naming the newer's other names ("a letting agent takes over, Quinn
            # Lettings" before "Byrne is no longer the landlord; rent goes to Quinn
            # Lettings") told of the same change: no old value
            named = {stem(w.lower()) for w in _CAPITAL.findall(newer)} - stopped - told - who
            if named & theirs:
                continue
            if told and not _COPULA_STOP.match(match.group(0)):
                stopped = frozenset()  # "the clinic dropped her warfarin": the warfarin did
        if theirs & (after | _head(before, stopped)):
            return True
    return False


# What a stop is said of: its object, without a light verb or article before it and without
# what follows a preposition ("stopped taking the bus to work": the bus; "不再去家附近的健身房":
# 健身房, what the last 的 names).
_LIGHT = re.compile(
    r"(?i)^(?:(?:taking|going|going to|using|doing|having|drinking|eating|seeing|the|a|an|my|"
    r"her|his|their|our)\s+)+|^(?:去|吃|喝|用|上|做|打|玩|练|再)+"
)
_AFTER_THING = re.compile(
    r"(?i)\s+(?:to|at|on|in|with|before|after|for|from|every|each|because|since|and|but|so|"
    r"as|now)\b.*$"
)


def _stopped_thing(clause: str, theirs: frozenset[str]) -> frozenset[str]:
    """The words of the thing a stop's ``clause`` names, when most of them are the older's
    (``theirs``): "the drama club" stops no "swimming club", "the Tuesday pottery class" no
    "yoga on Tuesdays"; empty otherwise."""
    thing = _AFTER_THING.sub("", _LIGHT.sub("", clause.strip()))
    if has_cjk(thing):
        thing = _LIGHT.sub("", thing.split("的")[-1])
    words = core_words(thing) - _WHEN_WORDS - _WEEKDAYS
    return words if len(words & theirs) * 2 > len(words) else frozenset()


def _head(before: str, stopped: frozenset[str]) -> frozenset[str]:
    """What stopped, of the words right before a stop: the last of ``stopped`` in ``before``
    ("女儿的钢琴老师退了": the teacher, not the piano; "医生说阿卡波糖不吃了": 阿卡波糖; "Mr Byrne
    is no longer": Byrne)."""
    words = [stem(w.lower()) for w in content_words(undated(before))]
    last = next((w for w in reversed(words) if w in stopped), "")
    return frozenset({last}) if last else frozenset()


_WEEKDAYS = frozenset(
    stem(w)
    for w in "monday mondays tuesday tuesdays wednesday wednesdays thursday thursdays friday "
    "fridays saturday saturdays sunday sundays 周一 周二 周三 周四 周五 周六 周日".split()
)
# Times of day and of the week, and light verbs: the when and how of a habit, not its thing.
_WHEN_WORDS = frozenset(
    stem(w)
    for w in (
        "morning mornings evening evenings night nights afternoon afternoons weekend weekends "
        "weekday weekdays daily day days week weeks bedtime dinner lunch breakfast "
        "早上 早晨 晚上 上午 下午 中午 睡前 饭后 饭前 每天 每周 周末 早 晚"
    ).split()
) | frozenset(stem(w) for w in NOT_MEASURED)
# The rest said to go on ("阿司匹林照吃", "still takes the aspirin").
_GOES_ON = re.compile(
    r"(?i)照吃|照常|照旧|照样|继续|还在|仍然|依然|\bstill\b|\bcontinues?\b|\bkeeps?\b"
)


def _goes_on(newer: str, older: str) -> bool:
    """``newer`` stops one thing and says another of ``older``'s goes on ("停了降压药，阿司匹林
    照吃" / "每天吃阿司匹林，也吃降压药"): the older holds in part, so it is not ended whole."""
    if not _STOP.search(newer):
        return False
    theirs = core_words(older) - SLOT_WORDS - _WHEN_WORDS
    for clause in _CLAUSE.split(newer):
        if _GOES_ON.search(clause) and not _STOP.search(clause) and core_words(clause) & theirs:
            return True
    return False


_CAPITAL = re.compile(r"\b[A-Z][a-z]+\b")
# not one of a measure before a stop ("一口都", "一次也", "一点都"): says how wholly, not what
_NOT_ONE = re.compile(r"一[\u4e00-\u9fff]?[都也]$")
# "is no longer the landlord": what stops is the one before it, whatever follows
_COPULA_STOP = re.compile(r"(?i)(?:is|are|was|were) no longer")


_AUXILIARY = re.compile(r"(?i)\s+(?:has|have|had|was|were|is|are|been|got)\s*$")


@lru_cache(maxsize=50_000)
def _days(text: str) -> frozenset[tuple[int, int]]:
    """The days ``text`` names, by month and day: "17 June" (no year, so read against no
    day in particular) is the day "2026-06-17" names."""
    return frozenset(
        (span.first.month, span.first.day) for span in find(text, ANY_DAY) if span.unit == "day"
    )


def _has_number(text: str) -> bool:
    return bool(NUMBER.search(ISO_DATE.sub(" ", text)))


def is_future(text: str) -> bool:
    return bool(_FUTURE.search(text))


__all__ = [
    "Said",
    "alias_of",
    "aliased",
    "features",
    "other_thing_changed",
    "replaces",
    "same_fact",
    "subject_of",
    "told_beside",
    "translation",
]
