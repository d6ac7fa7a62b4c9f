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
from collections import Counter
from dataclasses import dataclass
from datetime import date
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
from memory.dream.judge.dates import find, month_number
from memory.dream.judge.label import LABEL as _LABEL
from memory.dream.judge.places import moved_to, other_place, placed
from memory.dream.judge.quantities import canonical, is_unit, one_unit
from memory.dream.judge.single_slots import FORMER, ORIGIN
from memory.dream.judge.slots import (
    GOAL,
    ISO_DATE,
    NEWS,
    THOUSANDS,
    new_value,
    same_amounts,
    two_things,
    typed_values,
    without_not_values,
)
from memory.dream.judge.slots import _names as may_name
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
from memory.segment import STOPWORDS, content_words, has_cjk, tokens
from memory.speaker import SURNAMES

_REL = {
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
REL_OF = {w: k for k, words in _REL.items() for w in words.split()}
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


_ZH_REL = "|".join(sorted((w for w in REL_OF if not w.isascii()), key=len, reverse=True))
_EN_REL = "|".join(sorted((w for w in REL_OF if w.isascii()), key=len, reverse=True))
# "用户对猫毛过敏" is the user's (no one is called 用户对); "张伟家的狗" is 张伟's dog.
ZH_SUBJECT = re.compile(rf"^(?P<who>用户|(?!用户)[\u4e00-\u9fff]{{2,4}}?)家?的?(?P<rel>{_ZH_REL})")
_ZH_WHO = re.compile(r"^(?P<who>用户|[\u4e00-\u9fff]{2,3})")
# a relation's own relation right after it ("brother's friend", "哥哥的朋友")
_CHAINED = re.compile(rf"(?i)(?:'s\s+(?:\w+\s+)?(?P<en>{_EN_REL})\b|的(?P<zh>{_ZH_REL}))")
EN_SUBJECT = re.compile(
    rf"(?i)^(?P<who>the user|user|[A-Z][a-z]+(?: [A-Z][a-z]+)?)'s\s+(?:\w+\s+)?(?P<rel>{_EN_REL})\b"
)
_EN_WHO = re.compile(r"^(?P<who>The user|the user|[A-Z][a-z]+(?: [A-Z][a-z]+)?)\b")
# a number, its thousands written with commas or not
_NUMBER = re.compile(rf"{THOUSANDS}|\d+(?:[.:]\d+)?")
_MOVED = re.compile(
    r"(?i)改到|改成|推迟|提前|延期|延到|延后|顺延|推到|\bmoved\b|\bpushed\b|postponed|"
    r"rescheduled|slips|\bextended\b"
)
_FUTURE = re.compile(
    r"(?i)要|将|打算|计划|准备|下周|下个月|明年|\bwill\b|\bgoing to\b|\bplans? to\b|"
    r"\bplanning\b|\bare moving\b|\bis moving\b|\bstarts? (?:at|on)\b|\bnext\b"
)


# A relation named bare at the start, as its speaker calls it ("Mum moved into Oakwood",
# "我妈住院了", "My wife is a nurse"): the speaker's relation. A one-character Chinese word
# (妈, 猫) only after 我 ("妈妈" is two).
_EN_BARE = re.compile(
    rf"^(?:(?i:my|our)\s+(?P<rel>(?i:{_EN_REL}))|(?P<cap>(?i:{_EN_REL})))(?:'s)?\b"
)
_EN_CAP = "|".join(w.capitalize() for w in _EN_REL.split("|"))
_ZH_MULTI_REL = "|".join(w for w in _ZH_REL.split("|") if len(w) > 1)
_ZH_BARE = re.compile(rf"^(?:(?:我们|我|咱)的?(?P<rel>{_ZH_REL})|(?P<cap>{_ZH_MULTI_REL}))")
_EN_OWNER = re.compile(rf"\b(?:(?i:my|our)\s+(?P<rel>(?i:{_EN_REL}))|(?P<cap>{_EN_CAP}))'s\b")
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
_SUMMARY_OWN = re.compile(rf"^(?i:their|his|her)\s+(?=(?i:{_EN_REL})\b)")
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
    rf"^(?P<who>用户|[\u4e00-\u9fff]{{2,4}}?)的?(?P<rel>{_ZH_REL})(?:的名字)?(?:叫做|名叫|叫)"
    r"(?P<name>[\u4e00-\u9fff]{2,3}?)(?=[，,。；、\s]|$|今年|[0-9])"
)
_EN_NAMED = re.compile(
    rf"^(?P<who>The user|the user|[A-Z][a-z]+)'s\s+(?:\w+\s+)?(?P<rel>{_EN_REL}),?\s+"
    r"(?:is called\s+|is named\s+|named\s+|called\s+)?(?P<name>[A-Z][a-z]+)\b"
)
# A relation named bare, then its name, as its speaker says it ("The user: Mum is Joan, she's
# 86", "Tom: my wife is called Sarah"): the name of the speaker's relation.
_EN_BARE_NAMED = re.compile(
    rf"^(?:(?P<who>The user|the user|User|[A-Z][a-z]+(?: [A-Z][a-z]+)?): )?"
    rf"(?:(?i:my|our)\s+)?(?P<rel>(?i:{_EN_REL}))\s+(?:is called|is named|'s called|is)\s+"
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


_GENERIC = frozenset({"用户", "user", "user's", "the"})
_ANY_DAY = date(2000, 1, 1)  # where a date is, not which, matters here


@lru_cache(maxsize=50_000)
def _undated(text: str) -> str:
    """``text`` without its date expressions."""
    out, last = [], 0
    for span in find(text, _ANY_DAY):
        out.append(text[last : span.start])
        last = span.end
    out.append(text[last:])
    return ISO_DATE.sub(" ", " ".join(out))


@lru_cache(maxsize=50_000)
@persisted("relations.core")
def _core(text: str) -> frozenset[str]:
    """The content words, dates, numbers and the subject's generic name left out; English
    words by their stem ("meeting" ~ "meet", "moved" ~ "move")."""
    return frozenset(
        stem(w) for w in content_words(_undated(text)) if not w[:1].isdigit() and w not in _GENERIC
    )


def core_words(text: str) -> frozenset[str]:
    """What a statement is about beyond its subject, dates and numbers."""
    return _core(text)


@lru_cache(maxsize=4_096)
def subject_words(subject: str) -> frozenset[str]:
    """The words that name a subject (``user/mother``: "mother", "mum", "妈妈", ...), no
    word of what is said about them: two statements about one's mum share "mum" whatever
    they say."""
    who, _, rel = subject.partition("/")
    words = set(_core(who.replace("/", " ")))
    if rel:
        words |= {stem(w.lower()) for w in _REL.get(rel, rel).split()}
        words |= set(_core(_REL.get(rel, rel)))
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
    if cosine < SAME_COSINE or containment(_core(a.text), _core(b.text)) < 0.5:
        return False
    return not _other_name(a.text, b.text)


_NAME_WORD = re.compile(r"^(?:[\u4e00-\u9fff]{3,}|[A-Z][a-z]+[A-Z]?\w*)$")


def _other_name(a: str, b: str) -> bool:
    """Each names a thing the other does not, in the same frame ("氨氯地平 早上吃" / "每天早上
    吃一片硝苯地平"): a name-like word (three Chinese characters or more, a capitalised
    English word) of the smaller statement missing from the larger, and one of the larger
    missing from the smaller: two values alike by embedding, no restatement."""
    small, large = sorted((a, b), key=lambda t: len(_core(t)))
    only_small = _core(small) - _core(large) - _SLOT_WORDS
    only_large = _core(large) - _core(small) - _SLOT_WORDS
    if any(x in y or y in x for x in only_small for y in _core(large)):
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
    if len(_core(main_a) - who) < 2 or len(_core(main_b) - who) < 2:
        return False
    return _core(main_a) == _core(main_b) or near_duplicate(main_a, main_b)


@lru_cache(maxsize=50_000)
def _numbers(text: str) -> frozenset[str]:
    return frozenset(n.replace(",", "") for n in _NUMBER.findall(text))


SAME_COSINE = 0.93
CROSS_LANGUAGE_COSINE = 0.88


_SCHOOL_YEAR = re.compile(r"\d+\s*年级")


@lru_cache(maxsize=50_000)
def _slot_numbers(text: str) -> dict[str, frozenset[str]]:
    """Numbers keyed by the words next to them ("体重 78 公斤" -> 体重, 公斤: {78}), read in
    digits and one unit word a quantity (:func:`quantities.one_unit`: "体重一百五十斤" ->
    体重, 公斤: {75}; "月薪15k" -> 月薪: {15000})."""
    plain = _NUMBER.sub(lambda m: m.group(0).replace(",", ""), _undated(without_not_values(text)))
    # a school year is a stage the school slot judges, no measure ("三年级" -> "3年级")
    plain = _SCHOOL_YEAR.sub(" ", one_unit(canonical(plain)))
    # each word with its clause: a number's neighbours are the words of its own clause
    # ("团子三岁了，是只英短": 只 is the breed's), or the next ones when it stands alone in a
    # list ("im priya, 34, a dentist")
    words: list[tuple[str, int]] = []
    for at, clause in enumerate(_CLAUSE.split(plain)):
        # a letter cut off a word ("Mum's" -> "s") names no measured thing; a digit is one
        words += [
            (w, at)
            for w in tokens(clause)
            if w not in STOPWORDS and not (w.isascii() and len(w) < 2 and not w.isdigit())
        ]
    alone = Counter(at for _, at in words)
    found: dict[str, set[str]] = {}
    for i, (word, at) in enumerate(words):
        numbers = _NUMBER.findall(word)
        if not numbers:
            continue
        for near, where in words[max(0, i - 3) : i] + words[i + 1 : i + 3]:
            if where != at and alone[at] > 1:
                continue
            if not _NUMBER.search(near) and near not in _NOT_MEASURED:
                found.setdefault(near, set()).update(numbers)
    return {word: frozenset(numbers) for word, numbers in found.items()}


# Words beside a number that name no measured thing: whose it is, when or how nearly it
# holds, what it runs until, the light verb before it ("81 kg now" and "day rate is now
# £520" share "now"; "takes sertraline 50 mg" and "also takes levothyroxine 75 mcg" share
# "takes"; "10 til 4" and "5 til 11" share "til"). A closed class, as the stopwords are.
_NOT_MEASURED = frozenset(
    "用户 user user's now also still currently again already almost nearly around roughly "
    "only til till until since takes take taking got gets keeps keeping "
    "现在 已经 大概 差不多 左右 目前".split()
)


# How often or per what a number counts ("每月 6800 元" / "每个月 4500"): a mortgage and a
# rent share it, so it is no measured thing of its own.
_PERIOD = frozenset(
    "每 每个 每月 每周 每天 每年 每晚 每次 月 年 周 天 晚 次 个 per every each a an month "
    "months week weeks day days year years night nights time times".split()
)


_CHANGE_TO = re.compile(
    r"(?:改喝|改吃|改用|改成|换成|换到|搬到|搬去|跳槽到|转到|改到|改为|升为|现在住(?!的)|现在在|现在是|"
    r"(?i:switched to|moved to|changed to|now (?:drinks?|lives? in|works? (?:at|for)|uses?)|"
    r"gone fully|upped (?:\w+ )*?to|raised (?:\w+ )*?to|up to|cut down to|down to))\s*"
    r"(?P<value>[\u4e00-\u9fff]{1,6}|[\w.:-]+(?:\s+[\w.:-]+)?)"
)
_SLOT_WORDS = frozenset(
    "住 住在 搬 搬家 搬到 喝 吃 用 工作 上班 在 是 有 现在 还是 改 改到 改成 最近 每天 一直 "
    "live lives living moved move moving drink drinks eat eats use uses work works now still "
    "again switched changed".split()
)
_SLOT_WORDS |= frozenset(stem(w) for w in _SLOT_WORDS)  # as the core words are written


@lru_cache(maxsize=50_000)
def _changed_to(text: str) -> frozenset[str]:
    """The new value a change names ("改喝乌龙茶" -> 乌龙茶's words)."""
    out: set[str] = set()
    for match in _CHANGE_TO.finditer(text):
        out.update(w for w in content_words(match.group("value")) if w not in _SLOT_WORDS)
    return frozenset(out)


def changed_to(text: str) -> frozenset[str]:
    """The words of the new values ``text`` says a change to ("改喝乌龙茶", "搬到良渚")."""
    return _changed_to(text)


@lru_cache(maxsize=50_000)
def _change_clauses(text: str) -> str:
    """The clauses of ``text`` that name a change's new value (:data:`_CHANGE_TO`), with the
    clause before each when it says the change ("陈静搬家了，搬到福田了"), joined; ``text``
    when none does."""
    pieces = _CLAUSE.split(text)
    keep: set[int] = set()
    for i, piece in enumerate(pieces):
        if _CHANGE_TO.search(piece):
            keep.add(i)
            if i and CHANGE.search(pieces[i - 1]):
                keep.add(i - 1)
    return "，".join(pieces[i] for i in sorted(keep)) if keep else text


_FAMILY_WORDS = frozenset(w for words in FAMILIES.values() for w in words)


@lru_cache(maxsize=50_000)
def _values(text: str) -> frozenset[str]:
    """The words naming a value (上海, berlin), not the slot (住, lives) or its topic."""
    return frozenset(w for w in _core(text) if w not in _SLOT_WORDS | _FAMILY_WORDS)


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
        or _MOVED.search(text)
        or _changed_to(text)
        or _AGE_REACHED.search(text)
        or _TO_NUMBER.search(text)
    )


