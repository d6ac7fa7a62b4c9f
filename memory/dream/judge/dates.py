"""Dates in a note line, resolved against the note's own date.

``find`` returns each date expression with the days it spans: relative ones ("明天",
"下周三", "next Tuesday", "in two weeks", "月底") and absolute ones missing a year
("11月28日", "March 10", "the 17th", "28号"). ``resolve`` rewrites the relative ones as
absolute dates, so memory never holds "tomorrow" (``2026-11-25``; a week, a month or a
year as ``2026-11-30当周`` / ``the week of 2026-11-30``, ``2026年12月`` / ``December 2026``,
``2027年`` / ``2027``). Weeks start on Monday; "下周三" and "next Wednesday" are the
Wednesday of the following calendar week; a bare weekday or day of the month is the next
one on or after the note's date. Recurring expressions ("每周三", "every Monday") are not
dates. Pure functions.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache

from memory.dream.text_memo import persisted

_ZH_NUM = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_ZH_DAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "末": 5}
_EN_DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_EN_MONTHS = [m.lower() for m in calendar.month_name if m]
_EN_MON = {m[:3]: i + 1 for i, m in enumerate(_EN_MONTHS)} | {
    m: i + 1 for i, m in enumerate(_EN_MONTHS)
}
# The words of the calendar, English: days (and their plurals), months and their short forms.
CALENDAR_WORDS = frozenset([*_EN_DAYS, *(d + "s" for d in _EN_DAYS), *_EN_MON, "sept"])


def month_number(name: str) -> int:
    """1-12 for an English month's name or short form ("Jul", "july", "Sept.")."""
    return _EN_MON[name.lower()[:3]]


_EN_ABBR = {d[:3]: i for i, d in enumerate(_EN_DAYS)}
_EN_NUM = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_EN_NUM |= {"seven": 7, "eight": 8, "nine": 9, "ten": 10, "couple of": 2, "few": 3}


@dataclass(frozen=True)
class DateSpan:
    """``text[start:end]`` names the days ``first``..``last``; ``unit`` is day, week,
    weekend, month or year; ``relative`` says whether the words depend on the note's date;
    ``plan`` whether it dates a plan, so that its passing ends what the line says (see
    :func:`dates_a_plan`)."""

    start: int
    end: int
    first: date
    last: date
    unit: str
    relative: bool
    plan: bool = True


def zh_number(text: str) -> int:
    if text.isdigit():
        return int(text)
    if text == "十":
        return 10
    if text.startswith("十"):
        return 10 + _ZH_NUM.get(text[1:], 0)
    if "十" in text:
        tens, _, ones = text.partition("十")
        return _ZH_NUM.get(tens, 1) * 10 + (_ZH_NUM.get(ones, 0) if ones else 0)
    return _ZH_NUM.get(text, 0)


def monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def month_span(year: int, month: int) -> tuple[date, date]:
    while month > 12:
        year, month = year + 1, month - 12
    return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])


def _upcoming_month_day(anchor: date, month: int, day: int) -> date | None:
    """``month``/``day`` in the anchor's year, or the next year when that is long past."""
    for year in (anchor.year, anchor.year + 1):
        try:
            when = date(year, month, day)
        except ValueError:
            return None
        if when >= anchor - timedelta(days=60) or year > anchor.year:
            return when
    return None


def _day_of_month(anchor: date, day: int) -> date | None:
    for offset in (0, 1):
        year, month = anchor.year, anchor.month + offset
        if month > 12:
            year, month = year + 1, 1
        if day <= calendar.monthrange(year, month)[1]:
            when = date(year, month, day)
            if when >= anchor:
                return when
    return None


def _days_of_month(anchor: date, day: int, count: int) -> list[date]:
    """The next ``count`` days numbered ``day`` on or after ``anchor`` (months too short
    for it skipped, within a year)."""
    out: list[date] = []
    for offset in range(13):
        year, month = (
            anchor.year + (anchor.month + offset - 1) // 12,
            (anchor.month + offset - 1) % 12 + 1,
        )
        if day <= calendar.monthrange(year, month)[1] and date(year, month, day) >= anchor:
            out.append(date(year, month, day))
        if len(out) == count:
            break
    return out


def _weekday(anchor: date, weekday: int, weeks: int | None) -> date:
    """``weeks`` None: the next such weekday on or after ``anchor``; else in the calendar
    week ``weeks`` from the anchor's."""
    if weeks is None:
        return anchor + timedelta(days=(weekday - anchor.weekday()) % 7)
    return monday(anchor) + timedelta(weeks=weeks, days=weekday)


