"""The first search of a freshly opened index sees what was written since the last sync.

A bot embeds in the background (``SearchSettings(background=True)``): a search starts the
embedder and keyword search serves meanwhile. The MEMORY.md items a dream wrote in another
process are such lines; the first search after a start waits a short, bounded time for
them when only a few chunks are pending, so its answer has their vectors too.
"""

from __future__ import annotations

import threading
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from conftest import write

from memory.paths import MemoryRoot
from memory.search import service as service_module
from memory.search.embeddings.local import LocalProvider
from memory.search.service import MemorySearch, SearchSettings

NOW = date(2026, 11, 30)
ITEM = "- 用户对花生严重过敏，吃了会起疹子"


def started_root(base: Path) -> MemoryRoot:
    """A root indexed and embedded by an earlier process, then given a MEMORY.md item."""
    write(base, "MEMORY.md", "# MEMORY\n\n- 用户偏好美式咖啡，不加糖\n")
    write(base, "memory/2026-11-28.md", "# Daily Memory: 2026-11-28\n\n- 下周三去上海出差\n")
    root = MemoryRoot.at(base)
    earlier = MemorySearch(root, SearchSettings(provider="local"))
    earlier.sync()
    earlier.close()
    write(base, "MEMORY.md", f"# MEMORY\n\n- 用户偏好美式咖啡，不加糖\n{ITEM}\n")
    return root


def first_hit_source(root: MemoryRoot, *, held: bool = False) -> str:
    """The source of the new item's hit in a new service's first search; ``held``: the
    background embedder cannot finish before that search has answered."""
    provider = LocalProvider()
    answered = threading.Event()
    if held:
        real = provider.embed_passages

        def after_the_search(texts: Any) -> Any:
            answered.wait(30)
            return real(texts)

        provider.embed_passages = after_the_search  # type: ignore[method-assign]
    svc = MemorySearch(root, SearchSettings(provider="local", background=True), provider=provider)
    try:
        hits = svc.search("花生过敏", now=NOW, min_score=0.0)
        answered.set()
        item = [h for h in hits if h.path == "MEMORY.md" and "花生" in h.snippet]
        assert item, hits
        return item[0].source
    finally:
        answered.set()
        svc.close()


def test_the_first_search_waits_for_the_few_pending_vectors(tmp_path: Path) -> None:
    root = started_root(tmp_path / "r")
    assert first_hit_source(root) == "hybrid"  # found by its words and by its vector


def test_without_the_wait_the_first_search_has_keywords_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service_module, "FIRST_WAIT_S", 0.0)
    root = started_root(tmp_path / "r")
    assert first_hit_source(root, held=True) == "keyword"  # its vector was not ready


def test_many_pending_chunks_are_not_waited_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service_module, "FIRST_WAIT_PENDING", 0)
    root = started_root(tmp_path / "r")
    assert first_hit_source(root, held=True) == "keyword"
