"""How a note line becomes a memory item: a fact about someone, dates made absolute.

``用户: 我叫王小明，是软件工程师`` -> ``用户叫王小明，是软件工程师``;
``User: I'm allergic to penicillin`` -> ``The user is allergic to penicillin``;
``Tom: my wife Sarah is a pilot`` -> ``Tom's wife Sarah is a pilot``;
``用户再次提到自己对花生过敏`` -> ``用户对花生过敏``; a trailing question ("…，有什么推荐的吗？")
is left out; relative dates are resolved against the note's date (:mod:`dates`).
"""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache

from memory.chatter import without_greeting
from memory.dream.grounding import SUPPORT_THRESHOLD, support
from memory.dream.judge.address import familiar_form
from memory.dream.judge.dates import may_name_dates, opens_with_date, resolve
from memory.dream.judge.shared import PERSON_FREQUENCY
from memory.dream.text_memo import persisted
from memory.segment import word_frequency, word_spans
from memory.speaker import SURNAMES, Spoken, split

_RELATIONS_ZH = (
    "父亲|爸爸|爸|母亲|妈妈|妈|父母|爸妈|妻子|老婆|丈夫|老公|儿子|女儿|孩子|宝宝|哥哥|姐姐|弟弟|妹妹|"
    "爷爷|奶奶|外公|外婆|姥姥|姥爷|男朋友|女朋友|男友|女友|对象|室友|同事|老板|领导|朋友|闺蜜|导师|"
    "表姐|表妹|表哥|表弟|孙子|孙女|外孙|外孙女|猫|狗|家人|老伴"
)
# (the teller is the line's subject, never someone's relation: "王刚的爸说生日宴改到周六了"
# keeps its 说, the father told of the banquet, it is not his)
_ZH_FRAME = re.compile(
    r"^(?P<who>用户|(?:(?!的)[\u4e00-\u9fff]){1,4}?)(?:又|也|再次|还)?"
    r"(?:提到|提醒(?:助手)?(?:一下)?|表示|说|称|强调|告诉助手|补充|重申|确认)(?:了|过)?(?:道)?"
    r"[：:，,\s]*(?P<self>自己|他|她)?(?=\S)"
)
# "李秀英提醒大家，…", "王芳：跟各位说一下，…": a word to the whole group frames what follows.
_ZH_TELL_ALL = re.compile(
    r"^(?:[\u4e00-\u9fff]{1,4}?[：:]?\s*)?(?:提醒|告诉|通知|跟|和)(?:一下)?(?:大家|各位)"
    r"(?:说)?(?:一下|一声)?[：:，,\s]*(?=\S)"
)
_EN_FRAME = re.compile(
    r"(?i)^(?P<who>the user|[A-Z][a-z]+)\s+(?:again\s+)?(?:mentioned|said|noted|stated|"
    r"reminded the assistant|told the assistant|repeated|confirmed|added|explained)"
    r"(?:\s+again)?(?:\s+that|\s+about)?\s+(?:he|she|they)\s+"
)
_EN_FRAME_ABOUT = re.compile(
    r"(?i)^(?P<who>the user)\s+(?:again\s+)?(?:mentioned|reminded the assistant|"
    r"reminded the assistant about|reminded the assistant of)\s+(?:again\s+)?(?:that\s+)?"
    r"(?:his|her|their)\s+"
)
_DISCOURSE_HEAD = re.compile(
    r"^(?:提醒(?:一下|你|大家|各位)?|记住|别忘了|对了|顺便说一下|其实|另外|reminder|remember|btw|fyi|"
    r"by the way|just so you know|update|also|oh and|note|so|and|but|well|anyway|big news)"
    r"(?:\s+that)?[：:，,!！\s]+",
    re.I,
)
# A request to keep something in mind frames the fact it carries: "Remind me: Mia's dentist
# is on Friday", "please remember that I'm vegetarian", "别忘了我对花生过敏", "提醒我明天交
# 房租", "别忘了提醒我周五交报告" (the clause after it has its own subject, or ends the
# request: a colon, "that").
_REQUEST_HEAD = re.compile(
    r"^(?:(?i:please\s+|pls\s+)?(?i:remind me|remember|don'?t forget|do not forget|"
    r"keep in mind|note|make a note)(?:\s+that\s+|\s*[:：]\s*|,\s+(?=I\b|my\b))"
    r"|(?i:please\s+|pls\s+)?(?i:remember|don'?t forget|keep in mind|note)\s+(?=I\b|I'm\b|my\b)"
    r"|请?(?:帮我)?(?:(?:别忘了|不要忘了|记得)?提醒(?:一下)?|记住|记得|别忘了|不要忘了|记一下)"
    r"[：:，,\s]*(?=我|[：:])"
    r"|请?(?:帮我)?(?:提醒(?:我|你|一下)?|记住|记得|别忘了|记一下)[：:，,\s]+)"
)
# "Remind me to call mom": a task of the speaker's, worded as one ("I have to call mom").
_REMIND_TO = re.compile(r"(?i)^(?:please\s+|pls\s+)?remind me to\s+")
_QUESTION_TAIL = re.compile(
    r"[，,]\s*(?:[^，,]*(?:吗|呢|么|吧)|(?:有什么|有没有|怎么|如何|能不能|可以|你觉得|你说|what|any|"
    r"how|can|could|should|do you|is it|are there)[^，,]*)[?？]?\s*$",
    re.I,
)