# A rule: its pattern, what it resolves to on a day, whether it is relative, and its cues:
# lower-case strings one of which every match contains (none: always tried). A line without
# any of a rule's cues is not searched with it, and most lines have none.
Rule = tuple[
    re.Pattern[str],
    Callable[[re.Match[str], date], tuple[date, date, str] | None],
    bool,
    tuple[str, ...],
]
_DIGITS = tuple("0123456789")
_MONTH_CUES = tuple(m[:3] for m in _EN_MONTHS)
_RECURRING = re.compile(
    r"(?:每|每个|每隔)(?:月|周|年|天|星期|礼拜)?\s*$|(?i:\bevery\s+(?:other\s+)?$|\beach\s+$)"
)
# A weekday or day of the month in a clause that says "every" recurs ("每周二、周四").
_RECURRING_CLAUSE = re.compile(
    r"每|经常|常常|总是|一般|通常|(?i:\bevery\b|\beach\b|\boften\b|\busually\b|\balways\b)"
)
_HABIT_AFTER = re.compile(
    r"\s*(?:早上|上午|中午|下午|晚上|傍晚|夜里)?\s*(?:经常|常常|常|都|一般|通常|总是)"
    # "Monday nights", "the first Saturday of each month": a habit, not a day
    r"|(?i:\s+(?:mornings|afternoons|evenings|nights)\b|\s+of\s+(?:each|every)\s+month\b)"
)
# "the first Saturday (of each month)", "every other Friday": an ordinal or "every" names a
# recurring day
_ORDINAL_BEFORE = re.compile(r"(?i)\b(?:first|second|third|fourth|last|every|each)\s+$")
_CLAUSE_END = re.compile(r"[，。；,.;!?！？]")
# A move from one bare weekday to another ("游泳课从周四改到周六", "from Tuesdays to
# Thursdays") changes a weekly slot: neither side is a date (a one-off move names its week).
_ZH_WD = r"(?:周|星期|礼拜)[一二三四五六日天]"
_EN_WD = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
_WEEKDAY_MOVE = re.compile(
    rf"从\s*{_ZH_WD}(?:上午|下午|晚上)?\s*(?:改|换|调|挪|变)?(?:到|成|为)\s*{_ZH_WD}"
    rf"|(?i:\bfrom\s+{_EN_WD}(?:\s+(?:mornings?|afternoons?|evenings?|nights?))?\s+to\s+{_EN_WD})"
)


