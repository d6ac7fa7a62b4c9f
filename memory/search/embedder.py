"""The vector side of the index: provider state, embedding in batches, the FAISS index.

Unchanged texts are never embedded twice: vectors are cached in SQLite keyed by the
provider's ``key`` (provider and model) and the chunk text's hash. Embedding runs inline
(``embed_pending``) or in a background thread (``start_background``) while keyword search
serves; each batch is committed to the cache and added to FAISS as soon as it is done.

Failure semantics: under ``auto`` a failing provider degrades to keyword search (``status``
``degraded`` with the reason); an explicitly chosen provider that fails makes the vector
side ``unavailable`` and search reports that instead of silently degrading.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from memory.search.embeddings.base import EmbeddingError, EmbeddingProvider
from memory.search.embeddings.registry import ProviderConfig, build, resolve
from memory.search.store import Store
from memory.search.vector_index import VectorIndex

Progress = Callable[[str], None]


class VectorSide:
    def __init__(
        self,
        config: ProviderConfig,
        store: Store,
        lock: threading.RLock,
        *,
        batch: int = 64,
        ivf_threshold: int = 200_000,
    ) -> None:
        self.config = config
        self.store = store
        self.lock = lock
        self.batch = batch
        self.ivf_threshold = ivf_threshold
        self.provider: EmbeddingProvider | None = None
        self.index: VectorIndex | None = None
        self.state = "off"  # off | ready | degraded | unavailable
        self.reason: str | None = None
        self.ids: set[int] = set()
        self._pending: dict[int, tuple[str, str]] = {}
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._started = False

    @property
    def explicit(self) -> bool:
        return self.config.provider != "auto"

    def start(self) -> None:
        """Create the provider once; a failure sets the state instead of raising."""
        if self._started:
            return
        self._started = True
        name = resolve(self.config)
        if name == "none":
            self.state, self.reason = "off", "keyword only (provider none)"
            return
        try:
            self.provider = build(name, self.config)
        except EmbeddingError as exc:
            self.fail(str(exc))
            return
        self.state = "ready"

    def fail(self, reason: str) -> None:
        self.provider, self.index = None, None
        self.ids.clear()
        self._pending.clear()
        self.state = "unavailable" if self.explicit else "degraded"
        self.reason = reason

    @property
    def model_key(self) -> str | None:
        return self.provider.key if self.provider else None

    def load(self) -> None:
        """Build FAISS from the cache for every current chunk; queue the rest."""
        if self.provider is None:
            return
        cached = self.store.cached_vectors(self.provider.key)
        ids, vectors = [], []
        self._pending.clear()
        for chunk_id, digest, text in self.store.chunk_hashes():
            vector = cached.get(digest)
            if vector is None:
                self._pending[chunk_id] = (digest, text)
            else:
                ids.append(chunk_id)
                vectors.append(vector)
        self.ids = set(ids)
        self.index = None
        if vectors:
            self._ensure_index(len(vectors[0]))
            assert self.index is not None
            self.index.add(ids, np.vstack(vectors))

    def _ensure_index(self, dim: int) -> None:
        if self.index is None:
            self.index = VectorIndex(dim, ivf_threshold=self.ivf_threshold)

    def apply(
        self, added: list[int], removed: list[int], texts: dict[int, tuple[str, str]]
    ) -> None:
        """Follow a keyword-side sync: drop removed ids, use cached vectors, queue the rest."""
        if self.provider is None:
            return
        gone = [i for i in removed if i in self.ids]
        if self.index is not None and gone:
            self.index.remove(gone)
        self.ids.difference_update(removed)
        for i in removed:
            self._pending.pop(i, None)
        cached = self.store.cached_vectors(self.provider.key) if added else {}
        ready = [(i, cached[texts[i][0]]) for i in added if texts[i][0] in cached]
        if ready:
            self._ensure_index(len(ready[0][1]))
            assert self.index is not None
            self.index.add([i for i, _ in ready], np.vstack([v for _, v in ready]))
            self.ids.update(i for i, _ in ready)
        for i in added:
            if i not in self.ids:
                self._pending[i] = texts[i]

    @property
    def pending(self) -> int:
        return len(self._pending)

    def embed_pending(self, progress: Progress | None = None) -> int:
        """Embed every queued chunk in batches; returns how many texts were embedded."""
        done = 0
        while not self._stop.is_set():
            with self.lock:
                provider = self.provider
                batch = list(self._pending.items())[: self.batch]
            if provider is None or not batch:
                return done
            hashes = {digest: text for _, (digest, text) in batch}
            try:
                vectors = provider.embed_passages(list(hashes.values()))
            except EmbeddingError as exc:
                with self.lock:
                    self.fail(str(exc))
                return done
            by_hash = dict(zip(hashes, vectors, strict=True))
            with self.lock:
                if self.provider is not provider:
                    return done
                self.store.put_vectors(provider.key, list(by_hash.items()))
                live = [(i, by_hash[d]) for i, (d, _) in batch if i in self._pending]
                self._ensure_index(len(vectors[0]))
                assert self.index is not None
                self.index.add([i for i, _ in live], np.vstack([v for _, v in live]))
                for i, _ in live:
                    self._pending.pop(i, None)
                    self.ids.add(i)
                remaining = len(self._pending)
            done += len(hashes)
            if progress:
                progress(f"embedded {done} chunks, {remaining} to go")
        return done

    def start_background(self, progress: Progress | None = None) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        if not self._pending:
            return
        self._thread = threading.Thread(
            target=self.embed_pending, args=(progress,), name="memory-embed", daemon=True
        )
        self._thread.start()

    def wait(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def stop(self) -> None:
        """Ask the background embedder to stop after its current batch, and wait for it."""
        self._stop.set()
        self.wait()

    def query(self, text: str, k: int) -> tuple[np.ndarray | None, list[tuple[int, float]]]:
        """The query vector and the ``k`` nearest chunks; ``(None, [])`` when off."""
        provider, index = self.provider, self.index
        if provider is None or index is None or index.size == 0:
            return None, []
        try:
            vector = provider.embed_query(text)
        except EmbeddingError as exc:
            with self.lock:
                self.fail(str(exc))
            return None, []
        return vector, index.search(vector, k)

    def status(self) -> dict[str, Any]:
        return {
            "provider": self.provider.name if self.provider else "none",
            "model": self.model_key,
            "state": self.state,
            "reason": self.reason,
            "vectors": len(self.ids),
            "pending": len(self._pending),
            "approximate": bool(self.index and self.index.approximate),
        }
