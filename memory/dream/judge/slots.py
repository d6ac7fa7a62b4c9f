"""The same slot with a new value, judged by the value's type.

A statement's values are typed: a date (a plan's: :mod:`relations` judges those), a
weekday, a time or duration, a number with its unit ("105 厘米", "two sugars", "200 元").
Two statements about one subject hold the same slot when they read alike (embedding
cosine, or, without embeddings, most of their remaining words shared) and share an
anchor: a word that is neither a value nor a slot word, or a value both give ("5k").
They give a new value when, for a type both have, their values have nothing in common
("31 minutes" / "29:40", "周四" / "周六", "200 元" / "300 元"); a value the newer names as
the one it moved away from ("从周四改到周六", "from 200 to 300") is not one of its values.
"""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache

from memory.dream.judge.dates import find
from memory.dream.judge.quantities import CURRENCY, canonical, measure
from memory.dream.similarity import CHANGE
from memory.dream.text_memo import persisted
from memory.overlap import containment
from memory.search.stemming import stem
from memory.segment import STOPWORDS, content_words, has_cjk

_ANCHOR_DAY = date(2000, 1, 1)  # where a date is, not which, matters here
SLOT_COSINE = 0.85  # two statements this alike (and sharing an anchor) hold one slot
WORDS_CONTAINMENT = 0.6  # the same, judged by their words alone