# A value said to hold now, whatever later day the statement also names.
_PRESENT_VALUE = re.compile(r"(?i)(?:\b(?:is|are|'s) now|现在是|现在)\s*[£$€¥]?\s*\d")


def former(text: str) -> bool:
    """Whether ``text`` tells of a value held before, not now (``single_slots.FORMER``), with
    no word of a change to a new one."""
    return bool(FORMER.search(text)) and not _changed_to(text)


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
    old_core = _core(_TAG.sub(" ", older.text)) - _SLOT_WORDS - whose(newer, older) - target
    for match in _CHANGE_TO.finditer(newer.text):
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
        words = [w for w in content_words(clause) if w not in STOPWORDS and w not in _GENERIC]
        words = [w for w in words if w.lower() not in _WHEN_DONE and stem(w.lower()) not in who]
        if not words or len(words[-1]) < 2 or words[-1] in _SLOT_WORDS:
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
    old_core, new_core = _core(older.text), _core(newer.text)
    target = _changed_to(newer.text)
    plans = "plan" in (newer.kind, older.kind)
    # what changed is the topic of the clauses naming the new values ("搬到福田了" of
    # "陈静搬家了，搬到福田了，周凯公司在福田" moves a home, whatever else the line says)
    families = features(_change_clauses(newer.text)).families & features(older.text).families
    fresh = bool(target) and not plans and not target & old_core
    if fresh and (_added(newer.text) or (families and other_thing_changed(newer, older))):
        return False  # "也开始喝乌龙茶" adds a drink; "把公司搬到苏州" moves no home
    if fresh and (families or _changed_thing(newer, older, target)):
        return True  # "改喝乌龙茶了" replaces "喜欢喝绿茶"; "寿宴改到聚贤楼" the venue
    new_nums, old_nums = _slot_numbers(newer.text), _slot_numbers(older.text)
    same_language = has_cjk(newer.text) == has_cjk(older.text)
    who = whose(newer, older)
    # one's weight or height is one measured thing whatever the classifier calls each line
    # ("体重150斤", a fact; "今天称了一下，72公斤了", an event)
    body = bool(set(new_nums) & set(old_nums) & _BODY_UNITS)
    if same_language and (newer.kind == older.kind or body):
        # a number beside whose it is ("Mum's 2pm" / "Mum's 10mg") measures nothing of them;
        # a one-digit count both say is what the values are of ("5公里跑了28分钟" / "5公里
        # 跑了26分钟"); a longer number both say still holds the pair apart, as before
        # one-digit numbers were read at all
        said = {n for n in _all(new_nums) & _all(old_nums) if len(n) == 1}
        shared = {w for w in set(new_nums) & set(old_nums) if new_nums[w] - said} - _PERIOD - who
        if (
            shared
            and not _aim_beside_held(newer.text, older.text)
            and not _not_its_value(newer.text, older.text)
            and all(not (new_nums[w] - said) & old_nums[w] for w in shared)
            and not _scopes_differ(newer.text, older.text)
            and not _other_distance(newer.text, older.text)
            and not two_things(newer.text, older.text, who)
            and not same_amounts(newer.text, older.text)
            and not _measures_apart(newer.text, older.text, new_nums, old_nums, who)
        ):
            return True  # the same measured thing, a new number
    new_days, old_days = _days(newer.text), _days(older.text)
    if new_days and old_days and not new_days & old_days and same_language:
        # what the plan is, beyond whose it is: a name shared by any two of one's plans
        marks = _change_words(newer.text)  # "改成" says it moved, not what moved
        overlap = containment(new_core - who - marks, old_core - who)
        changed = bool(marks)
        others = _relations(newer.text, who) != _relations(older.text, who)
        # a new date said with no word of a change is another occurrence ("physio on the
        # 3rd" and "physio on the 10th": weekly), not the plan moved
        if not others and changed and overlap >= 0.3:
            return True  # the same plan, a new date
    if same_language and _other_distance(newer.text, older.text):
        return False  # "a 10k in 61 min" is another record than "a 5k in 28 min"
    if (
        new_value(newer.text, older.text, cosine, who)
        and not relative_apart(newer, older, who)
        and not numbers_apart(newer.text, older.text, who)
        and not _nothing_shared(newer.text, older.text, new_nums, old_nums, who)
    ):
        return True  # the same slot, a new value of the same type
    if _stopped(newer.text, older.text, who):
        return True  # "stopped the statin" ends "a statin at night"
    # The old value said again ("我还是住浦东，没搬家") is no replacement.
    distinctive = (old_core & new_core) - _SLOT_WORDS
    if distinctive and not target and len(distinctive) * 3 >= len(old_core - _SLOT_WORDS):
        return False
    if newer.kind != older.kind or not loose:
        return False
    return supersedes(newer.text, older.text) and _names_new_value(newer.text, older.text)


