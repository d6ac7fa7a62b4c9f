"""A light English suffix stripper for keyword search (``painted`` ~ ``paint``).

Applied to plain lower-case ASCII words of five letters or more, identically at index and
query time, so exact identifiers still match themselves. Chinese tokens pass unchanged.
Deliberately conservative: plural ``-s``/``-es``/``-ies``, ``-ing``, ``-ed``, ``-ly``.
"""

from __future__ import annotations

_VOWELS = set("aeiouy")


def _undouble(word: str) -> str:
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz" + "aeiou":
        return word[:-1]
    return word


def stem(word: str) -> str:
    if len(word) < 5 or not word.isascii() or not word.isalpha():
        return word
    return _strip(word)


def _strip(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix):
            base = word[: -len(suffix)]
            if len(base) >= 3 and _VOWELS & set(base):
                return _undouble(base)
    if word.endswith("ly") and len(word) > 5:
        return word[:-2]
    return word