_EN_BE = {"am": "is", "'m": " is", "was": "was", "have": "has", "'ve": " has", "do": "does"}
_EN_KEEP = frozenset(
    "will would can could should must might may shall did was had were 'll 'd "
    # irregular past forms, already right after any subject
    "bought brought thought caught taught got went came saw made took gave found told said "
    "left felt kept meant met paid put ran sent sat spent stood understood won wrote read "
    "knew began broke chose drove ate fell flew forgot grew hid hit hurt lost rode rose sang "
    "sold shot shut slept spoke stole swam threw woke wore became built lent let set cut quit "
    "used heard held led fed fought hung stuck struck swept wept dealt".split()
)
_EN_ADVERB = frozenset(
    "also always never usually often really just still now mostly sometimes only even already "
    "rarely generally actually probably definitely".split()
)


# Verbs whose past is their present ("read", "put"): after a habit's adverb, the present.
_SAME_IN_PAST = frozenset("read put cut set let hit hurt shut quit cost spread".split())
_HABITUAL = re.compile(r"(?i)\b(?:always|usually|often|mostly|sometimes|rarely|generally)\b")


def _third_person(verb: str) -> str:
    low = verb.lower()
    if low in ("am",):
        return "is"
    if low == "have":
        return "has"
    if low in ("do", "go"):
        return verb + "es"
    if low in _EN_KEEP or low.endswith("ed") or not low.isalpha():
        return verb
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return verb + "es"
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    return verb + "s"


def _english(body: str, who: str, possessive: str) -> str:
    """First person -> ``who`` (``The user``/``Tom``)."""
    text = body
    # "Sarah and I are expecting our first baby": a plural subject keeps its verb
    pair = re.match(r"^(?P<other>(?:[Mm]y \w+|[A-Z][a-z]+)) and I\b(?!')", text)
    if pair:
        text = f"{pair['other']} and {who}{text[pair.end() :]}"
        text = re.sub(r"\b[Oo]ur\b", "their", text)
    text = re.sub(r"\bI'm not\b", f"{who} is not", text)
    text = re.sub(r"\bI don't\b", f"{who} doesn't", text)
    text = re.sub(r"\bI do not\b", f"{who} does not", text)
    text = re.sub(r"\bI'm\b", f"{who} is", text)
    text = re.sub(r"\bI've\b", f"{who} has", text)
    text = re.sub(r"\bI'll\b", f"{who} will", text)
    text = re.sub(r"\bI'd\b", f"{who} would", text)

    def verb(match: re.Match[str]) -> str:
        adverbs, word = match.group("adv") or "", match.group("verb")
        if _HABITUAL.search(adverbs) and word.lower() in _SAME_IN_PAST:
            return f"{who} {adverbs}{word}s"  # "I mostly read sci-fi": a habit, the present
        return f"{who} {adverbs}{_third_person(word)}"

    text = re.sub(
        r"\bI\s+(?P<adv>(?:(?:" + "|".join(_EN_ADVERB) + r")\s+)*)(?P<verb>[\w']+)", verb, text
    )
    text = re.sub(r"\b[Mm]y\b", possessive, text)
    text = re.sub(r"\bmyself\b", "themselves" if who == "the user" else who, text)
    text = re.sub(r"\bme\b", who, text)
    text = re.sub(r"\bmine\b", possessive, text)
    return text[0].upper() + text[1:] if text else text