# A number told as a difference ("我哥比我大三岁", "two years older than me"): no value of
# what it is counted in (an age, a weight), so it replaces none.
_COMPARED = re.compile(
    r"比[^，,。；;]{0,10}?(?:大|小|多|少|高|矮|重|轻|早|晚|贵|便宜)了?[0-9一二两三四五六七八九十半几]"
    r"|(?i:\b(?:\d+(?:\.\d+)?|an?|one|two|three|four|five|six|seven|eight|nine|ten)\s*(?:years?|yrs?|kg|kilos?|cm|lbs?|pounds?|minutes?|mins?|hours?)?"
    r"\s+(?:older|younger|taller|shorter|heavier|lighter|more|less|earlier|later)\s+than\b)"
)


def _not_its_value(newer: str, older: str) -> bool:
    """Whether a number one of the two gives is no value of what the other measures: a
    difference (:data:`_COMPARED`), or an animal's beside no animal ("我养了一只柴犬叫豆包，
    三岁了" / "用户31岁": the dog's age, not the user's)."""
    from memory.dream.judge.beings import animal_named  # beings reads this module's words

    if _COMPARED.search(newer) or _COMPARED.search(older):
        return True
    return animal_named(newer) != animal_named(older)


def _aim_beside_held(newer: str, older: str) -> bool:
    """Whether one of the two tells a value aimed for and the other none: two slots, as
    :func:`slots.changes_value` reads them ("体重目标是65公斤" / "今天称了一下66公斤"), unless
    the older holds a value before its aim and the newer tells it changed ("体重是81公斤，目标
    是减到74公斤" / "体重降到了79公斤": the held clause changed, the aim stays)."""
    if bool(GOAL.search(newer)) == bool(GOAL.search(older)):
        return False
    goal = GOAL.search(older)
    held = goal is not None and bool(_NUMBER.search(older[: goal.start()]))
    return not (held and tells_change(newer))