_EN_NUMBER = {
    "one": "1",
    "a single": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "twice": "2",
    "once": "1",
}
_ZH_DIGIT = dict(zip("一二两三四五六七八九", (1, 2, 2, 3, 4, 5, 6, 7, 8, 9), strict=True))
# Chinese measure words a Chinese numeral counts ("两杯", "四岁半"); "一点" (a little) and
# "一起" (together) are no numbers.
_ZH_MEASURE = "|".join(
    (
        "公斤 厘米 公里 分钟 小时 岁 杯 次 个 块 元 斤 米 天 周 年级 年 "
        "本 只 位 节 瓶 片 颗 粒 顿 层 楼 套 辆"
    ).split()
)
_ZH_MEASURES = frozenset(_ZH_MEASURE.split("|"))
_ZH_NUMERAL = re.compile(
    rf"(?P<n>[一二两三四五六七八九十]{{1,3}}半?)(?P<unit>{_ZH_MEASURE})(?P<half>半)?"
)
_EN_NUMERAL = re.compile(
    r"(?i)\b(?P<n>" + "|".join(sorted(_EN_NUMBER, key=len, reverse=True)) + r")\s+(?P<unit>[a-z]+)"
)
_TIME = re.compile(
    r"(?i)\b\d{1,2}:\d{2}(?::\d{2})?\b"
    r"|\d+(?:\.\d+)?\s*(?:minutes?|mins?|hours?|hrs?|seconds?|secs?|分钟|小时|秒)"
)
# A span of the clock or of a count, one value ("open 9 to 6", "8:30-17:30", "9点到18点"):
# its two ends together, so "8 to 6" is another span than "9 to 6" though both end at 6. Not
# inside a date ("2027-02-01") or before a unit ("2 to 3 times": two numbers of a count).
_RANGE = re.compile(
    r"(?i)(?<![\d:.\-/])(?P<a>\d{1,2}(?::\d{2})?)\s*(?:am|pm)?\s*(?:to|till|until|-|–|~|到|至)\s*"
    r"(?:早上|上午|中午|下午|傍晚|晚上)?\s*(?P<b>\d{1,2}(?::\d{2})?)\s*(?:am|pm)?(?![\d:.\-/])(?!\s*%)"
    r"|(?<![\d:.\-/])(?P<za>\d{1,2}(?::\d{2})?)\s*点?\s*(?:到|至|-|~)\s*"
    r"(?:早上|上午|中午|下午|晚上)?(?P<zb>\d{1,2}(?::\d{2})?)\s*点(?![\d半])"
)
# words after a number that name no unit of it ("33 until October")
_NOT_UNITS = frozenset("until till since before after from when if but or so then now".split())
# a number with its thousands written with commas ("£6,000", "1,240") is one number
THOUSANDS = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?"
_NUMBER = re.compile(rf"(?P<n>{THOUSANDS}|\d+(?:\.\d+)?)\s*(?P<unit>[a-zA-Z]+|%|{_ZH_MEASURE})?")
_YEAR = re.compile(r"(?P<n>(?:19|20)\d{2})\s*年|(?i:\b(?:in|since|by)\s+(?P<m>(?:19|20)\d{2})\b)")
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")  # a resolved date, as items write them
_YEAR_MONTH = re.compile(
    r"(?:19|20)\d{2}\s*年\s*\d{1,2}\s*月"
    r"|(?i:\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+(?:19|20)\d{2}\b)"
)
_ZH_WEEKDAY = re.compile(r"(?:周|星期|礼拜)(?P<d>[一二三四五六日天])")
_EN_WEEKDAY = re.compile(r"(?i)\b(?P<d>mon|tues|wednes|thurs|fri|satur|sun)days?\b")
_ZH_WD = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_EN_WD = {"mon": 0, "tues": 1, "wednes": 2, "thurs": 3, "fri": 4, "satur": 5, "sun": 6}
# The value a change moves away from: "从周四改到周六", "from 200 to 300", "从 200 涨到 300".
_FROM = re.compile(
    r"从\s*[^，,。；;从]{1,12}?(?=\s*(?:改|换|调|挪|变|涨|降|升|减|增|加|到))"
    r"|(?i:\bfrom\s+[^,.;]{1,20}?(?=\s+(?:to|up to|down to)\b))"
)
# A value the statement says is not the one ("是一万六，不是一万五", "not 450, 500"): no value
# of it, as the value a change moves away from is none.
_NOT_VALUE = re.compile(
    r"(?:而?不是|并非|而非)\s*[^，,。；;、]{1,8}"
    r"|(?i:\b(?:not|instead of|rather than)\s+[£$€¥]?\d[\d,.]*\s*(?:k\b|[a-z]+)?)"
    # the value named as the one before ("旧的 5.4 出了", "the old 54cm frame"): what was
    r"|(?:旧的|原来的|之前的|以前的)\s*[^，,。；;、]{1,8}"
    r"|(?i:\b(?:the|my|his|her|their)\s+(?:old|previous|former)\s+[£$€¥]?\d[\d,.:]*\s*(?:k\b|[a-z]+)?)"
)
# A Chinese number of ten thousands, thousands or hundreds ("一万五" 15000, "两千八" 2800,
# "1.5万", "三百五" 350): one value, as its digits would be.
_ZH_BIG = re.compile(
    r"(?P<n>\d+(?:\.\d+)?|[一二两三四五六七八九十]{1,2})(?P<mag>万|千|百)"
    r"(?:(?P<rest>[一二两三四五六七八九]|\d(?![\d.]))(?P<place>千|百)?)?"
)
_MOVED = re.compile(r"(?i)改到|改成|改为|换到|调到|挪到|\bmoved\b|\bswitched\b|\bnow\b|\bfrom\b")
# Words that name a slot or a change, not what the slot is about.
_SLOT = frozenset(
    "是 有 在 现在 目前 还是 改 改到 改成 改为 换 换成 换到 变成 涨 涨到 降 降到 升 升到 减到 "
    "增加 增加到 最近 已经 了 用户 每 每个 每月 每周 每天 每人 new now currently still again "
    "is are was has have changed change moved move switched up down cut raised lowered "
    "the user user's".split()
)