def _rules() -> list[Rule]:
    one = timedelta(days=1)

    def day(offset: int) -> Callable[[re.Match[str], date], tuple[date, date, str]]:
        return lambda m, a: (a + timedelta(days=offset), a + timedelta(days=offset), "day")

    def zh_week(m: re.Match[str], a: date) -> tuple[date, date, str]:
        weeks = {"上": -1, "这": 0, "本": 0, "下": 1, "下下": 2}.get(m["w"] or "")
        wd = _ZH_DAY[m["d"]]
        if m["d"] == "末":
            start = _weekday(a, 5, weeks if weeks is not None else 0)
            return start, start + one, "weekend"
        when = _weekday(a, wd, weeks)
        return when, when, "day"

    def zh_bare_week(m: re.Match[str], a: date) -> tuple[date, date, str]:
        weeks = {"上": -1, "这": 0, "本": 0, "下": 1, "下下": 2}[m["w"]]
        start = monday(a) + timedelta(weeks=weeks)
        return start, start + timedelta(days=6), "week"

    def zh_month(m: re.Match[str], a: date) -> tuple[date, date, str]:
        offset = {"上": -1, "这": 0, "本": 0, "下": 1}[m["w"]]
        year, month = a.year, a.month + offset
        if month < 1:
            year, month = year - 1, 12
        first, last = month_span(year, month)
        if m["edge"] in ("底", "末"):
            return last, last, "monthend"
        if m["edge"] == "初":
            return first, first + timedelta(days=9), "month"
        return first, last, "month"

    def month_end(m: re.Match[str], a: date) -> tuple[date, date, str]:
        last = month_span(a.year, a.month)[1]
        return last, last, "monthend"

    def year_end(m: re.Match[str], a: date) -> tuple[date, date, str]:
        return date(a.year, 12, 1), date(a.year, 12, 31), "month"

    def zh_month_day(m: re.Match[str], a: date) -> tuple[date, date, str] | None:
        offset = {"这": 0, "本": 0, "下": 1}[m["w"]]
        first, last = month_span(a.year, a.month + offset)
        dd = int(m["d"])
        if dd > last.day:
            return None
        when = first.replace(day=dd)
        return when, when, "day"

    def zh_year(m: re.Match[str], a: date) -> tuple[date, date, str] | None:
        year = a.year + {"去": -1, "今": 0, "明": 1, "后": 2}[m["y"]]
        if m["mon"]:
            first, last = month_span(year, zh_number(m["mon"]))
            return first, last, "month"
        if m["edge"] in ("底", "末"):
            return date(year, 12, 1), date(year, 12, 31), "month"
        if m["edge"] == "初":
            return date(year, 1, 1), date(year, 1, 31), "month"
        return date(year, 1, 1), date(year, 12, 31), "year"

    def zh_after(m: re.Match[str], a: date) -> tuple[date, date, str]:
        n = zh_number(m["n"])
        unit = m["u"]
        if unit == "天":
            when = a + timedelta(days=n)
        elif unit in ("周", "星期", "个星期", "个礼拜"):
            when = a + timedelta(weeks=n)
        else:
            first, _ = month_span(a.year, a.month + n)
            when = first.replace(day=min(a.day, calendar.monthrange(first.year, first.month)[1]))
        return when, when, "day"

    def zh_md(m: re.Match[str], a: date) -> tuple[date, date, str] | None:
        year = int(m["y"]) if m["y"] else None
        month, dd = int(m["m"]), zh_number(m["d"])
        try:
            when = date(year, month, dd) if year else _upcoming_month_day(a, month, dd)
        except ValueError:
            return None
        return (when, when, "day") if when else None

    def zh_dom(m: re.Match[str], a: date) -> tuple[date, date, str] | None:
        when = _day_of_month(a, int(m["d"]))
        return (when, when, "day") if when else None

    def zh_bare_month(m: re.Match[str], a: date) -> tuple[date, date, str] | None:
        month = zh_number(m["m"])
        if not 1 <= month <= 12:
            return None
        year = a.year if month >= a.month or _said_as_past(m) else a.year + 1
        first, last = month_span(year, month)
        return first, last, "month"

    def en_weekday(m: re.Match[str], a: date) -> tuple[date, date, str]:
        wd = _EN_DAYS.index(m["d"].lower())
        weeks = {"next": 1, "this": None, "last": -1, "coming": None, "on": None}.get(
            (m["w"] or "on").lower()
        )
        if (m["w"] or "").lower() == "last":
            when = a - timedelta(days=(a.weekday() - wd) % 7 or 7)
        else:
            when = _weekday(a, wd, weeks)
        return when, when, "day"

    def en_week(m: re.Match[str], a: date) -> tuple[date, date, str]:
        weeks = {"next": 1, "this": 0, "last": -1}[m["w"].lower()]
        start = monday(a) + timedelta(weeks=weeks)
        if m["u"].lower() == "weekend":
            sat = start + timedelta(days=5)
            return sat, sat + one, "weekend"
        return start, start + timedelta(days=6), "week"

    def en_month(m: re.Match[str], a: date) -> tuple[date, date, str]:
        offset = {"next": 1, "this": 0, "last": -1}[m["w"].lower()]
        year, month = a.year, a.month + offset
        if month < 1:
            year, month = year - 1, 12
        first, last = month_span(year, month)
        return first, last, "month"

    def en_year(m: re.Match[str], a: date) -> tuple[date, date, str]:
        year = a.year + {"next": 1, "this": 0, "last": -1}[m["w"].lower()]
        return date(year, 1, 1), date(year, 12, 31), "year"

    def en_in(m: re.Match[str], a: date) -> tuple[date, date, str]:
        raw = m["n"].lower()
        n = int(raw) if raw.isdigit() else _EN_NUM.get(raw, 1)
        unit = m["u"].lower().rstrip("s")
        if unit == "day":
            when = a + timedelta(days=n)
        elif unit == "week":
            when = a + timedelta(weeks=n)
        else:
            first, _ = month_span(a.year, a.month + n)
            when = first.replace(day=min(a.day, calendar.monthrange(first.year, first.month)[1]))
        return when, when, "day"

    def ago(m: re.Match[str], a: date) -> tuple[date, date, str] | None:
        """ "two weeks ago", "三个月前": the day, week, month or year it names."""
        raw = m["n"].lower()
        n = int(raw) if raw.isdigit() else _EN_NUM.get(raw) or zh_number(raw)
        unit = m["u"].lower().rstrip("s")
        if not n:
            return None
        if unit in ("day", "天"):
            when = a - timedelta(days=n)
            return when, when, "day"
        if unit in ("week", "周", "星期", "个星期", "个礼拜"):
            start = monday(a - timedelta(weeks=n))
            return start, start + timedelta(days=6), "week"
        if unit in ("month", "个月"):
            year, month = a.year, a.month - n
            while month < 1:
                year, month = year - 1, month + 12
            first, last = month_span(year, month)
            return first, last, "month"
        return date(a.year - n, 1, 1), date(a.year - n, 12, 31), "year"

    def en_md(m: re.Match[str], a: date) -> tuple[date, date, str] | None:
        month = _EN_MON[(m["mon"] or m["mon2"]).lower()[:3]]
        dd = int(m["d"] or m["d2"])
        year = int(m["y"]) if m["y"] else None
        try:
            when = date(year, month, dd) if year else _upcoming_month_day(a, month, dd)
        except ValueError:
            return None
        return (when, when, "day") if when else None

    def en_bare_month(m: re.Match[str], a: date) -> tuple[date, date, str]:
        month = _EN_MON[m["mon"].lower()[:3]]
        year = a.year if month >= a.month or _said_as_past(m) else a.year + 1
        if m.group(0).lower().startswith("since"):  # always one gone by
            year = a.year if month <= a.month else a.year - 1
        first, last = month_span(year, month)
        return first, last, "month"

    def en_next_month(m: re.Match[str], a: date) -> tuple[date, date, str]:
        """ "next July": the coming July, never the present month."""
        month = _EN_MON[m["mon"].lower()[:3]]
        year = a.year if month > a.month else a.year + 1
        first, last = month_span(year, month)
        return first, last, "month"

    def en_dom(m: re.Match[str], a: date) -> tuple[date, date, str] | None:
        when = _day_of_month(a, int(m["d"]))
        return (when, when, "day") if when else None

    def weekday_dom(m: re.Match[str], a: date) -> tuple[date, date, str] | None:
        """ "wed 22nd", "下周三22号": the day of the month is the date, the weekday says which
        of the next two such days (the nearest when neither falls on it)."""
        wd = _ZH_DAY[m["zwd"]] if m["zwd"] else _EN_ABBR[m["ewd"].lower()[:3]]
        found = _days_of_month(a, int(m["d"] or m["d2"]), 2)
        when = next((w for w in found if w.weekday() == wd), found[0] if found else None)
        return (when, when, "day") if when else None

    def en_dom_next(m: re.Match[str], a: date) -> tuple[date, date, str] | None:
        """ "the 3rd of next month": that day of the month it names."""
        offset = 1 if m["w"].lower() == "next" else 0
        first, last = month_span(a.year, a.month + offset)
        dd = int(m["d"])
        return (first.replace(day=dd),) * 2 + ("day",) if dd <= last.day else None

    def iso(m: re.Match[str], a: date) -> tuple[date, date, str] | None:
        try:
            when = date(int(m["y"]), int(m["m"]), int(m["d"]))
        except ValueError:
            return None
        return when, when, "day"

    def year_month(m: re.Match[str], a: date) -> tuple[date, date, str] | None:
        # a month as the dream writes it ("2027年7月", "July 2027"): read back on a later
        # night, a plan of that month is still one
        month = int(m["m"]) if m["m"] else _EN_MON[m["mon"].lower()]
        if not 1 <= month <= 12:
            return None
        first, last = month_span(int(m["y"] or m["y2"]), month)
        if m["part"] in ("底", "末"):
            return last, last, "monthend"  # "2027年7月底", as :func:`words` writes a month's end
        if m["part"] == "初":
            return first, first + timedelta(days=9), "month"  # "2027年7月初"
        return first, last, "month"

    zh_n = r"(?P<n>\d+|[一二两三四五六七八九十]{1,3})"
    months = "|".join(sorted(_EN_MON, key=len, reverse=True))
    full_months = "|".join(_EN_MONTHS)
    rel, ab = True, False
    return [
        (re.compile(r"(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})"), iso, ab, _DIGITS),
        (
            re.compile(
                r"(?:(?P<y>\d{4})\s*年\s*)?(?P<m>1[0-2]|0?[1-9])\s*月\s*"
                r"(?P<d>3[01]|[12]\d|0?[1-9]|[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九])"
                r"\s*[日号]"
            ),
            zh_md,
            ab,
            ("月",),
        ),
        (
            re.compile(
                r"(?:(?:上|这|本|下下|下)个?)?(?:周|星期|礼拜)(?P<zwd>[一二三四五六日天])\s*[（(]?\s*"
                r"(?P<d>3[01]|[12]\d|[1-9])\s*[号日][）)]?"
                r"|(?i:\b(?P<ewd>mon(?:day)?|tue(?:s(?:day)?)?|wed(?:s|nesday)?|thu(?:r(?:s(?:day)?)?)?"
                r"|fri(?:day)?|sat(?:urday)?|sun(?:day)?)\.?,?\s+(?:the\s+)?"
                rf"(?P<d2>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?(?:{months})\b))"
            ),
            weekday_dom,
            rel,
            _DIGITS,
        ),
        (
            re.compile(
                r"(?i)\bthe\s+(?P<d>3[01]|[12]\d|[1-9])(?:st|nd|rd|th)\s+of\s+(?P<w>next|this)\s+month\b"
            ),
            en_dom_next,
            rel,
            _DIGITS,
        ),
        (re.compile(r"大后天"), day(3), rel, ()),
        (re.compile(r"后天"), day(2), rel, ()),
        (re.compile(r"前天"), day(-2), rel, ()),
        (re.compile(r"明(?:天|日|早|晚)"), day(1), rel, ()),
        (re.compile(r"昨(?:天|日|晚)"), day(-1), rel, ()),
        (re.compile(r"今(?:天|日|早|晚)"), day(0), rel, ()),
        (
            re.compile(r"(?P<w>下下|上|这|本|下)?个?(?:周|星期|礼拜)(?P<d>[一二三四五六日天末])"),
            zh_week,
            rel,
            ("周", "星期", "礼拜"),
        ),
        (
            re.compile(r"(?P<w>下下|上|这|本|下)个?(?:周|星期|礼拜)(?![一二三四五六日天末])"),
            zh_bare_week,
            rel,
            ("周", "星期", "礼拜"),
        ),
        (
            re.compile(r"(?P<w>这|本|下)个?月\s*(?P<d>3[01]|[12]\d|[1-9])\s*[号日]"),
            zh_month_day,
            rel,
            ("月",),
        ),
        (re.compile(r"(?P<w>上|这|本|下)个?月(?P<edge>底|末|初)?"), zh_month, rel, ("月",)),
        (re.compile(r"(?<![去今明后\d])年(?:底|末)"), year_end, rel, ("年",)),
        (re.compile(r"(?<![年\d])月(?:底|末)"), month_end, rel, ("月",)),
        (
            re.compile(
                r"(?P<y>去|今|明|后)年(?:(?P<mon>1[0-2]|[1-9]|十[一二]?|[一二三四五六七八九])月"
                r"|(?P<edge>底|末|初))?"
            ),
            zh_year,
            rel,
            ("年",),
        ),
        (
            re.compile(zh_n + r"\s*(?P<u>天|周|星期|个星期|个礼拜|个月)(?:以?后|之后)"),
            zh_after,
            rel,
            ("后",),
        ),
        (
            re.compile(zh_n + r"\s*(?P<u>天|周|星期|个星期|个礼拜|个月|年)(?:以?前|之前)"),
            ago,
            rel,
            ("前",),
        ),
        (re.compile(r"(?<![\d月])(?P<d>3[01]|[12]\d|[1-9])\s*号"), zh_dom, rel, ("号",)),
        (
            re.compile(
                r"(?<![\d年])(?P<m>1[0-2]|[1-9]|十[一二]?)\s*月(?:份)?(?![\d日号底末初一二三四五六七八九十])"
            ),
            zh_bare_month,
            rel,
            ("月",),
        ),
        (re.compile(r"(?i)\bthe day after tomorrow\b"), day(2), rel, ("tomorrow",)),
        (re.compile(r"(?i)\b(?:tomorrow|tmrw|tmr)\b"), day(1), rel, ("tom", "tmr")),
        (re.compile(r"(?i)\byesterday\b"), day(-1), rel, ("yesterday",)),
        (
            re.compile(r"(?i)\b(?:today|tonight|this (?:morning|afternoon|evening))\b"),
            day(0),
            rel,
            ("today", "tonight", "this"),
        ),
        (
            re.compile(
                r"(?i)\b(?:(?P<w>next|this|last|coming|on)\s+)?(?P<d>"
                + "|".join(_EN_DAYS)
                + r")\b(?!s)"
            ),
            en_weekday,
            rel,
            ("day",),
        ),
        (
            re.compile(r"(?i)\b(?P<w>next|this|last)\s+(?P<u>week|weekend)\b"),
            en_week,
            rel,
            ("week",),
        ),
        (re.compile(r"(?i)\b(?P<w>next|this|last)\s+month\b"), en_month, rel, ("month",)),
        (re.compile(r"(?i)\b(?:the\s+)?end of (?:the|this) month\b"), month_end, rel, ("month",)),
        (re.compile(r"(?i)\b(?P<w>next|this|last)\s+year\b"), en_year, rel, ("year",)),
        (
            re.compile(
                r"(?i)\b(?P<n>\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|"
                r"couple of|few)\s+(?P<u>days?|weeks?|months?|years?)\s+ago\b"
            ),
            ago,
            rel,
            ("ago",),
        ),
        (
            re.compile(
                r"(?i)\bin\s+(?:a\s+)?(?P<n>\d+|a|an|one|two|three|four|five|six|seven|eight|nine|"
                r"ten|couple of|few)\s+(?P<u>days?|weeks?|months?)\b"
            ),
            en_in,
            rel,
            ("day", "week", "month"),
        ),
        (
            re.compile(
                rf"(?i)\b(?:(?P<mon>{months})\.?\s+(?P<d>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?"
                rf"|(?P<d2>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon2>{months})\.?)"
                r"(?:,?\s+(?P<y>\d{4}))?\b"
            ),
            en_md,
            ab,
            _DIGITS,
        ),
        (
            re.compile(
                rf"(?i)\b(?:in|by|until|from|to|till|before|after|since)\s+(?P<mon>{months})\b(?!\s+\d)"
            ),
            en_bare_month,
            rel,
            _MONTH_CUES,
        ),
        (
            re.compile(rf"(?i)\b(?:next|this coming)\s+(?P<mon>{months})\b(?!\s+\d)"),
            en_next_month,
            rel,
            ("next", "coming"),
        ),
        (
            re.compile(r"(?i)\bthe\s+(?P<d>3[01]|[12]\d|[1-9])(?:st|nd|rd|th)\b(?!\s+of\b)"),
            en_dom,
            rel,
            _DIGITS,
        ),
        (
            re.compile(
                r"(?P<y>\d{4})\s*年\s*(?P<m>1[0-2]|0?[1-9])\s*月(?:份)?(?P<part>底|末|初)?(?![\d日号])"
                rf"|(?i:\b(?P<mon>{full_months})\s+(?P<y2>\d{{4}})\b)"
            ),
            year_month,
            ab,
            _DIGITS,
        ),
    ]