def _chinese(body: str, who: str) -> str:
    text = re.sub(rf"我(?:的)?(?=(?:{_RELATIONS_ZH}))", f"{who}的", body)
    text = text.replace("我们家", f"{who}家")  # the household, not "用户他们家"
    text = text.replace("我的", f"{who}的").replace("我们", f"{who}他们").replace("我", who)
    return text.replace(f"{who}{who}", who)


def strip_framing(text: str) -> str:
    """``用户再次提到自己对花生过敏`` -> ``用户对花生过敏``; "The user mentioned again that he
    is allergic..." -> "The user is allergic..."; ``李秀英提醒大家奶奶不能吃咸`` -> ``奶奶不能吃咸``
    (a reminder to the group tells of someone else). A frame stays where what was said is
    of someone else: a relation's words ("王刚的爸说生日宴改到周六了", not the father's banquet),
    or a teller's before another person's name ("刘洋说陈晨在银行上班")."""
    match = _ZH_TELL_ALL.match(text)
    if match and len(text) - match.end() >= 3:
        return text[match.end() :]
    match = _ZH_FRAME.match(text)
    if match and len(text) - match.end() >= 3:
        who, rest = match.group("who"), text[match.end() :]
        if rest.startswith(who):  # "王刚说过王刚对花生过敏" (a first person made the name)
            return who + rest[len(who) :]
        if not match.group("self") and _a_person(rest):
            return text  # "刘洋说陈晨在银行上班": what the teller said of someone else
        return who + rest
    match = _EN_FRAME.match(text)
    if match:
        rest = text[match.end() :]
        if match.group(0).rstrip().lower().endswith("they"):
            rest = _singular(rest)  # "mentioned they drive a van" -> "The user drives a van"
        return f"{match.group('who')} {rest}"
    match = _EN_FRAME_ABOUT.match(text)
    if match:
        return f"{match.group('who')}'s {text[match.end() :]}"
    return text


# A verb after a singular "they" as it reads after "The user" ("they are" -> "is").
_THEY_VERB = {
    "are": "is",
    "were": "was",
    "aren't": "isn't",
    "weren't": "wasn't",
    "don't": "doesn't",
    "haven't": "hasn't",
}


def _singular(rest: str) -> str:
    """What followed a singular "they" (the user's framing pronoun), its first verb as it
    reads after "The user": "still don't have a GP" -> "still doesn't have a GP"."""
    match = re.match(r"(?P<adv>(?:(?:" + "|".join(_EN_ADVERB) + r")\s+)*)(?P<verb>[\w']+)", rest)
    if not match:
        return rest
    word = match.group("verb")
    if word.lower() in ("and", "both", "all", "each", "two", "three"):
        return rest  # "they and their wife", "they both": more than one
    new = _THEY_VERB.get(word.lower()) or _third_person(word)
    return rest[: match.start("verb")] + new + rest[match.end("verb") :]


def _a_person(text: str) -> bool:
    """Whether a Chinese ``text`` opens with a person's name: a word of two or three
    characters a family name opens that no common dictionary word is ("陈晨", not "方案"),
    or a familiar form ("老陈", "陈师傅")."""
    if familiar_form(text):
        return True
    if not text[:1] or text[0] not in SURNAMES:
        return False
    first = word_spans(text[:8])[0][0]
    return (
        2 <= len(first) <= 3
        and word_frequency(first) < PERSON_FREQUENCY
        and not may_name_dates(first)  # "周六", "周末": a day, no 周某
    )


