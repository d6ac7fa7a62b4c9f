"""Dense vectors in FAISS, keyed by chunk id, held as compact codes.

Exact (flat) inner-product search over unit vectors, i.e. cosine similarity, on codes of a
:class:`Codec`: ``float16`` (FAISS ``QT_fp16``, half the memory of float32, recall@10
against float32 1.000 in ``bench/search.py``), ``sq8`` (8 bits a dimension, with ranges
per dimension fitted to the data by :mod:`memory.search.vector_codecs`: a quarter) or
``float32``. The embedding cache stores the same codes, so loading an
index copies bytes: nothing is decoded or re-encoded.

FAISS keeps vectors at positions ``0..n-1``; this class maps chunk ids to positions.
Removing a chunk marks its position dead (searches exclude dead positions through an
``IDSelector``), so an update costs what changed, not the size of the index; once dead
positions pass ``COMPACT_SHARE`` of the index (and ``COMPACT_MIN``), the live codes are
copied into a fresh index. All methods are thread-safe: a background embedder adds while
searches read.

A search scans on the calling thread only: FAISS's own OpenMP runtime would split one
query's scan over every core, and on a busy 2-core machine its threads spend the time at a
barrier (measured at 100k float16 vectors, load average 5: 15 ms a query on one thread,
38 ms on two). The thread count is set for the calling thread only. From ``SPLIT_MIN``
positions, and when a core is idle (:func:`memory.search.embeddings.cores.idle_cores`; on
busy cores a second thread only waits), a search scans two halves instead, one on the calling
thread and one on a worker, each a FAISS call of its own (no barrier: a half that lost
its core just finishes later). The halves' best are merged as one scan orders them
(:func:`merge_halves`); when the cut-off falls among equal scores (which of them one scan
keeps depends on the order it met them) the index is scanned whole instead. 100k 8-bit
codes: 9-10 ms whole, 6-7 ms in halves on 2 free cores (the host of rounds 5-10; round 14's
host: 4.3-6.1 ms whole, 2.7-4.0 scanned folded as below).

The 8-bit codes are scanned folded (:meth:`Codec.scanner`, :meth:`Codec.fold`): FAISS's
``QT_8bit`` decodes each code as ``low + (code + 0.5) / 255 * width`` with a range per
dimension, so the inner product with a query ``q`` is ``q . low`` plus the product of
``q * width`` with the codes decoded as ``(code + 0.5) / 255``, which is FAISS's
``QT_8bit_uniform`` with the range 0..1: the same codes, a third less time a scan (the
per-dimension ranges are not loaded for every component), the same scores up to float
rounding (tested).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import faiss
import numpy as np

from memory.search.embeddings.cores import idle_cores

COMPACT_SHARE = 0.125
COMPACT_MIN = 1024
CODECS = ("float16", "sq8", "float32")
SPARE_MIN, SPARE_SHARE = 1024, 16  # room left after a load for appends: codes, share
SPLIT_MIN = 32_768  # positions from which a search scans two halves on two threads

_halves: ThreadPoolExecutor | None = None
_halves_lock = threading.Lock()


def _half_worker() -> ThreadPoolExecutor:
    """The thread that scans the second half of a large index's search."""
    global _halves
    with _halves_lock:
        if _halves is None:
            _halves = ThreadPoolExecutor(1, thread_name_prefix="memory-faiss")
        return _halves


def merge_halves(
    parts: Sequence[tuple[np.ndarray, np.ndarray]], k: int
) -> tuple[np.ndarray, np.ndarray] | None:
    """The ``k`` best ``(scores, positions)`` of FAISS results over disjoint position
    ranges, each its range's ``k + 1`` best, in the order one search over them all gives
    (best score first; among equal scores the later position first, as FAISS's heap
    orders them); ``None`` when a result left out has the ``k``-th score (one search keeps
    whichever of the equal ones it met first). A range holding more results at that score
    than it returned has returned ``k + 1`` results at or above it, one of them left out."""
    scores = np.concatenate([s for s, _ in parts])
    positions = np.concatenate([p for _, p in parts])
    found = positions >= 0
    scores, positions = scores[found], positions[found]
    order = np.lexsort((-positions, -scores))
    if len(order) > k and scores[order[k]] == scores[order[k - 1]]:
        return None
    top = order[:k]
    return scores[top], positions[top]