_RULES = _rules()


# "周一到周五", "星期一至五": a span of weekdays no week names is a weekly schedule
_RANGE_AFTER = re.compile(r"\s*[到至~\-—–]\s*(?:周|星期|礼拜)?[一二三四五六日天]")
_RANGE_BEFORE = re.compile(
    r"(?P<w>下下|上|这|本|下)?个?(?:周|星期|礼拜)[一二三四五六日天]\s*[到至~\-—–]\s*$"
)
_WEEK_NAMED = re.compile(r"(?:下下|上|这|本|下)个?(?:周|星期|礼拜)")


def _weekly_range(text: str, start: int, end: int) -> bool:
    """The bare weekday at ``start:end`` begins or ends a span of weekdays no week names."""
    if _WEEK_NAMED.match(text, start):
        return False
    if _RANGE_AFTER.match(text, end):
        return True
    before = _RANGE_BEFORE.search(text[max(0, start - 8) : start])
    return before is not None and not before["w"]


def _recurs(text: str, start: int, end: int, rule: str) -> bool:
    if _RECURRING.search(text[max(0, start - 6) : start]) or _HABIT_AFTER.match(text, end):
        return True
    if rule == "zh_week" and _weekly_range(text, start, end):
        return True
    if rule == "en_weekday" and _ORDINAL_AFTER.match(text[end:]):
        return True  # "Thursday the 24th": the day of the month names it
    before = text[max(0, start - 8) : start]
    if rule == "en_weekday" and _ORDINAL_BEFORE.search(before):
        return True
    if rule == "en_weekday" and _NAMED_BY_DAY.search(before) and _NOUN_AFTER.match(text, end):
        return True  # "runs the Saturday parkrun": an event the weekday names, weekly
    if rule not in ("zh_week", "en_weekday", "zh_dom", "en_dom", "zh_bare_week", "en_week"):
        return False
    if rule in ("zh_week", "en_weekday") and any(
        m.start() <= start and end <= m.end() for m in _WEEKDAY_MOVE.finditer(text)
    ):
        return True
    clause = _CLAUSE_END.split(text[:start])[-1]
    return bool(_RECURRING_CLAUSE.search(clause))


