"""Which files are indexed, and the incremental keyword side of a sync.

Indexed: ``<root>/MEMORY.md`` and the markdown files under ``<root>/memory/`` except the
dream diaries (``memory/dreams/``), the phase reports (``memory/dreaming/``) and
dot-folders, and the session logs ``<root>/sessions/YYYY-MM-DD.jsonl``. Nothing else under
the root (other chats' roots live in ``<root>/scopes/``).

:func:`sync_entries` brings the given files in line: a file whose size and mtime are
unchanged is skipped unread, one whose content hash is unchanged only has its stat
recorded, and a changed file is re-chunked and *diffed* against its chunks: a chunk whose
text is unchanged keeps its id (and so its FTS row and its vector; only its line numbers
follow), and only the chunks that really changed leave or enter the index. An append to
today's note costs one or two chunks, not the file, let alone the archive. Which files
to look at is :mod:`memory.search.freshness`'s decision.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from memory.paths import MemoryRoot
from memory.search.chunker import Chunk, ChunkerConfig, chunk_text
from memory.search.keyword_index import KeywordIndex
from memory.search.store import FileRow, Store, StoredChunk, text_hash
from memory.session_log import FOLDER as SESSIONS
from memory.session_log import is_session_path

SKIPPED_DIRS = ("memory/dreams", "memory/dreaming")


def _inside(root: Path, path: Path) -> bool:
    resolved = path.resolve()
    return resolved == root or root in resolved.parents


@dataclass(frozen=True)
class FileEntry:
    relative: str
    path: str
    size: int
    mtime_ns: int


def _scan(
    root: MemoryRoot, directory: Path, prefix: str, out: list[FileEntry], dirs: dict[str, int]
) -> None:
    dirs[str(directory)] = os.stat(directory).st_mtime_ns
    with os.scandir(directory) as entries:
        for entry in entries:
            if entry.name.startswith("."):
                continue
            relative = f"{prefix}{entry.name}"
            if entry.is_symlink() and not _inside(root.path, Path(entry.path)):
                continue
            if entry.is_dir():
                if relative not in SKIPPED_DIRS:
                    _scan(root, Path(entry.path), relative + "/", out, dirs)
            elif entry.name.endswith(".md") and entry.is_file():
                info = entry.stat()
                out.append(FileEntry(relative, entry.path, info.st_size, info.st_mtime_ns))


def scan(root: MemoryRoot, dirs: dict[str, int] | None = None) -> list[FileEntry]:
    """The markdown files search may read, with size and mtime, sorted by path; ``dirs``
    (when given) receives the mtime of every folder read, the root's included."""
    found: list[FileEntry] = []
    seen_dirs: dict[str, int] = {}
    seen_dirs[str(root.path)] = os.stat(root.path).st_mtime_ns
    entry = stat_file(root, "MEMORY.md")
    if entry is not None:
        found.append(entry)
    if root.notes_dir.is_dir() and not root.notes_dir.is_symlink():
        _scan(root, root.notes_dir, "memory/", found, seen_dirs)
    sessions = root.path / SESSIONS
    if sessions.is_dir() and not sessions.is_symlink():
        seen_dirs[str(sessions)] = os.stat(sessions).st_mtime_ns
        with os.scandir(sessions) as entries:
            for item in entries:
                relative = f"{SESSIONS}/{item.name}"
                if is_session_path(relative) and item.is_file(follow_symlinks=False):
                    info = item.stat()
                    found.append(FileEntry(relative, item.path, info.st_size, info.st_mtime_ns))
    if dirs is not None:
        dirs.update(seen_dirs)
    return sorted(found, key=lambda e: e.relative)


def stat_file(root: MemoryRoot, relative: str) -> FileEntry | None:
    """One indexable file's entry, or ``None`` when it is gone or no longer readable
    (one ``lstat``; a second ``stat`` only for a symlink, which must stay inside the root)."""
    path = root.path / relative
    try:
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            if not _inside(root.path, path):
                return None
            info = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    return FileEntry(relative, str(path), info.st_size, info.st_mtime_ns)


