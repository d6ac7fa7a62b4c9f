"""The text judgements the phases and the engines share: one place to improve them.

- :func:`is_transient`: chatter, questions, "asked about…" lines and secrets, which stay
  in the notes and are never distilled;
- :func:`same_fact`: one statement restated (light merges them, the engines too);
- :func:`supersedes`: a newer statement replacing an older one about the same thing;
- :func:`concepts`: the content words a statement carries (conceptual richness, themes);
- :func:`durability`: how lasting a statement's kind is, in [0, 1];
- :func:`blocking_keys`: the words and character pairs that find restatement candidates.

Inside :func:`interruptible` (one dream, in its own thread) the judgements also check
every so often whether the dream was asked to stop, so the engines' long loops end
promptly without knowing about it.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from functools import lru_cache

from memory import chatter
from memory.dream import similarity
from memory.dream.similarity import KIND_WEIGHT, features, near_duplicate

__all__ = [
    "blocking_keys",
    "concepts",
    "durability",
    "is_transient",
    "same_fact",
    "supersedes",
]

_LOWEST, _HIGHEST = min(KIND_WEIGHT.values()), max(KIND_WEIGHT.values())


CHECK_EVERY = 256
_watch = threading.local()


@contextlib.contextmanager
def interruptible(check: Callable[[], None]) -> Iterator[None]:
    """Call ``check`` (which raises to stop) every ``CHECK_EVERY`` judgements made by this
    thread inside the block."""
    previous = getattr(_watch, "check", None)
    _watch.check, _watch.count = check, 0
    try:
        yield
    finally:
        _watch.check = previous


def _tick() -> None:
    check = getattr(_watch, "check", None)
    if check is not None:
        _watch.count += 1
        if _watch.count % CHECK_EVERY == 0:
            check()


@lru_cache(maxsize=200_000)
def _same_fact(a: str, b: str) -> bool:
    return near_duplicate(a, b)


def same_fact(a: str, b: str) -> bool:
    """One statement restated (cached: light and the engine compare the same pairs)."""
    _tick()
    return _same_fact(a, b)


def supersedes(newer: str, older: str) -> bool:
    """Whether ``newer`` replaces ``older``: the same thing, stated differently later."""
    _tick()
    return similarity.supersedes(newer, older)


@lru_cache(maxsize=100_000)
def _is_transient(text: str) -> bool:
    return chatter.is_transient(text)


def is_transient(text: str) -> bool:
    """Chatter, questions, "asked about…" lines and secrets (cached: notes repeat a lot)."""
    _tick()
    return _is_transient(text)


def concepts(text: str) -> frozenset[str]:
    """The statement's content words (discourse words left out)."""
    return features(text).words


def durability(text: str) -> float:
    """1 for the most lasting kind (preferences), 0 for the least (other)."""
    weight = KIND_WEIGHT[features(text).kind]
    return (weight - _LOWEST) / (_HIGHEST - _LOWEST)


@lru_cache(maxsize=100_000)
def blocking_keys(text: str) -> frozenset[str]:
    """Words and Chinese character pairs: two restatements share some of them."""
    f = features(text)
    return f.words | f.grams