# "Sunday June 6", "Friday, 12 March": the date after the weekday names the day.
_DATE_AFTER = re.compile(
    r"(?i),?\s+(?:the\s+)?(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d"
    r"|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))"
)
# What may follow "周天" (Sunday) in a sentence; any other character makes it part of a
# name ("周天佑").
_AFTER_ZHOUTIAN = "上下晚早中傍夜去见的要有和前后再一吧了回出我你他她都也还就才"


def _not_a_day(text: str, start: int, end: int, rule: str) -> bool:
    """A weekday that is no day of its own: one the date after it names ("Sunday June 6"),
    "那个周末" (the weekend of a date said before, not the note's), or "周天" inside a name."""
    if rule == "en_weekday" and _DATE_AFTER.match(text, end):
        return True
    if rule != "zh_week":
        return False
    if text[max(0, start - 1) : start] == "那":
        return True
    after = text[end : end + 1]
    return (
        text[end - 2 : end] == "周天"
        and "\u4e00" <= after <= "\u9fff"
        and after not in _AFTER_ZHOUTIAN
    )


_ALL_CUES = tuple(sorted({cue for *_, cues in _RULES for cue in cues}))
_ORDINAL_AFTER = re.compile(r"(?i)\s+the\s+\d{1,2}(?:st|nd|rd|th)\b")
# "the Saturday parkrun", "our Sunday roast", "her Tuesday class": a weekday before a noun,
# after an article or a possessive, names what happens on that day every week (not "the
# Saturday after next", "this Saturday's", "the Saturday before the wedding").
_NAMED_BY_DAY = re.compile(r"(?i)\b(?:the|our|my|his|her|their|your)\s+$")
_NOUN_AFTER = re.compile(
    r"(?!\s+(?:after|before|of|at|in|on|morning|night|evening|afternoon)\b)\s+[a-z]{3,}"
)
_Match = tuple[int, int, int, re.Match[str] | None]  # start, end, rule, match (None: recurs)