@lru_cache(maxsize=50_000)
@persisted("slots.typed_values")
def typed_values(text: str) -> dict[str, frozenset[str]]:
    """The values ``text`` gives, by type (``date``, ``year``, ``weekday``, ``range``,
    ``time``, ``num:UNIT``), leaving out a value it says something moved away from. Amounts
    are read as their quantity (:mod:`quantities`: "80 kg", "160斤" and "176 lbs" are
    ``num:mass``, "175 厘米" and "1.75 米" one ``num:length`` value, a clock time on the
    12-hour dial, a duration in minutes)."""
    text = canonical(text)
    skip = [m.span() for m in _FROM.finditer(text)]
    skip += [m.span() for m in _NOT_VALUE.finditer(text)]
    taken: list[tuple[int, int]] = []
    found: dict[str, set[str]] = {}

    def add(kind: str, m: re.Match[str] | tuple[int, int], value: str) -> None:
        start, end = m.span() if isinstance(m, re.Match) else m
        if any(a <= start < b for a, b in skip) or any(a < end and start < b for a, b in taken):
            return
        taken.append((start, end))
        found.setdefault(kind, set()).add(value)

    for m in ISO_DATE.finditer(text):
        add("date", m, m.group(0))
    for m in _YEAR_MONTH.finditer(text):
        add("date", m, re.sub(r"\s+", "", m.group(0).lower()))
    for span in find(text, _ANCHOR_DAY):  # a month or a week is a date too ("2027年12月")
        add("date", (span.start, span.end), span.first.isoformat())
    for m in _RANGE.finditer(text):
        if m["a"] and _unit_after(text, m.end()):
            continue  # "2 to 3 times a week": a count of something, its numbers read below
        ends = (m["a"], m["b"]) if m["a"] else (m["za"], m["zb"])
        add("range", m, "-".join(e.removesuffix(":00") for e in ends))
    for m in _ZH_WEEKDAY.finditer(text):
        add("weekday", m, str(_ZH_WD[m["d"]]))
    for m in _EN_WEEKDAY.finditer(text):
        add("weekday", m, str(_EN_WD[m["d"].lower()]))
    for m in CURRENCY.finditer(text):
        amount = float(m["n"].replace(",", "")) * (1000 if m["k"] else 1)
        found_unit = measure("£" if m["sym"] == "£" else m["sym"].replace("￥", "元"), amount)
        if found_unit is None and m["sym"] in "¥￥":
            found_unit = measure("元", amount)
        if found_unit is not None:
            add("num:" + found_unit[0], m, found_unit[1])
    for m in _TIME.finditer(text):
        add("time", m, _duration(m.group(0)))
    for m in _YEAR.finditer(text):
        add("year", m, m["n"] or m["m"])
    for m in _ZH_BIG.finditer(text):
        after = _ZH_MEASURE_AFTER.match(text, m.end())
        add("num:" + (after.group(0).strip() if after else ""), m, _zh_big_value(m))
    for m in _ZH_NUMERAL.finditer(text):
        add(*_measured(m["unit"], _zh_value(m["n"]) + (".5" if m["half"] else ""), m))
    for m in _EN_NUMERAL.finditer(text):
        add("num:" + stem(m["unit"].lower()), m, _EN_NUMBER[m["n"].lower()])
    for m in _NUMBER.finditer(text):
        unit = (m["unit"] or "").lower()
        if unit in STOPWORDS or unit in _NOT_UNITS:
            unit = ""  # "33 until", "34 and": a word after the number, no unit of it
        unit = stem(unit) if unit.isascii() and not measure(unit, 1) else unit
        add(*_measured(unit, m["n"].replace(",", ""), m))
    return {kind: frozenset(values) for kind, values in found.items()}


def _measured(unit: str, value: str, m: re.Match[str]) -> tuple[str, re.Match[str], str]:
    """A number's kind and value: its quantity when its unit measures one ("斤" ->
    ``num:mass``), else the unit as written."""
    found = measure(unit, float(value)) if unit else None
    return ("num:" + found[0], m, found[1]) if found else ("num:" + unit, m, value)


_MINUTES = {"h": 60.0, "hr": 60.0, "hour": 60.0, "小时": 60.0, "sec": 1 / 60, "second": 1 / 60}
_MINUTES["秒"] = 1 / 60
_SPLIT_DURATION = re.compile(r"(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>[a-z]+|[^\x00-\x7f]+)")


_CLOCK = re.compile(r"(\d{1,2}):(\d{2})")


