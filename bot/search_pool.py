"""One memory-search service per memory root, opened on use, closed when idle.

A search only ever sees the root it was opened on, so one scope's memory never shows up
in another scope's hits. All services share one embedding provider (one model in memory
for every chat). An open service holds its SQLite connection and its vectors; the pool
keeps at most ``max_open`` open and their vectors within ``vector_budget`` bytes, closing
the least recently used first, and closes any left idle for ``idle_seconds``. A closed
service reopens on its next search (its first answer then costs an open: copying the
cached vector codes, no embedding).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from typing import TYPE_CHECKING, Any

from bot.config import BotConfig
from memory.paths import MemoryRoot
from memory.search.ranking import DEFAULT_MIN_SCORE

if TYPE_CHECKING:
    from memory.search.embeddings.base import EmbeddingProvider
    from memory.search.service import Hit, MemorySearch

log = logging.getLogger(__name__)

MAX_OPEN = 16
VECTOR_BUDGET = 256 * 1024 * 1024
IDLE_SECONDS = 600.0


class SearchPool:
    """Opens :class:`MemorySearch` services lazily; each is used under its own lock."""

    def __init__(
        self,
        config: BotConfig,
        *,
        max_open: int = MAX_OPEN,
        vector_budget: int = VECTOR_BUDGET,
        idle_seconds: float = IDLE_SECONDS,
    ) -> None:
        self.config = config
        self.max_open = max_open
        self.vector_budget = vector_budget
        self.idle_seconds = idle_seconds
        self._services: dict[str, tuple[MemorySearch, threading.Lock]] = {}
        self._guard = threading.Lock()
        self._provider: EmbeddingProvider | None = None
        self._provider_tried = False

    def _settings(self) -> Any:
        from memory.search.chunker import ChunkerConfig
        from memory.search.service import SearchSettings

        settings = SearchSettings(
            provider=self.config.embedding_provider,
            api_key=self.config.api_key(),
            base_url=self.config.open_ai_api_base,
            # Keyword search serves while vectors are computed in the background.
            background=True,
            timezone=self.config.timezone,
            chunker=ChunkerConfig(sessions=self.config.memory_search_sessions),
            answerable=self.config.memory_search_answerable,
        )
        if self.config.embedding_model:
            settings = dataclasses.replace(settings, openai_model=self.config.embedding_model)
        return settings

    def _shared_provider(self, settings: Any) -> EmbeddingProvider | None:
        """The one provider every service uses; ``None`` leaves each service to start (and
        report the failure of) its own."""
        if not self._provider_tried:
            self._provider_tried = True
            from memory.search.embeddings.base import EmbeddingError
            from memory.search.embeddings.registry import ProviderConfig, build, resolve

            config = ProviderConfig(
                settings.provider, settings.openai_model, settings.api_key, settings.base_url
            )
            name = resolve(config)
            if name != "none":
                try:
                    self._provider = build(name, config)
                except EmbeddingError as exc:
                    log.warning("embedding provider %s failed to start: %s", name, exc)
        return self._provider

    def _open(self, root: MemoryRoot) -> tuple[MemorySearch, threading.Lock]:
        from memory.search.service import MemorySearch

        key = str(root.path)
        with self._guard:
            if key not in self._services:
                settings = self._settings()
                provider = self._shared_provider(settings)
                self._services[key] = (
                    MemorySearch(root, settings, provider=provider),
                    threading.Lock(),
                )
            service, lock = self._services[key]
            service.last_used = time.monotonic()
            self._evict(keep=key)
            return service, lock

    def _evict(self, keep: str) -> None:
        """Close idle services, then the least recently used beyond the limits (the guard
        is held; a service in use is skipped)."""
        now = time.monotonic()
        others = sorted(
            (
                (s.last_used, s, lock)
                for k, (s, lock) in self._services.items()
                if s.is_open and k != keep
            ),
            key=lambda item: item[0],
        )
        count = len(others) + 1  # the one about to be used is open, or soon will be
        held = sum(s.vector_bytes() for _, s, _ in others) + self._services[keep][0].vector_bytes()
        for last_used, service, lock in others:
            idle = now - last_used >= self.idle_seconds
            over = count > self.max_open or held > self.vector_budget
            if not (idle or over):
                continue
            if not lock.acquire(blocking=False):
                continue
            try:
                size = service.vector_bytes()
                service.close()
            except Exception:
                log.exception("closing a search index failed")
                continue
            finally:
                lock.release()
            count -= 1
            held -= size

    def open_count(self) -> int:
        with self._guard:
            return sum(1 for service, _ in self._services.values() if service.is_open)

    def search(
        self, root: MemoryRoot, query: str, *, limit: int = 6, min_score: float = DEFAULT_MIN_SCORE
    ) -> list[Hit]:
        """The best hits in ``root`` for ``query``."""
        service, lock = self._open(root)
        with lock:
            return service.search(query, limit=limit, min_score=min_score)

    def refresh(self, root: MemoryRoot) -> None:
        """Bring ``root``'s index up to date now, if it is open (after a dream rewrote
        MEMORY.md: the new items get their vectors before the chat's next question
        rather than during it). A closed index is left closed: it reads the changes when
        it next opens."""
        with self._guard:
            opened = self._services.get(str(root.path))
        if opened is None or not opened[0].is_open:
            return
        service, lock = opened
        with lock:
            service.sync()

    def tool_search(
        self, root: MemoryRoot, query: str, max_results: int, min_score: float
    ) -> dict[str, Any]:
        from memory.search.tools import memory_search

        service, lock = self._open(root)
        with lock:
            return dict(memory_search(service, query, max_results, min_score))

    def status(self, root: MemoryRoot) -> dict[str, Any]:
        service, lock = self._open(root)
        with lock:
            return dict(service.status())

    def discard(self, root: MemoryRoot) -> None:
        """Close ``root``'s service (after ``forget`` removed its index, the next search
        opens a fresh one)."""
        with self._guard:
            opened = self._services.pop(str(root.path), None)
        if opened is not None:
            service, lock = opened
            with lock:
                service.close()

    def close(self) -> None:
        with self._guard:
            services, self._services = list(self._services.values()), {}
        for service, lock in services:
            with lock:
                try:
                    service.close()
                except Exception:
                    log.exception("closing a search index failed")
