"""The features the judge's classifier reads from one statement (training and runtime alike).

Chinese runs give character 1- to 3-grams, other text lower-cased words and word pairs,
plus a few shape features: a question, digits, a date, code or JSON, first person,
length. The speaker prefix is not part of the text: ``speaker:user``/``speaker:name``/
``speaker:assistant`` say who spoke instead, so names never become features.
"""

from __future__ import annotations

import itertools
import re
from datetime import date

from memory.dream.judge.dates import find
from memory.speaker import split

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_CODE = re.compile(r"[{}\[\]<>=_/\\]|::|\(\)|\b[A-Z][a-z]+Error\b|\b[A-Z]{4,}\b|\d{3}\b")
_QUESTION = re.compile(r"[?？]\s*$|(?:吗|呢|么)[。.!！]?\s*$")
_FIRST = re.compile(r"我|(?i:\b(?:i|i'm|i've|i'll|i'd|my|me|mine)\b)")
_EMOJI = re.compile(r"[\U0001F300-\U0001FAFF\u2600-\u27BF]")
_ANCHOR = date(2026, 6, 15)  # any fixed day: only whether a date is named matters


def _shape(body: str) -> list[str]:
    out = []
    n = len(body)
    out.append("len:" + ("xs" if n < 6 else "s" if n < 14 else "m" if n < 30 else "l"))
    if _QUESTION.search(body):
        out.append("shape:question")
    if re.search(r"\d", body):
        out.append("shape:digit")
    if len(_CODE.findall(body)) >= 2:
        out.append("shape:code")
    if _FIRST.search(body):
        out.append("shape:first_person")
    if _EMOJI.search(body):
        out.append("shape:emoji")
    if find(body, _ANCHOR):
        out.append("shape:date")
    return out


def features(text: str) -> list[str]:
    """The feature names of one note line or item (duplicates kept: they are counts)."""
    spoken = split(text)
    body = spoken.body
    if spoken.speaker is None:
        out = ["speaker:none"]
    elif spoken.by_assistant:
        out = ["speaker:assistant"]
    elif spoken.by_user:
        out = ["speaker:user"]
    else:
        out = ["speaker:name"]
    out += _shape(body)
    for run in _CJK.findall(body):
        padded = f"^{run}$"
        out += [f"c1:{ch}" for ch in run]
        out += [f"c2:{padded[i : i + 2]}" for i in range(len(padded) - 1)]
        out += [f"c3:{padded[i : i + 3]}" for i in range(len(padded) - 2)]
    latin = _CJK.sub(" | ", body.lower())
    words = _WORD.findall(latin)
    out += [f"w:{w}" for w in words]
    out += [f"w2:{a}_{b}" for a, b in itertools.pairwise(words)]
    if words:
        out.append(f"w0:{words[0]}")
    return out