@lru_cache(maxsize=50_000)
def _matches(text: str) -> tuple[_Match, ...]:
    """Every rule's matches in ``text``, rule by rule: what does not depend on the note's
    date (a recurring expression has no match, it only takes its words)."""
    low = text.lower()
    present = frozenset(cue for cue in _ALL_CUES if cue in low)
    out: list[_Match] = []
    for index, (pattern, fn, _, cues) in enumerate(_RULES):
        if cues and present.isdisjoint(cues):
            continue
        for match in pattern.finditer(text):
            start, end = match.span()
            recurs = _recurs(text, start, end, fn.__name__) or _not_a_day(
                text, start, end, fn.__name__
            )
            out.append((start, end, index, None if recurs else match))
    return tuple(out)


def may_name_dates(text: str) -> bool:
    """Whether a rule matches ``text`` (without it, :func:`find` finds none on any day)."""
    return bool(_matches(text))


def opens_with_date(text: str) -> bool:
    """Whether ``text`` opens with a date expression, recurring ones too ("明天去看牙",
    "每周三上钢琴课", "2026-12-08交报告"): a clause whose subject was left unsaid."""
    return any(start == 0 for start, _, _, _ in _matches(text))


def find(text: str, anchor: date) -> list[DateSpan]:
    """Every date expression of ``text`` (the first rule wins on overlapping words)."""
    if not _matches(text):
        return []  # none on any day: asked once a text, not once a day
    return list(_find(text, anchor))


@lru_cache(maxsize=50_000)
@persisted("dates.find", DateSpan)
def _find(text: str, anchor: date) -> tuple[DateSpan, ...]:
    matches = _matches(text)
    if not matches:
        return ()
    taken: list[tuple[int, int]] = []
    out: list[DateSpan] = []
    for start, end, index, match in matches:
        if any(s < end and start < e for s, e in taken):
            continue
        if match is None:
            taken.append((start, end))
            continue
        _, fn, relative, _ = _RULES[index]
        got = fn(match, anchor)
        if got is None:
            continue
        taken.append((start, end))
        first, last, unit = got
        plan = dates_a_plan(text, start, end, last, anchor)
        out.append(DateSpan(start, end, first, last, unit, relative, plan))
    return tuple(sorted(out, key=lambda s: s.start))


def words(span: DateSpan, zh: bool) -> str:
    """How a resolved span is written in an item."""
    first = span.first
    if span.unit == "day":
        return first.isoformat()
    if span.unit == "week":
        return f"{first.isoformat()}当周" if zh else f"the week of {first.isoformat()}"
    if span.unit == "monthend":
        return f"{first.year}年{first.month}月底" if zh else f"the end of {first:%B %Y}"
    if span.unit == "weekend":
        return f"{first.isoformat()}周末" if zh else f"the weekend of {first.isoformat()}"
    if span.unit == "month":
        if span.last - span.first < timedelta(days=20) and first.day == 1:
            return f"{first.year}年{first.month}月初" if zh else f"early {first:%B %Y}"
        return f"{first.year}年{first.month}月" if zh else f"{first:%B %Y}"
    return f"{first.year}年" if zh else str(first.year)


_EN_KEEP = re.compile(r"(?i)(?:in|by|until|from|to|till|before|after|since)\s+")
_EN_AS_SUBJECT = re.compile(r"(?i)\s+(?:is|was|will be)\b")
# An age after a year ("今年五岁", "今年已经 72 岁了"): the year says when the age holds.
_ZH_AGE = re.compile(
    r"\s*(?:已经|就|才|刚|都|满|也)*\s*(?:\d+|[一二两三四五六七八九十百]+)\s*(?:(?:周岁|岁)(?:半|多)?了?|(?=\s*(?:[，,。.;；!！]|$)))"
)
_EN_PART_OF_DAY = re.compile(r"(?i)\s+(morning|afternoon|evening|night)\b")
_EN_LEAD = re.compile(
    r"(?i)\b(?:on|by|for|until|from|to|in|at|during|since|this|next|last|coming)\s*$"
)