def _duration(text: str) -> str:
    """A clock time as written ("8:30"), a duration in minutes ("1.5小时" -> "90min")."""
    plain = re.sub(r"\s+", "", text.lower())
    clock = _CLOCK.fullmatch(plain)
    if clock:  # on the 12-hour dial, as :func:`quantities.canonical` writes them
        return f"{(int(clock[1]) - 1) % 12 + 1}:{clock[2]}"
    m = _SPLIT_DURATION.fullmatch(plain)
    if m is None:
        return plain
    unit = m["unit"].rstrip("s") if m["unit"].isascii() else m["unit"]
    factor = _MINUTES.get(unit, 1.0)
    if unit not in _MINUTES and unit not in ("min", "minute", "分钟"):
        return plain
    return f"{float(m['n']) * factor:g}min"


_ZH_MEASURE_AFTER = re.compile(rf"\s*(?:{_ZH_MEASURE})")
_WORD_AFTER = re.compile(r"\s*([A-Za-z]+)")


def _unit_after(text: str, end: int) -> bool:
    """Whether a word naming a unit follows ``end`` ("times", "km"; not "at", "now")."""
    m = _WORD_AFTER.match(text, end)
    if m is None:
        return False
    word = m[1].lower()
    return word not in STOPWORDS and word not in _NOT_UNITS


def _zh_big_value(m: re.Match[str]) -> str:
    """The number a Chinese ten-thousands, thousands or hundreds value writes ("一万五" ->
    15000)."""
    n, mag, rest = m["n"], m["mag"], m["rest"]
    scale = {"万": 10_000, "千": 1_000}.get(mag, 100)
    head = float(n) if n[0].isdigit() else float(_zh_value(n))
    tail = 0.0
    if rest:
        digit = int(rest) if rest.isdigit() else _ZH_DIGIT[rest]
        # the next place down, named or not: 一万五(千) is 15000, 两千八(百) 2800
        tail = digit * scale / 10
    value = head * scale + tail
    return str(int(value)) if value.is_integer() else str(value)


def _zh_value(numeral: str) -> str:
    half = numeral.endswith("半")
    numeral = numeral.rstrip("半")
    if "十" in numeral:
        tens, _, ones = numeral.partition("十")
        value = _ZH_DIGIT.get(tens, 1) * 10 + _ZH_DIGIT.get(ones, 0)
    else:
        value = _ZH_DIGIT.get(numeral, 0)
    return str(value) + (".5" if half else "")


@lru_cache(maxsize=50_000)
def anchors(text: str) -> frozenset[str]:
    """What a statement is about beyond its values and slot words (English by stem)."""
    text = canonical(text)
    plain = _NUMBER.sub(" ", _TIME.sub(" ", ISO_DATE.sub(" ", _ZH_BIG.sub(" ", text))))
    plain = _ZH_WEEKDAY.sub(" ", _EN_WEEKDAY.sub(" ", _ZH_NUMERAL.sub(" ", plain)))
    plain = _EN_NUMERAL.sub(lambda m: " " + m["unit"], plain)
    words = {stem(w) for w in content_words(plain)}
    # a single Chinese character ("去", "带", "考") is a verb any two statements may share
    return frozenset(
        w for w in words if w not in _SLOT and not w[:1].isdigit() and (w.isascii() or len(w) > 1)
    )


def changes_value(newer: str, older: str, who: frozenset[str] = frozenset()) -> bool:
    """``newer`` gives another value of a type ``older`` has, and the two share an anchor
    (a word or a value): the test that places a change, not that two statements hold one
    slot (:func:`new_value`)."""
    if bool(GOAL.search(newer)) != bool(GOAL.search(older)):
        return False  # a value aimed for and a value held are two slots
    new, old = typed_values(newer), typed_values(older)
    common = (set(new) & set(old)) - {"date"}  # a plan's new date: relations' own rule
    changed = {k for k in common if not new[k] & old[k]}
    if not changed:
        return False  # no type in common, or the old value said again
    if changed == {"weekday"} and not (CHANGE.search(newer) or _MOVED.search(newer)):
        return False  # "every Monday" and "every Sunday" may both hold: a move says so
    if two_things(newer, older, who):
        return False  # "语文成绩 78 分" beside "数学成绩 85 分": two things measured
    shared_values = any(new[k] & old[k] for k in common)
    return shared_values or bool((anchors(newer) & anchors(older)) - who)


