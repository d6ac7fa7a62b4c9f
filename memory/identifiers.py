"""Checksums that tell a real card or identity number from any long run of digits.

Pure functions: redaction masks a digit run only when its checksum holds, so order
numbers, timestamps and phone-like ids that merely look long are kept.
"""

from __future__ import annotations

import re

_CN_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_CN_ID_CHECK = "10X98765432"
# Issuer prefixes of payment cards: Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay,
# Maestro, Mir.
_CARD_PREFIX = re.compile(r"^(?:4|5[1-5]|2[2-7]|3[47]|6011|64[4-9]|65|35|3[068]|62|5[06-8]|220)")


def luhn_valid(digits: str) -> bool:
    """The Luhn (mod 10) check of a payment card number; ``digits`` only digits."""
    if not digits.isdigit() or len(digits) < 2:
        return False
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2 == 1:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def is_card_number(digits: str) -> bool:
    """A 13-19 digit number with a card issuer's prefix that passes the Luhn check."""
    return 13 <= len(digits) <= 19 and bool(_CARD_PREFIX.match(digits)) and luhn_valid(digits)


def is_cn_resident_id(text: str) -> bool:
    """An 18-character Chinese resident identity number with a plausible birth date and a
    valid ISO 7064 MOD 11-2 check character."""
    if len(text) != 18 or not text[:17].isdigit() or text[0] == "0":
        return False
    year, month, day = int(text[6:10]), int(text[10:12]), int(text[12:14])
    if not (1900 <= year <= 2099 and 1 <= month <= 12 and 1 <= day <= 31):
        return False
    total = sum(int(d) * w for d, w in zip(text[:17], _CN_ID_WEIGHTS, strict=True))
    return _CN_ID_CHECK[total % 11] == text[17].upper()


def is_us_ssn(area: str, group: str, serial: str) -> bool:
    """A US social security number's parts as issued (never 000, 666, 9xx, 00 or 0000)."""
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"
