"""Pair verdicts of the dream's judgement, cached per memory root.

A nightly dream asks the same pair questions as the night before: whether two wordings
are one fact (about 21,000 ``same_fact`` tests on a month of notes: the light phase's
grouping and the engine's clustering), whether a newer statement gives a new value for an
older one (supersession), and the learned slot model's probability that it does (a number:
which of several older slots a change retires). Each is a pure function of the two
statements as judged (text, subject, kind, whether it is a plan ahead) and their
embeddings' cosine; its verdict is kept in ``memory/.dreams/verdicts.npz`` under a 64-bit
digest of those, so a nightly dream judges only the pairs it has not judged before (those
with a new line, or newly side by side).

The file is derived data, like the embedding cache beside it: it holds digests, booleans
and probabilities, no text; it is valid for one version of the code (a digest of every
file of the ``memory`` package and of jieba's dictionary: any change to the judgement, or
to anything it reads, starts an empty cache); a missing, unreadable (logged) or foreign
file is ignored and rebuilt; failing to write it changes nothing else. A pruning save
keeps the verdicts asked for since the previous one (a night's pairs), so it stays the
size of one dream's questions.
"""

from __future__ import annotations

import hashlib
import logging
import sys
import threading
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

import numpy as np

from memory.dream import keyed_npz
from memory.dream.embed_cache import enabled
from memory.dream.judge.relations import Said
from memory.segment import segmenter_id

log = logging.getLogger(__name__)

FILE = "verdicts.npz"
T = TypeVar("T", bool, float)
_PACKAGE = Path(__file__).resolve().parents[1]  # the memory package


@lru_cache(maxsize=1)
def code_key() -> str:
    """A digest of the code the verdicts come from: every file of the ``memory`` package
    (its data files too: the classifier's weights), jieba's dictionary and Python's
    version."""
    digest = hashlib.sha1(f"{sys.version_info[:2]}|{segmenter_id()}".encode())
    for path in sorted(_PACKAGE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


def pair_key(test: str, a: Said, b: Said, cosine: float | None) -> int:
    """The digest a verdict is kept under: the test's name, both statements as judged and
    the cosine (exactly: its shortest repr)."""
    raw = f"{test}\x1e{a.key}\x1e{b.key}\x1e{cosine!r}".encode()
    return int.from_bytes(hashlib.blake2b(raw, digest_size=8).digest(), "little")


class VerdictCache:
    """``ask(test, a, b, cosine, judge)``: the cached verdict, or ``judge``'s (kept);
    ``score(...)`` likewise for a judgement that is a number."""

    def __init__(self, path: Path, key: str) -> None:
        self.path = path
        self.key = key
        self.known: dict[int, bool] = {}
        self.scores: dict[int, float] = {}
        self.asked: set[int] = set()  # digests asked for since the last pruning save
        self.hits = self.misses = 0  # since made or last saved (the dream logs them)
        self._dirty = False
        self.loaded: tuple[int, int] | None = None
        self._mutex = threading.Lock()  # a preview may judge while a dream saves
        self._load()

    def stamp(self) -> tuple[int, int] | None:
        return keyed_npz.stamp(self.path)

    def _load(self) -> None:
        self.loaded = self.stamp()
        data = keyed_npz.read(self.path, self.key, ("true", "false", "scored", "scores"))
        if data is None:
            return
        true, false = data["true"], data["false"]
        self.known = dict.fromkeys(false.tolist(), False)
        self.known.update(dict.fromkeys(true.tolist(), True))
        self.scores = dict(zip(data["scored"].tolist(), data["scores"].tolist(), strict=True))

    def ask(
        self,
        test: str,
        a: Said,
        b: Said,
        cosine: float | None,
        judge: Callable[[Said, Said, float | None], bool],
    ) -> bool:
        key = pair_key(test, a, b, cosine)
        return self._kept(self.known, key, lambda: judge(a, b, cosine))

    def score(
        self,
        test: str,
        a: Said,
        b: Said,
        cosine: float | None,
        judge: Callable[[Said, Said, float | None], float],
    ) -> float:
        """:meth:`ask` for a judgement that is a number (kept exactly: a float64)."""
        key = pair_key(test, a, b, cosine)
        return self._kept(self.scores, key, lambda: float(judge(a, b, cosine)))

    def _kept(self, table: dict[int, T], key: int, judged: Callable[[], T]) -> T:
        """``table``'s value for ``key``, or ``judged()``'s (kept)."""
        value = table.get(key)
        if value is None:
            value = judged()
        with self._mutex:
            self.asked.add(key)
            if key in table:
                self.hits += 1
            else:
                self.misses += 1
                table[key] = value
                self._dirty = True
        return value

    def save(self, *, prune: bool = False) -> None:
        """Write the verdicts (with ``prune``, only those asked for since the last pruning
        save). A failure to write is logged and leaves the old file as it was."""
        with self._mutex:
            if prune:
                if len(self.known) + len(self.scores) != len(self.asked):
                    self.known = {k: v for k, v in self.known.items() if k in self.asked}
                    self.scores = {k: v for k, v in self.scores.items() if k in self.asked}
                    self._dirty = True
                self.asked = set()
            if not self._dirty:
                return
            items = list(self.known.items())
            scored = sorted(self.scores.items())
            self._dirty = False  # set again below if the write fails
        true = np.array(sorted(k for k, v in items if v), dtype=np.uint64)
        false = np.array(sorted(k for k, v in items if not v), dtype=np.uint64)
        arrays = {
            "true": true,
            "false": false,
            "scored": np.array([k for k, _ in scored], dtype=np.uint64),
            "scores": np.array([v for _, v in scored], dtype=np.float64),
        }
        try:
            keyed_npz.write(self.path, self.key, arrays)
        except OSError as exc:
            self._dirty = True
            log.warning("could not save the dream's verdict cache %s: %s", self.path, exc)
            return
        self.loaded = self.stamp()

    def counted(self) -> tuple[int, int]:
        """(hits, misses) since the last call, then counted afresh."""
        with self._mutex:
            counts = (self.hits, self.misses)
            self.hits = self.misses = 0
        return counts


# The caches opened last, reused while their file is as they left it: the light phase and
# the engine of one dream share one (the engine's pruning save keeps light's verdicts).
KEEP_OPEN = 4
_lock = threading.Lock()
_open: dict[Path, VerdictCache] = {}


def open_verdicts(state_dir: Path) -> VerdictCache | None:
    """The root's verdict cache (the one this process has open, while its file is as this
    process last read or wrote it); None where the dream keeps no derived caches
    (``COWDREAM_DREAM_EMBEDDINGS=off``, the tests' seam: it judges everything afresh)."""
    if not enabled():
        return None
    path = state_dir / FILE
    with _lock:
        cache = _open.pop(path, None)
        if cache is None or cache.stamp() != cache.loaded:
            cache = VerdictCache(path, code_key())
        _open[path] = cache  # the most recent last
        while len(_open) > KEEP_OPEN:
            del _open[next(iter(_open))]
    return cache


__all__ = ["FILE", "VerdictCache", "code_key", "open_verdicts", "pair_key"]