def drop_question_tail(text: str) -> str:
    """A statement followed by a question keeps only the statement."""
    if not re.search(r"[?？吗呢]\s*$", text):
        return text
    match = _QUESTION_TAIL.search(text)
    if match and match.start() >= 4:
        return text[: match.start()]
    return text


def reword(spoken: Spoken, day: date) -> str:
    """The item for a note line said by ``spoken.speaker`` on ``day``."""
    text = _time_first(worded(spoken))
    if not may_name_dates(text) and " ".join(text.split()) == text:
        return text  # what _resolved gives a line with no date, without the memo
    return _resolved(text, day)


def _time_first(text: str) -> str:
    """An item whose clause opens with its date without the label before it: the clause
    left its subject unsaid, so it is the speaker's ("用户：明天去看医生" is written
    "用户明天去看医生"). Only the item's words: the classifier reads the labelled form it
    learnt (:func:`worded`)."""
    head, colon, rest = text.partition("：")
    if colon and head and len(head) <= 5 and opens_with_date(rest):
        return head + rest
    return text


@lru_cache(maxsize=50_000)
@persisted("wording.resolved")
def _resolved(text: str, day: date) -> str:
    resolved, _ = resolve(text, day)
    resolved = " ".join(resolved.split())
    if support(resolved, [text]) < SUPPORT_THRESHOLD <= support(text, [text]):
        # a short line whose year now outweighs its words ("今年28岁" -> "28岁（2026年）"):
        # the year alone, "28岁（2026）", so the item still reads as its line
        bare = _YEAR_GLOSS.sub(r"（\1）", resolved)
        if support(bare, [text]) >= SUPPORT_THRESHOLD:
            return bare
    return resolved


_YEAR_GLOSS = re.compile(r"（(\d{4})年）")


@lru_cache(maxsize=50_000)
def worded(spoken: Spoken) -> str:
    """The item's wording before its dates are resolved: the same on every day, so what
    the classifier and the embeddings read (a line repeated on many days is judged and
    embedded once)."""
    said = spoken.body.strip()
    body = _unframed(without_greeting(said)) or said
    if body != said and body[:1].islower() and body[:1].isascii():
        body = body[0].upper() + body[1:]  # "hello, the user ..." -> "The user ..."
    body = drop_question_tail(body).rstrip("。.!！ ")
    zh = bool(re.search(r"[\u4e00-\u9fff]", body))
    if spoken.speaker is not None and not spoken.by_assistant:
        if spoken.by_user:
            who_zh, who_en, poss = "用户", "the user", "the user's"
        else:
            who_zh, who_en, poss = spoken.speaker, spoken.speaker, f"{spoken.speaker}'s"
        body = _request(body, who_zh if zh else who_en, zh)
        if zh:
            body = _self_named(_chinese(body, who_zh), who_zh)
            if _DATE_OWNED.match(body):  # "今年的目标是存5万": the speaker's year
                body = who_zh + body
            elif not body.startswith(who_zh) and not _OWNED.match(body):
                body = f"{who_zh}：{body}" if spoken.by_user is False else f"用户：{body}"
        else:
            body = _self_named(_english(body, who_en, poss), who_en)
            # (a line naming someone else first keeps the label: subjects are read from
            # the first name, "Mia's dentist is on Friday" would be Mia's, not the user's)
            if not body.lower().startswith(who_en.lower()):
                body = f"{who_en[0].upper()}{who_en[1:]}: {body[:1].upper()}{body[1:]}"
    return " ".join(strip_framing(body).split())


# "李娜的猫", a possession: no label needed; "今年的目标", a time's: the speaker's
_OWNED = re.compile(r"^[\u4e00-\u9fff]{2,4}的")
_DATE_OWNED = re.compile(r"^(?:今年|去年|明年|这个月|下个月|上个月|本月|这周|本周|下周|上周)的")