def of_then(newer: Said, older: Said) -> bool:
    """Whether ``newer`` gives a number of a month or a year gone by (``Said.past``: "去年
    房租每月3200元", "last year's rent was £900", "上个月工资12000") that ``older`` does not,
    and tells no change (:func:`tells_change`): a value of then, beside the present one,
    not a new one ("去年房租涨到了3500" tells one)."""
    return (
        newer.past
        and not older.past
        and bool(_DIGIT.search(newer.text))
        and not tells_change(newer.text)
    )


# Money's units, what many amounts are counted in, naming none of them.
_MONEY = frozenset(
    "pound pounds quid dollar dollars euro euros yuan rmb gbp usd eur 元 块 块钱 万 千 百".split()
)


_CURRENCY = re.compile(r"[£$€¥]")


def _money(text: str) -> bool:
    """Whether ``text`` gives an amount of money (a currency's unit or sign)."""
    units = {kind.partition(":")[2] for kind in typed_values(text) if kind.startswith("num:")}
    return bool(units & (_MONEY | {"cny"})) or bool(_CURRENCY.search(text))


def _nothing_shared(
    newer: str,
    older: str,
    new_nums: dict[str, frozenset[str]],
    old_nums: dict[str, frozenset[str]],
    who: frozenset[str],
) -> bool:
    """Whether two amounts of money measure two things (:func:`_measures_apart`: "rent is
    1200 pounds a month" / "salary is 3000 pounds a month") and the two statements share no
    word beyond whose they are, the units and the periods: nothing names one thing both
    measure ("英语成绩是85分" / "英语期中考了91分" share 英语, one subject's score)."""
    if not (_money(newer) and _money(older)):
        return False  # a weight, a distance reworded ("scale says 77 kg"): one thing
    if not _measures_apart(newer, older, new_nums, old_nums, who):
        return False
    skip = _NOT_MEASURED | _PERIOD | _MONEY | who | {w.lower() for w in who} | _SLOT_WORDS
    shared = (_core(newer) & _core(older)) | (set(new_nums) & set(old_nums))
    return not any(w not in skip and not _DIGIT.search(w) and may_name(w) for w in shared)