# A statement that tells its value as news: now, again, changed, risen or fallen
# ("现在 72 公斤了", "down to 74 kilos", "重新量了", "成绩提高了", "turned 8"): two
# statements naming different things of one kind may still be one slot then
# (:func:`two_things`).
NEWS = re.compile(
    r"(?i)\b(?:now|currently|these days|nowadays|anymore|new|newly|again|up|down|raised|"
    r"upped|bumped|cut|reduced|lowered|doubled|halved|increased|decreased|dropped|rose|went|"
    r"gone|got|turned|moved|changed|switched|lost|gained|put on|actually|correction)\b"
    r"|现在|目前|如今|最近|已经|这次|又|新|重新|涨|降|升|减|瘦|胖|长高|长到|提高|增加|变|改|换|"
    r"纠正|更正|其实|不是|到了|满|了$|了[，,。！!]|原来|之前|以前的|"
    r"(?i:\b(?:the|my|our) (?:old|previous|former)\b)"
)


def same_amounts(newer: str, older: str) -> bool:
    """Whether the two give values of the same types and share one of each ("1.75 米" /
    "175 厘米", "80 kg" / "一百六十斤"): however the numbers are written, no new value."""
    new, old = typed_values(newer), typed_values(older)
    return bool(new) and set(new) == set(old) and all(new[k] & old[k] for k in new)


def two_things(newer: str, older: str, who: frozenset[str] = frozenset()) -> bool:
    """Whether the two statements measure two things of one kind: a number of each has the
    same word right before it and another word beside that ("数学成绩 85" / "语文成绩 78",
    "takes 20 mg of atorvastatin" / "take 5 mg of amlodipine", "starts work at 9" /
    "finish work at 5:30"), a word the other statement never writes, and the newer tells
    its value as no news (:data:`NEWS`): one head, two siblings, both hold side by side.
    A different word right before the number ("scale says 77 kg" / "weighs 80 kg", "英语期中
    考了 91" / "英语成绩 85") is the same thing reworded as often as another thing, and is not
    read as two."""
    if NEWS.search(newer):
        return False
    new_plain, old_plain = canonical(newer).lower(), canonical(older).lower()
    for mine in frames(newer):
        for theirs in frames(older):
            head = mine.get(-1)
            if head is None or head != theirs.get(-1) or head in who:
                continue
            for at in (-2, 1):
                a, b = mine.get(at), theirs.get(at)
                if a and b and a != b and a not in old_plain and b not in new_plain:
                    return True
    return False


_CLAUSES = re.compile(r"[，,;；。!！?？:：]")
_DIGIT_WORD = re.compile(r"\d")
# Words beside a number that name how often, how nearly or in what unit, not what it counts.
_BESIDE_NUMBER = frozenset(
    "一个月 个月 一年 一周 一天 每小时 about around roughly nearly almost approx only just "
    "大概 大约 左右 差不多 将近 只有 只 才 就 要 是 有 到 at of for to on in "
    # units of no quantity :mod:`quantities` converts, and the words that report a line
    "mg mcg ml iu pm am said says told mentioned 说 提到 表示".split()
)
_PERIODS = frozenset(
    "每 每个 每月 每周 每天 每年 每晚 每次 月 年 周 天 晚 次 个 per every each a an month "
    "months week weeks day days year years night nights time times hour hours daily weekly "
    "monthly yearly".split()
)


@lru_cache(maxsize=50_000)
def frames(text: str) -> tuple[dict[int, str], ...]:
    """For each number of ``text``, the words around it in its clause that may name what it
    measures (no unit, period, slot or reporting word): two before (``-2``, ``-1``) and one
    after (``1``), as written (English by stem)."""
    out: list[dict[int, str]] = []
    for clause in _CLAUSES.split(canonical(text)):
        words = [w.lower() for w in content_words(clause) if _DIGIT_WORD.search(w) or _names(w)]
        for i, word in enumerate(words):
            if not _DIGIT_WORD.search(word) or (i and _DIGIT_WORD.search(words[i - 1])):
                continue  # one number written in pieces ("1,700") is framed once
            frame: dict[int, str] = {}
            for at in (-2, -1, 1):
                j = i + at
                if 0 <= j < len(words) and not _DIGIT_WORD.search(words[j]):
                    frame[at] = stem(words[j]) if words[j].isascii() else words[j]
            out.append(frame)
    return tuple(out)


