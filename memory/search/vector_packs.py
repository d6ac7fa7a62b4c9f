"""A checkpoint of where the vector index's codes are, so a reopen is a few large reads.

The codes live once, in the embedding cache's blocks (:mod:`memory.search.store`), found by
text hash. Loading them for every chunk means joining 100,000 chunks to their hashes. A
checkpoint stores that join once: for each chunk with a cached code, its id, block and
slot, sorted by block and slot (three arrays, one row a model, a few MB at 100k), with the
point of the index's history it reflects (:class:`PackState`: the last chunk id and the
last logged deletion seen, the index generation, the cache's block version, the chunks
still waiting for a vector). Opening reads the blocks in order, copies the codes the
checkpoint names straight into FAISS, and replays only what happened since: deletions
from the log, chunks added after ``last_chunk``, and the waiting chunks, looked up in the
cache by hash.

The checkpoint is derived: a checkpoint that no longer matches (another generation, codec,
dimension or block version; a deletion log pruned past it) is ignored and rewritten after
a full load.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass

import numpy as np

PACK_MIN = 512  # smaller indexes load from the cache as fast

_TABLE = """
CREATE TABLE IF NOT EXISTS vector_maps (
    model INTEGER PRIMARY KEY, ids BLOB NOT NULL, blocks BLOB NOT NULL, slots BLOB NOT NULL,
    pending BLOB NOT NULL
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
    blocks: str  # the cache's block version the slots refer to


@dataclass(frozen=True)
class Pack:
    state: PackState
    ids: np.ndarray  # chunk ids, in block and slot order
    blocks: np.ndarray  # the block of each
    slots: np.ndarray  # its slot in the block
    pending: np.ndarray


def _key(model: int) -> str:
    return f"packs:{model}"


def state_of(conn: sqlite3.Connection, model: int) -> PackState | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (_key(model),)).fetchone()
    if row is None:
        return None
    try:
        return PackState(**json.loads(row[0]))
    except (TypeError, ValueError):
        return None


def locate(conn: sqlite3.Connection, model: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(ids, blocks, slots)`` of every chunk with a cached code of ``model``, sorted by
    block and slot: one join, in SQLite, of the chunks to the cache."""
    rows = conn.execute(
        "SELECT e.block, e.slot, c.id FROM chunks c JOIN embeddings e "
        "ON e.model = ? AND e.text_hash = c.text_hash ORDER BY e.block, e.slot, c.id",
        (model,),
    ).fetchall()
    table = np.array(rows, dtype=np.int64).reshape(-1, 3)
    return table[:, 2].copy(), table[:, 0].copy(), table[:, 1].copy()


def write(
    conn: sqlite3.Connection,
    model: int,
    state: PackState,
    located: tuple[np.ndarray, np.ndarray, np.ndarray],
    pending: np.ndarray,
) -> None:
    """Replace the model's checkpoint; the caller commits."""
    conn.execute(_TABLE)
    ids, blocks, slots = located
    conn.execute(
        "INSERT OR REPLACE INTO vector_maps VALUES (?, ?, ?, ?, ?)",
        (
            model,
            np.asarray(ids, np.int64).tobytes(),
            np.asarray(blocks, np.int64).tobytes(),
            np.asarray(slots, np.int32).tobytes(),
            np.asarray(pending, np.int64).tobytes(),
        ),
    )
    conn.execute(
        "INSERT INTO meta(key, value) VALUES (?, ?) "
        "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (_key(model), json.dumps(asdict(state))),
    )


def read(conn: sqlite3.Connection, model: int) -> Pack | None:
    state = state_of(conn, model)
    if state is None:
        return None
    row = conn.execute(
        "SELECT ids, blocks, slots, pending FROM vector_maps WHERE model = ?", (model,)
    ).fetchone()
    if row is None:
        return None
    ids, blocks = np.frombuffer(row[0], np.int64), np.frombuffer(row[1], np.int64)
    slots, pending = np.frombuffer(row[2], np.int32), np.frombuffer(row[3], np.int64)
    if not len(ids) == len(blocks) == len(slots) == state.count:
        return None
    return Pack(state, ids, blocks, slots, pending)


def drop(conn: sqlite3.Connection) -> None:
    """Forget every checkpoint (chunk ids start again)."""
    conn.execute(_TABLE)
    conn.execute("DELETE FROM vector_maps")
    conn.execute("DELETE FROM meta WHERE key LIKE 'packs:%'")
