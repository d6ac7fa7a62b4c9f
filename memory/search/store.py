"""The SQLite side of the index: files, chunks, metadata and the embedding cache.

One database, ``<root>/memory/.index/search.sqlite``, in WAL mode so a background embedder
and searches can share it. Everything here is derived from the markdown and can be rebuilt:
:func:`connect` sets an unreadable database aside and starts a new one
(:class:`Opened` says so).

Vectors are stored once, as the codes FAISS holds, in blocks: each batch embedded is one
row of ``vector_blocks`` (the batch's text hashes and codes, two BLOBs), found by hash
through ``embeddings`` (``(model, text_hash) -> (block, slot)``, a small table without
rowid). Opening the vector index reads the blocks in order, a few large reads; an update
reads the few codes it needs by offset (SQLite's incremental BLOB I/O). Blocks are
rewritten only to drop codes no chunk uses and to merge small blocks
(:meth:`Store.compact_blocks`). Every query a search runs is a point or range lookup on a key
(chunk ids, a path, a file name, a text hash): nothing per query reads a whole table.
Chunk ids only grow (``AUTOINCREMENT``), and a trigger logs each deleted id with a
sequence number, so another connection holding vectors in memory follows deletions by
reading the log from where it stopped instead of comparing every id.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from memory.errors import Busy, StorageError
from memory.search import vector_codecs, vector_packs
from memory.search.chunker import Chunk

SCHEMA_VERSION = "4"
REMOVED_LOG_KEEP = 20_000  # deletions kept for other connections to follow
BUSY_TIMEOUT_S = 0.25  # a search waits this long for another writer, then answers without
CODE_WIDTH = {"float32": 4, "float16": 2, "sq8": 1}  # bytes a dimension, by codec
BLOCK_ROWS = 16_384  # codes a merged block holds
BLOCK_SMALL_PART = 16  # a block of fewer than BLOCK_ROWS / this codes is merged
BLOCK_LIVE_SHARE = 0.75  # a block with fewer live codes than this share is rewritten
MMAP_BYTES = 1 << 30  # how much of the file an open may map to read the vector blocks

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, hash TEXT NOT NULL, size INTEGER NOT NULL, mtime INTEGER NOT NULL,
    name TEXT NOT NULL, stem TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS files_name ON files(name);
CREATE INDEX IF NOT EXISTS files_stem ON files(stem);
CREATE TABLE IF NOT EXISTS chunks (
    id INTEGER PRIMARY KEY AUTOINCREMENT, path TEXT NOT NULL, start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL, text TEXT NOT NULL, text_hash BLOB NOT NULL, importance REAL
);
CREATE INDEX IF NOT EXISTS chunks_path ON chunks(path, start_line);
CREATE TABLE IF NOT EXISTS removed_chunks (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, id INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS chunk_removed AFTER DELETE ON chunks BEGIN
    INSERT INTO removed_chunks(id) VALUES (old.id);
END;
CREATE TABLE IF NOT EXISTS models (
    id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, dim INTEGER NOT NULL, codec TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS vector_blocks (
    id INTEGER PRIMARY KEY, model INTEGER NOT NULL, hashes BLOB NOT NULL, codes BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS vector_blocks_model ON vector_blocks(model, id);
CREATE TABLE IF NOT EXISTS embeddings (
    model INTEGER NOT NULL, text_hash BLOB NOT NULL, block INTEGER NOT NULL,
    slot INTEGER NOT NULL, PRIMARY KEY (model, text_hash)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS legacy_embeddings (
    model_key TEXT NOT NULL, text_hash BLOB NOT NULL, vector BLOB NOT NULL
);
"""