def _names(word: str) -> bool:
    """Whether ``word`` may name what a number measures (no unit, period or slot word)."""
    low = word.lower()
    if low in _BESIDE_NUMBER or low in _PERIODS or low in _SLOT or low in STOPWORDS:
        return False
    return len(low) > 1 and not measure(low, 1) and low not in _ZH_MEASURES


# A value one wants, hopes, aims or saves for, no value one has ("目标是减到 72 公斤",
# "打算存 8 万").
GOAL = re.compile(
    r"(?i)\b(?:wants? to|would like to|hopes? to|hoping to|aims? to|aiming to|trying to|"
    r"plans? to|planning to|saving (?:up )?for|goal|target)\b|"
    r"目标|想要|想把|想减到|想瘦到|希望|争取|"
    r"打算|计划|攒钱"
)


def new_value(
    newer: str, older: str, cosine: float | None, who: frozenset[str] = frozenset()
) -> bool:
    """Whether ``newer`` gives another value of a slot ``older`` gave (same subject: the
    caller's test). ``who`` are the subject's own words, no anchor of a slot."""
    if not changes_value(newer, older, who):
        return False  # 身高 105 厘米 / 体重 70 公斤: two slots
    if cosine is not None:
        return cosine >= SLOT_COSINE
    if has_cjk(newer) != has_cjk(older):
        return False
    return containment(anchors(newer) - who, anchors(older) - who) >= WORDS_CONTAINMENT


# A change said with the value it changes to ("改吃缬沙坦", "换成建设银行的卡"): the words
# after the marker, to the end of their clause, are the new value.
_CHANGED_TO = re.compile(
    r"改吃|改喝|改用|改服|改成|改为|换成|换到|换了|转到|调到|调去|调回|跳槽到|跳槽去"
)
_CLAUSE_END = re.compile(r"[，,。；;！!？?\s]")
_NAMED = re.compile(r"^[\u4e00-\u9fff]{3,}$")  # a name and its kind: 缬沙坦, 建设银行


def sibling_changed(newer: str, older: str) -> bool:
    """Whether ``newer`` says it changed to a named thing of the kind ``older`` names another
    of: Chinese compounds end with their kind ("改吃缬沙坦" after "吃一粒厄贝沙坦": both 沙坦;
    建设银行 after 招商银行), so the new one replaces the old. The new name has three
    characters or more and is not written in ``older``; the old one has two or more before
    the kind, other than the new one's (the caller checks the subject, the order and that
    ``newer`` is no plan)."""
    for match in _CHANGED_TO.finditer(newer):
        clause = _CLAUSE_END.split(newer[match.end() :], maxsplit=1)[0]
        for word in content_words(clause):
            if _NAMED.match(word) and word not in older and _another_of(word, older):
                return True
    return False


def _another_of(name: str, text: str) -> bool:
    """Whether ``text`` names another thing of ``name``'s kind (its last two characters,
    after two or more Chinese characters that are not ``name``'s own)."""
    kind, own = name[-2:], name[:-2]
    for found in re.finditer(re.escape(kind), text):
        before = re.search(r"[\u4e00-\u9fff]{2}$", text[: found.start()])
        if before and not before.group(0).endswith(own[-2:]):
            return True
    return False


def without_not_values(text: str) -> str:
    """``text`` with the values it says are not (or no longer) the one blanked out
    ("旧的 5.4 出给老钱了", "not £450")."""
    return _NOT_VALUE.sub(lambda m: " " * len(m.group(0)), text)


__all__ = [
    "GOAL",
    "NEWS",
    "anchors",
    "changes_value",
    "frames",
    "new_value",
    "same_amounts",
    "sibling_changed",
    "two_things",
    "typed_values",
    "without_not_values",
]
