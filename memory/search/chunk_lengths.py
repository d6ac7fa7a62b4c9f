"""Token counts of the indexed chunks, kept once a chunk, for BM25's length normalisation.

Blocks of ``BLOCK`` consecutive chunk ids, each one row of ``keyword_lengths`` (4-byte
counts, a block fits one page). Only the blocks holding the chunks a query scores are
read, and kept in memory until the index changes (:meth:`ChunkLengths.forget`): 4 bytes a
chunk at most, 400 KB at 100k chunks, where reading them again cost a millisecond a query.
A removed chunk's count stays until its block is rewritten (no posting names it).
"""

from __future__ import annotations

import sqlite3

import numpy as np

from memory.search.postings import Ints

BLOCK = 1000  # chunk ids a row covers
_TABLE = "CREATE TABLE IF NOT EXISTS keyword_lengths(block INTEGER PRIMARY KEY, data BLOB NOT NULL)"
_TYPE = np.dtype("<u4")


class ChunkLengths:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        conn.execute(_TABLE)
        self._blocks: dict[int, np.ndarray] = {}  # blocks read, until the index changes

    def forget(self) -> None:
        """Drop the blocks kept in memory (another connection may have changed them)."""
        self._blocks.clear()

    def put(self, ids: Ints, sizes: Ints) -> None:
        """Record the token counts of chunks (``sizes[k]`` of ``ids[k]``)."""
        blocks = ids // BLOCK
        for block in np.unique(blocks).tolist():
            row = self.conn.execute(
                "SELECT data FROM keyword_lengths WHERE block = ?", (block,)
            ).fetchone()
            counts = np.zeros(BLOCK, _TYPE) if row is None else np.frombuffer(row[0], _TYPE).copy()
            here = blocks == block
            counts[ids[here] - block * BLOCK] = sizes[here]
            self._blocks.pop(block, None)
            self.conn.execute(
                "INSERT OR REPLACE INTO keyword_lengths VALUES (?, ?)", (block, counts.tobytes())
            )

    def get(self, ids: Ints) -> Ints:
        """The token counts of chunks (``ids`` ascending)."""
        wanted = ids // BLOCK
        blocks = np.unique(wanted).tolist()
        kept = self._blocks
        missing = [b for b in blocks if b not in kept]
        for begin in range(0, len(missing), 500):
            part = missing[begin : begin + 500]
            marks = ",".join("?" * len(part))
            for block, data in self.conn.execute(
                f"SELECT block, data FROM keyword_lengths WHERE block IN ({marks})", part
            ):
                kept[int(block)] = np.frombuffer(data, _TYPE)
        empty = np.zeros(BLOCK, _TYPE)
        table = np.stack([kept.get(b, empty) for b in blocks]) if blocks else empty[None]
        rows = np.searchsorted(np.asarray(blocks, np.int64), wanted)
        return table[rows, ids - wanted * BLOCK].astype(np.int64)

    def clear(self) -> None:
        self._blocks.clear()
        self.conn.execute("DELETE FROM keyword_lengths")
