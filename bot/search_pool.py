"""One memory-search service per memory root, opened on first use and closed at shutdown.

A search only ever sees the root it was opened on, so one scope's memory never shows up
in another scope's hits.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from typing import TYPE_CHECKING, Any

from bot.config import BotConfig
from memory.paths import MemoryRoot

if TYPE_CHECKING:
    from memory.search.service import Hit, MemorySearch

log = logging.getLogger(__name__)


class SearchPool:
    """Opens :class:`MemorySearch` services lazily; each is used under its own lock."""

    def __init__(self, config: BotConfig) -> None:
        self.config = config
        self._services: dict[str, tuple[MemorySearch, threading.Lock]] = {}
        self._guard = threading.Lock()

    def _open(self, root: MemoryRoot) -> tuple[MemorySearch, threading.Lock]:
        from memory.search.chunker import ChunkerConfig
        from memory.search.service import MemorySearch, SearchSettings

        key = str(root.path)
        with self._guard:
            if key not in self._services:
                settings = SearchSettings(
                    provider=self.config.embedding_provider,
                    api_key=self.config.api_key(),
                    base_url=self.config.open_ai_api_base,
                    # Keyword search serves while vectors are computed in the background.
                    background=True,
                    timezone=self.config.timezone,
                    chunker=ChunkerConfig(sessions=self.config.memory_search_sessions),
                )
                if self.config.embedding_model:
                    settings = dataclasses.replace(
                        settings, openai_model=self.config.embedding_model
                    )
                self._services[key] = (MemorySearch(root, settings), threading.Lock())
            return self._services[key]

    def search(
        self, root: MemoryRoot, query: str, *, limit: int = 6, min_score: float = 0.35
    ) -> list[Hit]:
        """The best hits in ``root`` for ``query``."""
        service, lock = self._open(root)
        with lock:
            return service.search(query, limit=limit, min_score=min_score)

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
