"""Dense vectors in FAISS, keyed by chunk id; built in memory from the embedding cache.

Exact inner-product search (``IndexFlatIP``) on unit vectors, i.e. cosine similarity. Above
``ivf_threshold`` vectors an ``IndexIVFFlat`` (trained on the vectors present, probing
``nprobe`` lists) replaces it; ``bench/search.py`` reports its recall against the flat index.
All methods are thread-safe: a background embedder adds while searches read.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import faiss
import numpy as np


class VectorIndex:
    def __init__(self, dim: int, *, ivf_threshold: int = 200_000, nprobe: int = 16) -> None:
        self.dim = dim
        self.ivf_threshold = ivf_threshold
        self.nprobe = nprobe
        self._lock = threading.Lock()
        self._index: faiss.Index = faiss.IndexIDMap2(faiss.IndexFlatIP(dim))
        self.approximate = False

    @property
    def size(self) -> int:
        with self._lock:
            return int(self._index.ntotal)

    def add(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        if len(ids) == 0:
            return
        matrix = np.ascontiguousarray(vectors, dtype=np.float32).reshape(len(ids), self.dim)
        with self._lock:
            self._index.add_with_ids(matrix, np.asarray(ids, dtype=np.int64))

    def remove(self, ids: Sequence[int]) -> None:
        if len(ids) == 0:
            return
        with self._lock:
            self._index.remove_ids(faiss.IDSelectorBatch(np.asarray(ids, dtype=np.int64)))

    def search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """``(chunk_id, cosine)`` of the ``k`` nearest vectors, best first."""
        with self._lock:
            if self._index.ntotal == 0 or k <= 0:
                return []
            vector = np.ascontiguousarray(query, dtype=np.float32).reshape(1, self.dim)
            scores, ids = self._index.search(vector, min(k, int(self._index.ntotal)))
        return [(int(i), float(s)) for i, s in zip(ids[0], scores[0], strict=True) if i >= 0]

    def optimise(self) -> None:
        """Switch to an IVF index when the collection is past ``ivf_threshold``."""
        with self._lock:
            total = int(self._index.ntotal)
            if self.approximate or total < self.ivf_threshold:
                return
            flat: Any = faiss.downcast_index(self._index)
            ids = faiss.vector_to_array(flat.id_map).astype(np.int64)
            vectors = flat.index.reconstruct_n(0, total)
            nlist = int(max(64, min(4096, 4 * np.sqrt(total))))
            quantizer = faiss.IndexFlatIP(self.dim)
            ivf = faiss.IndexIVFFlat(quantizer, self.dim, nlist, faiss.METRIC_INNER_PRODUCT)
            ivf.train(vectors)
            ivf.nprobe = self.nprobe
            mapped = faiss.IndexIDMap2(ivf)
            mapped.add_with_ids(vectors, ids)
            self._index = mapped
            self.approximate = True
