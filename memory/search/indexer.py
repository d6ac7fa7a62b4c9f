"""Which files are indexed, and the incremental keyword side of ``sync``.

Indexed: ``<root>/MEMORY.md`` and the markdown files under ``<root>/memory/`` except the
dream diaries (``memory/dreams/``) and dot-folders, and the session logs
``<root>/sessions/YYYY-MM-DD.jsonl``. Nothing else under the root (other chats' roots live
in ``<root>/scopes/``). Files whose size and mtime are unchanged are
skipped unread; only files whose content hash changed are re-chunked; files that
disappeared leave the index.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memory.paths import MemoryRoot
from memory.search.chunker import ChunkerConfig, chunk_text
from memory.search.keyword_index import KeywordIndex
from memory.search.store import Store
from memory.session_log import is_session_path


def _inside(root: Path, path: Path) -> bool:
    resolved = path.resolve()
    return resolved == root or root in resolved.parents


@dataclass(frozen=True)
class FileEntry:
    relative: str
    path: str
    size: int
    mtime_ns: int


def _scan(root: MemoryRoot, directory: Path, prefix: str, out: list[FileEntry]) -> None:
    with os.scandir(directory) as entries:
        for entry in entries:
            if entry.name.startswith("."):
                continue
            relative = f"{prefix}{entry.name}"
            if entry.is_symlink() and not _inside(root.path, Path(entry.path)):
                continue
            if entry.is_dir():
                if relative != "memory/dreams":
                    _scan(root, Path(entry.path), relative + "/", out)
            elif entry.name.endswith(".md") and entry.is_file():
                stat = entry.stat()
                out.append(FileEntry(relative, entry.path, stat.st_size, stat.st_mtime_ns))


def scan(root: MemoryRoot) -> list[FileEntry]:
    """The markdown files search may read, with size and mtime, sorted by path."""
    found: list[FileEntry] = []
    memory_md = root.memory_md
    if memory_md.is_file() and (not memory_md.is_symlink() or _inside(root.path, memory_md)):
        stat = memory_md.stat()
        found.append(FileEntry("MEMORY.md", str(memory_md), stat.st_size, stat.st_mtime_ns))
    if root.notes_dir.is_dir() and not root.notes_dir.is_symlink():
        _scan(root, root.notes_dir, "memory/", found)
    sessions = root.path / "sessions"
    if sessions.is_dir() and not sessions.is_symlink():
        for entry in os.scandir(sessions):
            if is_session_path(f"sessions/{entry.name}") and entry.is_file(follow_symlinks=False):
                info = entry.stat()
                found.append(
                    FileEntry(f"sessions/{entry.name}", entry.path, info.st_size, info.st_mtime_ns)
                )
    return sorted(found, key=lambda e: e.relative)


def indexable_files(root: MemoryRoot) -> list[Path]:
    """The paths of ``scan``."""
    return [Path(entry.path) for entry in scan(root)]


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
    for entry in scan(root):
        relative = entry.relative
        seen.add(relative)
        if known.get(relative) == (entry.size, entry.mtime_ns):
            changes.files_unchanged += 1
            continue
        data = Path(entry.path).read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        if known_hash.get(relative) == digest:
            store.put_file(relative, digest, entry.size, entry.mtime_ns)
            changes.files_unchanged += 1
            continue
        removed = store.delete_file(relative)
        keywords.delete(removed)
        changes.removed.extend(removed)
        chunks = chunk_text(relative, data.decode("utf-8", errors="replace"), chunker)
        ids = store.add_chunks(chunks)
        keywords.add(ids, [c.text for c in chunks])
        store.put_file(relative, digest, entry.size, entry.mtime_ns)
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
