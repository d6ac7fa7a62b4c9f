"""The SQLite side of the index: files, chunks, metadata and the embedding cache.

One database, ``<root>/memory/.index/search.sqlite``, in WAL mode so a background embedder
and searches can share it. Everything here is derived from the markdown and can be rebuilt.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from memory.search.chunker import Chunk

SCHEMA_VERSION = "1"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, hash TEXT NOT NULL, size INTEGER NOT NULL, mtime INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS chunks (
    id INTEGER PRIMARY KEY, path TEXT NOT NULL, start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL, text TEXT NOT NULL, text_hash TEXT NOT NULL, importance REAL
);
CREATE INDEX IF NOT EXISTS chunks_path ON chunks(path);
CREATE TABLE IF NOT EXISTS embeddings (
    model_key TEXT NOT NULL, text_hash TEXT NOT NULL, dim INTEGER NOT NULL,
    vector BLOB NOT NULL, PRIMARY KEY (model_key, text_hash)
);
"""


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class StoredChunk:
    id: int
    path: str
    start_line: int
    end_line: int
    text: str
    text_hash: str
    importance: float | None


def connect(path: Path) -> sqlite3.Connection:
    """Open (creating) the index database; the caller owns the connection."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, timeout=30.0, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.executescript(_SCHEMA)
    return conn


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

    def file_hashes(self) -> dict[str, str]:
        return {str(p): str(h) for p, h in self.conn.execute("SELECT path, hash FROM files")}

    def file_stats(self) -> dict[str, tuple[int, int]]:
        rows = self.conn.execute("SELECT path, size, mtime FROM files")
        return {str(p): (int(s), int(m)) for p, s, m in rows}

    def put_file(self, path: str, digest: str, size: int, mtime: int) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO files(path, hash, size, mtime) VALUES (?, ?, ?, ?)",
            (path, digest, size, mtime),
        )

    def delete_file(self, path: str) -> list[int]:
        """Forget a file; returns the ids of its chunks (now deleted)."""
        ids = [
            int(r[0]) for r in self.conn.execute("SELECT id FROM chunks WHERE path = ?", (path,))
        ]
        self.conn.execute("DELETE FROM chunks WHERE path = ?", (path,))
        self.conn.execute("DELETE FROM files WHERE path = ?", (path,))
        return ids

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

    def chunks(self, ids: Iterable[int]) -> dict[int, StoredChunk]:
        wanted = list(ids)
        out: dict[int, StoredChunk] = {}
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            marks = ",".join("?" * len(part))
            for row in self.conn.execute(
                "SELECT id, path, start_line, end_line, text, text_hash, importance "
                f"FROM chunks WHERE id IN ({marks})",
                part,
            ):
                out[int(row[0])] = StoredChunk(*row)
        return out

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

    def file_paths(self) -> list[str]:
        return [str(r[0]) for r in self.conn.execute("SELECT path FROM files ORDER BY path")]

    def chunk_hashes(self) -> list[tuple[int, str, str]]:
        """``(id, text_hash, text)`` of every chunk, in id order."""
        rows = self.conn.execute("SELECT id, text_hash, text FROM chunks ORDER BY id")
        return [(int(i), str(h), str(t)) for i, h, t in rows]

    def cached_vectors(self, model_key: str) -> dict[str, np.ndarray]:
        rows = self.conn.execute(
            "SELECT text_hash, dim, vector FROM embeddings WHERE model_key = ?", (model_key,)
        )
        return {str(h): np.frombuffer(v, dtype=np.float32, count=int(d)) for h, d, v in rows}

    def cached_hashes(self, model_key: str) -> set[str]:
        rows = self.conn.execute(
            "SELECT text_hash FROM embeddings WHERE model_key = ?", (model_key,)
        )
        return {str(r[0]) for r in rows}

    def put_vectors(self, model_key: str, items: Sequence[tuple[str, np.ndarray]]) -> None:
        self.conn.executemany(
            "INSERT OR REPLACE INTO embeddings(model_key, text_hash, dim, vector) "
            "VALUES (?, ?, ?, ?)",
            [
                (model_key, h, int(v.shape[0]), np.ascontiguousarray(v, np.float32).tobytes())
                for h, v in items
            ],
        )
        self.conn.commit()

    def clear_chunks(self) -> None:
        self.conn.execute("DELETE FROM chunks")
        self.conn.execute("DELETE FROM files")