@dataclass(frozen=True)
class Codec:
    """How a vector of ``dim`` floats is stored: ``name`` in :data:`CODECS`; ``ranges`` (the
    per-dimension minimum, then width) only for ``sq8``."""

    name: str
    dim: int
    ranges: tuple[float, ...] = ()

    def make(self) -> Any:
        """An empty FAISS index for these codes (the one that encodes and decodes them)."""
        if self.name == "float32":
            return faiss.IndexFlatIP(self.dim)
        if self.name == "float16":
            kind = faiss.ScalarQuantizer.QT_fp16
        elif self.name == "sq8":
            kind = faiss.ScalarQuantizer.QT_8bit
        else:
            raise ValueError(f"unknown vector codec {self.name!r}")
        index = faiss.IndexScalarQuantizer(self.dim, kind, faiss.METRIC_INNER_PRODUCT)
        if self.name == "sq8":
            if len(self.ranges) != 2 * self.dim:
                raise ValueError("sq8 needs a minimum and a width for every dimension")
            faiss.copy_array_to_vector(np.asarray(self.ranges, np.float32), index.sq.trained)
            index.is_trained = True
        return index

    def scanner(self) -> Any:
        """An empty FAISS index that a search scans for these codes: :meth:`make`'s, except
        for ``sq8``, whose codes it reads as ``(code + 0.5) / 255`` (``QT_8bit_uniform``
        over 0..1) for a query folded with the ranges (:meth:`fold`)."""
        if self.name != "sq8":
            return self.make()
        kind = faiss.ScalarQuantizer.QT_8bit_uniform
        index = faiss.IndexScalarQuantizer(self.dim, kind, faiss.METRIC_INNER_PRODUCT)
        faiss.copy_array_to_vector(np.array([0.0, 1.0], np.float32), index.sq.trained)
        index.is_trained = True
        return index

    def fold(self, vector: np.ndarray) -> tuple[np.ndarray, float]:
        """The query :meth:`scanner`'s index is given, and what to add to its scores:
        ``(q * width, q . low)`` for ``sq8``, ``(q, 0.0)`` for the others."""
        if self.name != "sq8":
            return vector, 0.0
        low, width = self._ranges
        scaled = np.ascontiguousarray(vector * width, dtype=np.float32)
        return scaled, float(np.dot(vector.astype(np.float64).ravel(), low))

    @functools.cached_property
    def _ranges(self) -> tuple[np.ndarray, np.ndarray]:
        """The ranges as arrays: the minima (float64), the widths (float32)."""
        ranges = np.asarray(self.ranges, dtype=np.float32)
        return ranges[: self.dim].astype(np.float64), ranges[self.dim :]

    @property
    def code_size(self) -> int:
        return {"float32": 4, "float16": 2, "sq8": 1}[self.name] * self.dim

    def encode(self, vectors: np.ndarray) -> np.ndarray:
        """``(n, code_size)`` uint8 codes of ``(n, dim)`` float32 vectors."""
        matrix = np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1, self.dim)
        if self.name == "float32":
            return matrix.view(np.uint8)
        if self.name == "float16":
            return np.ascontiguousarray(matrix.astype(np.float16)).view(np.uint8)
        return np.asarray(self.make().sa_encode(matrix), dtype=np.uint8)

    def decode(self, codes: np.ndarray) -> np.ndarray:
        """``(n, dim)`` float32 vectors of ``(n, code_size)`` codes."""
        raw = np.ascontiguousarray(codes, dtype=np.uint8).reshape(-1, self.code_size)
        if self.name == "float32":
            return raw.view(np.float32).copy()
        if self.name == "float16":
            return raw.view(np.float16).astype(np.float32)
        return np.asarray(self.make().sa_decode(raw), dtype=np.float32)


