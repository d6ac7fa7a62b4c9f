"""What a statement is about: its content words, past its dates, numbers and generic subject.

``core_words`` is the set most pair judgements compare ("住在上海浦东" and "还是住浦东" share
浦东); ``undated`` is a statement without its date expressions.
"""

from __future__ import annotations

from datetime import date
from functools import lru_cache

from memory.dream.judge.dates import find
from memory.dream.judge.slots import ISO_DATE
from memory.dream.text_memo import persisted
from memory.search.stemming import stem
from memory.segment import content_words

# The subject's generic name, no word of what is said of it.
GENERIC = frozenset({"用户", "user", "user's", "the"})
ANY_DAY = date(2000, 1, 1)  # where a date is, not which, matters here


@lru_cache(maxsize=50_000)
def undated(text: str) -> str:
    """``text`` without its date expressions."""
    out, last = [], 0
    for span in find(text, ANY_DAY):
        out.append(text[last : span.start])
        last = span.end
    out.append(text[last:])
    return ISO_DATE.sub(" ", " ".join(out))


@lru_cache(maxsize=50_000)
@persisted("relations.core")
def core_words(text: str) -> frozenset[str]:
    """What a statement is about beyond its subject, dates and numbers: its content words,
    dates, numbers and the subject's generic name left out; English words by their stem
    ("meeting" ~ "meet", "moved" ~ "move")."""
    return frozenset(
        stem(w) for w in content_words(undated(text)) if not w[:1].isdigit() and w not in GENERIC
    )
