"""Amounts read as one quantity whatever their wording.

A weight, a height, a price or a clock time is said many ways: "80 kg", "80 kilos",
"一百六十斤", "176 lbs"; "1.75 m", "175 厘米", "一米七五"; "£950", "3800 块", "3800 元";
"7点半", "7:30", "7.30pm"; "一个半小时", "90 minutes". A judgement that compares values
must read each as its quantity first, or "80 kg" and "74 kilos" name two slots, "175 厘米"
and "1.75 米" two values, and "一百四十五斤" the number 140.

Two pure steps: :func:`canonical` writes a text's Chinese numerals, clock times and
Chinese heights in digits ("一百六十斤" -> "160斤", "晚上7点半" -> "7:30", "一米七五" ->
"1.75米", "一个半小时" -> "1.5小时"), and :func:`measure` names the quantity a unit
measures and the amount in that quantity's own unit ("斤", 160 -> ``("mass", "80")``; "cm",
175 -> ``("length", "1.75")``). The units are the closed class of everyday measures; a unit
outside it is left as it is written.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory.dream.judge.numerals import ZH_DIGITS as _DIGIT
from memory.dream.judge.numerals import ZH_PLACES as _PLACES
from memory.dream.judge.numerals import number as _small_number

_DIGITS = "".join(_DIGIT)

# Words a Chinese numeral counts or measures, after which it is a number ("一百六十斤",
# "三点五公斤", "两个月"); not 点 (a clock), 分 (a score or a minute), 下/起/直/样 ("一下",
# "一起": no number).
_ZH_UNITS = (
    "公斤 千克 斤 克 厘米 公分 毫米 公里 千米 米 块钱 块 元 岁 周岁 分钟 小时 秒 天 周 "
    "星期 个月 个 月 年 次 遍 杯 只 条 头 本 位 节 瓶 片 颗 粒 顿 层 楼 套 辆 台 张 间 件 所 "
    "家 人 口 门 公斤半 斤半"
).split()
_ZH_UNIT = "|".join(sorted(_ZH_UNITS, key=len, reverse=True))
# A Chinese numeral with places or a decimal point, or a bare digit word, before its unit.
_ZH_AMOUNT = re.compile(
    rf"(?<![{_DIGITS}十百千万点\d])"
    rf"(?P<n>[{_DIGITS}十][{_DIGITS}十百千万]*(?:点[{_DIGITS}]+)?)"
    rf"(?P<half>个半|半)?(?=个?(?:{_ZH_UNIT}))"
)
# A numeral of ten thousands or more written with its magnitude ("两万五", "一百二十万"),
# a number wherever it stands.
_ZH_BIG = re.compile(
    rf"(?<![{_DIGITS}十百千万点\d])(?P<n>[{_DIGITS}十百千]*[{_DIGITS}十][百千万][{_DIGITS}十百千万]*)"
)
# A height in the Chinese way, metres then centimetres ("一米七五" 1.75, "1米8" 1.8, "一米二").
_ZH_HEIGHT = re.compile(
    rf"(?P<m>[一两二12])\s*米\s*(?P<cm>[{_DIGITS}]{{1,2}}|\d{{1,2}})(?![\d{_DIGITS}十百厘毫])"
)
# A clock time said in Chinese ("晚上7点半", "早上八点", "9点15分", "十点一刻").
_ZH_CLOCK = re.compile(
    rf"(?P<part>凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里)?\s*"
    rf"(?P<h>\d{{1,2}}|[{_DIGITS}十]{{1,3}})\s*点(?!钟?\s*[{_DIGITS}十]*\s*(?:公斤|斤|米|万))"
    rf"(?:钟)?(?P<m>半|一刻|三刻|\d{{1,2}}\s*分?|[{_DIGITS}十]{{1,3}}\s*分?)?"
)
_HALF_AFTER = re.compile(r"(?<![\d.])(?P<n>\d+)(?P<unit>岁|斤|公斤|小时|个月|年|块|元|万)半")
_COUNTED = re.compile(r"(?<=\d)个(?=小时|钟头|半小时)")
# ten thousands written in digits ("1.5 万", "8万"), and a percentage in words ("百分之八十")
_DIGIT_WAN = re.compile(r"(?P<n>\d+(?:\.\d+)?)\s*万")
_ZH_PERCENT = re.compile(rf"百分之(?P<n>[{_DIGITS}十百]+(?:点[{_DIGITS}]+)?)")
# A clock time said in English ("9am", "5:30pm", "7.30 p.m.", "10 o'clock").
_EN_CLOCK = re.compile(
    r"(?i)(?<![\d:.])(?P<h>\d{1,2})(?:[:.](?P<m>\d{2}))?\s*"
    r"(?P<ap>am|pm|a\.m\.|p\.m\.|o'clock)(?![a-z])"
)
_PM_PARTS = frozenset("下午 傍晚 晚上 夜里".split())

# unit -> (quantity, factor to the quantity's own unit). English units as they are written
# and stemmed ("kilos" -> "kilo").
_UNITS: dict[str, tuple[str, float]] = {}
for _names, _quantity, _factor in (
    ("kg kgs kilo kilos kilogram kilograms 公斤 千克", "mass", 1.0),
    ("斤", "mass", 0.5),
    ("lb lbs", "mass", 0.45359237),  # "pounds" may be money ("45 pounds a month"): as written
    ("cm cms centimetre centimetres centimeter centimeters 厘米 公分", "length", 0.01),
    ("m metre metres meter meters 米", "length", 1.0),
    ("km kms kilometre kilometres kilometer kilometers 公里 千米", "length", 1000.0),
    ("mile miles", "length", 1609.344),
    ("元 块 块钱 rmb yuan", "cny", 1.0),
    ("£ quid", "gbp", 1.0),
    ("$ dollar dollars buck bucks", "usd", 1.0),
    ("€ euro euros", "eur", 1.0),
    ("% percent per cent", "percent", 1.0),
):
    for _name in _names.split():
        _UNITS[_name] = (_quantity, _factor)
CURRENCY = re.compile(
    r"(?P<sym>[£$€¥￥])\s*(?P<n>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?P<k>k\b)?"
)


def zh_amount(text: str) -> float | None:
    """The number a Chinese numeral writes, colloquial forms too ("一百六十" 160, "一百四十五"
    145, "两万五" 25000, "三千五" 3500, "一百二" 120, "三点五" 3.5), or None."""
    whole, _, decimal = text.partition("点")
    if decimal and not all(ch in _DIGIT for ch in decimal):
        return None
    value = _zh_whole(whole)
    if value is None:
        return None
    if decimal:
        value += float("0." + "".join(str(_DIGIT[ch]) for ch in decimal))
    return value


def _zh_whole(text: str) -> float | None:
    if not text:
        return None
    if "万" in text:
        high, _, low = text.partition("万")
        head = _zh_whole(high)
        if head is None or "万" in low:
            return None
        if low and all(ch in _DIGIT for ch in low) and len(low) == 1 and low != "零":
            return head * 10_000 + _DIGIT[low] * 1_000  # 两万五: 25000
        tail = _zh_whole(low.lstrip("零")) if low.strip("零") else 0.0
        return None if tail is None else head * 10_000 + tail
    if all(ch in _DIGIT for ch in text):
        return float(_DIGIT[text]) if len(text) == 1 else None
    # colloquial: a digit after the last place is worth a tenth of it (一百二, 三千五)
    last = text[-1]
    if last in _DIGIT and len(text) >= 3 and text[-2] in _PLACES and text[-2] != "十":
        head = _small_number(text[:-1])
        return None if head is None else float(head + _DIGIT[last] * _PLACES[text[-2]] // 10)
    value = _small_number(text)
    return None if value is None else float(value)


def _clock(hour: int, minute: int, part: str = "") -> str | None:
    if part in _PM_PARTS and hour < 12:
        hour += 12
    if part == "中午" and hour < 5:
        hour += 12
    if not (0 <= hour <= 24 and 0 <= minute < 60):
        return None
    # on the 12-hour dial: "at 5:30" is the "5:30pm" said before, "晚上7点" the "7点"
    return f"{(hour - 1) % 12 + 1}:{minute:02d}"


def _zh_clock(m: re.Match[str]) -> str:
    h = m["h"]
    if h in ("一", "两") and not (m["part"] or m["m"] or "钟" in m.group(0)):
        return m.group(0)  # "一点" is "a little", "两点" two points: no clock without more
    hour = int(h) if h.isdigit() else zh_amount(h)
    minute_text = (m["m"] or "").rstrip("分").strip()
    minute: float | None = {"": 0, "半": 30, "一刻": 15, "三刻": 45}.get(minute_text)
    if minute is None:
        minute = int(minute_text) if minute_text.isdigit() else zh_amount(minute_text)
    if hour is None or minute is None or not float(hour).is_integer():
        return m.group(0)
    clock = _clock(int(hour), int(minute), m["part"] or "")
    # the part of the day stays a word of the text ("下午" is what two lines may share)
    return m.group(0) if clock is None else f"{m['part'] or ''} {clock} "


def _en_clock(m: re.Match[str]) -> str:
    hour, minute, ap = int(m["h"]), int(m["m"] or 0), m["ap"].lower().replace(".", "")
    if ap in ("am", "pm") and not 1 <= hour <= 12:
        return m.group(0)
    if ap == "pm" and hour < 12:
        hour += 12
    if ap == "am" and hour == 12:
        hour = 0
    clock = _clock(hour, minute)
    return m.group(0) if clock is None else f"{clock} "


def _digits(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _zh_height(m: re.Match[str]) -> str:
    metres = 1 if m["m"] in "一1" else 2
    cm = m["cm"]
    tail = cm if cm.isdigit() else "".join(str(_DIGIT[ch]) for ch in cm)
    return f"{metres}.{tail}米"


def _zh_number(m: re.Match[str]) -> str:
    value = zh_amount(m["n"])
    if value is None:
        return m.group(0)
    half = m.groupdict().get("half") or ""
    if half:
        value += 0.5
    return _digits(value)


@lru_cache(maxsize=50_000)
def canonical(text: str) -> str:
    """``text`` with its Chinese heights, clock times and numerals before a unit in digits,
    and its English clock times, on the 12-hour dial (a time said without its half of the day
    is the same time) (what :func:`measure` and the value
    types read)."""
    text = _ZH_HEIGHT.sub(_zh_height, text)
    text = _ZH_CLOCK.sub(_zh_clock, text)
    text = _EN_CLOCK.sub(_en_clock, text)
    text = _ZH_AMOUNT.sub(_zh_number, text)
    text = _COUNTED.sub("", text)  # "2个小时": the hours, as "2小时"
    text = _HALF_AFTER.sub(lambda m: f"{m['n']}.5{m['unit']}", text)  # "3岁半": 3.5岁
    text = _ZH_BIG.sub(_zh_number, text)
    text = _ZH_PERCENT.sub(lambda m: _zh_number(m) + "%", text)
    return _DIGIT_WAN.sub(lambda m: _digits(float(m["n"]) * 10_000), text)


# Units of time and counts in English, and the measure words of Chinese (:data:`_ZH_UNITS`):
# with the units of :data:`_UNITS`, the words that say what a number is counted in, not what
# it counts ("10 hours", "3000元", "12楼").
_COUNTED_IN = frozenset(
    "hour hours hr hrs h minute minutes min mins second seconds sec secs time times day days "
    "week weeks month months year years floor storey 楼 层 分 分钟 点 号".split()
) | frozenset(_ZH_UNITS)


def is_unit(word: str) -> bool:
    """Whether ``word`` names the unit a number is in (kg, 元, hours, 楼, %), no thing."""
    low = word.lower()
    return low in _COUNTED_IN or low in _UNITS


# Units several words write, each read as the one word of its quantity the judgement
# compares ("150斤" is "75公斤", "3000块" "3000元", "15k" "15000"): two statements of one
# weight or one rent share the word beside their numbers, however each wrote its unit.
_ONE_UNIT = {
    "斤": ("公斤", 0.5),
    "千克": ("公斤", 1.0),
    "公分": ("厘米", 1.0),
    "千米": ("公里", 1.0),
    "块钱": ("元", 1.0),
    "块": ("元", 1.0),
    "kilo": ("kg", 1.0),
    "kilos": ("kg", 1.0),
    "kilogram": ("kg", 1.0),
    "kilograms": ("kg", 1.0),
    "kgs": ("kg", 1.0),
    "lb": ("kg", 0.45359237),
    "lbs": ("kg", 0.45359237),
    "k": ("", 1000.0),
}
_UNIT_WRITTEN = re.compile(
    r"(?<![\d.])(?P<n>\d+(?:\.\d+)?)\s*"
    r"(?:(?P<zh>斤(?!半)|千克|公分|千米|块钱|块(?=$|[\s\d，,。；;！!？?了的/每一])))"
    r"|(?<![\d.])(?P<en_n>\d+(?:\.\d+)?)\s*(?P<en>(?i:kilograms?|kilos?|kgs|lbs?|k))\b"
)


def _one_unit(m: re.Match[str]) -> str:
    number, unit = (m["n"], m["zh"]) if m["zh"] else (m["en_n"], m["en"].lower())
    word, factor = _ONE_UNIT[unit]
    value = float(number) * factor
    # a converted weight to one place, as it is said ("150斤" 75, "176 lbs" 79.8)
    amount = _digits(round(value, 1)) if factor != 1.0 else number
    return f"{amount}{' ' if word.isascii() and word else ''}{word}"


def one_unit(text: str) -> str:
    """``text`` with each amount in the one unit word of its quantity ("150斤" -> "75公斤",
    "3000块钱" -> "3000元", "176 lbs" -> "79.8 kg", "15k" -> "15000"): what the words
    beside two numbers are compared by (:func:`canonical` first reads the numerals)."""
    return _UNIT_WRITTEN.sub(_one_unit, text)


def measure(unit: str, amount: float) -> tuple[str, str] | None:
    """The quantity ``unit`` measures and ``amount`` in that quantity's own unit, rounded
    as a measurement is ("斤", 160 -> ("mass", "80"); "cm", 175 -> ("length", "1.75")), or
    None for a unit of no known quantity."""
    found = _UNITS.get(unit.lower())
    if found is None:
        return None
    quantity, factor = found
    value = amount * factor
    # two significant places past what the unit writes: 176 lbs and 80 kg stay apart
    rounded = f"{float(f'{value:.3g}'):f}"
    return quantity, rounded.rstrip("0").rstrip(".") if "." in rounded else rounded


__all__ = ["CURRENCY", "canonical", "is_unit", "measure", "one_unit", "zh_amount"]
