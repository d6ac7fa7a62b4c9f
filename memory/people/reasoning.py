"""Deduction vs induction, as pure functions over words.

An **induction** generalises from instances: "通常", "usually", "似乎偏好", "tends to",
"总是", "often". However often it is confirmed it stays a pattern, with a confidence, and
lives only in the observations ledger. A **deduction** follows from recorded observations
and cites them; only a deduction may go on a card. A statement that doubts itself ("好像",
"maybe", "I think") is an observation, never a card line's replacement.
"""

from __future__ import annotations

import re

INDUCTION = re.compile(
    r"(?i)(通常|一般(?:都|会|在)|往往|经常|常常|总是|老是|每次都|似乎|好像总|看起来(?:喜欢|偏好)|"
    r"倾向于|多半|大多|习惯(?:于|性)|\busually\b|\bgenerally\b|\btypically\b|\boften\b|"
    r"\balways\b|\bmostly\b|\btends? to\b|\bseems? to\b|\bapparently\b|\bnormally\b|"
    r"\bmost of the time\b|\bevery time\b|\bhabitually\b|\bfrequently\b)"
)
HEDGE = re.compile(
    r"(?i)(好像|可能|也许|大概|不确定|听说|据说|应该是|我猜|吧[。.!！]?$|[?？]|\bmaybe\b|"
    r"\bperhaps\b|\bprobably\b|\bmight\b|\bi think\b|\bi guess\b|\bnot sure\b|\bheard\b|"
    r"\bapparently\b|\bi believe\b)"
)
_FIRST_PERSON = re.compile(
    r"(?i)我(?!们)|\bI\b|\bI'm\b|\bI've\b|\bI'd\b|\bI'll\b|\bmy\b|\bme\b|\bmine\b|\bmyself\b"
)
_WE = re.compile(r"我们|咱们|\bwe\b|\bour\b|\bus\b", re.I)

BASE_CONFIDENCE = 0.3
PER_EXTRA_SOURCE = 0.1
PER_EXTRA_DAY = 0.15
FIRST_HAND_BONUS = 0.1
MAX_CONFIDENCE = 0.9  # a pattern is never certain


def is_induction(text: str) -> bool:
    """A pattern rather than a fact: it generalises over many occasions."""
    return INDUCTION.search(text) is not None


def is_hedged(text: str) -> bool:
    """The statement doubts itself or reports hearsay."""
    return HEDGE.search(text) is not None


def first_person(text: str) -> bool:
    """The speaker talks about themselves ("我" but not "我们"; "I", "my")."""
    return _FIRST_PERSON.search(text) is not None


def speaks_for_a_group(text: str) -> bool:
    return _WE.search(text) is not None and _FIRST_PERSON.search(text) is None


def induction_confidence(sources: int, days: int, first_hand: bool) -> float:
    """How far a pattern is borne out: 0.3 for one statement, +0.1 per further statement,
    +0.15 per further day, +0.1 when the person said it of themselves; at most 0.9."""
    if sources < 1 or days < 1:
        return 0.0
    score = (
        BASE_CONFIDENCE
        + PER_EXTRA_SOURCE * (sources - 1)
        + PER_EXTRA_DAY * (days - 1)
        + (FIRST_HAND_BONUS if first_hand else 0.0)
    )
    return round(min(MAX_CONFIDENCE, score), 2)


_GREETING = (
    r"(?:hey|hi|hello|thanks|thank you|wow|oh|ah|yes|yeah|yep|sure|ok|okay|dear|agreed|"
    r"congrats|congratulations|good morning|good night|嗨|你好|谢谢|哇|好的|亲爱的)"
)
_SECOND_PERSON = re.compile(r"(?i)你|您|\byou\b|\byour\b|\byours\b|\byourself\b|\byou're\b")


def _vocative(name: str) -> re.Pattern[str]:
    n = re.escape(name)
    return re.compile(
        rf"(?i)(?:^\s*(?:{_GREETING}[\s,，!！]*)?{n}\s*[,，!！.。?？~:：]"
        rf"|[,，]\s*{n}\s*(?:[!！.。?？~,，]|$))"
    )


def only_addressed(text: str, name: str) -> bool:
    """``name`` is only called ("Thanks, Caroline!", "李四，你好"), not spoken of: every
    mention is a vocative and nothing is said to them in the second person."""
    if _SECOND_PERSON.search(text):
        return False
    vocatives = len(_vocative(name).findall(text))
    if not vocatives:
        return False
    pattern = rf"(?i)(?<![\w]){re.escape(name)}(?![\w])" if name.isascii() else re.escape(name)
    return vocatives >= len(re.findall(pattern, text))


def mentions(text: str, name: str) -> bool:
    """``text`` names ``name``: as a word for Latin names, as a substring for Chinese ones."""
    if not name:
        return False
    if name.isascii():
        return re.search(rf"(?i)(?<![\w]){re.escape(name)}(?![\w])", text) is not None
    return name in text
