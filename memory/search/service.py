"""``MemorySearch``: the hybrid search service over one memory root.

Cheap to construct; the SQLite index, the provider and FAISS open on first use. ``search``
brings the index up to date first (rescanning the files at most every ``refresh_seconds``;
keywords at once; vectors inline, or in the background
when ``SearchSettings.background`` is set, while keyword search serves).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any, Literal

from memory import clock
from memory.atomic import file_lock
from memory.errors import MemoryEngineError, UsageError
from memory.paths import MemoryRoot
from memory.search import store as store_module
from memory.search.chunker import ChunkerConfig
from memory.search.embedder import VectorSide
from memory.search.embeddings.registry import PROVIDERS, ProviderConfig
from memory.search.indexer import sync_files
from memory.search.keyword_index import TOKENIZER_VERSION, KeywordIndex
from memory.search.ranker import RankSettings, rank
from memory.search.store import SCHEMA_VERSION, Store

Source = Literal["vector", "keyword", "hybrid"]


DEPTH_MIN, DEPTH_PER_HIT = 100, 20  # candidates asked of each side per search


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
    ivf_threshold: int = 200_000
    refresh_seconds: float = 1.0
    timezone: str | None = None  # recency counts days in this zone (None: the machine's)
    chunker: ChunkerConfig = field(default_factory=ChunkerConfig)
    ranking: RankSettings = field(default_factory=RankSettings)

    def __post_init__(self) -> None:
        if self.provider not in PROVIDERS:
            names = ", ".join(PROVIDERS)
            raise UsageError(f"unknown embedding provider {self.provider!r}; choose one of {names}")


@dataclass(frozen=True)
class Hit:
    path: str
    start_line: int
    end_line: int
    score: float
    snippet: str
    source: Source

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


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


class MemorySearch:
    def __init__(self, root: MemoryRoot, settings: SearchSettings | None = None) -> None:
        self.root = root
        self.settings = settings or SearchSettings()
        self._lock = threading.RLock()
        self._store: Store | None = None
        self._keywords: KeywordIndex | None = None
        self._vectors: VectorSide | None = None
        self._loaded = False
        self._synced_at = -1e9

    def _open(self) -> tuple[Store, KeywordIndex, VectorSide]:
        if self._store is None or self._keywords is None or self._vectors is None:
            conn = store_module.connect(self.root.index_dir / "search.sqlite")
            self._store = Store(conn)
            self._keywords = KeywordIndex(conn)
            s = self.settings
            config = ProviderConfig(s.provider, s.openai_model, s.api_key, s.base_url)
            self._vectors = VectorSide(
                config, self._store, self._lock, batch=s.batch_size, ivf_threshold=s.ivf_threshold
            )
        return self._store, self._keywords, self._vectors

    def _signature(self) -> str:
        c = self.settings.chunker
        chunks = f"{c.max_lines}-{c.dialogue_lines}-{c.max_chars}-{c.overlap}"
        chunks += "" if c.sessions else "-nosessions"
        return f"{SCHEMA_VERSION}/{TOKENIZER_VERSION}/chunks-{chunks}"

    def sync(
        self, progress: Callable[[str], None] | None = None, *, rebuild: bool = False
    ) -> IndexReport:
        """Bring the index up to date with the markdown files (incremental)."""
        with self._lock, file_lock(self.root.index_dir / ".lock"):
            store, keywords, vectors = self._open()
            vectors.start()
            rebuilt = rebuild or store.get_meta("signature") != self._signature()
            if rebuilt:
                store.clear_chunks()
                keywords.clear()
                store.set_meta("signature", self._signature())
                self._loaded = False
            changes = sync_files(self.root, store, keywords, self.settings.chunker, progress)
            if vectors.model_key and store.get_meta("vector_model") != vectors.model_key:
                store.set_meta("vector_model", vectors.model_key)
                rebuilt, self._loaded = True, False
            store.conn.commit()
            if not self._loaded:
                vectors.load()
                self._loaded = True
            elif changes.added or changes.removed:
                texts = {c.id: (c.text_hash, c.text) for c in store.chunks(changes.added).values()}
                vectors.apply(changes.added, changes.removed, texts)
        self._synced_at = time.monotonic()
        if self.settings.background:
            vectors.start_background(progress)
        else:
            vectors.embed_pending(progress)
        status = vectors.status()
        return IndexReport(
            changes.files_changed,
            changes.files_removed,
            changes.files_unchanged,
            store.chunk_count(),
            rebuilt,
            status["vectors"],
            status["pending"],
            status["provider"],
            status["state"],
            status["reason"],
        )

    def search(
        self, query: str, *, limit: int = 6, min_score: float = 0.35, now: date | None = None
    ) -> list[Hit]:
        """Best hits for ``query``; raises ``SearchUnavailable`` if the chosen provider failed."""
        if not query.strip():
            raise UsageError("empty search query")
        if limit < 1:
            raise UsageError(f"--limit must be at least 1, got {limit}")
        if time.monotonic() - self._synced_at >= self.settings.refresh_seconds:
            self.sync()
        store, keywords, vectors = self._open()
        if vectors.state == "unavailable":
            raise SearchUnavailable(f"memory search unavailable: {vectors.reason}")
        depth = max(DEPTH_MIN, limit * DEPTH_PER_HIT)
        with self._lock:
            keyword_hits = keywords.search(query, depth)
        query_vector, vector_hits = vectors.query(query, depth)
        if vectors.state == "unavailable":
            raise SearchUnavailable(f"memory search unavailable: {vectors.reason}")
        floor, ceiling = (
            (vectors.provider.cosine_floor, vectors.provider.cosine_ceiling)
            if vectors.provider
            else (0.0, 1.0)
        )
        with self._lock:
            ranked = rank(
                query,
                keyword_hits,
                vector_hits,
                store,
                vector_ids=vectors.ids if query_vector is not None else set(),
                cosine_range=(floor, ceiling),
                settings=self.settings.ranking,
                limit=limit,
                min_score=min_score,
                now=now or clock.now_in(self.settings.timezone).date(),
            )
        return [Hit(r.path, r.start_line, r.end_line, r.score, r.snippet, r.source) for r in ranked]

    def wait_for_vectors(self, timeout: float | None = None) -> None:
        if self._vectors is not None:
            self._vectors.wait(timeout)

    def status(self) -> dict[str, Any]:
        with self._lock:
            store, _, vectors = self._open()
            vectors.start()
            info = {
                "root": str(self.root.path),
                "files": len(store.file_paths()),
                "chunks": store.chunk_count(),
                **vectors.status(),
            }
        info["vectors_ready"] = info["pending"] == 0 and info["state"] == "ready"
        info["degraded"] = info["reason"] if info["state"] in ("degraded", "unavailable") else None
        return info

    def close(self) -> None:
        if self._vectors is not None:
            self._vectors.stop()
        if self._store is not None:
            self._store.conn.close()
        self._store, self._keywords, self._vectors = None, None, None
        self._loaded = False