def indexable_files(root: MemoryRoot) -> list[Path]:
    """The paths of ``scan``."""
    return [Path(entry.path) for entry in scan(root)]


@dataclass
class SyncChanges:
    added: list[StoredChunk] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    recorded: dict[str, FileRow] = field(default_factory=dict)  # files rows written
    forgotten: list[str] = field(default_factory=list)  # files rows deleted
    files_changed: int = 0
    files_removed: int = 0
    files_unchanged: int = 0

    @property
    def wrote(self) -> bool:
        return bool(self.recorded or self.forgotten)


def _rechunk(
    store: Store, relative: str, text: str, chunker: ChunkerConfig
) -> tuple[list[StoredChunk], list[StoredChunk]]:
    """Replace the chunks of one file, keeping the id of every chunk whose text is
    unchanged; returns the chunks added and the chunks removed (the keyword index is the
    caller's: it takes a whole sync's changes at once)."""
    unmatched: dict[bytes, list[StoredChunk]] = {}
    for old in store.file_chunks(relative):
        unmatched.setdefault(old.text_hash, []).append(old)
    fresh: list[Chunk] = []
    for chunk in chunk_text(relative, text, chunker):
        same = unmatched.get(text_hash(chunk.text))
        if not same:
            fresh.append(chunk)
            continue
        kept = same.pop(0)
        if (kept.start_line, kept.end_line, kept.importance) != (
            chunk.start_line,
            chunk.end_line,
            chunk.importance,
        ):
            store.move_chunk(kept.id, chunk)
    gone = [c for chunks in unmatched.values() for c in chunks]
    store.delete_chunks([c.id for c in gone])
    ids = store.add_chunks(fresh)
    added = [
        StoredChunk(i, c.path, c.start_line, c.end_line, c.text, text_hash(c.text), c.importance)
        for i, c in zip(ids, fresh, strict=True)
    ]
    return added, gone


def sync_entries(
    store: Store,
    keywords: KeywordIndex,
    chunker: ChunkerConfig,
    entries: Iterable[FileEntry],
    gone: Iterable[str],
    known: Mapping[str, FileRow],
    progress: Callable[[str], None] | None = None,
) -> SyncChanges:
    """Bring the given files (and the vanished ones) in line; no commit. The keyword index
    takes the sync's removed and added chunks at the end, each term's postings written
    once for the whole sync rather than once a file."""
    changes = SyncChanges()
    removed: list[StoredChunk] = []
    for entry in entries:
        relative = entry.relative
        row = known.get(relative)
        if row is not None and (row.size, row.mtime) == (entry.size, entry.mtime_ns):
            changes.files_unchanged += 1
            continue
        try:
            data = Path(entry.path).read_bytes()
        except OSError:
            continue  # gone between the stat and the read: the next scan sees it
        digest = hashlib.sha256(data).hexdigest()
        changes.recorded[relative] = FileRow(digest, entry.size, entry.mtime_ns)
        store.put_file(relative, digest, entry.size, entry.mtime_ns)
        if row is not None and row.hash == digest:
            changes.files_unchanged += 1
            continue
        added, gone_chunks = _rechunk(
            store, relative, data.decode("utf-8", errors="replace"), chunker
        )
        changes.added.extend(added)
        removed.extend(gone_chunks)
        changes.files_changed += 1
        if progress:
            progress(f"indexed {relative} ({len(added)} new chunks)")
    for relative in gone:
        if relative not in known:
            continue
        removed.extend(store.delete_file(relative))
        changes.forgotten.append(relative)
        changes.files_removed += 1
    keywords.delete(removed)
    keywords.add([c.id for c in changes.added], [c.text for c in changes.added])
    changes.removed = [c.id for c in removed]
    return changes
