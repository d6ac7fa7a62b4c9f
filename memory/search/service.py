"""``MemorySearch``: the hybrid search service over one memory root.

Cheap to construct; the SQLite index, the provider and FAISS open on first use. Every
``search`` first makes sure the index has the latest lines, at a cost that does not grow
with the archive (:mod:`memory.search.freshness`: a few ``stat`` calls, and a re-chunk of
only the files that changed); vectors follow inline, or in the background when
``SearchSettings.background`` is set, while keyword search serves. Another process writing
the same index (``python -m memory index`` beside the bot) is followed through SQLite's
``data_version`` and the log of deleted chunks, never by re-reading everything.

Faults: an unreadable index is set aside and rebuilt, with a warning; a search that finds
the index locked by another writer answers from what is committed and says so; ``index``
waits up to ``LOCK_WAIT_S`` for the other writer, then fails with one line.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any, Literal, TypeVar, get_args

from memory import clock
from memory.atomic import file_lock
from memory.errors import Busy, MemoryEngineError, StorageError, UsageError
from memory.paths import MemoryRoot
from memory.search import store as store_module
from memory.search.answerable import READS, answers, hit_cosines
from memory.search.chunker import CHUNKER_VERSION, ChunkerConfig
from memory.search.context import widen
from memory.search.currency import Currency, CurrencyReader
from memory.search.embedder import DEFAULT_CODEC, Retrieved, VectorSide
from memory.search.embeddings.base import EmbeddingProvider
from memory.search.embeddings.registry import PROVIDERS, ProviderConfig
from memory.search.facets import facets
from memory.search.freshness import Freshness
from memory.search.indexer import FileEntry, SyncChanges, sync_entries
from memory.search.keyword_index import TOKENIZER_VERSION, KeywordHit, KeywordIndex, query_terms
from memory.search.ranker import Hit, RankSettings, Source, chunk_rows, rank
from memory.search.ranking import DEFAULT_MIN_SCORE, cover_facets, term_weight
from memory.search.store import SCHEMA_VERSION, FileRow, Store, StoredChunk
from memory.segment import segmenter_id

__all__ = ["Hit", "IndexReport", "MemorySearch", "SearchSettings", "SearchUnavailable", "Source"]
_T = TypeVar("_T")
log = logging.getLogger(__name__)

DEPTH_MIN, DEPTH_PER_HIT = 100, 20  # candidates asked of each side per search
FACET_HITS = 2  # hits of each facet query (one per thing a question names) considered
MAX_LIMIT = 1000
SETTABLE_CODECS = ("sq8", "float16", "float32")  # sq8: float16 until ranges are fitted
LOCK_WAIT_S = 30.0  # how long ``index`` waits for another process's write
PRUNE_MIN, PRUNE_SHARE = 2000, 0.1  # removed chunks before unused cached vectors are dropped
# the first search of an open index waits this long for the background embedder, when at
# most this many chunks are pending (lines written since the index was last synced, such as
# the MEMORY.md items of a dream run by another process): the first answer then has them
FIRST_WAIT_S, FIRST_WAIT_PENDING = 1.0, 64
# the vector side of a facet query (a thing the question names, searched on its own): the
# whole question's vector hits (the default: no embedding and no scan of its own, the same
# evaluation figures), its own embedding, or none (keywords only); docs/search.md "Cost"
FacetVectors = Literal["question", "own", "none"]


def _depth(limit: int) -> int:
    """Candidates asked of each side for a query of ``limit`` hits."""
    return max(DEPTH_MIN, limit * DEPTH_PER_HIT)


class SearchUnavailable(MemoryEngineError):
    """The explicitly chosen embedding provider failed; search will not silently degrade."""


@dataclass(frozen=True)
class SearchSettings:
    provider: str = "auto"
    openai_model: str = "text-embedding-3-small"
    api_key: str | None = None
    base_url: str | None = None
    background: bool = False
    batch_size: int = 64
    full_scan_seconds: float = 60.0  # every file is stat-ed at most this often
    vector_codec: str = DEFAULT_CODEC
    timezone: str | None = None  # recency counts days in this zone (None: the machine's)
    chunker: ChunkerConfig = field(default_factory=ChunkerConfig)
    ranking: RankSettings = field(default_factory=RankSettings)
    facet_vectors: FacetVectors = "question"
    answerable: bool = False  # opt-in: no hits unless they likely answer it (answerable.py)

    def __post_init__(self) -> None:
        if self.facet_vectors not in get_args(FacetVectors):
            names = ", ".join(get_args(FacetVectors))
            raise UsageError(f"unknown facet_vectors {self.facet_vectors!r}; choose one of {names}")
        if self.provider not in PROVIDERS:
            names = ", ".join(PROVIDERS)
            raise UsageError(f"unknown embedding provider {self.provider!r}; choose one of {names}")
        if self.vector_codec not in SETTABLE_CODECS:
            names = ", ".join(SETTABLE_CODECS)
            raise UsageError(f"unknown vector codec {self.vector_codec!r}; choose one of {names}")


@dataclass(frozen=True)
class IndexReport:
    files_changed: int
    files_removed: int
    files_unchanged: int
    chunks: int
    rebuilt: bool
    vectors: int
    pending: int
    provider: str
    state: str
    reason: str | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class _Open:
    """The open index and what this connection has seen of it."""

    store: Store
    keywords: KeywordIndex
    vectors: VectorSide
    files: dict[str, FileRow]
    data_version: int = 0
    generation: str | None = None
    last_chunk: int = 0
    removed_seq: int = 0
    current: bool = False  # built with this signature (else the next sync rebuilds)
    unused: int = 0  # chunks removed since the embedding cache was last pruned
    reset: str | None = None
    searched: bool = False  # a search has run since the index was opened


class MemorySearch:
    def __init__(
        self,
        root: MemoryRoot,
        settings: SearchSettings | None = None,
        *,
        provider: EmbeddingProvider | None = None,
    ) -> None:
        """``provider``: an embedding provider shared with other services (the bot holds
        one model for every chat); by default each service builds its own."""
        self.root = root
        self.settings = settings or SearchSettings()
        self._provider = provider
        self._lock = threading.RLock()
        self._state: _Open | None = None
        self._freshness = Freshness(
            root,
            full_scan_seconds=self.settings.full_scan_seconds,
            timezone=self.settings.timezone,
        )
        c = self.settings.chunker
        chunks = f"{CHUNKER_VERSION}-{c.max_lines}-{c.dialogue_lines}-{c.max_chars}-{c.overlap}"
        chunks += "" if c.sessions else "-nosessions"
        self._signature = f"{SCHEMA_VERSION}/{TOKENIZER_VERSION}/{segmenter_id()}/chunks-{chunks}"
        self.last_used = time.monotonic()
        self._currency = CurrencyReader(root)

    # opening

    def _open(self) -> _Open:
        if self._state is None:
            opened = store_module.connect(self.root.index_dir / "search.sqlite")
            if opened.reset:
                log.warning("%s: %s", self.root.path, opened.reset)
            store = Store(opened.conn)
            s = self.settings
            config = ProviderConfig(s.provider, s.openai_model, s.api_key, s.base_url)
            vectors = VectorSide(
                config,
                store,
                self._lock,
                batch=s.batch_size,
                provider=self._provider,
                codec=s.vector_codec,
            )
            self._state = _Open(store, KeywordIndex(opened.conn), vectors, {}, reset=opened.reset)
            self._freshness.reset()
            self._freshness.prefetch()  # the files are stat-ed while the vectors load
            self._load(self._state)
        return self._state

    def _load(self, state: _Open) -> None:
        """Read what the index holds: file stats, vectors, the high-water marks."""
        state.vectors.start()
        state.files = state.store.files()
        state.generation = state.store.get_meta("generation")
        state.last_chunk = state.store.last_chunk_id()
        state.removed_seq = state.store.removed_seq()
        state.data_version = state.store.data_version()
        state.current = state.store.get_meta("signature") == self._signature
        if state.current:
            state.vectors.load(state.generation)

    def _follow(self, state: _Open) -> None:
        """Catch up with commits made by other connections since we last looked."""
        version = state.store.data_version()
        if version == state.data_version:
            return
        state.data_version = version
        state.keywords.changed()
        store = state.store
        if store.get_meta("generation") != state.generation:
            self._freshness.reset()
            self._load(state)
            return
        state.files = store.files()
        removed, last_seq, first_seq = store.removed_since(state.removed_seq)
        if first_seq > state.removed_seq + 1 or not state.vectors.current():
            # the log was pruned past us, or the cache was re-encoded: reload
            state.vectors.load(state.generation)
        else:
            state.vectors.apply(store.chunks_after(state.last_chunk), removed)
        state.removed_seq = last_seq
        state.last_chunk = store.last_chunk_id()

    # writing

    @contextmanager
    def _writer(self, wait: float) -> Iterator[None]:
        """The index's write lock, waited for up to ``wait`` seconds (0: not at all)."""
        deadline = time.monotonic() + wait
        told = False
        while True:
            try:
                with file_lock(self.root.index_dir / ".lock", blocking=False):
                    yield
                return
            except Busy:
                if time.monotonic() >= deadline:
                    raise Busy(
                        "the search index is being written by another process; try again"
                    ) from None
                if not told and wait > 1.0:
                    log.warning("%s: waiting for another indexing process", self.root.path)
                    told = True
                time.sleep(0.05)

    def _apply(
        self,
        state: _Open,
        entries: list[FileEntry],
        gone: list[str],
        progress: Callable[[str], None] | None = None,
    ) -> SyncChanges:
        """Sync the given files (the caller holds the write lock) and commit."""
        store = state.store
        self._follow(state)
        changes = sync_entries(
            store, state.keywords, self.settings.chunker, entries, gone, state.files, progress
        )
        if changes.wrote:
            store.prune_removed()
            state.unused += len(changes.removed)
            if state.unused > max(PRUNE_MIN, PRUNE_SHARE * len(state.vectors.ids)):
                state.vectors.prune()
                state.unused = 0
            store.conn.commit()
            state.files.update(changes.recorded)
            for relative in changes.forgotten:
                state.files.pop(relative, None)
            state.vectors.apply(changes.added, changes.removed)
            state.last_chunk = store.last_chunk_id()
            state.removed_seq = store.removed_seq()
        return changes

    @contextmanager
    def _locked_out(self) -> Iterator[None]:
        """A database another program keeps locked past the wait: one clear error."""
        try:
            yield
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            if self._state is not None:
                self._state.store.conn.rollback()
                self._state.keywords.changed()
            raise Busy("the search index is locked by another process; try again") from exc

    def _rebuild(self, state: _Open) -> None:
        store = state.store
        store.clear_chunks()
        state.keywords.clear()
        store.conn.execute("DELETE FROM removed_chunks")
        store.set_meta("signature", self._signature)
        store.set_meta("generation", str(time.time_ns()))
        store.conn.commit()
        self._freshness.reset()
        self._load(state)

    def sync(
        self, progress: Callable[[str], None] | None = None, *, rebuild: bool = False
    ) -> IndexReport:
        """Bring the index up to date with the markdown files: every file is stat-ed, only
        changed files are read. Waits up to ``LOCK_WAIT_S`` for another writer."""
        return self._recovering(lambda: self._sync(progress, rebuild))

    def _recovering(self, action: Callable[[], _T]) -> _T:
        """Run ``action``; if the database turns out to be damaged, set it aside, rebuild
        from the files and run it once more."""
        try:
            return action()
        except sqlite3.DatabaseError as exc:
            text = str(exc)
            if (
                isinstance(exc, sqlite3.ProgrammingError)
                or store_module.not_damage(exc) == "locked"
            ):
                raise
            if store_module.not_damage(exc) == "storage":  # a full disk damages nothing
                raise StorageError(f"cannot update the search index ({text})") from exc
            self.close(pack=False)
            store_module.set_aside(self.root.index_dir / "search.sqlite")
            log.warning("%s: the search index was damaged (%s); rebuilt", self.root.path, text)
        return action()

    def _sync(self, progress: Callable[[str], None] | None, rebuild: bool) -> IndexReport:
        with self._lock:
            state = self._open()
            with self._writer(LOCK_WAIT_S), self._locked_out(), state.store.patient(LOCK_WAIT_S):
                self._follow(state)
                rebuilt = rebuild or not state.current
                if rebuilt:
                    self._rebuild(state)
                plan = self._freshness.plan(state.files, full=True)
                changes = self._apply(state, plan.entries, plan.gone, progress)
                if state.keywords.fill_words():  # an index older than the stored words
                    state.store.conn.commit()
        self._embed(state, progress)
        if not self.settings.background:
            self._checkpoint(state, LOCK_WAIT_S)
        status = state.vectors.status()
        return IndexReport(
            changes.files_changed,
            changes.files_removed,
            changes.files_unchanged,
            state.keywords.row_count(),
            rebuilt or state.reset is not None,
            status["vectors"],
            status["pending"],
            status["provider"],
            status["state"],
            status["reason"],
        )

    def _embed(self, state: _Open, progress: Callable[[str], None] | None = None) -> None:
        if self.settings.background:
            state.vectors.start_background(progress)
        else:
            state.vectors.embed_pending(progress)

    def _refresh(self, state: _Open) -> None:
        """The per-search check: a few stats; a write only when a file really changed."""
        self._follow(state)
        if not state.current:
            self.sync()
            return
        plan = self._freshness.plan(state.files)
        stale = [
            e
            for e in plan.entries
            if (row := state.files.get(e.relative)) is None
            or (row.size, row.mtime) != (e.size, e.mtime_ns)
        ]
        if stale or plan.gone:
            try:
                with self._writer(0.0), self._locked_out():
                    self._apply(state, stale, plan.gone)
            except Busy:
                self._freshness.reset()  # look again next time
                log.warning(
                    "%s: the search index is being written by another process; "
                    "answering from what it holds",
                    self.root.path,
                )
                return
        self._embed(state)

    # reading

    def search(
        self,
        query: str,
        *,
        limit: int = 6,
        min_score: float = DEFAULT_MIN_SCORE,
        now: date | None = None,
    ) -> list[Hit]:
        """Best hits for ``query``; raises ``SearchUnavailable`` if the chosen provider failed."""
        if not query.strip():
            raise UsageError("empty search query")
        if not 1 <= limit <= MAX_LIMIT:
            raise UsageError(f"--limit must be between 1 and {MAX_LIMIT}, got {limit}")
        self.last_used = time.monotonic()
        return self._recovering(lambda: self._search(query, limit, min_score, now))

    def _search(self, query: str, limit: int, min_score: float, now: date | None) -> list[Hit]:
        named = facets(query) if self.settings.ranking.decompose else []
        own = named if self.settings.facet_vectors == "own" else []
        with self._lock:
            state = self._open()
            state.vectors.prefetch([query, *own])  # embedded while the index refreshes
            self._refresh(state)
            first, state.searched = not state.searched, True
        if first:  # outside the lock: the background embedder takes it
            state.vectors.settle(FIRST_WAIT_PENDING, FIRST_WAIT_S)
        day = now or clock.now_in(self.settings.timezone).date()
        current = self._currency.read(state.files)  # MEMORY.md and the archive's citations
        # the gate reads the first hits of a search of ``READS`` (what it was fitted on), so
        # every surface, whatever its limit, gets the same verdict and a prefix of one list
        asked = max(limit, READS) if self.settings.answerable else limit
        # every keyword side of the search, and their chunk rows, before the first vector is
        # asked for: done while the question is embedded on the other thread
        fetched: dict[int, StoredChunk] = {}
        sides = self._keyword_sides(state, [(query, asked), *((p, FACET_HITS) for p in named)])
        with self._lock:
            chunk_rows(state.store, {h.chunk_id for side in sides for h in side}, fetched)
        hits, whole = self._ranked(
            state, query, asked, min_score, day, current, keyword_hits=sides[0], fetched=fetched
        )
        if named and hits:
            # each thing the question names gets its own query; its best hit joins the top
            per_part = [
                self._ranked(
                    state,
                    p,
                    FACET_HITS,
                    min_score,
                    day,
                    current,
                    self._facet_side(whole),
                    keyword_hits=side,
                    fetched=fetched,
                )
                for p, side in zip(named, sides[1:], strict=True)
            ]
            hits = cover_facets(hits, [part for part, _ in per_part], asked)
        context = self.settings.ranking.context_chars
        gate = self.settings.answerable and bool(hits) and bool(whole[1])  # needs the vectors
        weights: dict[str, float] = {}
        cosines: list[float] = []
        with self._lock:
            hits = widen(hits, state.store, context) if context > 0 else hits
            if gate:
                near = dict(whole[1])  # the vector side's candidates and their cosines
                weights = self._term_weights(query, state.keywords)[0]
                cosines = hit_cosines(hits, state.store.chunks(near).values(), near, query)
        found = [] if gate and not answers(query, hits, weights, cosines) else hits[:limit]
        with self._lock:
            self._freshness.after_search(state.files)  # a due full scan, till the next search
        return found

    def _keyword_sides(
        self, state: _Open, queries: list[tuple[str, int]]
    ) -> list[list[KeywordHit]]:
        """The keyword hits of each ``(text, limit)``, in order."""
        with self._lock:
            return [state.keywords.search(text, _depth(limit)) for text, limit in queries]

    def _facet_side(self, whole: Retrieved) -> Retrieved | None:
        """A facet query's vector side, as ``SearchSettings.facet_vectors`` chooses, from the
        whole question's (``None``: the facet embeds itself)."""
        mode = self.settings.facet_vectors
        if mode == "question":
            return whole[0], whole[1][: _depth(FACET_HITS)]
        return (None, []) if mode == "none" else None

    def _ranked(
        self,
        state: _Open,
        query: str,
        limit: int,
        min_score: float,
        day: date,
        current: Currency,
        retrieved: Retrieved | None = None,
        *,
        keyword_hits: list[KeywordHit],
        fetched: dict[int, StoredChunk] | None = None,
    ) -> tuple[list[Hit], Retrieved]:
        """Retrieval and ranking of one query, before context widening, and its vector side:
        ``retrieved``, or (``None``) the query's own vector and nearest chunks, asked after
        the keyword side so that a prefetched embedding has time to finish. ``keyword_hits``:
        the query's keyword side (:meth:`_keyword_sides`); ``fetched``: the search's chunk
        rows read so far (:func:`chunk_rows`)."""
        store, keywords, vectors = state.store, state.keywords, state.vectors
        if vectors.state == "unavailable":
            raise SearchUnavailable(f"memory search unavailable: {vectors.reason}")
        depth = _depth(limit)
        if retrieved is None:
            retrieved = vectors.query(query, depth)
            if vectors.state == "unavailable":
                raise SearchUnavailable(f"memory search unavailable: {vectors.reason}")
        query_vector, vector_hits = retrieved
        floor, ceiling = (
            (vectors.provider.cosine_floor, vectors.provider.cosine_ceiling)
            if vectors.provider
            else (0.0, 1.0)
        )
        with self._lock:
            weights, counts = self._term_weights(query, keywords)
            hits = rank(
                query,
                keyword_hits,
                vector_hits,
                store,
                vector_ids=vectors.ids if query_vector is not None else set(),
                cosine_range=(floor, ceiling),
                settings=self.settings.ranking,
                limit=limit,
                min_score=min_score,
                now=day,
                currency=current,
                term_weights=weights,
                unheard=frozenset(t for t in weights if t not in counts),
                words=keywords.words,
                fetched=fetched,
            )
        return hits, retrieved

    def _term_weights(
        self, query: str, keywords: KeywordIndex
    ) -> tuple[dict[str, float], dict[str, int]]:
        """Each query term's weight for coverage, from how many chunks hold it (the counts,
        which leave out the terms no chunk holds, come too)."""
        terms = query_terms(query)
        counts = keywords.doc_counts(terms)
        total = keywords.row_count()
        return {t: term_weight(total, counts.get(t, 0)) for t in terms}, counts

    def wait_for_vectors(self, timeout: float | None = None) -> None:
        if self._state is not None:
            self._state.vectors.wait(timeout)

    def status(self) -> dict[str, Any]:
        """Counts and the vector side's state; cheap (no table is counted)."""
        with self._lock:
            state = self._open()
            self._follow(state)
            info = {
                "root": str(self.root.path),
                "files": len(state.files),
                "chunks": state.keywords.row_count(),
                **state.vectors.status(),
            }
        info["vectors_ready"] = info["pending"] == 0 and info["state"] == "ready"
        info["degraded"] = info["reason"] if info["state"] in ("degraded", "unavailable") else None
        return info

    def _checkpoint(self, state: _Open, wait: float) -> None:
        """Pack the vectors for a fast next open, when enough changed (best effort: a
        busy index is left for the next time)."""
        try:
            with self._lock, self._writer(wait), self._locked_out():
                self._follow(state)
                if state.vectors.checkpoint(state.generation, state.last_chunk, state.removed_seq):
                    state.store.conn.commit()
        except Busy:
            log.info("%s: vectors not packed, the index is busy", self.root.path)

    @property
    def is_open(self) -> bool:
        return self._state is not None

    def vector_bytes(self) -> int:
        """Memory the open vectors hold (0 when closed)."""
        state = self._state
        index = state.vectors.index if state is not None else None
        return index.memory_bytes() if index is not None else 0

    def close(self, *, pack: bool = True) -> None:
        """Stop the embedder, pack the vectors if enough changed (``pack``), and release
        the database and the vectors (reopened on use)."""
        state = self._state
        if state is None:
            return
        state.vectors.stop()
        try:
            if pack:
                self._checkpoint(state, 0.0)
        except sqlite3.DatabaseError as exc:
            log.warning("%s: vectors not packed (%s)", self.root.path, exc)
        with self._lock:
            self._state = None
        state.store.conn.close()
