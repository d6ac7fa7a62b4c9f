"""Pure text judgements for the extractive dream: near-duplicates, contradictions, kinds.

Everything here is deterministic and offline, for Chinese and English alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

from memory.dream.text_memo import persisted
from memory.overlap import containment, jaccard
from memory.segment import content_words

_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")

NEGATION = re.compile(
    r"(?i)(不|没|别|未|非|无|\bnot\b|\bno\b|\bnever\b|n't\b|\bnone\b|\bwithout\b)"
)
CHANGE = re.compile(
    r"(?i)(改(?:喝|吃|用|成|为|去|到|了)|换成|换了|换到|不再|已经不|再也不|戒了|戒掉|搬到|搬去|搬回|"
    r"搬家|现在(?:改|换|开始|只|更|喜欢|住|在)|如今|开始(?:喝|吃|用)|转而|跳槽|离职|分手|"
    r"\bno longer\b|\bnot any ?more\b|\banymore\b|\bswitched\b|\bswitching\b|\bchanged\b|"
    r"\bnow (?:prefers?|likes?|lives?|works?|uses?|drinks?|eats?)\b|\bmoved\b|\bquit\b|"
    r"\bstopped\b|\binstead\b|\bthese days\b|\bnowadays\b|\bused to\b)"
)
EXCLUSIVE = re.compile(
    r"(?i)(最喜欢|最爱|最常|住在|家在|在.{1,12}(?:工作|上班)|就职|名字是|叫做|生日是|电话是|"
    r"邮箱是|\bfavou?rite\b|\blives in\b|\bworks (?:at|for)\b|\bname is\b|\bbirthday is\b|"
    r"\bprefers?\b|\bis allergic\b)"
)

# Topic families: two statements about the same family can contradict each other.
FAMILIES: dict[str, list[str]] = {
    "drink": (
        "咖啡 拿铁 美式 摩卡 卡布奇诺 浓缩 茶 奶茶 绿茶 红茶 乌龙 可乐 果汁 啤酒 酒 喝 饮料 "
        "coffee latte americano espresso mocha cappuccino tea milk juice beer wine drink drinks"
    ).split(),
    "food": "吃 菜 素食 吃素 辣 甜 海鲜 饭 面 eat eats food vegetarian vegan spicy sweet".split(),
    # "家在", not "家": "周妈妈家的孩子" is a household, not where one lives
    "home": (
        "住 住在 搬 搬家 搬到 搬回 家在 老家 小区 公寓 live lives living moved move apartment"
    ).split(),
    "work": (
        "工作 上班 公司 职位 跳槽 入职 离职 老板 job work works working employer company "
        "office position boss"
    ).split(),
    "pet": "猫 狗 宠物 cat dog pet puppy kitten".split(),
    "style": (
        "回答 回复 简短 详细 中文 英文 语气 answer answers reply replies short concise detailed "
        "language tone"
    ).split(),
    "sleep": "起床 睡觉 作息 早起 熬夜 wake sleep bedtime".split(),
    "sport": "跑步 游泳 健身 瑜伽 篮球 足球 run running swim swimming gym yoga".split(),
    "transport": "开车 地铁 公交 骑车 drive driving car subway bus bike".split(),
    "phone": "手机 电话 号码 phone number iphone android".split(),
}
_FAMILY_OF = {word: name for name, words in FAMILIES.items() for word in words}
# Chinese family words of two or more characters, found inside the text (jieba may cut
# "改喝拿铁" so that 拿铁 is no word of its own).
_CJK_FAMILY_WORDS = tuple(w for w in _FAMILY_OF if not w.isascii() and len(w) > 1)

KIND_PATTERNS: dict[str, re.Pattern[str]] = {
    "preference": re.compile(
        r"(?i)(喜欢|偏好|爱喝|爱吃|讨厌|不喜欢|最爱|习惯|希望|倾向|口味|不要|别再|改喝|改吃|不喝|不吃|\blikes?\b|"
        r"\bloves?\b|\bprefers?\b|\bpreference\b|\bhates?\b|\bdislikes?\b|\bfavou?rite\b|"
        r"\benjoys?\b|\bwants?\b|\brather\b|\bkeep (?:answers|replies)\b)"
    ),
    "decision": re.compile(
        r"(?i)(决定|计划|打算|准备|安排|约定|定了|下周|明天|下个月|要去|将要|截止|deadline|"
        r"\bdecided\b|\bplans?\b|\bplanning\b|\bwill\b|\bgoing to\b|\bscheduled\b|\bagreed\b|"
        r"\bnext (?:week|month|year)\b|\btomorrow\b)"
    ),
    "person": re.compile(
        r"(?i)(妻子|老婆|丈夫|老公|儿子|女儿|孩子|父亲|母亲|爸爸|妈妈|同事|朋友|老板|名字|生日|"
        r"\bwife\b|\bhusband\b|\bson\b|\bdaughter\b|\bkids?\b|\bfather\b|\bmother\b|\bmom\b|"
        r"\bdad\b|\bcolleague\b|\bfriend\b|\bboss\b|\bnamed\b|\bbirthday\b|\bpartner\b)"
    ),
    "lesson": re.compile(
        r"(?i)(教训|记住|注意|以后|下次|避免|千万|经验|学到|\blesson\b|\bremember\b|\bavoid\b|"
        r"\bnext time\b|\blearned\b|\bmistake\b|\bnever again\b|\bmake sure\b)"
    ),
    "fact": re.compile(
        r"(?i)(住在|工作|过敏|职业|地址|邮箱|电话|养了|毕业|出生|\blives\b|\bworks\b|"
        r"\ballergic\b|\baddress\b|\bemail\b|\bborn\b|\bgraduated\b|\bhas a\b|\bowns\b)"
    ),
}
KIND_WEIGHT = {
    "preference": 3.0,
    "person": 2.6,
    "decision": 2.4,
    "lesson": 2.4,
    "fact": 2.2,
    "other": 1.0,
}
KIND_ORDER = ("preference", "person", "decision", "lesson", "fact", "other")


@dataclass(frozen=True)
class Features:
    """What the dream needs to know of one statement, computed once (what only a
    supersession test asks, when first asked)."""

    text: str
    words: frozenset[str]
    grams: frozenset[str]
    change: bool
    families: frozenset[str]

    @cached_property
    def negated(self) -> bool:
        return bool(NEGATION.search(self.text))

    @cached_property
    def exclusive(self) -> bool:
        return bool(EXCLUSIVE.search(self.text))

    @cached_property
    def kind(self) -> str:
        return next((k for k in KIND_ORDER[:-1] if KIND_PATTERNS[k].search(self.text)), "other")


def cjk_bigrams(text: str, singles: bool = True) -> set[str]:
    """The character pairs of each run of Chinese characters (a one-character run as
    itself, unless ``singles`` is off)."""
    grams: set[str] = set()
    for run in _CJK_RUN.findall(text):
        if singles and len(run) == 1:
            grams.add(run)
        grams.update(run[i : i + 2] for i in range(len(run) - 1))
    return grams


# Discourse words frame a statement without changing what it says.
DISCOURSE = frozenset(
    "remember actually update btw also just really please reminder fyi "
    "记住 别忘了 其实 另外 顺便 更新 提醒 还有 也".split()
)


# A date moved ("cardiology is moved to 15 December", "moved the pitch to Tuesday"): a plan
# rescheduled, nobody's home. Its "moved" names no topic.
_RESCHEDULED = re.compile(
    r"(?i)\b(?:moved|moves|moving|move)\b(?:\s+[\w&'-]+){0,3}?\s+(?:to|until|till)\s+"
    r"(?:\d|(?:next\s+)?(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|the\s+\d)"
)
_MOTION = frozenset("move moved moves moving".split())


@lru_cache(maxsize=100_000)
@persisted("similarity.features", Features)
def features(text: str) -> Features:
    words = frozenset(content_words(text)) - DISCOURSE
    topical = words - _MOTION if _RESCHEDULED.search(text) else words
    families = frozenset(_FAMILY_OF[w] for w in topical if w in _FAMILY_OF)
    families |= frozenset(_FAMILY_OF[w] for w in _CJK_FAMILY_WORDS if w in text)
    return Features(
        text=text,
        words=words,
        grams=frozenset(cjk_bigrams(text)) | frozenset(w for w in words if w.isascii()),
        change=bool(CHANGE.search(text)),
        families=families,
    )


DUPLICATE_THRESHOLD = 0.85


def near_duplicate(a: str, b: str) -> bool:
    """Same statement, maybe worded a little differently or with more detail.

    One statement's words (or, for Chinese, character pairs) must lie almost wholly inside
    the other's, and both must agree on negation.
    """
    if a == b:
        return True
    fa, fb = features(a), features(b)
    if fa.change != fb.change:
        return False
    if min(len(fa.words), len(fb.words)) < 2 and min(len(fa.grams), len(fb.grams)) < 3:
        return False
    score = max(containment(fa.words, fb.words), containment(fa.grams, fb.grams))
    if score < DUPLICATE_THRESHOLD:
        return False
    # One side may add some detail, not most of its content ("用户住在上海" is not
    # "用户下周五要去上海出差，住在南山区")...
    if 2 * min(len(fa.words), len(fb.words)) < max(len(fa.words), len(fb.words)):
        return False
    # ...and when each has a word the other lacks, one thing was swapped for another
    # ("take up birding" / "take up sourdough baking"): not the same statement.
    only_a = fa.words - fb.words
    only_b = fb.words - fa.words
    if only_a and only_b and jaccard(fa.words, fb.words) < DUPLICATE_THRESHOLD:
        return False
    return not negation_conflict(a, b)  # the costliest test last


_NEGATED_SPAN = re.compile(
    r"(?i)(?:不|没有?|别|未|非|无)(?P<cjk>[\u4e00-\u9fff]{1,2})"
    r"|\b(?:not|never|no|don'?t|doesn'?t|didn'?t|isn'?t|won'?t)\s+(?P<word>[a-z]+)"
)


@lru_cache(maxsize=100_000)
def negated_terms(text: str) -> frozenset[str]:
    """What a negation in ``text`` applies to: "不喜欢" -> 喜欢, "doesn't like" -> like."""
    out = set()
    for match in _NEGATED_SPAN.finditer(text):
        term = match.group("cjk") or match.group("word") or ""
        out.add(term.lower())
    return frozenset(out)


def negation_conflict(a: str, b: str) -> bool:
    """One statement negates something the other affirms ("不喜欢X" vs "喜欢X").

    A negation of extra detail ("喜欢美式咖啡，不加糖" vs "喜欢美式咖啡") is no conflict, nor
    is the same negation worded otherwise ("不加糖" / "不要加糖", "doesn't eat" / "never
    eats"): the other must say the term where no negation stands just before it.
    """
    for text, other in ((a, b), (b, a)):
        lowered = other.lower()
        for term in negated_terms(text):
            if term in negated_terms(other):
                continue
            if term and _affirms(lowered, term):
                return True
    return False


# A negation just before a term ("不要加糖", "doesn't really eat"): the term is not affirmed.
_NEGATED_BEFORE_CJK = re.compile(r"[不没别未非无]")
_NEGATED_BEFORE_EN = re.compile(r"(?i)(?:\bnot|\bnever|\bno|n't)(?:\s+\w+)?\s*$")


def _affirms(lowered: str, term: str) -> bool:
    """Whether ``lowered`` says ``term`` somewhere with no negation just before it."""
    if term.isascii():
        starts = [m.start() for m in _whole_word(term).finditer(lowered)]
    else:
        starts = [m.start() for m in re.finditer(re.escape(term), lowered)]
    for start in starts:
        if term.isascii():
            if not _NEGATED_BEFORE_EN.search(lowered[max(0, start - 24) : start]):
                return True
        elif not _NEGATED_BEFORE_CJK.search(lowered[max(0, start - 2) : start]):
            return True
    return False


def supersedes(newer: str, older: str) -> bool:
    """Whether ``newer`` replaces ``older``: the same thing, stated differently later.

    Either both speak of the same topic family and the newer one marks a change ("改喝",
    "switched to", "no longer") or both state an exclusive fact (a favourite, where one
    lives or works); or the newer one negates or changes a statement sharing most words.
    """
    fn, fo = features(newer), features(older)
    if near_duplicate(newer, older):
        return False
    shared_family = bool(fn.families & fo.families)
    # A plan or a trip ("下周去上海出差，住在南山区") does not replace where one lives.
    both_exclusive = fn.exclusive and fo.exclusive and fn.kind != "decision"
    # Nor does a move cancel a planned trip: a plan is replaced only by another plan.
    plan_by_fact = fo.kind == "decision" and fn.kind != "decision"
    if shared_family and not plan_by_fact and (fn.change or both_exclusive):
        values = topic_values(older)
        return not values or not values <= affirmed_values(newer)
    if fn.change or fn.negated != fo.negated:
        core_new = fn.words - _marker_words(newer)
        return jaccard(core_new, fo.words) >= 0.5 and (fn.change or fn.negated)
    return False


_VERBS = frozenset(
    "喝 吃 住 搬 搬家 搬到 搬回 住在 drink drinks eat eats live lives living move moved work works "
    "working 工作 上班 run running swim swimming".split()
)
# Category heads name the topic, not a value: 美式咖啡 and 拿铁咖啡 differ, 咖啡 does not.
_HEADS = frozenset("咖啡 coffee 饮料 酒 菜 饭 宠物 pet 手机 phone 公司 company 家 茶 tea".split())


def topic_values(text: str) -> frozenset[str]:
    """The topic words (not verbs) a statement mentions: 拿铁, Berlin's family words..."""
    lowered = text.lower()
    found = {w for w in _FAMILY_OF if w not in _VERBS | _HEADS and _mentions(lowered, w)}
    return frozenset(found)


def affirmed_values(text: str) -> frozenset[str]:
    """Topic words of ``text`` not directly negated ("不喝拿铁" does not affirm 拿铁)."""
    lowered = text.lower()
    out = set()
    for word in topic_values(text):
        for match in re.finditer(re.escape(word), lowered):
            before = lowered[max(0, match.start() - 4) : match.start()]
            if not NEGATION.search(before):
                out.add(word)
                break
    return frozenset(out)


def _mentions(lowered: str, word: str) -> bool:
    if word.isascii():
        return word in lowered and _whole_word(word).search(lowered) is not None
    return word in lowered


@lru_cache(maxsize=4096)
def _whole_word(word: str) -> re.Pattern[str]:
    return re.compile(rf"\b{re.escape(word)}\b")


def _marker_words(text: str) -> frozenset[str]:
    markers: set[str] = set()
    for pattern in (CHANGE, NEGATION):
        for match in pattern.finditer(text):
            markers.update(content_words(match.group(0)))
    return frozenset(markers)
