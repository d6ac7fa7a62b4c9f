"""The vector side of the index: provider state, embedding in batches, the FAISS index.

Unchanged texts are never embedded twice: vectors are cached in SQLite, as the codes the
FAISS index holds (:class:`memory.search.vector_index.Codec`), keyed by the provider's
``key`` (provider and model) and the chunk text's hash. Opening copies the cached codes of
the current chunks into FAISS in batches (no decoding); an update looks up only the hashes
of the chunks it added. Embedding runs inline (``embed_pending``) or in a background thread
(``start_background``) while keyword search serves; each batch is committed to the cache and
added to FAISS as soon as it is done.

Failure semantics: under ``auto`` a failing provider degrades to keyword search (``status``
``degraded`` with the reason); an explicitly chosen provider that fails makes the vector
side ``unavailable`` and search reports that instead of silently degrading.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np

from memory.search import vector_codecs, vector_packs
from memory.search.embeddings.base import EmbeddingError, EmbeddingProvider
from memory.search.embeddings.registry import ProviderConfig, build, resolve
from memory.search.store import Store, StoredChunk
from memory.search.vector_index import Codec, VectorIndex

Progress = Callable[[str], None]
DEFAULT_CODEC = "sq8"  # float16 below vector_codecs.FIT_MIN vectors, then 8-bit codes
STORED = {"sq8": ("float16", "sq8")}  # the codecs a cache may hold under each setting
PACK_DELTA_MIN, PACK_DELTA_SHARE = 256, 0.02  # changes before the checkpoint is rewritten
SMALL_BLOCKS_MAX = 32  # small cache blocks (one a background batch) before they are merged
PREFETCH_MAX = 16  # query texts one search embeds ahead, at most
# a query's vector and its nearest chunks (id, cosine), best first: ``(None, [])`` when off
Retrieved = tuple[np.ndarray | None, list[tuple[int, float]]]

_worker: ThreadPoolExecutor | None = None
_worker_lock = threading.Lock()


def _query_worker() -> ThreadPoolExecutor:
    """The one thread of the process that embeds queries ahead of their search (the model
    embeds one text at a time anyway, under its lock)."""
    global _worker
    with _worker_lock:
        if _worker is None:
            _worker = ThreadPoolExecutor(1, thread_name_prefix="memory-query")
        return _worker


class _Together:
    """Query texts embedded in one model call, on the searching thread, when the first of
    them is asked for (then the keyword side has run, and the idle cores are the call's)."""

    def __init__(self, provider: EmbeddingProvider, texts: list[str], cores: int) -> None:
        self._provider, self._texts, self._cores = provider, texts, cores
        self._rows: np.ndarray | None = None
        self._lock = threading.Lock()

    def vector(self, text: str) -> np.ndarray:
        with self._lock:
            if self._rows is None:
                self._rows = self._provider.embed_queries(self._texts, self._cores)
        return self._rows[self._texts.index(text)]

    def cancel(self) -> bool:
        return True


def _select(codes: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``codes[rows]``, without the copy when ``rows`` is every row in order (a block all
    of whose codes are used once: the usual case)."""
    whole = len(rows) == len(codes) and (len(rows) == 0 or rows[0] == 0)
    if whole and bool(np.all(np.diff(rows) == 1)):
        return codes
    return codes[rows]


class VectorSide:
    def __init__(
        self,
        config: ProviderConfig,
        store: Store,
        lock: threading.RLock,
        *,
        batch: int = 64,
        provider: EmbeddingProvider | None = None,
        codec: str = DEFAULT_CODEC,
    ) -> None:
        self.config = config
        self.store = store
        self.lock = lock
        self.batch = batch
        self.codec_name = codec
        self._shared = provider
        self.provider: EmbeddingProvider | None = None
        self.index: VectorIndex | None = None
        self.model: int | None = None  # the provider's id in the embedding cache
        self.state = "off"  # off | ready | degraded | unavailable
        self.reason: str | None = None
        self.ids: set[int] = set()
        self._pending: dict[int, tuple[bytes, str]] = {}
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._started = False
        self._delta = 0  # chunks added or removed since the packed checkpoint
        self._tag = ""  # the cache's codec and fit the index's codes were made with
        self._ahead: dict[str, Future[np.ndarray] | _Together] = {}  # query texts, ahead

    @property
    def explicit(self) -> bool:
        return self.config.provider != "auto"

    def start(self) -> None:
        """Create the provider once (or take the shared one); a failure sets the state."""
        if self._started:
            return
        self._started = True
        name = resolve(self.config)
        if name == "none":
            self.state, self.reason = "off", "keyword only (provider none)"
            return
        try:
            self.provider = self._shared if self._shared is not None else build(name, self.config)
        except EmbeddingError as exc:
            self.fail(str(exc))
            return
        self.state = "ready"

    def fail(self, reason: str) -> None:
        self.provider, self.index, self.model = None, None, None
        self.ids.clear()
        self._pending.clear()
        self.state = "unavailable" if self.explicit else "degraded"
        self.reason = reason

    @property
    def model_key(self) -> str | None:
        return self.provider.key if self.provider else None

    def _register(self, dim: int) -> None:
        """Know the provider's cache id and codec once its dimension is known (a new cache
        starts with the first codec its setting allows; ``sq8`` is reached by a fit)."""
        if self.provider is not None and self.model is None:
            first, *more = STORED.get(self.codec_name, (self.codec_name,))
            self.model = self.store.model_id(self.provider.key, dim, first, more)
            self.index = VectorIndex(self._stored_codec(self.model, dim))

    def _stored_codec(self, model: int, dim: int) -> Codec:
        known = self.store.model_of(self.model_key or "")
        name = known[2] if known is not None else self.codec_name
        self._tag = vector_codecs.tag(self.store.conn, model)
        if name != "sq8":
            return Codec(name, dim)
        fit = vector_codecs.read(self.store.conn, model)
        if fit is None:
            raise ValueError("an 8-bit cache without its ranges")
        return Codec(name, dim, tuple(float(x) for x in fit.ranges))

    def current(self) -> bool:
        """The index's codes have the cache's codec and fit (another process may have
        re-encoded the cache: then the index must be loaded again)."""
        return self.model is None or vector_codecs.tag(self.store.conn, self.model) == self._tag

    def load(self, generation: str | None) -> None:
        """Fill FAISS for every current chunk, from the packed checkpoint when it matches
        (then only what happened since is replayed), else from the cache; queue the rest."""
        if self.provider is None:
            return
        self.model, self.index = None, None
        self.ids.clear()
        self._pending.clear()
        self._delta = 0
        legacy = self.store.legacy_vectors(self.provider.key)
        if legacy:
            self._carry_over(legacy)
            self.model, self.index = None, None
        # the codec and the codes of one state of the cache, read through a memory map
        with self.store.mapped(), self.store.snapshot():
            known = self.store.model_of(self.provider.key)
            if known is not None and known[2] in STORED.get(self.codec_name, (self.codec_name,)):
                self._register(known[1])
            if self.model is None or self.index is None:
                self._pending = {c.id: (c.text_hash, c.text) for c in self.store.chunks_after(0)}
                return
            if not self._load_pack(generation):
                self._load_cache()

    def _load_pack(self, generation: str | None) -> bool:
        """The checkpoint, its blocks and what changed since, read in one snapshot (another
        process may rewrite the blocks meanwhile)."""
        with self.store.snapshot():
            return self._load_checkpoint(generation)

    def _load_checkpoint(self, generation: str | None) -> bool:
        assert self.model is not None and self.index is not None
        codec = self.index.codec
        state = vector_packs.state_of(self.store.conn, self.model)
        if state is None or (state.generation, state.codec, state.dim, state.blocks) != (
            generation,
            codec.name,
            codec.dim,
            self.store.block_version(),
        ):
            return False
        removed, _, first = self.store.removed_since(state.removed_seq)
        if first > state.removed_seq + 1:
            return False  # the deletion log no longer reaches back to the checkpoint
        pack = vector_packs.read(self.store.conn, self.model)
        if pack is None:
            return False
        model, size = self.model, codec.code_size
        last = int(pack.blocks[-1]) if len(pack.blocks) else -1

        def pieces() -> Iterator[np.ndarray]:
            for block, codes in self.store.block_codes(model, size, last):
                lo, hi = np.searchsorted(pack.blocks, [block, block + 1])
                if hi > lo:
                    yield _select(codes, pack.slots[lo:hi])

        try:
            self.index.fill(pack.ids, pieces())
        except (ValueError, IndexError):  # a block the checkpoint names is gone
            self.index = VectorIndex(codec)
            return False
        self.ids.update(pack.ids.tolist())
        if removed:
            self.index.remove(removed)
            self.ids.difference_update(removed)
        waiting = self.store.chunks(pack.pending.tolist())
        fresh = [*self.store.chunks_after(state.last_chunk), *waiting.values()]
        self.apply(fresh, [])
        self._delta = len(removed) + len(fresh)
        return True

    def _load_cache(self) -> None:
        """The full load: the chunks' hashes joined in numpy to the hashes of the cache's
        blocks (a text shared by several chunks gives each its copy), then the blocks'
        codes streamed into FAISS in that order."""
        assert self.model is not None and self.index is not None
        with self.store.snapshot():
            ids, hashes = self.store.chunk_keys()
            blocks = self.store.blocks(self.model)
            cached = np.concatenate([h for _, h in blocks]) if blocks else np.zeros(0, "S16")
            _, first = np.unique(cached, return_index=True)  # a text cached twice: once
            usable = np.zeros(len(cached), dtype=bool)
            usable[first] = True
            order = np.argsort(hashes, kind="stable")
            ranked = hashes[order]
            low = np.searchsorted(ranked, cached, side="left")
            high = np.searchsorted(ranked, cached, side="right")
            counts = np.where(usable, high - low, 0)  # chunks using each cached row
            rows = np.repeat(np.arange(len(cached)), counts)
            firsts = np.repeat(low, counts)
            offsets = np.arange(len(rows)) - np.repeat(np.cumsum(counts) - counts, counts)
            chunk_ids = ids[order[firsts + offsets]] if len(rows) else np.zeros(0, np.int64)
            model, size = self.model, self.index.codec.code_size
            last = blocks[-1][0] if blocks else -1

            def pieces() -> Iterator[np.ndarray]:
                seen = 0
                for _, codes in self.store.block_codes(model, size, last):
                    end = seen + len(codes)
                    lo, hi = np.searchsorted(rows, [seen, end])
                    yield _select(codes, rows[lo:hi] - seen)
                    seen = end

            self.index.fill(chunk_ids, pieces())
        present = chunk_ids.tolist()
        self.ids.update(present)
        missing = np.setdiff1d(ids, chunk_ids, assume_unique=False)
        waiting = self.store.chunks(missing.tolist())
        self._pending = {c.id: (c.text_hash, c.text) for c in waiting.values()}
        self._delta = len(ids)

    def checkpoint(self, generation: str | None, last_chunk: int, removed_seq: int) -> bool:
        """Merge the cache's small blocks when there are many, and write where every
        chunk's code is (the caller holds the write lock and has caught up with the
        database) when enough changed since the last checkpoint or its blocks moved; the
        caller commits."""
        self._adapt(generation)
        index, model = self.index, self.model
        if index is None or model is None or index.size < vector_packs.PACK_MIN:
            return False
        if self.store.small_blocks(model) > SMALL_BLOCKS_MAX:
            self.store.compact_blocks(model, prune=False)
        version = self.store.block_version()
        known = vector_packs.state_of(self.store.conn, model)
        moved = known is None or known.blocks != version
        if not moved and self._delta < max(PACK_DELTA_MIN, PACK_DELTA_SHARE * index.size):
            return False
        located = vector_packs.locate(self.store.conn, model)
        every, _ = self.store.chunk_keys()
        pending = np.setdiff1d(every, located[0])
        state = vector_packs.PackState(
            generation,
            index.codec.name,
            index.dim,
            last_chunk,
            removed_seq,
            len(located[0]),
            version,
        )
        vector_packs.write(self.store.conn, model, state, located, pending)
        self._delta = 0
        return True

    def _adapt(self, generation: str | None) -> bool:
        """Re-encode the cache as 8-bit codes once the index holds ``FIT_MIN`` vectors, or
        with wider ranges once clipping is frequent (:mod:`memory.search.vector_codecs`),
        then load FAISS again from it; the caller holds the write lock."""
        index, model, conn = self.index, self.model, self.store.conn
        if self.codec_name != "sq8" or index is None or model is None:
            return False
        if index.codec.name == "float16" and index.size < vector_codecs.FIT_MIN:
            return False
        if index.codec.name == "sq8" and not (
            (known := vector_codecs.read(conn, model)) is not None and known.due
        ):
            return False
        started = not conn.in_transaction
        if started:
            conn.execute("BEGIN IMMEDIATE")  # the fit and the re-encoding see one cache
        try:
            if vector_codecs.tag(conn, model) != self._tag:
                conn.rollback()
                return False  # another process changed the codes: it fits them
            if index.codec.name == "float16":
                seen = self.store.extent(model, index.codec.decode)
                if seen.low is None or seen.high is None:
                    conn.rollback()
                    return False
                fit = vector_codecs.Fit(1, vector_codecs.ranges_of(seen.low, seen.high))
            else:
                previous = vector_codecs.read(conn, model)
                assert previous is not None
                fit = vector_codecs.Fit(previous.fit + 1, vector_codecs.widened(previous))
            before = index.codec
            fresh = Codec("sq8", index.dim, tuple(float(x) for x in fit.ranges))
            self.index = None  # FAISS's old codes are freed before the re-encoding
            del index
            self.store.recode(model, before.decode, fresh.encode, "sq8", fit)
        except BaseException:
            if started:
                conn.rollback()
            if self.index is None:
                self.load(generation)  # from what the cache holds
            raise
        self.load(generation)
        return True

    def prune(self) -> int:
        """Drop cached codes no chunk uses (the caller holds the write lock); commits."""
        if self.model is None:
            return 0
        return self.store.compact_blocks(self.model, prune=True)

    def _carry_over(self, legacy: list[tuple[bytes, bytes]]) -> None:
        """Convert float32 vectors kept from an older index layout to this codec."""
        dim = len(legacy[0][1]) // 4
        self._register(dim)
        if self.index is not None and self.model is not None:
            vectors = np.frombuffer(b"".join(v for _, v in legacy), np.float32).reshape(-1, dim)
            codes = self.index.codec.encode(vectors)
            rows = [(h, c.tobytes()) for (h, _), c in zip(legacy, codes, strict=True)]
            self.store.put_codes(self.model, rows)
        self.store.drop_legacy()

    def _add_codes(self, ids: Sequence[int], codes: Sequence[bytes]) -> None:
        if ids:
            assert self.index is not None
            matrix = np.frombuffer(b"".join(codes), dtype=np.uint8).reshape(len(ids), -1)
            self.index.add_codes(ids, matrix)
            self.ids.update(ids)

    def apply(self, added: Sequence[StoredChunk], removed: Sequence[int]) -> None:
        """Follow a keyword-side change: drop removed ids, use cached vectors for the added
        chunks (looked up by their hashes only), queue the rest."""
        if self.provider is None:
            return
        if self.index is not None and removed:
            self.index.remove(removed)
        self.ids.difference_update(removed)
        self._delta += len(removed) + len(added)
        for i in removed:
            self._pending.pop(i, None)
        cached = (
            self.store.cached(self.model, [c.text_hash for c in added])
            if (self.model is not None and added)
            else {}
        )
        ready = [c for c in added if c.text_hash in cached]
        self._add_codes([c.id for c in ready], [cached[c.text_hash] for c in ready])
        for chunk in added:
            if chunk.id not in self.ids:
                self._pending[chunk.id] = (chunk.text_hash, chunk.text)

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
                if provider is not None and batch and self.model is not None:
                    # another process may have embedded some of these meanwhile
                    cached = self.store.cached(self.model, [h for _, (h, _) in batch])
                    hit = [(i, h) for i, (h, _) in batch if h in cached]
                    self._add_codes([i for i, _ in hit], [cached[h] for _, h in hit])
                    for i, _ in hit:
                        self._pending.pop(i, None)
                    batch = [(i, ht) for i, ht in batch if i in self._pending]
                    if hit and not batch:
                        continue
            if provider is None or not batch:
                return done
            texts = {digest: text for _, (digest, text) in batch}
            try:
                vectors = provider.embed_passages(list(texts.values()))
            except EmbeddingError as exc:
                with self.lock:
                    self.fail(str(exc))
                return done
            with self.lock:
                if self.provider is not provider:
                    return done
                self._register(int(vectors.shape[1]))
                assert self.index is not None and self.model is not None
                codes = self.index.codec.encode(vectors)
                by_hash = {d: c.tobytes() for d, c in zip(texts, codes, strict=True)}
                if not self.store.put_codes(
                    self.model, list(by_hash.items()), tag=self._tag, vectors=vectors
                ):
                    return done  # re-encoded by another process: reloaded on next search
                live = [(i, by_hash[d]) for i, (d, _) in batch if i in self._pending]
                self._add_codes([i for i, _ in live], [c for _, c in live])
                for i, _ in live:
                    self._pending.pop(i, None)
                self._delta += len(live)
                remaining = len(self._pending)
            done += len(texts)
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

    def settle(self, most: int, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for the background embedder, when it is running
        and at most ``most`` chunks are pending (the caller must not hold the lock)."""
        if self._thread is not None and self._thread.is_alive() and self.pending <= most:
            self._thread.join(timeout)

    def stop(self) -> None:
        """Ask the background embedder to stop after its current batch, and wait for it."""
        self._stop.set()
        self.wait()
        while self._ahead:
            self._ahead.popitem()[1].cancel()

    def prefetch(self, texts: Sequence[str]) -> None:
        """Plan the embedding of a search's query texts (a question and its facets). Several
        texts with a core idle (:meth:`EmbeddingProvider.idle_cores`) are embedded together
        in one call on the searching thread when the first is asked for, after the keyword
        side, on the idle cores too. Otherwise (one text, the question alone by default,
        or no idle core) each starts now on another thread, so
        that the search does its refresh and keyword side meanwhile (the engine and
        SQLite release the GIL), and :meth:`query` embeds a text itself when the other
        thread has not started on it. Not a cache: a vector is used once, and what an
        earlier search left unused is dropped."""
        provider, index = self.provider, self.index
        if provider is None or index is None or index.size == 0:
            return
        while self._ahead:
            self._ahead.popitem()[1].cancel()
        wanted = list(dict.fromkeys(texts))[:PREFETCH_MAX]
        # one text gains nothing from a second core here (measured: its engine's threads
        # wait passively at every barrier), while on the other thread it runs beside the
        # refresh and the keyword side
        cores = provider.idle_cores() if len(wanted) > 1 else 0
        if cores > 0:
            together = _Together(provider, wanted, 1 + cores)
            self._ahead = dict.fromkeys(wanted, together)
            return
        for text in wanted:
            self._ahead[text] = _query_worker().submit(provider.embed_query, text)

    def _embed_query(self, provider: EmbeddingProvider, text: str) -> np.ndarray:
        ahead = self._ahead.pop(text, None)
        if isinstance(ahead, _Together):
            return ahead.vector(text)
        if ahead is not None and not ahead.cancel():
            return ahead.result()  # running or done on the other thread
        return provider.embed_query(text)

    def query(self, text: str, k: int) -> Retrieved:
        """The query vector and the ``k`` nearest chunks; ``(None, [])`` when off."""
        provider, index = self.provider, self.index
        if provider is None or index is None or index.size == 0:
            return None, []
        try:
            vector = self._embed_query(provider, text)
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
            "codec": self.index.codec.name if self.index else None,
        }
