"""The memory engine's messages, said in the chat's language.

The memory engine is a library with its own command line, and words its results and
errors in English. The ones a chat can meet (a skipped dream's reason, undo, a refused
forget, an empty query, a missing note) are recognised here by their shape, and each
catalogue words them as ``engine.<key>`` with the same named parts. A message not listed
here is passed on as the engine wrote it. ``tests/bot/test_i18n.py`` produces every one
of them from the real engine, so a changed wording is caught.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from bot.i18n import Translator

PATTERNS: dict[str, re.Pattern[str]] = {
    "no_notes": re.compile(r"no daily notes in the last (?P<days>\d+) day\(s\)"),
    "unchanged": re.compile(r"inputs unchanged since the last dream \((?P<when>[^)]*)\)"),
    "nothing_to_undo": re.compile(r"nothing to undo: no dream has changed this memory yet.*"),
    "undone": re.compile(
        r"undone: MEMORY\.md and the archive are back to before the (?P<kind>\w+) of "
        r"(?P<when>\S+)"
    ),
    "interrupted": re.compile(r"the dream was interrupted; nothing was written"),
    "bot_stopped": re.compile(r"the bot stopped before this dream ran"),
    "forget_short": re.compile(r"forget needs at least (?P<n>\d+) characters to match"),
    "empty_query": re.compile(r"(?:empty search query|the search query is empty)"),
    "no_note": re.compile(r"no daily note for (?P<day>\S+)"),
    "not_a_date": re.compile(r"not a date \(YYYY-MM-DD\): (?P<text>.*)"),
    "no_chat": re.compile(r"no chat (?P<chat>.*) in this workspace"),
    "not_memory_file": re.compile(r"not a memory file: (?P<path>\S+) \(.*\)"),
    "not_a_ref": re.compile(r"not a source reference \(PATH#Ln or PATH#Ln-Lm\): (?P<ref>.*)"),
    "no_conflicts": re.compile(r"there is no open conflict in MEMORY\.md"),
    "no_such_conflict": re.compile(
        r"no open conflict (?P<cid>\S+) in MEMORY\.md \(open: (?P<open>[^)]*)\)"
    ),
    "conflict_sides": re.compile(r"conflict (?P<cid>\S+) has sides 1 to (?P<n>\d+)"),
    "resolve_usage": re.compile(r"resolve takes keep N, drop N or both"),
    "busy": re.compile(r"busy: \S+ is locked(?: by another process)?"),
}
_TIMES = {"when"}  # parts that are moments, shown the local way
_COUNTS = {"n", "days"}
_WORDS = {"kind"}  # parts that are the engine's own words (engine.kind.dream, ...)


def engine_text(tr: Translator, message: str) -> str:
    """``message`` from the memory engine in ``tr``'s language (as it is if unknown)."""
    return known_text(tr, message, PATTERNS, "engine")


def known_text(
    tr: Translator, message: str, patterns: Mapping[str, re.Pattern[str]], prefix: str
) -> str:
    """``message`` worded as ``<prefix>.<key>`` by the first of ``patterns`` it matches
    whole, with the pattern's named parts (moments shown the local way, counts as
    numbers); as it is when none matches."""
    text = message.strip()
    for key, pattern in patterns.items():
        match = pattern.fullmatch(text)
        if match is None:
            continue
        parts: dict[str, object] = {}
        for name, value in match.groupdict().items():
            if name in _TIMES:
                parts[name] = tr.datetime(value)
            elif name in _COUNTS:
                parts[name] = int(value)
            elif name in _WORDS and tr.has(f"{prefix}.{name}.{value}"):
                parts[name] = tr.t(f"{prefix}.{name}.{value}")
            else:
                parts[name] = value
        return tr.t(f"{prefix}.{key}", **parts)
    return message