def relative_apart(newer: Said, older: Said, who: frozenset[str]) -> bool:
    """Whether the newer names a relative the older does not ("Tom is 8" / "Tom's sister Amy
    is 5") and says no change, or each names a relative the other's could not be, change
    or not (:func:`relatives_apart`): a value of another person's, beside the older's."""
    text = newer.text
    if relatives_apart(text, older.text, who):
        return True
    if NEWS.search(text) or clear_change(text):
        return False
    return bool(_relations(text, who) - _relations(older.text, who))


# Relations one person may be named by in two statements: a child is a son or a daughter,
# the parents are a father and a mother, a partner becomes a wife or a husband.
_ONE_OF = {
    "child": {"son", "daughter"},
    "parents": {"father", "mother"},
    "partner": {"wife", "husband"},
}


def _may_be(a: str, b: str) -> bool:
    return a == b or b in _ONE_OF.get(a, ()) or a in _ONE_OF.get(b, ())


_DIGIT = re.compile(r"\d")

# "我爸", "我妈": a relation after the speaker's own pronoun, read as one word.
_MY = re.compile(r"(?:我|你|他|她)(?=[\u4e00-\u9fff])")


# Who speaks ("老爸：…", "Mum: …"): the name before a line's colon, no one it tells of.
_SPOKEN_BY = re.compile(r"^[^：:，,。\s]{1,12}\s?[：:]")


def _kin(text: str, who: frozenset[str]) -> frozenset[str]:
    """The relations ``text`` names (:func:`_relations`), "我爸" as "爸" too, past whoever
    says it ("妈妈：陈师傅换工作了" names no mother)."""
    text = _SPOKEN_BY.sub(" ", text)
    return _relations(text, who) | _relations(_MY.sub(" ", text), who)


def relatives_apart(newer: str, older: str, who: frozenset[str]) -> bool:
    """Whether both statements give a number (an age, a measure), both name relatives, and
    none the newer names could be one the older names ("用户的妈妈今年65岁" / "用户的爸爸今年
    68岁", "the user's son is 7" / "the user's daughter is now 4"): two people's values,
    never one slot, whatever change is told. Values told in words (a home, a job) are left
    to the rest of the judgement: one person has many names ("Mum" / "the kids' grandma")."""
    if not (_DIGIT.search(newer) and _DIGIT.search(older)):
        return False
    mine, theirs = _kin(newer, who), _kin(older, who)
    return bool(mine and theirs) and not any(_may_be(a, b) for a in mine for b in theirs)


