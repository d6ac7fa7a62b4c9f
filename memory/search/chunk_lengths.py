"""Token counts of the indexed chunks, kept once a chunk, for BM25's length normalisation.

Blocks of ``BLOCK`` consecutive chunk ids, each one row of ``keyword_lengths`` (4-byte
counts, a block fits one page). Only the blocks holding the chunks a query scores are
read; a removed chunk's count stays until its block is rewritten (no posting names it).
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
            self.conn.execute(
                "INSERT OR REPLACE INTO keyword_lengths VALUES (?, ?)", (block, counts.tobytes())
            )

    def get(self, ids: Ints) -> Ints:
        """The token counts of chunks (``ids`` ascending)."""
        wanted = ids // BLOCK
        blocks = np.unique(wanted).tolist()
        found: dict[int, bytes] = {}
        for begin in range(0, len(blocks), 500):
            part = blocks[begin : begin + 500]
            marks = ",".join("?" * len(part))
            found.update(
                (int(block), bytes(data))
                for block, data in self.conn.execute(
                    f"SELECT block, data FROM keyword_lengths WHERE block IN ({marks})", part
                )
            )
        empty = bytes(BLOCK * _TYPE.itemsize)
        table = np.frombuffer(b"".join(found.get(b, empty) for b in blocks), _TYPE)
        rows = np.searchsorted(np.asarray(blocks, np.int64), wanted)
        return table.reshape(-1, BLOCK)[rows, ids - wanted * BLOCK].astype(np.int64)

    def clear(self) -> None:
        self.conn.execute("DELETE FROM keyword_lengths")