class VectorIndex:
    def __init__(self, codec: Codec) -> None:
        self.codec = codec
        self.dim = codec.dim
        self._lock = threading.Lock()
        self._index: Any = codec.scanner()
        self._ids = np.zeros(1024, dtype=np.int64)  # chunk id at each position (grows x2)
        self._pos: dict[int, int] = {}
        self._dead: set[int] = set()
        self._params: Any = None  # FAISS search parameters excluding the dead positions
        self._selectors: Any = None  # the selectors they point to, kept alive here

    @property
    def size(self) -> int:
        """Live vectors."""
        with self._lock:
            return len(self._pos)

    @property
    def positions(self) -> int:
        """Positions in FAISS, dead ones included."""
        with self._lock:
            return int(self._index.ntotal)

    def __contains__(self, chunk_id: object) -> bool:
        return chunk_id in self._pos

    def add(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        self.add_codes(ids, self.codec.encode(vectors))

    def add_codes(self, ids: Sequence[int], codes: np.ndarray) -> None:
        """Add (or replace) the vectors of ``ids`` from their codes."""
        if len(ids) == 0:
            return
        matrix = np.ascontiguousarray(codes, dtype=np.uint8).reshape(len(ids), -1)
        with self._lock:
            self._remove_locked([i for i in ids if i in self._pos])
            start = int(self._index.ntotal)
            self._index.add_sa_codes(matrix)
            if start + len(ids) > len(self._ids):
                grown = np.zeros(max(2 * len(self._ids), start + len(ids)), dtype=np.int64)
                grown[:start] = self._ids[:start]
                self._ids = grown
            self._ids[start : start + len(ids)] = ids
            self._pos.update(
                zip(
                    self._ids[start : start + len(ids)].tolist(),
                    range(start, start + len(ids)),
                    strict=True,
                )
            )

    def fill(self, ids: np.ndarray, codes: Iterable[np.ndarray]) -> None:
        """Load an empty index: ``codes`` yields the codes of ``ids`` in order, in pieces;
        each is copied once, straight into FAISS's storage (sized once for all ``ids``)."""
        total = len(ids)
        size = self.codec.code_size
        with self._lock:
            if self._index.ntotal or self._pos:
                raise ValueError("fill needs an empty index")
            # room for the appends to come: the vector is sized up, then down (its capacity
            # stays), so the first append does not copy every code to a new allocation
            self._index.codes.resize((total + max(SPARE_MIN, total // SPARE_SHARE)) * size)
            self._index.codes.resize(total * size)
            view = faiss.rev_swig_ptr(self._index.codes.data(), total * size)
            start = 0
            for piece in codes:
                count = len(piece)
                if start + count > total:
                    raise ValueError("more codes than ids")
                view[start * size : (start + count) * size] = piece.reshape(-1)
                start += count
            if start != total:
                raise ValueError("fewer codes than ids")
            self._ids = np.zeros(max(1024, 2 * total), dtype=np.int64)
            self._ids[:total] = ids
            self._index.ntotal = total
            self._pos = dict(zip(self._ids[:total].tolist(), range(total), strict=True))

    def remove(self, ids: Sequence[int]) -> None:
        with self._lock:
            self._remove_locked(ids)

    def _remove_locked(self, ids: Sequence[int]) -> None:
        gone = [self._pos.pop(int(i)) for i in ids if int(i) in self._pos]
        if not gone:
            return
        self._dead.update(gone)
        self._params = self._selectors = None
        if len(self._dead) >= max(COMPACT_MIN, COMPACT_SHARE * int(self._index.ntotal)):
            self._compact_locked()

    def _compact_locked(self) -> None:
        total = int(self._index.ntotal)
        codes = faiss.vector_to_array(self._index.codes).reshape(total, -1)
        live = np.ones(total, dtype=bool)
        live[list(self._dead)] = False
        fresh = self.codec.scanner()
        fresh.add_sa_codes(np.ascontiguousarray(codes[live]))
        kept = self._ids[:total][live]
        self._ids = np.zeros(max(1024, 2 * len(kept)), dtype=np.int64)
        self._ids[: len(kept)] = kept
        self._index = fresh
        self._pos = {int(i): p for p, i in enumerate(kept)}
        self._dead.clear()
        self._params = self._selectors = None

    def parts(self, rows: int) -> Iterator[tuple[bytes, bytes]]:
        """The live ids and codes as bytes, ``rows`` at a time (one part copied at a time,
        under the lock: no change happens while a checkpoint is written)."""
        with self._lock:
            if self._dead:
                self._compact_locked()
            total = int(self._index.ntotal)
            size = self.codec.code_size
            view = faiss.rev_swig_ptr(self._index.codes.data(), total * size)
            for start in range(0, total, rows):
                end = min(total, start + rows)
                yield self._ids[start:end].tobytes(), view[start * size : end * size].tobytes()

    def search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """``(chunk_id, cosine)`` of the ``k`` nearest live vectors, best first."""
        vector, offset = self.codec.fold(
            np.ascontiguousarray(query, dtype=np.float32).reshape(1, self.dim)
        )
        with self._lock:
            live = len(self._pos)
            if live == 0 or k <= 0:
                return []
            if self._dead and self._params is None:
                dead = np.fromiter(self._dead, dtype=np.int64, count=len(self._dead))
                batch = faiss.IDSelectorBatch(dead)
                selector = faiss.IDSelectorNot(batch)
                self._selectors = (batch, selector)
                params = faiss.SearchParameters()
                params.sel = selector
                self._params = params
            wanted = min(k, live)
            total = int(self._index.ntotal)
            halves = total >= SPLIT_MIN and idle_cores() > 0
            merged = self._search_halves(vector, wanted, total) if halves else None
            if merged is None:
                merged = self._scan(vector, wanted, None)
            scores, positions = merged
            ids = self._ids
        if offset:
            scores = scores.astype(np.float64) + offset
        return [(int(ids[p]), float(s)) for p, s in zip(positions, scores, strict=True) if p >= 0]

    def _scan(
        self, vector: np.ndarray, k: int, span: tuple[int, int] | None
    ) -> tuple[np.ndarray, np.ndarray]:
        """One FAISS search on this thread, over the positions of ``span`` (all: None),
        dead ones excluded (the caller holds the lock)."""
        faiss.omp_set_num_threads(1)  # this thread's parallel regions (see above)
        params = self._params
        kept: list[Any] = []  # the selectors outlive the call
        if span is not None:
            kept.append(faiss.IDSelectorRange(*span))
            if self._selectors is not None:
                kept.append(faiss.IDSelectorAnd(kept[0], self._selectors[1]))
            params = faiss.SearchParameters()
            params.sel = kept[-1]
        scores, positions = self._index.search(vector, k, params=params)
        return scores[0], positions[0]

    def _search_halves(
        self, vector: np.ndarray, k: int, total: int
    ) -> tuple[np.ndarray, np.ndarray] | None:
        half = total // 2
        other = _half_worker().submit(self._scan, vector, k + 1, (half, total))
        try:
            first = self._scan(vector, k + 1, (0, half))
        finally:
            second = other.result()
        return merge_halves([first, second], k)

    def memory_bytes(self) -> int:
        """Bytes held by the codes and the id map (an estimate of the index's RAM)."""
        with self._lock:
            return int(self._index.ntotal) * self.codec.code_size + 100 * len(self._pos)