# The units of one's own weight, height and age: a number in one of them, of a subject, is
# its body's, however it is told ("体重75公斤" / "称了一下72公斤", "weighs 80 kg" / "the
# scale says 77 kg now"); money, hours, floors and kilometres measure many things.
_BODY_UNITS = frozenset("公斤 kg 厘米 cm 岁 周岁 stone".split())


def body_reading(newer: str, older: str) -> bool:
    """Whether ``newer`` reads one's weight or height anew (a number beside a unit of
    :data:`_BODY_UNITS` both give, another one, no goal): "今天称了一下，72公斤了" after
    "体重150斤" is the weight from that day, however the classifier calls the line."""
    new_nums, old_nums = _slot_numbers(newer), _slot_numbers(older)
    units = set(new_nums) & set(old_nums) & _BODY_UNITS
    return (
        bool(units)
        and all(not new_nums[u] & old_nums[u] for u in units)
        and not GOAL.search(newer)
        and not GOAL.search(older)
    )


# Whom a reflexive names is the subject, no measured thing ("weighed herself at 82.5 kg").
_REFLEXIVE = frozenset("myself yourself himself herself itself ourselves themselves".split())


def _measures_apart(
    newer: str,
    older: str,
    new_nums: dict[str, frozenset[str]],
    old_nums: dict[str, frozenset[str]],
    who: frozenset[str],
) -> bool:
    """Whether two numbers sharing a word beside them (a unit, "元", "楼", "euros") may
    measure two things, so a new number needs the newer to say that something changed:
    each number of every pair sharing a word has a word beside it the other statement never
    says ("房租 3000 元" / "工资 12000 元", "家住 12 楼" / "公司在 28 楼",
    "rent is 1200 euros" / "partner earns 3000 euros"), or the newer names a relative the
    older does not ("身高 180" / "老婆身高165": another's), or both name relatives that are
    two people (:func:`relatives_apart`). A new number told plainly of one thing ("体重 80
    公斤" / "体重 78 公斤", "weighed herself at 82.5 kg" / "weighs 84 kg") or told as a
    change ("rent went up to £950", "称了一下57了") is not held back; a value said to hold
    now ("现在每月工资12000元", "I'm now earning …") tells no change (:func:`tells_change`)."""
    if relatives_apart(newer, older, who):
        return True
    skip = _NOT_MEASURED | _PERIOD | who | {w.lower() for w in who}
    shared = (set(new_nums) & set(old_nums)) - skip
    if NEWS.search(newer) or clear_change(newer):
        # a change told lets a new number through here; so does a value said to hold now
        # beside a word of what both measure ("the rate is 3.9% now" / "mortgage rate is
        # 4.5%") or of one's own body ("the scale says 77 kg now" / "weighs 80 kg"), told
        # in other words as often as not. Numbers sharing only the unit they are in, told
        # with "now", are two things' when each has words of its own (:func:`numbers_apart`:
        # "currently working 10 hours a day" / "sleeps 7 hours a night")
        if tells_change(newer) or shared & _BODY_UNITS or not all(map(is_unit, shared)):
            return False
        return numbers_apart(newer, older, who)
    if _relations(newer, who) - _relations(older, who) or others_named(newer) - others_named(older):
        return True  # "老婆身高165" / "身高180"; "邻居养了三只猫" / "养了两只猫"
    if not shared:
        return False
    pairs = {(a, b) for w in shared for a in new_nums[w] for b in old_nums[w]}
    return _numbers_apart(newer, older, new_nums, old_nums, skip | shared, pairs)


# Words saying a value holds now ("现在", "目前", "now", "currently"): the present, no change
# (a value changed says so: "涨到", "went up", "了", "down to").
_NOW = re.compile(r"(?i)\b(?:now|currently|these days|nowadays|at the moment)\b|现在|目前|如今")


def tells_change(text: str) -> bool:
    """Whether ``text`` says that something changed, past the words saying a value holds
    now ("现在每月工资12000元" tells none, "现在房租涨到3300元了" does)."""
    plain = _NOW.sub(" ", text)
    return bool(NEWS.search(plain) or clear_change(plain))


def _numbers_apart(
    newer: str,
    older: str,
    new_nums: dict[str, frozenset[str]],
    old_nums: dict[str, frozenset[str]],
    skip: frozenset[str],
    pairs: set[tuple[str, str]],
) -> bool:
    """Whether each pair of numbers (the newer's, the older's) measures two things: each
    has a word beside it (past ``skip``) the other statement never says."""
    new_said, old_said = _said_words(newer), _said_words(older)

    def own(nums: dict[str, frozenset[str]], number: str, other: frozenset[str]) -> bool:
        # a word beside the number the other statement never says
        beside = {w for w, found in nums.items() if number in found} - skip - _REFLEXIVE
        return any(_said_word(w) not in other for w in beside)

    return bool(pairs) and all(
        own(new_nums, a, old_said) and own(old_nums, b, new_said) for a, b in pairs
    )