def resolve(text: str, anchor: date) -> tuple[str, list[DateSpan]]:
    """``text`` with every relative date written as an absolute one, and the spans found."""
    spans = find(text, anchor)
    if not any(span.relative for span in spans):
        return text, spans
    zh = bool(re.search(r"[\u4e00-\u9fff]", text))
    out, last = [], 0
    for span in spans:
        if not span.relative:
            continue
        piece = text[span.start : span.end]
        new = words(span, zh)
        if not re.search(r"[\u4e00-\u9fff]", piece):  # English words
            before = text[last : span.start]
            part = _EN_PART_OF_DAY.match(text, span.end)
            if span.unit == "day" and part:
                new = f"on the {part.group(1).lower()} of {new}"
                out.append(text[last : span.start])
                out.append(new)
                last = part.end()
                continue
            subject = _EN_AS_SUBJECT.match(text, span.end)  # "today is my birthday"
            if (
                span.unit == "day"
                and not subject
                and not _EN_LEAD.search(before)
                and not piece.lower().startswith(("on ", "the "))
            ) or piece.lower().startswith("on "):
                new = "on " + new
            lead = _EN_KEEP.match(piece)
            if lead and span.unit != "day":
                new = lead.group(0) + new
            elif span.unit != "day" and not subject and not _EN_LEAD.search(before):
                # "moved last month" -> "moved in October 2026", "visits on the weekend of"
                new = ("on " if span.unit == "weekend" else "in ") + new
        if piece[:1].isupper() and (span.start == 0 or text[: span.start].endswith(": ")):
            new = new[:1].upper() + new[1:]
        age = _ZH_AGE.match(text, span.end) if span.unit == "year" and zh else None
        if age:  # "今年五岁" is an age in a year, not a year's age: "五岁（2026年）"
            out.append(text[last : span.start])
            out.append(f"{age.group(0)}（{new}）")
            last = age.end()
            continue
        out.append(text[last : span.start])
        out.append(new)
        last = span.end
    out.append(text[last:])
    return "".join(out), spans


# Tense and aspect: what tells a plan (an intention, an appointment: over once its date has
# passed) from a fact as of its date (a state, a measurement, a change that has taken effect).
_FUTURE = re.compile(
    r"要|会|将|打算|准备|计划|想|预约|约了|约好|记得|别忘|安排"
    r"|(?i:\b(?:will|going to|gonna|have to|has to|need to|needs to|plan(?:s|ned|ning)?|"
    r"appointment|meeting|booked|should|must|due|deadline|scheduled|expect(?:s|ing)?)\b"
    r"|'ll\b|\bat \d|\b(?:is|are|am|'m|'re)\s+\w+ing\b)"
)
# What a clause said as done or holding (a past tense, "了", "now"): a bare month it names is
# one gone by.
_PAST = re.compile(
    r"了|已经|已|刚|现在|目前|还是"
    r"|(?i:\b(?:\w+ed|was|were|had|has|have|'ve|got|went|came|took|gave|made|began|left|"
    r"felt|put|ran|sent|told|said|paid|bought|sold|won|lost|spent|now|currently|still|"
    r"split|broke|met|quit|drove|rode|swam|ate|drank|wrote|fell|grew|kept|lent|chose|found)\b)"
    # a measurement holds as of its day
    r"|\d\s*(?:公斤|斤|厘米|(?i:kg|kgs|lbs?|pounds|cm|mmhg|bpm|mmol)\b)"
)
# What has taken effect by its day: a measurement, or a change made (a move, a new dose, a
# new job): a fact as of that day. Any other past event of the day is left as it was.
_TAKEN_EFFECT = re.compile(
    r"\d\s*(?:公斤|斤|厘米|(?i:kg|kgs|lbs?|pounds|cm|mmhg|bpm|mmol)\b)"
    r"|(?:搬|改|换|调|升|降|涨|减到|增到|加到|入职|离职|辞职|确诊|退休|毕业|结婚|分手)"
    r"(?:[^，。；,;]{0,8}?)(?:了|完)|已经|已"
    r"|(?i:\b(?:moved|changed|switched|started|increased|decreased|raised|reduced|lowered|"
    r"upped|dropped|cut|quit|joined|left|retired|married|diagnosed|promoted|hired|graduated|"
    r"weighed|measured)\b)"
)
# A value said to hold as of now ("PB now 1:48", "现在74公斤"): a fact as of its day.
_HOLDS_NOW = re.compile(r"现在|目前|如今|(?i:\b(?:now|currently|as of today)\b)")
_EN_STATE = re.compile(r"(?i)\b(?:is|are|am|was|were|has|have|had)\b|'s\b|'m\b|'re\b")
_IMPERATIVE = re.compile(r"别|不要|(?i:\bdon'?t\b|\bdo not\b|\bnever\b)")
_ZH_MOTION = re.compile(r"来|去|回|到|出发|飞")
# A date that begins a state ("from tonight", "starting Monday", "从下周一起", "今晚开始"):
# what holds from then on does not end when the day has passed.
_ONSET_BEFORE = re.compile(r"(?i)(?:\b(?:from|starting|as of|since|effective)\s+)$")
# "从…起/开始" opens a period as often as a new state ("从周一到周三出差", "从明天开始
# 休假三天"): in Chinese a state begins there only when its clause says a change was made.
_ZH_ONSET_BEFORE = re.compile(r"从\s*$")
_ONSET_AFTER = re.compile(r"\s*(?:起(?!床|飞)|开始)")
_ZH_CHANGE = re.compile(r"改|换|调|增|减|加到|降|升|涨|了|已经|已")
_SPEAKER = re.compile(r"^[^：:]{1,20}[：:]\s*")
_CLAUSE_MARK = re.compile(r"[，。；;!?！？]|[,.](?!\d)")  # not a number's "70.8", "1,800"


def _clause_at(text: str, start: int, end: int) -> tuple[int, int]:
    """The bounds of the clause holding ``text[start:end]``."""
    before = [m.end() for m in _CLAUSE_MARK.finditer(text, 0, start)]
    after = _CLAUSE_MARK.search(text, end)
    return (before[-1] if before else 0), (after.start() if after else len(text))