def _unframed(text: str) -> str:
    """``text`` without the discourse words and requests it opens with."""
    body = text.strip()
    while True:
        if _REMIND_TO.match(body):
            body = "I have to " + _REMIND_TO.sub("", body, count=1)
        head = _REQUEST_HEAD.match(body) or _DISCOURSE_HEAD.match(body)
        if head is None or not body[head.end() :].strip():
            return body
        if re.match(r"(?i)to\s", body[head.end() :]):
            return body  # "remember to answer in English": a request, not a frame
        body = body[head.end() :].strip()
        if body[:1].islower() and body[:1].isascii() and not body.startswith(("iPhone", "iPad")):
            body = body[0].upper() + body[1:]


# A request to the assistant: "请用中文回复", "别发语音", "keep it short please", "don't use
# emojis" (the words that open a sentence that is no imperative: pronouns, determiners...).
_ZH_REQUEST = re.compile(r"^(?:请(?!问)|麻烦你?|千万(?=别|不要))\s*|^(?=别|不要)")
_EN_NOT_VERB = frozenset(
    "i i'm i've i'd my me we our you your he she it its they their the a an this that these "
    "those there here what when where who why how which if so and but or no yes ok okay".split()
)
_EN_REQUEST = re.compile(
    r"(?i)^(?:please\s+|pls\s+)?(?P<neg>don'?t\s+|do not\s+|never\s+)?(?P<verb>[a-z]+)\b"
)


def _request(body: str, who: str, zh: bool) -> str:
    """A request to the assistant, worded as the speaker's wish ("用户希望用中文回复", "The
    user asks the assistant to keep it short"), unless that wording says too much its line
    does not (a short request keeps its words)."""
    if zh:
        match = _ZH_REQUEST.match(body)
        if match is None or "我" in body[: match.end() + 2]:
            return body
        wished = f"{who}希望{body[match.end() :]}"
    else:
        match = _EN_REQUEST.match(body)
        please = bool(re.search(r"(?i)\bplease\b|^pls\b", body))
        if match is None or match["verb"].lower() in _EN_NOT_VERB or not (please or match["neg"]):
            return body
        rest = re.sub(r"(?i),?\s*\bplease\b", "", body[match.start("verb") :]).strip(" ,")
        rest = rest[:1].lower() + rest[1:]
        neg = "not " if match["neg"] else ""
        asks = f"{who[0].upper()}{who[1:]} asks"
        # the full wish, else the request quoted ("The user asks: don't use emojis")
        for wished in (
            f"{asks} the assistant {neg}to {rest}",
            f"{asks}: {body[:1].lower()}{body[1:]}",
        ):
            if support(wished, [body]) >= REQUEST_SUPPORT:
                return wished
        return body
    return wished if support(wished, [body]) >= REQUEST_SUPPORT else body


REQUEST_SUPPORT = 0.7  # what the request's own words must still carry of its wording


def _self_named(text: str, who: str) -> str:
    """A speaker giving their own name says nothing more than who they are: "张伟是张伟，
    在百度做产品经理" -> "张伟在百度做产品经理", "Gus is Gus, Gus teaches maths" -> "Gus
    teaches maths"."""
    if who in ("用户", "the user"):
        return text
    zh = re.match(rf"^{re.escape(who)}(?:是|叫)\s*{re.escape(who)}[，,、\s]*(?=\S)", text)
    if zh:
        return who + text[zh.end() :]
    en = re.match(rf"^{re.escape(who)} is {re.escape(who)}(?:,\s*|\s+and\s+)(?=\S)", text)
    if en:
        rest = text[en.end() :]
        return rest if rest.startswith(who + " ") else f"{who} {rest}"
    return text


def readable(wording: str) -> str:
    """What the classifier and the embeddings read of a wording: without the speaker label
    ``worded`` puts before a group member's line that does not name its speaker
    ("张伟：香山改成周日了" reads as "香山改成周日了": a member's name says who, never
    whether it is a lasting fact). The user's label stays: the classifier learnt it."""
    spoken = split(wording)
    if spoken.speaker is None or spoken.by_user or not spoken.body.strip():
        return wording  # "用户：有点低烧": a line with no subject of its own, as trained
    return spoken.body
