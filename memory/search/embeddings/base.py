"""The embedding provider boundary: one Protocol, one module per implementation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from memory.errors import MemoryEngineError


class EmbeddingError(MemoryEngineError):
    """A provider could not be started or failed to embed."""


class EmbeddingProvider(Protocol):
    """Turns text into L2-normalised float32 vectors.

    ``key`` names provider and model (``local:multilingual-e5-small``); it keys the
    embedding cache and is recorded in the index, so a change forces a vector rebuild.
    ``cosine_floor``/``cosine_ceiling`` describe the model's similarity range and rescale
    cosines to [0, 1] for fusion.
    """

    name: str
    key: str
    cosine_floor: float
    cosine_ceiling: float

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """``(len(texts), dim)`` float32, rows of unit length."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """``(dim,)`` float32 of unit length, on one core (it runs beside other work)."""
        ...

    def embed_queries(self, texts: Sequence[str], cores: int = 1) -> np.ndarray:
        """``(len(texts), dim)``: several queries in one call (one request, one model
        pass), each row equal to :meth:`embed_query` of its text; ``cores`` is how many
        cores a local model may use."""
        ...

    def idle_cores(self) -> int:
        """Cores a query embedded now could use besides the caller's (0: embed it on
        another thread, beside the caller's other work)."""
        ...


def normalise_rows(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero), as contiguous float32."""
    out = np.asarray(matrix, dtype=np.float32)
    if out.ndim == 1:
        out = out.reshape(1, -1)
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(out / norms, dtype=np.float32)
