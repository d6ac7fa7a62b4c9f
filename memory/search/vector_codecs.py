"""8-bit vector codes whose per-dimension ranges are fitted to the index's own vectors.

An 8-bit code maps each dimension's range onto 256 steps. One fixed range for every
dimension costs e5-small too much (recall@10 against flat float32 0.96-0.98), because its
dimensions spread very differently; a range per dimension, fitted to the vectors, keeps it
at 0.99 or better (``bench/search.py``'s ``recall`` step measures it). So the codec of a
model's cache changes once, when the index is large enough for the fit to mean something:

- below ``FIT_MIN`` vectors the cache holds float16 codes (exact to 1e-3);
- at ``FIT_MIN`` the ranges are the minimum and maximum of every cached vector per
  dimension, widened by ``MARGIN`` of the width on both sides for vectors still to come,
  and the cache is re-encoded once (:meth:`memory.search.store.Store.recode`);
- a later vector outside a range is clipped to it (FAISS's encoder does that); how many
  were, and the extremes seen, are counted per model (:class:`Fit`); once clipping is
  frequent (``REFIT_MIN`` vectors and ``REFIT_SHARE`` of those encoded since the fit), the
  ranges are widened to what was seen and the cache is re-encoded again. A vector clipped
  before a refit keeps its clipped code.

The fit is recorded per model in ``vector_codecs`` (one row: the ranges, a counter that
changes with every fit, the clipping counts), beside the model's codec in ``models``.
``tag`` names both: a process holding codes of another tag in memory reloads, and a batch
encoded under another tag is not written.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

import numpy as np

FIT_MIN = 4096  # vectors before the cache is re-encoded as 8-bit codes
MARGIN = 0.1  # of a dimension's fitted width, added below and above it
REFIT_MIN, REFIT_SHARE = 64, 0.01  # clipped vectors (and share) before a refit
MIN_WIDTH = 1e-6

_TABLE = """
CREATE TABLE IF NOT EXISTS vector_codecs (
    model INTEGER PRIMARY KEY, fit INTEGER NOT NULL, ranges BLOB NOT NULL,
    encoded INTEGER NOT NULL, clipped INTEGER NOT NULL, low BLOB NOT NULL, high BLOB NOT NULL
)
"""


@dataclass(frozen=True)
class Fit:
    """A model's 8-bit ranges and what happened since they were fitted."""

    fit: int  # changes with every fit
    ranges: np.ndarray  # float32: each dimension's minimum, then each one's width
    encoded: int = 0  # vectors encoded since the fit
    clipped: int = 0  # of those, the ones with a component outside its range
    low: np.ndarray | None = None  # the smallest value seen per dimension since the fit
    high: np.ndarray | None = None  # the largest

    @property
    def due(self) -> bool:
        """Clipping has become frequent enough to widen the ranges."""
        return self.clipped >= max(REFIT_MIN, REFIT_SHARE * self.encoded)


class Extent:
    """Per-dimension minimum and maximum of vectors seen a batch at a time."""

    def __init__(self) -> None:
        self.low: np.ndarray | None = None
        self.high: np.ndarray | None = None
        self.count = 0

    def add(self, vectors: np.ndarray) -> None:
        if len(vectors) == 0:
            return
        low, high = vectors.min(axis=0), vectors.max(axis=0)
        self.low = low if self.low is None else np.minimum(self.low, low)
        self.high = high if self.high is None else np.maximum(self.high, high)
        self.count += len(vectors)


def ranges_of(low: np.ndarray, high: np.ndarray, margin: float = MARGIN) -> np.ndarray:
    """Minimum and width per dimension covering ``[low, high]`` widened by ``margin``."""
    width = np.maximum(np.asarray(high, np.float64) - low, MIN_WIDTH)
    return np.concatenate([low - margin * width, width * (1 + 2 * margin)]).astype(np.float32)


def widened(fit: Fit, margin: float = MARGIN) -> np.ndarray:
    """The ranges of ``fit`` grown, dimension by dimension, to cover what was seen since
    (a dimension never exceeded keeps its range exactly)."""
    dim = len(fit.ranges) // 2
    start, width = fit.ranges[:dim].astype(np.float64), fit.ranges[dim:].astype(np.float64)
    fitted = width / (1 + 2 * margin)
    low, high = start + margin * fitted, start + margin * fitted + fitted
    seen_low = low if fit.low is None else np.minimum(low, fit.low)
    seen_high = high if fit.high is None else np.maximum(high, fit.high)
    grown = ranges_of(seen_low, seen_high, margin)
    keep = (seen_low == low) & (seen_high == high)
    grown[:dim][keep], grown[dim:][keep] = fit.ranges[:dim][keep], fit.ranges[dim:][keep]
    return grown


def outside(ranges: np.ndarray, vectors: np.ndarray) -> int:
    """How many of ``vectors`` have a component outside ``ranges`` (would be clipped)."""
    dim = len(ranges) // 2
    low, high = ranges[:dim], ranges[:dim] + ranges[dim:]
    return int(np.count_nonzero(((vectors < low) | (vectors > high)).any(axis=1)))


def read(conn: sqlite3.Connection, model: int) -> Fit | None:
    try:
        row = conn.execute(
            "SELECT fit, ranges, encoded, clipped, low, high FROM vector_codecs WHERE model = ?",
            (model,),
        ).fetchone()
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):
            return None  # no model of this index was ever fitted
        raise
    if row is None:
        return None
    fit, ranges, encoded, clipped, low, high = row
    seen = [np.frombuffer(b, np.float32) if b else None for b in (low, high)]
    return Fit(int(fit), np.frombuffer(ranges, np.float32), int(encoded), int(clipped), *seen)


def write(conn: sqlite3.Connection, model: int, fit: Fit) -> None:
    """Record a model's fit; the caller commits."""
    conn.execute(_TABLE)
    conn.execute(
        "INSERT OR REPLACE INTO vector_codecs VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            model,
            fit.fit,
            np.asarray(fit.ranges, np.float32).tobytes(),
            fit.encoded,
            fit.clipped,
            b"" if fit.low is None else np.asarray(fit.low, np.float32).tobytes(),
            b"" if fit.high is None else np.asarray(fit.high, np.float32).tobytes(),
        ),
    )


def note(conn: sqlite3.Connection, model: int, vectors: np.ndarray) -> None:
    """Count a batch encoded with the model's fit (in the caller's transaction)."""
    fit = read(conn, model)
    if fit is None or len(vectors) == 0:
        return
    seen = Extent()
    seen.add(np.asarray(vectors, np.float32))
    assert seen.low is not None and seen.high is not None
    low = seen.low if fit.low is None else np.minimum(fit.low, seen.low)
    high = seen.high if fit.high is None else np.maximum(fit.high, seen.high)
    clipped = fit.clipped + outside(fit.ranges, vectors)
    write(conn, model, Fit(fit.fit, fit.ranges, fit.encoded + len(vectors), clipped, low, high))


def tag(conn: sqlite3.Connection, model: int) -> str:
    """The model's codec and fit, e.g. ``float16`` or ``sq8/2``: codes of one tag are
    interchangeable, codes of different tags are not."""
    row = conn.execute("SELECT codec FROM models WHERE id = ?", (model,)).fetchone()
    codec = "" if row is None else str(row[0])
    if codec != "sq8":
        return codec
    fit = read(conn, model)
    return f"sq8/{fit.fit if fit else 0}"


def drop(conn: sqlite3.Connection, model: int) -> None:
    conn.execute(_TABLE)
    conn.execute("DELETE FROM vector_codecs WHERE model = ?", (model,))
