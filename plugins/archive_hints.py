"""Archived items whose trigger words occur in a message (pure functions).

An archived item's trigger words are its content words (jieba for Chinese, whole ASCII
words, stopwords dropped). An item matches a message when it shares at least
``min(2, number of its trigger words)`` of them; matches rank by the number of shared
words, then by the share of the item's words that matched, then newest first.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory.segment import content_words


def trigger_words(text: str) -> frozenset[str]:
    return frozenset(content_words(text, for_search=True))


def match_archive(items: Sequence[str], message: str, *, limit: int = 3) -> list[str]:
    """Up to ``limit`` of ``items`` (oldest first) whose trigger words match ``message``."""
    if limit <= 0:
        return []
    said = trigger_words(message)
    if not said:
        return []
    scored: list[tuple[int, float, int, str]] = []
    for index, text in enumerate(items):
        words = trigger_words(text)
        if not words:
            continue
        shared = len(words & said)
        if shared >= min(2, len(words)):
            scored.append((shared, shared / len(words), index, text))
    scored.sort(key=lambda s: (-s[0], -s[1], -s[2]))
    return [text for *_, text in scored[:limit]]