def text_hash(text: str) -> bytes:
    """The key of a chunk's text in the embedding cache (128 bits of SHA-256)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()[:16]


@dataclass(frozen=True)
class StoredChunk:
    id: int
    path: str
    start_line: int
    end_line: int
    text: str
    text_hash: bytes
    importance: float | None


class FileRow(NamedTuple):
    """A file as last indexed (a tuple: the open reads one per file of the root, 5,000 at
    100k chunks, and a frozen dataclass costs several times as much to make)."""

    hash: str
    size: int
    mtime: int


@dataclass(frozen=True)
class Opened:
    """A connection, and why the database was started afresh (``None``: it was fine)."""

    conn: sqlite3.Connection
    reset: str | None


_CHUNK_COLUMNS = "id, path, start_line, end_line, text, text_hash, importance"


def _names(path: str) -> tuple[str, str]:
    name = path.rsplit("/", 1)[-1].lower()
    return name, name.rsplit(".", 1)[0] if "." in name else name


class _OlderLayout(sqlite3.DatabaseError):
    """An index written by an earlier version: rebuilt, its embedding cache carried over."""


def _open(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, check_same_thread=False)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        tables = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master")}
        version = (
            conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if ("meta" in tables)
            else None
        )
    except BaseException:
        conn.close()
        raise
    if (version is None and "chunks" in tables) or (version and version[0] != SCHEMA_VERSION):
        conn.close()
        raise _OlderLayout(f"layout {version[0] if version else 1}, expected {SCHEMA_VERSION}")
    if version is None:  # a new database (an existing one is only read here)
        try:
            conn.executescript(_SCHEMA)
            conn.execute(
                "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', ?)", (SCHEMA_VERSION,)
            )
            conn.commit()
        except BaseException:
            conn.close()
            raise
    return conn


def not_damage(exc: sqlite3.DatabaseError) -> str | None:
    """Why ``exc`` says nothing about the file's contents (a full disk, an I/O error, a
    lock), or None when the database itself is damaged and may be set aside."""
    text = str(exc)
    if "locked" in text or "busy" in text:
        return "locked"
    if "disk is full" in text or "disk I/O error" in text or "readonly" in text:
        return "storage"
    return None


def set_aside(path: Path, suffix: str = "unreadable") -> Path:
    """Move a database (and its WAL files) out of the way; returns the new path."""
    for part in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.replace(f"{path}{part}", f"{path}.{suffix}{part}")
    return Path(f"{path}.{suffix}")


def connect(path: Path) -> Opened:
    """Open (creating) the index database; the caller owns the connection.

    A file that is not a readable index of this schema (garbage, truncated, an older
    layout) is derived state: it is moved to ``search.sqlite.unreadable`` and a new one is
    started, and :attr:`Opened.reset` says why. A database another process holds locked
    longer than ``BUSY_TIMEOUT_S`` raises :class:`Busy`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        return Opened(_open(path), None)
    except sqlite3.OperationalError as exc:
        why = not_damage(exc)
        if why == "locked":
            raise Busy(f"the search index is locked by another process ({path})") from exc
        if why == "storage":
            raise StorageError(f"cannot use the search index ({exc})") from exc
        reason = str(exc)
    except _OlderLayout:
        old = set_aside(path, "old")
        conn = _open(path)
        _carry_over(old, conn)
        for part in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(f"{old}{part}")
        return Opened(conn, "the search index had an older layout and was rebuilt")
    except sqlite3.DatabaseError as exc:
        reason = str(exc)
    set_aside(path, "unreadable")
    return Opened(_open(path), f"the search index was unreadable ({reason}) and was rebuilt")


def _carry_over(old: Path, conn: sqlite3.Connection) -> None:
    """Copy the embedding cache of an older index into ``legacy_embeddings`` as float32
    (converted to the current codec when a provider next loads); best effort. Layout 1 kept
    float32 vectors under hex SHA-256 keys; layout 2 float16 codes under a model id."""
    try:
        source = sqlite3.connect(f"file:{old}?mode=ro", uri=True)
        try:
            tables = {str(r[0]) for r in source.execute("SELECT name FROM sqlite_master")}
            if "models" in tables:
                rows = source.execute(
                    "SELECT m.key, e.text_hash, e.vector FROM embeddings e "
                    "JOIN models m ON m.id = e.model WHERE m.codec = 'float16'"
                )
                convert = lambda h, v: (  # noqa: E731
                    bytes(h),
                    np.frombuffer(v, np.float16).astype(np.float32).tobytes(),
                )
            else:
                rows = source.execute("SELECT model_key, text_hash, vector FROM embeddings")
                convert = lambda h, v: (bytes.fromhex(str(h))[:16], bytes(v))  # noqa: E731
            while part := rows.fetchmany(5000):
                conn.executemany(
                    "INSERT INTO legacy_embeddings VALUES (?, ?, ?)",
                    [(str(k), *convert(h, v)) for k, h, v in part],
                )
        finally:
            source.close()
        conn.commit()
    except (sqlite3.Error, ValueError):
        conn.rollback()