def numbers_apart(newer: str, older: str, who: frozenset[str]) -> bool:
    """Whether the newer says a value holds now and tells no change (:func:`tells_change`:
    "现在每月工资12000元"), and every pair of their numbers measures two things
    (:func:`_numbers_apart`), a word beside both or not ("the user's rent is £900 a month" /
    "the user is now earning £2,400 a month"): no new value of one slot, however alike."""
    if not _NOW.search(newer) or tells_change(newer):
        return False
    new_nums, old_nums = _slot_numbers(newer), _slot_numbers(older)
    # the words beside numbers of both (a unit, "元", "kg") say nothing of what each measures
    skip = (
        _NOT_MEASURED | _PERIOD | who | {w.lower() for w in who} | (set(new_nums) & set(old_nums))
    )
    if _kin(newer, who) and _kin(older, who):
        # both name relatives that may be one person (:func:`relatives_apart` said so):
        # "老婆" / "女朋友" say whose, not what is measured
        skip |= {w for w in {*new_nums, *old_nums} if stem(w.lower()) in _REL_STEM}
    pairs = {(a, b) for a in _all(new_nums) for b in _all(old_nums)}
    return _numbers_apart(newer, older, new_nums, old_nums, skip, pairs)


def _all(nums: dict[str, frozenset[str]]) -> set[str]:
    return {n for found in nums.values() for n in found}


def _said_word(word: str) -> str:
    """A word as :func:`_said_words` holds it: English by its stem."""
    return word if has_cjk(word) else stem(word.lower())


@lru_cache(maxsize=50_000)
def _said_words(text: str) -> frozenset[str]:
    """Every word of ``text``, English by its stem, Chinese as every run of two to four
    characters (a word of another's segmentation is found in it)."""
    plain = canonical(text).lower()
    out = {_said_word(w) for w in tokens(plain)}
    for run in re.findall(r"[\u4e00-\u9fff]+", plain):
        out |= {run[i : i + n] for n in (1, 2, 3, 4) for i in range(len(run) - n + 1)}
    return frozenset(out)


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
    if _changed_to(newer) - _core(older) or _STOP.search(newer):
        return True  # "改喝大麦茶": the value it changed to; "咖啡我戒了": the value stopped
    return jaccard(_core(newer), _core(older)) >= 0.5


def moved_away(newer: Said, older: Said) -> bool:
    """``newer`` moves its subject ("is moving to Manchester", "调回成都了") from the place
    ``older`` names as a modifier ("a pharmacist in Cardiff", "在重庆做建筑设计"):
    :mod:`judge.places`, read with whose statements they are."""
    where = placed(older.text)
    if where is None:
        return False
    # who moves is named in the older's own words, not its speaker's label ("陈静：周凯在深圳…"
    # is not moved by "陈静搬家了")
    to = moved_to(newer.text, _core(_LABEL.sub("", older.text, count=1)))
    return bool(to) and other_place(where.place, to)


# How far a number reaches in time, by a closed class of words: every day, every week, a
# weekend, one day only ("每天走8000步" / "周末爬山走了2万步": a habit and one outing).
_SCOPES = {
    "day": re.compile(r"(?i)每天|每日|天天|每晚|每早|\bdaily\b|\b(?:a|per|every) (?:day|night)\b"),
    "week": re.compile(r"(?i)每周|每星期|每个?礼拜|\bweekly\b|\b(?:a|per|every) week\b"),
    "month": re.compile(r"(?i)每月|每个月|\bmonthly\b|\b(?:a|per|every) month\b"),
    "year": re.compile(r"(?i)每年|\byearly\b|\bannual(?:ly)?\b|\b(?:a|per|every) year\b"),
    "weekend": re.compile(
        r"(?i)周末|(?<!每)星期[六天日]|(?<!每)周[六日]"
        r"|\b(?:at|on|over|this|last) (?:the )?weekend\b"
    ),
    "once": re.compile(
        r"(?i)今天|昨天|前天|今早|今晚|昨晚|那天|这次|上次|上周|\btoday\b|\byesterday\b|"
        r"\btonight\b|\bthis (?:morning|evening|afternoon)\b|\blast (?:night|week|time)\b"
    ),
}


@lru_cache(maxsize=50_000)
def _scopes(text: str) -> frozenset[str]:
    return frozenset(name for name, pattern in _SCOPES.items() if pattern.search(text))


def _scopes_differ(a: str, b: str) -> bool:
    """Both say over what time their numbers count, and no span is the same: a daily habit and
    one weekend's outing are two measured things, not a new value of one."""
    sa, sb = _scopes(a), _scopes(b)
    return bool(sa and sb) and not sa & sb


# A time over a distance ("a 5k in 28 min", "10公里跑了61分钟"): the distance names the
# thing timed, so two distances are two records, not a new value of one.
_DISTANCE = re.compile(
    r"(?i)(\d+(?:\.\d+)?)\s*(?:k|km|kms|kilometres?|kilometers?|miles?|mi|公里|千米)(?![a-z])"
)
_DURATION = re.compile(
    r"(?i)\d+(?:[.:]\d+)?\s*(?:min|mins|minutes?|hours?|hrs?|h|secs?|seconds?|分钟|小时|分|秒)"
    r"(?![a-z])"
)


