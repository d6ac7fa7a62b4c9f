"""Numbers written in words, read as the numbers they are.

"七十三", "两百", "三十" and "seventy-four", "thirty", "twenty one" name numbers as digits
do; a judgement that compares values ("七十三了" / "七十四了", "she's 86" / "she's
eighty-seven") must read them as 73, 200, 30, 74, 30, 21 first, or "七十三" and "七十四"
share the pair "七十" and look alike. The words are the closed class of numerals (Chinese
digits and places, English cardinals); a number too big for them is left to the digits.

Pure functions over a string: :func:`number` reads one numeral, :data:`ZH_NUMERAL` and
:data:`EN_NUMERAL` find them in a text.
"""

from __future__ import annotations

import re

# The Chinese digits and places, by value (also read by :mod:`quantities`).
ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5}
ZH_DIGITS |= {"六": 6, "七": 7, "八": 8, "九": 9}
ZH_PLACES = {"十": 10, "百": 100, "千": 1000}
_EN_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_EN_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_EN_VALUES = {w: i for i, w in enumerate(_EN_UNITS)} | {
    w: 20 + 10 * i for i, w in enumerate(_EN_TENS)
}

# A Chinese numeral of up to four places ("七十三", "两百", "一千二百零五").
ZH_NUMERAL = "[零〇一二两三四五六七八九十百千]{1,8}"
# An English cardinal below a hundred ("seventy-four", "twenty one", "sixteen").
EN_NUMERAL = (
    r"(?:(?:" + "|".join(_EN_TENS) + r")(?:[-\s](?:one|two|three|four|five|six|seven|eight|nine))?"
    r"|" + "|".join(sorted(_EN_UNITS, key=len, reverse=True)) + r")"
)
_EN_WHOLE = re.compile(rf"(?i){EN_NUMERAL}")


def zh_number(text: str) -> int | None:
    """The number a Chinese numeral writes ("七十三" 73, "十五" 15, "两百" 200, "一百零五"
    105), or None when ``text`` is no well-formed numeral."""
    if not text or any(ch not in ZH_DIGITS and ch not in ZH_PLACES for ch in text):
        return None
    total, digit, last_place = 0, None, 10_000
    for ch in text:
        if ch in ZH_DIGITS:
            if digit:
                return None  # two digits in a row ("七三") write no number; "零五" does
            digit = ZH_DIGITS[ch]
            continue
        place = ZH_PLACES[ch]
        if place >= last_place:
            return None  # "十百": the places must fall
        total += (1 if digit is None else digit) * place
        digit, last_place = None, place
    if digit is not None:
        total += digit
    return total


def en_number(text: str) -> int | None:
    """The number an English cardinal below a hundred writes ("seventy-four" 74, "sixteen"
    16, "twenty one" 21), or None."""
    if not _EN_WHOLE.fullmatch(text.strip()):
        return None
    parts = re.split(r"[-\s]+", text.strip().lower())
    return sum(_EN_VALUES[p] for p in parts)


def number(text: str) -> int | None:
    """The whole number ``text`` writes, in digits, Chinese or English words, or None."""
    text = text.strip()
    if text.isascii() and text.isdigit():
        return int(text)
    return zh_number(text) if not text.isascii() else en_number(text)


__all__ = ["EN_NUMERAL", "ZH_DIGITS", "ZH_NUMERAL", "ZH_PLACES", "en_number", "number", "zh_number"]