class Store:
    """Typed access to the tables; the keyword side lives in ``keyword_index``."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def get_meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute(
            "INSERT INTO meta(key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    @contextlib.contextmanager
    def patient(self, seconds: float) -> Iterator[None]:
        """Wait up to ``seconds`` (instead of ``BUSY_TIMEOUT_S``) for other writers."""
        self.conn.execute(f"PRAGMA busy_timeout = {int(seconds * 1000)}")
        try:
            yield
        finally:
            self.conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")

    def data_version(self) -> int:
        """Changes whenever another connection commits (SQLite's ``data_version``)."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    # files

    def files(self) -> dict[str, FileRow]:
        rows = self.conn.execute("SELECT path, hash, size, mtime FROM files")
        make = FileRow._make
        return {p: make(rest) for p, *rest in rows}

    def put_file(self, path: str, digest: str, size: int, mtime: int) -> None:
        name, stem = _names(path)
        self.conn.execute(
            "INSERT OR REPLACE INTO files(path, hash, size, mtime, name, stem) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (path, digest, size, mtime, name, stem),
        )

    def delete_file(self, path: str) -> list[StoredChunk]:
        """Forget a file; returns its chunks (now deleted)."""
        gone = self.file_chunks(path)
        self.delete_chunks([c.id for c in gone])
        self.conn.execute("DELETE FROM files WHERE path = ?", (path,))
        return gone

    def files_named(self, names: Iterable[str]) -> list[str]:
        """Paths whose lower-cased basename or stem is one of ``names`` (or the basename of
        one of them): the few files an exact-name query can pin, found by index."""
        wanted = sorted({n for name in names for n in (name, name.rsplit("/", 1)[-1]) if n})
        if not wanted:
            return []
        marks = ",".join("?" * len(wanted))
        rows = self.conn.execute(
            f"SELECT path FROM files WHERE name IN ({marks}) "
            f"UNION SELECT path FROM files WHERE stem IN ({marks})",
            wanted + wanted,
        )
        return sorted(str(r[0]) for r in rows)

    def file_count(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM files").fetchone()[0])

    # chunks

    def file_chunks(self, path: str) -> list[StoredChunk]:
        rows = self.conn.execute(
            f"SELECT {_CHUNK_COLUMNS} FROM chunks WHERE path = ? ORDER BY start_line, id",
            (path,),
        )
        return [StoredChunk(*row) for row in rows]

    def add_chunks(self, chunks: Sequence[Chunk]) -> list[int]:
        ids = []
        for chunk in chunks:
            cursor = self.conn.execute(
                "INSERT INTO chunks(path, start_line, end_line, text, text_hash, importance) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    chunk.path,
                    chunk.start_line,
                    chunk.end_line,
                    chunk.text,
                    text_hash(chunk.text),
                    chunk.importance,
                ),
            )
            ids.append(int(cursor.lastrowid or 0))
        return ids

    def move_chunk(self, chunk_id: int, chunk: Chunk) -> None:
        """Give a kept chunk (same text) its new lines and importance."""
        self.conn.execute(
            "UPDATE chunks SET start_line = ?, end_line = ?, importance = ? WHERE id = ?",
            (chunk.start_line, chunk.end_line, chunk.importance, chunk_id),
        )

    def delete_chunks(self, ids: Sequence[int]) -> None:
        self.conn.executemany("DELETE FROM chunks WHERE id = ?", [(i,) for i in ids])

    def chunks(self, ids: Iterable[int]) -> dict[int, StoredChunk]:
        wanted = list(ids)
        out: dict[int, StoredChunk] = {}
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            marks = ",".join("?" * len(part))
            for row in self.conn.execute(
                f"SELECT {_CHUNK_COLUMNS} FROM chunks WHERE id IN ({marks})", part
            ):
                out[int(row[0])] = StoredChunk(*row)
        return out

    def chunks_after(self, last_id: int) -> list[StoredChunk]:
        """Chunks added since ``last_id`` (ids only grow)."""
        rows = self.conn.execute(
            f"SELECT {_CHUNK_COLUMNS} FROM chunks WHERE id > ? ORDER BY id", (last_id,)
        )
        return [StoredChunk(*row) for row in rows]

    def chunks_of(self, path: str, limit: int) -> list[int]:
        rows = self.conn.execute(
            "SELECT id FROM chunks WHERE path = ? ORDER BY start_line LIMIT ?", (path, limit)
        )
        return [int(r[0]) for r in rows]

    def line_at(self, path: str, line: int) -> str | None:
        """The text of one indexed line (comments stripped); ``None`` when the line is not
        indexed (blank, heading) or is a piece of a long line."""
        rows = self.conn.execute(
            "SELECT start_line, end_line, text FROM chunks "
            "WHERE path = ? AND start_line <= ? AND end_line >= ?",
            (path, line, line),
        ).fetchall()
        if len(rows) != 1:
            return None
        start, end, text = rows[0]
        parts = str(text).split("\n")
        return parts[line - int(start)] if len(parts) == int(end) - int(start) + 1 else None

    def chunk_count(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM chunks").fetchone()[0])

    def last_chunk_id(self) -> int:
        row = self.conn.execute("SELECT MAX(id) FROM chunks").fetchone()
        return int(row[0] or 0)

    def removed_since(self, seq: int) -> tuple[list[int], int, int]:
        """``(ids, last_seq, first_seq)`` of the deletions logged after ``seq``; when
        ``first_seq > seq + 1`` the log was pruned past ``seq`` and the caller must reload."""
        first = self.conn.execute("SELECT MIN(seq) FROM removed_chunks").fetchone()[0]
        rows = self.conn.execute(
            "SELECT seq, id FROM removed_chunks WHERE seq > ? ORDER BY seq", (seq,)
        ).fetchall()
        last = int(rows[-1][0]) if rows else self.removed_seq()
        return [int(i) for _, i in rows], max(last, seq), int(first or 0)

    def removed_seq(self) -> int:
        row = self.conn.execute("SELECT MAX(seq) FROM removed_chunks").fetchone()
        return int(row[0] or 0)

    def prune_removed(self) -> None:
        self.conn.execute(
            "DELETE FROM removed_chunks WHERE seq <= (SELECT MAX(seq) FROM removed_chunks) - ?",
            (REMOVED_LOG_KEEP,),
        )

    def clear_chunks(self) -> None:
        self.conn.execute("DELETE FROM chunks")
        self.conn.execute("DELETE FROM files")
        vector_packs.drop(self.conn)

    # embedding cache

    def model_id(self, key: str, dim: int, codec: str, accept: Sequence[str] = ()) -> int:
        """The id of a (provider and model, codec) in the cache, registered with ``codec``
        on first use; a model whose dimension changed, or whose codec is neither ``codec``
        nor one of ``accept``, starts a fresh cache."""
        row = self.model_of(key)
        if row is not None and row[1] == dim and row[2] in (codec, *accept):
            return row[0]
        if row is not None:
            self.conn.execute("DELETE FROM embeddings WHERE model = ?", (row[0],))
            self.conn.execute("DELETE FROM vector_blocks WHERE model = ?", (row[0],))
            self.conn.execute("DELETE FROM models WHERE id = ?", (row[0],))
            vector_codecs.drop(self.conn, row[0])
        cursor = self.conn.execute(
            "INSERT INTO models(key, dim, codec) VALUES (?, ?, ?)", (key, dim, codec)
        )
        self.conn.commit()
        return int(cursor.lastrowid or 0)

    def model_of(self, key: str) -> tuple[int, int, str] | None:
        """``(id, dim, codec)`` of a provider and model in the cache."""
        sql = "SELECT id, dim, codec FROM models WHERE key = ?"
        row = self.conn.execute(sql, (key,)).fetchone()
        return None if row is None else (int(row[0]), int(row[1]), str(row[2]))

    def code_size(self, model: int) -> int:
        """Bytes of one code of ``model`` (its dimension times its codec's width)."""
        row = self.conn.execute("SELECT dim, codec FROM models WHERE id = ?", (model,)).fetchone()
        if row is None:
            raise KeyError(model)
        return int(row[0]) * CODE_WIDTH[str(row[1])]

    def cached(self, model: int, hashes: Iterable[bytes]) -> dict[bytes, bytes]:
        """Cached codes of the given text hashes (those present), each read by its offset
        in its block (placements and blocks read in one snapshot: another process may
        rewrite blocks in between)."""
        with self.snapshot():
            return self._cached(model, list(dict.fromkeys(hashes)))

    def _cached(self, model: int, wanted: list[bytes]) -> dict[bytes, bytes]:
        places: dict[int, list[tuple[bytes, int]]] = {}
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            marks = ",".join("?" * len(part))
            rows = self.conn.execute(
                f"SELECT text_hash, block, slot FROM embeddings WHERE model = ? "
                f"AND text_hash IN ({marks})",
                [model, *part],
            )
            for digest, block, slot in rows:
                places.setdefault(int(block), []).append((bytes(digest), int(slot)))
        if not places:
            return {}
        size = self.code_size(model)
        out: dict[bytes, bytes] = {}
        for block, slots in places.items():
            with self.conn.blobopen("vector_blocks", "codes", block, readonly=True) as blob:
                for digest, slot in slots:
                    blob.seek(slot * size)
                    out[digest] = blob.read(size)
        return out

    def put_codes(
        self,
        model: int,
        items: Sequence[tuple[bytes, bytes]],
        *,
        tag: str | None = None,
        vectors: np.ndarray | None = None,
    ) -> bool:
        """Cache codes by text hash (hashes already cached are left as they are): one new
        block; commits. With ``tag`` (:func:`vector_codecs.tag` of the codec the codes were
        made with), nothing is written and False returned when the model's codes have
        another tag by now (another process re-encoded them); ``vectors``, the vectors
        encoded, are counted for the fit's clipping statistics."""
        if tag is not None:
            if not self.conn.in_transaction:
                self.conn.execute("BEGIN IMMEDIATE")  # the check and the write: one unit
            if vector_codecs.tag(self.conn, model) != tag:
                self.conn.rollback()
                return False
        fresh = dict(items)
        for start in range(0, len(fresh), 500):
            part = list(fresh)[start : start + 500]
            marks = ",".join("?" * len(part))
            for (digest,) in self.conn.execute(
                f"SELECT text_hash FROM embeddings WHERE model = ? AND text_hash IN ({marks})",
                [model, *part],
            ):
                fresh.pop(bytes(digest), None)
        if fresh:
            self._write_block(model, list(fresh), list(fresh.values()))
            if vectors is not None and tag is not None and tag.startswith("sq8"):
                vector_codecs.note(self.conn, model, vectors)
        self.conn.commit()
        return True

    def _write_block(self, model: int, hashes: Sequence[bytes], codes: Sequence[bytes]) -> int:
        cursor = self.conn.execute(
            "INSERT INTO vector_blocks(model, hashes, codes) VALUES (?, ?, ?)",
            (model, b"".join(hashes), b"".join(codes)),
        )
        block = int(cursor.lastrowid or 0)
        self.conn.executemany(
            "INSERT OR REPLACE INTO embeddings(model, text_hash, block, slot) VALUES (?, ?, ?, ?)",
            [(model, digest, block, slot) for slot, digest in enumerate(hashes)],
        )
        return block

    def blocks(self, model: int) -> list[tuple[int, np.ndarray]]:
        """``(block id, text hashes as S16)`` of a model's blocks, in order (the hashes are
        each block's first column: its codes are not read)."""
        rows = self.conn.execute(
            "SELECT id, hashes FROM vector_blocks WHERE model = ? ORDER BY id", (model,)
        )
        return [(int(b), np.frombuffer(h, dtype="S16")) for b, h in rows]

    def block_codes(self, model: int, size: int, last: int) -> Iterator[tuple[int, np.ndarray]]:
        """``(block id, codes)`` of a model's blocks up to ``last``, in order, one at a time."""
        cursor = self.conn.execute(
            "SELECT id, codes FROM vector_blocks WHERE model = ? AND id <= ? ORDER BY id",
            (model, last),
        )
        for block, codes in cursor:
            yield int(block), np.frombuffer(codes, np.uint8).reshape(-1, size)

    def small_blocks(self, model: int) -> int:
        """How many of a model's blocks would be merged for being small."""
        row = self.conn.execute(
            "SELECT COUNT(*) FROM vector_blocks WHERE model = ? AND length(hashes) < ?",
            (model, 16 * BLOCK_ROWS // BLOCK_SMALL_PART),
        ).fetchone()
        return int(row[0])

    @contextlib.contextmanager
    def mapped(self) -> Iterator[None]:
        """Reads through a memory map of the file (the vector blocks at an open: half the
        CPU time of reading them into SQLite's page cache first); only here, so that a file
        cut short under a running process is an error anywhere else, not a signal."""
        self.conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
        try:
            yield
        finally:
            self.conn.execute("PRAGMA mmap_size = 0")

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[None]:
        """Several reads that see one state of the database (a read transaction, unless
        the caller's transaction already is one)."""
        if self.conn.in_transaction:
            yield
            return
        self.conn.execute("BEGIN")
        try:
            yield
        finally:
            self.conn.rollback()

    def block_version(self) -> str:
        """Changes whenever blocks are rewritten (a map of positions in them is then stale)."""
        return self.get_meta("blocks") or "0"

    def compact_blocks(self, model: int, *, prune: bool) -> int:
        """Drop codes no chunk uses (``prune``: a text edited away) and merge blocks that
        are small or mostly dead into blocks of up to ``BLOCK_ROWS``; returns the codes
        dropped. The caller holds the write lock; commits."""
        dropped = 0
        if prune:
            cursor = self.conn.execute(
                "DELETE FROM embeddings WHERE model = ? AND text_hash NOT IN "
                "(SELECT text_hash FROM chunks)",
                (model,),
            )
            dropped = int(cursor.rowcount)
        placed: dict[int, list[tuple[int, bytes]]] = {}  # block: (slot, hash) of live codes
        for block, slot, digest in self.conn.execute(
            "SELECT block, slot, text_hash FROM embeddings WHERE model = ?", (model,)
        ):
            placed.setdefault(int(block), []).append((int(slot), bytes(digest)))
        sizes = dict(
            self.conn.execute(
                "SELECT id, length(hashes) / 16 FROM vector_blocks WHERE model = ?", (model,)
            ).fetchall()
        )
        redo = sorted(
            int(b)
            for b, n in sizes.items()
            if len(placed.get(b, ())) < BLOCK_LIVE_SHARE * n or n < BLOCK_ROWS // BLOCK_SMALL_PART
        )
        dead = [b for b in redo if len(placed.get(b, ())) < sizes[b]]
        if not dead and len(redo) < 2:
            self.conn.commit()
            return dropped  # nothing dead to drop, and nothing to merge
        size = self.code_size(model)
        hashes: list[bytes] = []
        codes: list[bytes] = []
        for block in redo:
            kept = sorted(placed.get(block, ()))
            if kept:
                with self.conn.blobopen("vector_blocks", "codes", block, readonly=True) as blob:
                    data = blob.read()
                hashes.extend(h for _, h in kept)
                codes.extend(data[s * size : (s + 1) * size] for s, _ in kept)
            self.conn.execute("DELETE FROM vector_blocks WHERE id = ?", (block,))
        for start in range(0, len(hashes), BLOCK_ROWS):
            end = start + BLOCK_ROWS
            self._write_block(model, hashes[start:end], codes[start:end])
        self.set_meta("blocks", str(int(self.block_version()) + 1))
        self.conn.commit()
        return dropped

    def recode(
        self,
        model: int,
        decode: Callable[[np.ndarray], np.ndarray],
        encode: Callable[[np.ndarray], np.ndarray],
        codec: str,
        fit: vector_codecs.Fit,
    ) -> None:
        """Re-encode every cached code of ``model`` (``decode`` to float32 vectors, then
        ``encode``), one block at a time, and record its new codec and fit, in one
        transaction: another process sees the old codes or the new ones. The caller holds
        the write lock; commits."""
        if not self.conn.in_transaction:
            self.conn.execute("BEGIN IMMEDIATE")
        try:
            size = self.code_size(model)
            ids = [
                int(r[0])
                for r in self.conn.execute(
                    "SELECT id FROM vector_blocks WHERE model = ? ORDER BY id", (model,)
                )
            ]
            for block in ids:
                (data,) = self.conn.execute(
                    "SELECT codes FROM vector_blocks WHERE id = ?", (block,)
                ).fetchone()
                vectors = decode(np.frombuffer(data, np.uint8).reshape(-1, size))
                self.conn.execute(
                    "UPDATE vector_blocks SET codes = ? WHERE id = ?",
                    (np.ascontiguousarray(encode(vectors)).tobytes(), block),
                )
            self.conn.execute("UPDATE models SET codec = ? WHERE id = ?", (codec, model))
            vector_codecs.write(self.conn, model, fit)
            self.set_meta("blocks", str(int(self.block_version()) + 1))
            self.conn.commit()
        except BaseException:
            self.conn.rollback()
            raise
        self.vacuum()

    def vacuum(self) -> None:
        """Give the file's free pages back (after the codes shrank: SQLite keeps them for
        later writes otherwise), and empty the WAL; best effort: a busy database is left
        as it is, its free pages are reused."""
        try:
            self.conn.execute("VACUUM")
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.OperationalError as exc:
            if not not_damage(exc):
                raise

    def extent(
        self, model: int, decode: Callable[[np.ndarray], np.ndarray]
    ) -> vector_codecs.Extent:
        """Per-dimension minimum and maximum of every cached vector of ``model``, read one
        block at a time (a :class:`vector_codecs.Extent`)."""
        seen = vector_codecs.Extent()
        size = self.code_size(model)
        with self.snapshot():
            for _, codes in self.block_codes(model, size, 2**62):
                seen.add(decode(codes))
        return seen

    def chunk_keys(self) -> tuple[np.ndarray, np.ndarray]:
        """Every chunk's id and text hash (``S16``), in one pass over the table."""
        ids, hashes = [], []
        cursor = self.conn.execute("SELECT id, text_hash FROM chunks")
        while rows := cursor.fetchmany(20_000):
            ids.append(np.fromiter((r[0] for r in rows), np.int64, len(rows)))
            hashes.append(np.frombuffer(b"".join(r[1] for r in rows), dtype="S16"))
        if not ids:
            return np.zeros(0, np.int64), np.zeros(0, "S16")
        return np.concatenate(ids), np.concatenate(hashes)

    def legacy_vectors(self, key: str) -> list[tuple[bytes, bytes]]:
        """``(text hash, float32 bytes)`` carried over from a layout-1 index for ``key``."""
        rows = self.conn.execute(
            "SELECT text_hash, vector FROM legacy_embeddings WHERE model_key = ?", (key,)
        )
        return [(bytes(h), bytes(v)) for h, v in rows]

    def drop_legacy(self) -> None:
        self.conn.execute("DELETE FROM legacy_embeddings")
        self.conn.commit()
