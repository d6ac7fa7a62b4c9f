"""Why a trigger ran or held back a dream, said in the chat's language.

:mod:`bot.triggers` and :mod:`bot.nightly_pass` word each decision in English (that is
what ``memory/.dreams/events.jsonl`` keeps, for the command line and for people reading
the file). The shapes they write are recognised here and worded by the catalogues as
``why.<key>`` with the same named parts (as :mod:`bot.engine_messages` words the
engine's); anything else is passed on as it is.
``tests/bot/test_bot_triggers.py`` produces every shape from the real gates.
"""

from __future__ import annotations

import re

from bot.engine_messages import known_text
from bot.i18n import Translator

_NUMBER = r"\d+(?:\.\d+)?"

PATTERNS: dict[str, re.Pattern[str]] = {
    "manual": re.compile(r"asked for by an admin: every gate is bypassed"),
    "off": re.compile(r"dreaming is off for this chat"),
    "busy": re.compile(r"a dream is already queued or running"),
    "running": re.compile(r"a dream is already running"),
    "pressure": re.compile(
        r"MEMORY\.md holds about (?P<tokens>\d+) tokens, over its budget of (?P<budget>\d+)"
    ),
    "idle_off": re.compile(r"the idle trigger is off \(dream_idle_minutes 0\)"),
    "never_spoken": re.compile(r"nothing was said in this chat yet"),
    "active": re.compile(
        r"the chat was active (?P<ago>\d+) min ago; it needs (?P<need>\d+) quiet minutes"
    ),
    "min_hours": re.compile(
        rf"the last dream was (?P<since>{_NUMBER}) h ago; at least (?P<need>{_NUMBER}) h "
        r"must pass"
    ),
    "volume": re.compile(
        rf"only (?P<have>{_NUMBER}) KiB of new notes and conversation since the last dream; "
        rf"it needs (?P<need>{_NUMBER}) KiB"
    ),
    "quiet_min": re.compile(
        rf"quiet for (?P<quiet>{_NUMBER}) min with (?P<have>{_NUMBER}) KiB of new material"
    ),
    "quiet_h": re.compile(
        rf"quiet for (?P<quiet>{_NUMBER}) h with (?P<have>{_NUMBER}) KiB of new material"
    ),
    "nightly": re.compile(r"the nightly time"),
    "no_new_notes": re.compile(r"no new notes since the last dream"),
}


def reason_text(tr: Translator, reason: str) -> str:
    """``reason`` (a trigger decision's English wording) in ``tr``'s language."""
    return known_text(tr, reason, PATTERNS, "why")
