"""The text judgements the light phase shares with the extractive engine: one place to
follow them.

The engine (``memory/dream/extractive.py``) leaves out a note line that is noise
(:func:`memory.chatter.is_noise`) or that its statement classifier
(:mod:`memory.dream.judge.classifier`) finds likelier chatter than its threshold, and
merges two statements when :func:`memory.dream.judge.relations.same_fact` says they are
one fact about one subject. :class:`TextJudge` asks exactly those, for the lines of one
dream (classified in one batch, by the same wording and the same embeddings the engine
reads), so light stages what the engine would keep and merges what it would merge.

Also here: the plain-text :func:`same_fact` and :func:`supersedes` (what the llm engine
asks of its items), :func:`concepts` (the content words of a statement: conceptual
richness, themes), :func:`blocking_keys` (what finds restatement candidates quickly) and
:func:`interruptible`: inside it, the judgements check every so often whether the dream
was asked to stop.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache

import numpy as np

from memory.chatter import is_noise
from memory.dream import similarity
from memory.dream.embed_cache import EmbeddingCache
from memory.dream.extractive import CHATTER_THRESHOLD, WORDS_CHATTER_THRESHOLD
from memory.dream.judge import importance, relations
from memory.dream.judge.classifier import Judgement, classify
from memory.dream.judge.relations import Said, subject_of
from memory.dream.judge.wording import readable, worded
from memory.dream.similarity import features, near_duplicate
from memory.dream.verdicts import VerdictCache
from memory.plain_chinese import plain
from memory.speaker import split

CHECK_EVERY = 256
_watch = threading.local()
_LOWEST = importance.KIND_WEIGHT["chatter"]
_HIGHEST = max(importance.KIND_WEIGHT.values())


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


def tick() -> None:
    """Count one judgement; every ``CHECK_EVERY``, check for a stop request."""
    check = getattr(_watch, "check", None)
    if check is not None:
        _watch.count += 1
        if _watch.count % CHECK_EVERY == 0:
            check()


class TextJudge:
    """The engine's judgements over the lines of one dream.

    A line is classified as the engine classifies it: by its wording
    (:func:`memory.dream.judge.wording.worded`), over its embedding when ``cache`` is given
    (the root's :class:`EmbeddingCache`, which the engine then finds filled) with the
    engine's chatter threshold, else by words with the stricter one."""

    def __init__(
        self,
        texts: Iterable[str],
        cache: EmbeddingCache | None = None,
        verdicts: VerdictCache | None = None,
    ) -> None:
        texts = list(texts)
        self.verdicts = verdicts  # the root's pair verdicts (memory.dream.verdicts), if kept
        self.names = frozenset(
            s for s in (split(plain(t)).speaker for t in texts) if s and s not in ("用户", "User")
        )
        self.cache = cache
        self.threshold = CHATTER_THRESHOLD if cache is not None else WORDS_CHATTER_THRESHOLD
        self._judged: dict[str, Judgement] = {}
        self._said: dict[str, Said] = {}
        self._transient: dict[str, bool] = {}
        self.prepare(texts)

    def prepare(self, texts: Iterable[str]) -> None:
        """Classify, in one batch, the texts not judged yet."""
        fresh = sorted({t for t in texts if t not in self._judged})
        if not fresh:
            return
        read = [plain(t) for t in fresh]  # as the engine reads them (Simplified Mandarin)
        wordings = [readable(worded(split(t)) or t) for t in read]
        if self.cache is None:
            self._judged.update(zip(fresh, classify(wordings), strict=True))
            return
        # noise is left out whatever its kind: neither embedded nor kept by the engine
        pairs = [(t, w) for t, r, w in zip(fresh, read, wordings, strict=True) if not is_noise(r)]
        unique = sorted({w for _, w in pairs})
        rows = dict(zip(unique, self.cache.embed(unique), strict=True))
        vectors = np.vstack([rows[w] for _, w in pairs]) if pairs else None
        judged = classify([w for _, w in pairs], vectors)
        self._judged.update(zip((t for t, _ in pairs), judged, strict=True))
        rest = [t for t in fresh if t not in self._judged]
        self._judged.update(zip(rest, classify([plain(t) for t in rest]), strict=True))

    def judgement(self, text: str) -> Judgement:
        if text not in self._judged:
            self.prepare([text])
        return self._judged[text]

    def transient(self, text: str) -> bool:
        """Left out as the engine leaves it out: noise, or likely chatter."""
        tick()
        if text not in self._transient:
            noise = is_noise(plain(text))
            self._transient[text] = noise or self.judgement(text).chatter >= self.threshold
        return self._transient[text]

    def said(self, text: str) -> Said:
        if text not in self._said:
            read = plain(text)
            self._said[text] = Said(read, subject_of(read, self.names), self.judgement(text).kind)
        return self._said[text]

    def same_fact(self, a: str, b: str) -> bool:
        """One fact about one subject, as the engine decides without embeddings."""
        tick()
        if self.verdicts is None:
            return relations.same_fact(self.said(a), self.said(b))
        return self.verdicts.ask("same_fact", self.said(a), self.said(b), None, relations.same_fact)

    def durability(self, text: str) -> float:
        """How lasting the statement's kind is, in [0, 1], by the engine's own weights."""
        judged = self.judgement(text)
        weight = importance.KIND_WEIGHT.get(judged.kind, _LOWEST) * (1.0 - judged.chatter)
        return max(0.0, min(1.0, (weight - _LOWEST) / (_HIGHEST - _LOWEST)))


@lru_cache(maxsize=200_000)
def _near_duplicate(a: str, b: str) -> bool:
    return near_duplicate(a, b)


def same_fact(a: str, b: str) -> bool:
    """Two texts that state one thing (the wording test, without subjects or embeddings;
    cached: the phases and the engines compare the same pairs)."""
    tick()
    return _near_duplicate(plain(a), plain(b))


def supersedes(newer: str, older: str) -> bool:
    """Whether ``newer`` replaces ``older``: the same thing, stated differently later."""
    tick()
    return similarity.supersedes(plain(newer), plain(older))


def concepts(text: str) -> frozenset[str]:
    """The statement's content words (discourse words left out)."""
    return features(text).words


@lru_cache(maxsize=100_000)
def blocking_keys(text: str) -> frozenset[str]:
    """Words and Chinese character pairs: two restatements share some of them."""
    f = features(text)
    return f.words | f.grams