def _lasting(clause: str) -> bool:
    """Whether a clause with no date in it states something on its own: long enough to be
    a statement, and no plan's words (a motion, in Chinese, only as something done)."""
    body = _SPEAKER.sub("", clause.strip())
    cjk = sum("\u4e00" <= ch <= "\u9fff" for ch in body)
    words = len(body.split())
    if cjk < 5 and words < 4 and not (words == 3 and _EN_STATE.search(body)):
        return False
    if _FUTURE.search(body):
        return False
    return cjk == 0 or not _ZH_MOTION.search(body) or "了" in body


_TARGET_LEAD = re.compile(r"(?i)(?:to|until|till|by|before|after)\b")
_TARGET_BEFORE = re.compile(r"(?:到|至|成|推迟|延期)\s*$")


def _said_as_past(m: re.Match[str]) -> bool:
    """Whether a bare month ("from August", "8月份") is one gone by: its clause says something
    done or holding, or the month is where something comes from ("since", "from" with no
    plan's words), and nothing in it is a plan's."""
    text = m.string
    lo, hi = _clause_at(text, m.start(), m.end())
    clause = text[lo:hi]
    target = _TARGET_LEAD.match(m.group(0)) or _TARGET_BEFORE.search(text[lo : m.start()])
    if target or _FUTURE.search(clause):
        return False  # "pushed to March", "改到3月": where a move goes, still to come
    origin = m.group(0).lower().startswith(("from", "since")) or bool(
        _ONSET_BEFORE.search(text[max(0, m.start() - 10) : m.start()])
    )
    return origin or bool(_PAST.search(clause))


def dates_a_plan(text: str, start: int, end: int, last: date, anchor: date) -> bool:
    """Whether the date at ``text[start:end]`` (ending on ``last``) makes the line a plan.

    It does not when it begins a state ("from tonight the dose is 10mg"), when it is the
    note's own day and its clause says something done or holding without a plan's words
    ("今天称了一下，74公斤了", "moved in today"), or when it dates what someone will or must
    do about a fact a clause before it, with no date, already states ("对花生过敏，周六聚餐
    别点…"; a bare dated clause after a statement is the line's plan: "在学车，周三考科目二")."""
    lo, hi = _clause_at(text, start, end)
    clause = text[lo:hi]
    if _ONSET_BEFORE.search(text[max(0, start - 10) : start]):
        return False
    if text[start:end].lower().startswith(("from ", "since ")):
        return False
    zh_onset = _ZH_ONSET_BEFORE.search(text[lo:start]) or _ONSET_AFTER.match(text, end)
    if zh_onset and not _FUTURE.search(clause) and _ZH_CHANGE.search(clause):
        return False
    if last <= anchor and not _FUTURE.search(clause) and _TAKEN_EFFECT.search(text):
        return False
    if last <= anchor and not _FUTURE.search(clause) and _HOLDS_NOW.search(text):
        return False  # "PB now 1:48 (race today)": a value said to hold now is no plan
    if not (_FUTURE.search(clause) or _IMPERATIVE.search(clause)):
        return True  # "用户在学车，周三考科目二": the dated clause is the line's plan
    dated = [(s, e) for s, e, _, _ in _matches(text)]
    pos = 0
    for piece in _CLAUSE_MARK.split(text[:lo]):
        p_lo, p_hi = pos, pos + len(piece)
        pos = p_hi + 1
        if any(s < p_hi and p_lo < e for s, e in dated):
            continue
        if _lasting(piece):
            return False
    return True


def worded_as_plan(text: str) -> bool:
    """Whether a line says what is still to come in a plan's words ("用户要搬家了，9月12日
    搬到滨江区", "will fly out on the 3rd"): an event so worded is a plan until its date."""
    return bool(_FUTURE.search(_SPEAKER.sub("", text.strip())))


def passed_clause(text: str, anchor: date, today: date) -> tuple[str, str] | None:
    """A line's clause that dates what someone will or must do about a fact stated before it
    ("对花生过敏，2026-12-05聚餐别点宫保鸡丁"), once that day has passed: ``(the rest, the
    clause)``, or None. The fact stays; the day's instruction is over."""
    for span in find(text, anchor):
        if span.plan or not anchor <= span.last < today:
            continue
        lo, hi = _clause_at(text, span.start, span.end)
        clause = text[lo:hi]
        if not (_FUTURE.search(clause) or _IMPERATIVE.search(clause)):
            continue
        rest = (text[:lo].rstrip("，,；; ") + text[hi:]).strip()
        rest = rest.rstrip("，,；; ")
        if any(_lasting(piece) for piece in _CLAUSE_MARK.split(rest)):
            return rest, clause.strip("，,；; ")
    return None


def latest(spans: list[DateSpan], anchor: date) -> date | None:
    """The last day named that is not before the note's date and dates a plan, if any."""
    days = [s.last for s in spans if s.last >= anchor and s.plan]
    return max(days) if days else None


# An end that has come ("Luna passed away", "外婆去世了"): what was had holds no more.
_ENDED = re.compile(r"去世|分手|离婚|(?i:\b(?:passed away|died|broke up|split up|divorced)\b)")


def took_effect(text: str) -> bool:
    """Whether a line tells a change made (a move, a new job, a new dose: "we moved to York
    in April", "上个月换了工作") with no plan's words: said of a day gone by, it is a fact as
    of that day, and may give a new value for what was said before it."""
    body = _SPEAKER.sub("", text.strip())
    return bool(_TAKEN_EFFECT.search(body) or _ENDED.search(body)) and not _FUTURE.search(body)