def _other_distance(newer: str, older: str) -> bool:
    """Both time a distance, and not the same one (in words too: "五公里" / "十公里")."""
    newer, older = canonical(newer), canonical(older)
    if not (_DURATION.search(newer) and _DURATION.search(older)):
        return False
    new_d = {float(m.group(1)) for m in _DISTANCE.finditer(newer)}
    old_d = {float(m.group(1)) for m in _DISTANCE.finditer(older)}
    return bool(new_d and old_d) and not new_d & old_d


_REL_STEM = {stem(w.lower()): rel for w, rel in REL_OF.items()}


# A relation named as who says it ("supervisor 说 proposal 可以延到…"): no one the plan is for.
_SPEAKER = re.compile(
    rf"(?i)(?:{_EN_REL}|{_ZH_REL})\s*(?:说|讲|告诉|通知|同意|\b(?:said|says|told|agreed)\b)"
)


@lru_cache(maxsize=50_000)
def _relations(text: str, who: frozenset[str]) -> frozenset[str]:
    """The relations a statement names beyond its subject and its speakers (带儿子, the
    kids): whose plan it is, whom it is for."""
    core = _core(_SPEAKER.sub(" ", text)) - who
    return frozenset(_REL_STEM[w] for w in core if w in _REL_STEM)


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
    for match in _CHANGE_TO.finditer(newer.text):
        clause = _CLAUSE.split(_TAG.sub(" ", newer.text[: match.start()]))[-1]
        words = [w for w in content_words(clause) if w not in STOPWORDS and w not in _GENERIC]
        words = [w for w in words if stem(w.lower()) not in who and w not in _SLOT_WORDS]
        if not words:
            continue
        families = features(words[-1]).families
        if families and not families & theirs:
            return True
        if "把" in clause and len(words[-1]) > 1 and not _core(words[-1]) & _core(older.text):
            return True  # "把跑步时间改到晚上": the time of the run moved, not "跑步5公里"
    return False


@lru_cache(maxsize=50_000)
def _change_words(text: str) -> frozenset[str]:
    """The words of ``text``'s change markers ("改成", "moved"), as the core words are written."""
    out: set[str] = set()
    for pattern in (CHANGE, _MOVED):
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
    target = _changed_to(older)
    return bool(target) and target <= (_core(newer) | _values(newer))


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
    theirs = _core(older) - _SLOT_WORDS - _WHEN_WORDS
    for match in _STOP.finditer(newer):
        clause = _CLAUSE.split(newer[match.end() :], maxsplit=1)[0]
        # "甜食一口都不吃了": not one bite of it, the thing before the bite
        before = _NOT_ONE.sub("", _CLAUSE.split(newer[: match.start()])[-1])
        told = _core(clause)  # what the stop is said of, and the most of it the older's
        after = _stopped_thing(clause, theirs)
        if has_cjk(before):
            stopped = _core(before[-8:])
        else:
            words = _AUXILIARY.sub("", before).split()[-2:]
            stopped = _core(" ".join(words)) - who
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
    words = _core(thing) - _WHEN_WORDS - _WEEKDAYS
    return words if len(words & theirs) * 2 > len(words) else frozenset()


def _head(before: str, stopped: frozenset[str]) -> frozenset[str]:
    """What stopped, of the words right before a stop: the last of ``stopped`` in ``before``
    ("女儿的钢琴老师退了": the teacher, not the piano; "医生说阿卡波糖不吃了": 阿卡波糖; "Mr Byrne
    is no longer": Byrne)."""
    words = [stem(w.lower()) for w in content_words(_undated(before))]
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
) | frozenset(stem(w) for w in _NOT_MEASURED)
# The rest said to go on ("阿司匹林照吃", "still takes the aspirin").
_GOES_ON = re.compile(
    r"(?i)照吃|照常|照旧|照样|继续|还在|仍然|依然|\bstill\b|\bcontinues?\b|\bkeeps?\b"
)


def _goes_on(newer: str, older: str) -> bool:
    """``newer`` stops one thing and says another of ``older``'s goes on ("停了降压药，阿司匹林
    照吃" / "每天吃阿司匹林，也吃降压药"): the older holds in part, so it is not ended whole."""
    if not _STOP.search(newer):
        return False
    theirs = _core(older) - _SLOT_WORDS - _WHEN_WORDS
    for clause in _CLAUSE.split(newer):
        if _GOES_ON.search(clause) and not _STOP.search(clause) and _core(clause) & theirs:
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
        (span.first.month, span.first.day) for span in find(text, _ANY_DAY) if span.unit == "day"
    )


def _has_number(text: str) -> bool:
    return bool(_NUMBER.search(ISO_DATE.sub(" ", text)))


def is_future(text: str) -> bool:
    return bool(_FUTURE.search(text))


__all__ = [
    "Said",
    "alias_of",
    "aliased",
    "body_reading",
    "changed_to",
    "features",
    "other_thing_changed",
    "others_named",
    "replaces",
    "same_fact",
    "subject_of",
    "told_beside",
    "translation",
]
