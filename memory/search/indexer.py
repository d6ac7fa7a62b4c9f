"""Which files are indexed, and the incremental keyword side of ``sync``.

Indexed: ``<root>/MEMORY.md`` and the markdown files under ``<root>/memory/`` except the
dream diaries (``memory/dreams/``) and dot-folders. Nothing else under the root (other
chats' roots live in ``<root>/scopes/``). Files whose size and mtime are unchanged are
skipped unread; only files whose content hash changed are re-chunked; files that
disappeared leave the index.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memory.paths import MemoryRoot
from memory.search.chunker import ChunkerConfig, chunk_text
from memory.search.keyword_index import KeywordIndex
from memory.search.store import Store


def _inside(root: Path, path: Path) -> bool:
    resolved = path.resolve()
    return resolved == root or root in resolved.parents


def indexable_files(root: MemoryRoot) -> list[Path]:
    """The markdown files search may read, sorted."""
    found: list[Path] = []
    if root.memory_md.is_file():
        found.append(root.memory_md)
    if root.notes_dir.is_dir():
        for path in root.notes_dir.rglob("*.md"):
            parts = path.relative_to(root.notes_dir).parts
            if any(p.startswith(".") for p in parts) or (parts[0] == "dreams" and len(parts) > 1):
                continue
            if path.is_file() and _inside(root.path, path):
                found.append(path)
    return sorted(found)


def is_indexable(root: MemoryRoot, relative: str) -> bool:
    """True when ``relative`` names a file search indexes (used by ``memory_get``)."""
    return any(root.relative(p) == relative for p in indexable_files(root))


@dataclass
class SyncChanges:
    added: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    files_changed: int = 0
    files_removed: int = 0
    files_unchanged: int = 0


def sync_files(
    root: MemoryRoot,
    store: Store,
    keywords: KeywordIndex,
    chunker: ChunkerConfig,
    progress: Callable[[str], None] | None = None,
) -> SyncChanges:
    """Bring files, chunks and the FTS table in line with the markdown; no commit."""
    changes = SyncChanges()
    known_hash = store.file_hashes()
    known = store.file_stats()
    seen: set[str] = set()
    for path in indexable_files(root):
        relative = root.relative(path)
        seen.add(relative)
        stat = path.stat()
        if known.get(relative) == (stat.st_size, stat.st_mtime_ns):
            changes.files_unchanged += 1
            continue
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        if known_hash.get(relative) == digest:
            store.put_file(relative, digest, stat.st_size, stat.st_mtime_ns)
            changes.files_unchanged += 1
            continue
        removed = store.delete_file(relative)
        keywords.delete(removed)
        changes.removed.extend(removed)
        chunks = chunk_text(relative, data.decode("utf-8", errors="replace"), chunker)
        ids = store.add_chunks(chunks)
        keywords.add(ids, [c.text for c in chunks])
        store.put_file(relative, digest, stat.st_size, stat.st_mtime_ns)
        changes.added.extend(ids)
        changes.files_changed += 1
        if progress:
            progress(f"indexed {relative} ({len(chunks)} chunks)")
    for relative in set(known_hash) - seen:
        removed = store.delete_file(relative)
        keywords.delete(removed)
        changes.removed.extend(removed)
        changes.files_removed += 1
    return changes
