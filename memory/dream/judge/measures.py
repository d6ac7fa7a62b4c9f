"""The numbers step: whether a newer statement gives a new number of a thing an older measures.

A number is read with the words beside it in its clause (``slot_numbers``: "体重 78 公斤" ->
体重, 公斤: {78}). ``new_number`` accepts a new number beside a word both statements give
("体重80公斤" / "体重78公斤") unless something tells two measured things apart: a number of
another relative (``relatives_apart``), of another thing with words of its own
(``numbers_apart``), of a month or year gone by (``of_then``), an aim beside a value held,
a difference ("比我大三岁"), an animal's age, another span of time or distance timed, or two
amounts of money sharing no word (``nothing_shared``). ``body_reading`` reads one's weight
or height anew, however the line is classified. :func:`relations.replaces` calls the step.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import TYPE_CHECKING

from memory.dream.judge.core_words import core_words, undated
from memory.dream.judge.kin import REL_STEM, kin_named, others_named, relations_named
from memory.dream.judge.quantities import canonical, is_unit, one_unit
from memory.dream.judge.slots import (
    GOAL,
    NEWS,
    THOUSANDS,
    same_amounts,
    two_things,
    typed_values,
    without_not_values,
)
from memory.dream.judge.slots import _names as may_name
from memory.dream.judge.told_change import NOW, SLOT_WORDS, clear_change, tells_change
from memory.search.stemming import stem
from memory.segment import STOPWORDS, has_cjk, tokens

if TYPE_CHECKING:
    from memory.dream.judge.relations import Said


# a number, its thousands written with commas or not
NUMBER = re.compile(rf"{THOUSANDS}|\d+(?:[.:]\d+)?")


_SCHOOL_YEAR = re.compile(r"\d+\s*年级")
_CLAUSE = re.compile(r"[，,;；。!！?？]")


@lru_cache(maxsize=50_000)
def slot_numbers(text: str) -> dict[str, frozenset[str]]:
    """Numbers keyed by the words next to them ("体重 78 公斤" -> 体重, 公斤: {78}), read in
    digits and one unit word a quantity (:func:`quantities.one_unit`: "体重一百五十斤" ->
    体重, 公斤: {75}; "月薪15k" -> 月薪: {15000})."""
    plain = NUMBER.sub(lambda m: m.group(0).replace(",", ""), undated(without_not_values(text)))
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
        numbers = NUMBER.findall(word)
        if not numbers:
            continue
        for near, where in words[max(0, i - 3) : i] + words[i + 1 : i + 3]:
            if where != at and alone[at] > 1:
                continue
            if not NUMBER.search(near) and near not in NOT_MEASURED:
                found.setdefault(near, set()).update(numbers)
    return {word: frozenset(numbers) for word, numbers in found.items()}


# Words beside a number that name no measured thing: whose it is, when or how nearly it
# holds, what it runs until, the light verb before it ("81 kg now" and "day rate is now
# £520" share "now"; "takes sertraline 50 mg" and "also takes levothyroxine 75 mcg" share
# "takes"; "10 til 4" and "5 til 11" share "til"). A closed class, as the stopwords are.
NOT_MEASURED = frozenset(
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


def new_number(newer: Said, older: Said, who: frozenset[str]) -> bool:
    """Whether ``newer`` gives a new number of a thing ``older`` measures (``who``: the words
    naming whose statements they are): a word beside a number in both ("体重 80 公斤" / "体重
    78 公斤"), the numbers beside it all new, in one language, of one kind of statement or
    of one's body (:data:`_BODY_UNITS`), and nothing telling two measured things apart: an
    aim beside a value held, a difference or an animal's number, two spans of time, two
    distances timed, two things or the same amounts (:func:`slots.two_things`,
    :func:`slots.same_amounts`), two things' words beside the numbers
    (:func:`_measures_apart`)."""
    new_nums, old_nums = slot_numbers(newer.text), slot_numbers(older.text)
    same_language = has_cjk(newer.text) == has_cjk(older.text)
    # one's weight or height is one measured thing whatever the classifier calls each line
    # ("体重150斤", a fact; "今天称了一下，72公斤了", an event)
    body = bool(set(new_nums) & set(old_nums) & _BODY_UNITS)
    if not (same_language and (newer.kind == older.kind or body)):
        return False
    # a number beside whose it is ("Mum's 2pm" / "Mum's 10mg") measures nothing of them;
    # a one-digit count both say is what the values are of ("5公里跑了28分钟" / "5公里
    # 跑了26分钟"); a longer number both say still holds the pair apart, as before
    # one-digit numbers were read at all
    said = {n for n in _all(new_nums) & _all(old_nums) if len(n) == 1}
    shared = {w for w in set(new_nums) & set(old_nums) if new_nums[w] - said} - _PERIOD - who
    return (
        bool(shared)
        and not _aim_beside_held(newer.text, older.text)
        and not _not_its_value(newer.text, older.text)
        and all(not (new_nums[w] - said) & old_nums[w] for w in shared)
        and not _scopes_differ(newer.text, older.text)
        and not other_distance(newer.text, older.text)
        and not two_things(newer.text, older.text, who)
        and not same_amounts(newer.text, older.text)
        and not _measures_apart(newer.text, older.text, new_nums, old_nums, who)
    )


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
    held = goal is not None and bool(NUMBER.search(older[: goal.start()]))
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


def nothing_shared(newer: str, older: str, who: frozenset[str]) -> bool:
    """Whether two amounts of money measure two things (:func:`_measures_apart`: "rent is
    1200 pounds a month" / "salary is 3000 pounds a month") and the two statements share no
    word beyond whose they are, the units and the periods: nothing names one thing both
    measure ("英语成绩是85分" / "英语期中考了91分" share 英语, one subject's score)."""
    if not (_money(newer) and _money(older)):
        return False  # a weight, a distance reworded ("scale says 77 kg"): one thing
    new_nums, old_nums = slot_numbers(newer), slot_numbers(older)
    if not _measures_apart(newer, older, new_nums, old_nums, who):
        return False
    skip = NOT_MEASURED | _PERIOD | _MONEY | who | {w.lower() for w in who} | SLOT_WORDS
    shared = (core_words(newer) & core_words(older)) | (set(new_nums) & set(old_nums))
    return not any(w not in skip and not _DIGIT.search(w) and may_name(w) for w in shared)


def of_another_relative(newer: Said, older: Said, who: frozenset[str]) -> bool:
    """Whether the newer's value is another relative's, beside the older's: the newer names
    a relative the older does not ("Tom is 8" / "Tom's sister Amy is 5") and says no change,
    or each names a relative the other's could not be, change or not (:func:`relatives_apart`,
    the stricter test, numbers only). Asked of any new value, in words or in numbers."""
    text = newer.text
    if relatives_apart(text, older.text, who):
        return True
    if NEWS.search(text) or clear_change(text):
        return False
    return bool(relations_named(text, who) - relations_named(older.text, who))


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


def relatives_apart(newer: str, older: str, who: frozenset[str]) -> bool:
    """Whether both statements give a number (an age, a measure), both name relatives, and
    none the newer names could be one the older names ("用户的妈妈今年65岁" / "用户的爸爸今年
    68岁", "the user's son is 7" / "the user's daughter is now 4"): two people's values,
    never one slot, whatever change is told. Values told in words (a home, a job) are left
    to the rest of the judgement: one person has many names ("Mum" / "the kids' grandma")."""
    if not (_DIGIT.search(newer) and _DIGIT.search(older)):
        return False
    mine, theirs = kin_named(newer, who), kin_named(older, who)
    return bool(mine and theirs) and not any(_may_be(a, b) for a in mine for b in theirs)


# The units of one's own weight, height and age: a number in one of them, of a subject, is
# its body's, however it is told ("体重75公斤" / "称了一下72公斤", "weighs 80 kg" / "the
# scale says 77 kg now"); money, hours, floors and kilometres measure many things.
_BODY_UNITS = frozenset("公斤 kg 厘米 cm 岁 周岁 stone".split())


def body_reading(newer: str, older: str) -> bool:
    """Whether ``newer`` reads one's weight or height anew (a number beside a unit of
    :data:`_BODY_UNITS` both give, another one, no goal): "今天称了一下，72公斤了" after
    "体重150斤" is the weight from that day, however the classifier calls the line."""
    new_nums, old_nums = slot_numbers(newer), slot_numbers(older)
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
    skip = NOT_MEASURED | _PERIOD | who | {w.lower() for w in who}
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
    if relations_named(newer, who) - relations_named(older, who) or others_named(
        newer
    ) - others_named(older):
        return True  # "老婆身高165" / "身高180"; "邻居养了三只猫" / "养了两只猫"
    if not shared:
        return False
    pairs = {(a, b) for w in shared for a in new_nums[w] for b in old_nums[w]}
    return _numbers_apart(newer, older, new_nums, old_nums, skip | shared, pairs)


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
    if not NOW.search(newer) or tells_change(newer):
        return False
    new_nums, old_nums = slot_numbers(newer), slot_numbers(older)
    # the words beside numbers of both (a unit, "元", "kg") say nothing of what each measures
    skip = NOT_MEASURED | _PERIOD | who | {w.lower() for w in who} | (set(new_nums) & set(old_nums))
    if kin_named(newer, who) and kin_named(older, who):
        # both name relatives that may be one person (:func:`relatives_apart` said so):
        # "老婆" / "女朋友" say whose, not what is measured
        skip |= {w for w in {*new_nums, *old_nums} if stem(w.lower()) in REL_STEM}
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


def other_distance(newer: str, older: str) -> bool:
    """Both time a distance, and not the same one (in words too: "五公里" / "十公里")."""
    newer, older = canonical(newer), canonical(older)
    if not (_DURATION.search(newer) and _DURATION.search(older)):
        return False
    new_d = {float(m.group(1)) for m in _DISTANCE.finditer(newer)}
    old_d = {float(m.group(1)) for m in _DISTANCE.finditer(older)}
    return bool(new_d and old_d) and not new_d & old_d
