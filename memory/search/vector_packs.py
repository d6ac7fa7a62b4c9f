"""A packed checkpoint of the vector index, so opening it is a few large reads.

The embedding cache keeps one row per text (found by hash: what updates need), but
reading 100,000 rows and joining them to the chunks costs seconds. A checkpoint stores the
index's live chunk ids and their codes in parts of ``PACK_ROWS`` (one ``BLOB`` each, in the
same database, written in one transaction), with the point of the index's history it
reflects (:class:`PackState`: the last chunk id and the last logged deletion seen, the
index generation, the chunks still waiting for a vector). Opening reads the parts and
replays only what happened since: deletions from the log, chunks added after
``last_chunk``, and the waiting chunks, looked up in the cache by hash.

The checkpoint is derived: the cache stays the source of truth, and a checkpoint that no
longer matches (another generation, codec or dimension; a deletion log pruned past it) is
ignored and rewritten after a full load.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import asdict, dataclass

import numpy as np

PACK_ROWS = 16_384
PACK_MIN = 512  # smaller indexes load from the cache as fast
PENDING_PART = -1  # the part holding the ids of chunks still waiting for a vector

_TABLE = """
CREATE TABLE IF NOT EXISTS vector_packs (
    model INTEGER NOT NULL, part INTEGER NOT NULL, ids BLOB NOT NULL, codes BLOB NOT NULL,
    PRIMARY KEY (model, part)
)
"""


@dataclass(frozen=True)
class PackState:
    generation: str | None
    codec: str
    dim: int
    last_chunk: int
    removed_seq: int
    count: int


@dataclass(frozen=True)
class Pack:
    state: PackState
    parts: list[tuple[np.ndarray, np.ndarray]]  # (ids, codes) of each part, as read
    pending: np.ndarray


def _key(model: int) -> str:
    return f"packs:{model}"


def ensure_table(conn: sqlite3.Connection) -> None:
    """Create the table (within the caller's write: an index opened only to read never
    writes); its state row in ``meta`` is written with it, so a state implies the table."""
    conn.execute(_TABLE)


def state_of(conn: sqlite3.Connection, model: int) -> PackState | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (_key(model),)).fetchone()
    if row is None:
        return None
    try:
        return PackState(**json.loads(row[0]))
    except (TypeError, ValueError):
        return None


def write(
    conn: sqlite3.Connection,
    model: int,
    state: PackState,
    parts: Iterable[tuple[bytes, bytes]],
    pending: np.ndarray,
) -> None:
    """Replace the model's checkpoint with ``parts`` (ids and codes as bytes, written one
    at a time); the caller commits."""
    ensure_table(conn)
    conn.execute("DELETE FROM vector_packs WHERE model = ?", (model,))
    conn.executemany(
        "INSERT INTO vector_packs VALUES (?, ?, ?, ?)",
        ((model, n, ids, codes) for n, (ids, codes) in enumerate(parts)),
    )
    conn.execute(
        "INSERT INTO vector_packs VALUES (?, ?, ?, ?)",
        (model, PENDING_PART, np.asarray(pending, np.int64).tobytes(), b""),
    )
    conn.execute(
        "INSERT INTO meta(key, value) VALUES (?, ?) "
        "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (_key(model), json.dumps(asdict(state))),
    )


def read(conn: sqlite3.Connection, model: int, code_size: int) -> Pack | None:
    state = state_of(conn, model)
    if state is None:
        return None
    rows = conn.execute(
        "SELECT part, ids, codes FROM vector_packs WHERE model = ? ORDER BY part", (model,)
    ).fetchall()
    pending = [np.frombuffer(i, np.int64) for p, i, _ in rows if p == PENDING_PART]
    parts = [
        (np.frombuffer(i, np.int64), np.frombuffer(c, np.uint8).reshape(-1, code_size))
        for p, i, c in rows
        if p != PENDING_PART and len(c) == len(i) // 8 * code_size
    ]
    if len(pending) != 1 or len(parts) != len(rows) - 1:
        return None
    if sum(len(ids) for ids, _ in parts) != state.count:
        return None
    return Pack(state, parts, pending[0])


def drop(conn: sqlite3.Connection) -> None:
    ensure_table(conn)
    conn.execute("DELETE FROM vector_packs")
    conn.execute("DELETE FROM meta WHERE key LIKE 'packs:%'")
