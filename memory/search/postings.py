"""Posting lists of the keyword index: how a segment is packed, and its BM25 weights.

A term's postings (the chunks that hold it, and how often each does) are kept in segments
of up to ``SEGMENT`` postings in chunk-id order, each one row of ``keyword_postings``. A
segment is packed into one BLOB that numpy reads without a Python loop: a flags byte, the
gaps between consecutive chunk ids (one byte each with a wide gap escaped, or 2 or 4 bytes)
and, unless every count is one, the term's occurrences in each chunk. The row keys the
segment by its last chunk id, from which the ids are rebuilt; so a posting of a common term
takes about one byte. Chunk lengths, the same for every term, are kept once a chunk
(:mod:`memory.search.chunk_lengths`).

:func:`bm25_weights` is FTS5's ``bm25()`` (k1 = 1.2, b = 0.75) for one term, in the same
order of operations, so a query's score equals what FTS5 gave.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

SEGMENT = 4096  # postings a segment holds at most
K1, B = 1.2, 0.75  # FTS5's bm25() constants

_WIDTHS = (np.dtype("<u1"), np.dtype("<u2"), np.dtype("<u4"))
_ONES = 3  # the counts' width code when every count is one (they are not stored)
_ESCAPED = 3  # the gaps' width code for one byte a gap, wide ones escaped

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Postings:
    """One term's postings in chunk-id order: the chunks' ids and how many times the term
    occurs in each."""

    ids: Ints
    counts: Ints

    def __len__(self) -> int:
        return len(self.ids)

    def without(self, ids: Ints) -> Postings:
        keep = ~np.isin(self.ids, ids)
        return Postings(self.ids[keep], self.counts[keep])

    def slice(self, start: int, stop: int) -> Postings:
        return Postings(self.ids[start:stop], self.counts[start:stop])


def join(parts: list[Postings]) -> Postings:
    """Postings of several segments (or batches) as one list, in chunk-id order (an id in
    more than one part is kept once, from the last)."""
    if len(parts) == 1:
        return parts[0]
    ids = np.concatenate([p.ids for p in parts])
    counts = np.concatenate([p.counts for p in parts])
    if len(ids) > 1 and bool(np.any(ids[1:] <= ids[:-1])):
        order = np.argsort(ids, kind="stable")
        ids, counts = ids[order], counts[order]
        last = np.append(ids[1:] != ids[:-1], True)
        ids, counts = ids[last], counts[last]
    return Postings(ids, counts)


def postings(ids: list[int], counts: list[int]) -> Postings:
    return Postings(np.asarray(ids, np.int64), np.asarray(counts, np.int64))


def _width(values: Ints) -> int:
    top = int(values.max()) if len(values) else 0
    return 0 if top < 1 << 8 else 1 if top < 1 << 16 else 2


def _gaps(gaps: Ints) -> tuple[int, bytes]:
    """The gaps' width code and bytes: the narrowest plain width, or (code 3) one byte a gap
    with 255 marking a wide one, whose values follow as 4 bytes each, when that is smaller
    (a common term: gaps of a few dozen, now and then one of hundreds)."""
    code = _width(gaps)
    wide = gaps >= 255
    escaped = len(gaps) + 4 * int(wide.sum())
    if code > 0 and escaped < len(gaps) * _WIDTHS[code].itemsize:
        narrow = np.where(wide, 255, gaps).astype(np.uint8).tobytes()
        return _ESCAPED, narrow + gaps[wide].astype(_WIDTHS[2]).tobytes()
    return code, gaps.astype(_WIDTHS[code]).tobytes()


ONE = bytes([_ONES << 2])  # the segment of one posting counted once (most terms)


def encode(part: Postings) -> bytes:
    """Pack one segment (ids strictly ascending, at least one posting); its last id is its
    key. Flags byte: bits 0-1 the gaps' width code, 2-3 the counts' (codes 0, 1, 2: 1, 2,
    4 bytes; gaps 3: escaped bytes, see ``_gaps``; counts 3: every count is one, none
    stored)."""
    gaps = np.diff(part.ids)
    if len(gaps) and int(gaps.min()) <= 0:
        raise ValueError("segment ids must be strictly ascending")
    gap_code, gap_bytes = _gaps(gaps)
    count_code = _ONES if bool(np.all(part.counts == 1)) else _width(part.counts)
    out = [bytes([gap_code | count_code << 2]), gap_bytes]
    if count_code != _ONES:
        out.append(part.counts.astype(_WIDTHS[count_code]).tobytes())
    return b"".join(out)


def decode(last: int, n: int, data: bytes) -> Postings:
    """The segment keyed by ``last`` holding ``n`` postings."""
    flags = data[0]
    at = 1
    if flags & 3 == _ESCAPED:
        gaps = np.frombuffer(data, np.uint8, n - 1, at).astype(np.int64)
        at += n - 1
        wide = gaps == 255
        count = int(wide.sum())
        gaps[wide] = np.frombuffer(data, _WIDTHS[2], count, at)
        at += 4 * count
    else:
        gap_type = _WIDTHS[flags & 3]
        gaps = np.frombuffer(data, gap_type, n - 1, at).astype(np.int64)
        at += (n - 1) * gap_type.itemsize
    if flags >> 2 & 3 == _ONES:
        counts = np.ones(n, np.int64)
    else:
        counts = np.frombuffer(data, _WIDTHS[flags >> 2 & 3], n, at).astype(np.int64)
    offsets = np.zeros(n, np.int64)
    np.cumsum(gaps, out=offsets[1:])
    return Postings(last - offsets[-1] + offsets, counts)


def bm25_weights(idfs: Floats, counts: Ints, lengths: Ints, average_length: float) -> Floats:
    """Each posting's part of FTS5's ``bm25()``:
    ``idf * (f * (k1 + 1)) / (f + k1 * (1 - b + b * D / avgdl))``, with ``idf`` its term's,
    ``f`` the term's occurrences in the chunk and ``D`` the chunk's token count."""
    f = counts.astype(np.float64)
    size = (1 - B) + (B * lengths.astype(np.float64)) / average_length
    result: Floats = idfs * ((f * (K1 + 1.0)) / (f + K1 * size))
    return result


def best(ids: Ints, scores: Floats, limit: int) -> tuple[Ints, Floats]:
    """The ``limit`` highest scores, best first; equal scores by ascending chunk id."""
    if len(ids) > limit:
        floor = np.partition(scores, len(scores) - limit)[len(scores) - limit]
        keep = scores >= floor
        ids, scores = ids[keep], scores[keep]
    order = np.lexsort((ids, -scores))[:limit]
    return ids[order], scores[order]


def segment_rows(term: str, part: Postings, size: int) -> list[tuple[str, int, int, bytes]]:
    """The ``keyword_postings`` rows of a term's postings: segments of ``size``."""
    if len(part) == 1 and part.counts[0] == 1:  # most terms: a name or a number said once
        return [(term, int(part.ids[0]), 1, ONE)]
    rows = []
    for start in range(0, len(part), size):
        piece = part.slice(start, start + size)
        rows.append((term, int(piece.ids[-1]), len(piece), encode(piece)))
    return rows


def group(ids: list[int], words: list[list[str]]) -> dict[str, Postings]:
    """Each term's postings in a batch of chunks (``words[k]``: the tokens of ``ids[k]``),
    grouped with numpy: one dictionary look-up a token, no Python work a posting."""
    vocabulary: defaultdict[str, int] = defaultdict(itertools.count().__next__)  # term -> code
    codes = np.fromiter(map(vocabulary.__getitem__, itertools.chain.from_iterable(words)), np.int64)
    sizes = np.fromiter((len(ws) for ws in words), np.int64, len(words))
    owners = np.repeat(np.asarray(ids, np.int64), sizes)
    order = np.lexsort((owners, codes))
    codes, owners = codes[order], owners[order]
    if not len(codes):
        return {}
    new_pair = np.ones(len(codes), bool)
    new_pair[1:] = (codes[1:] != codes[:-1]) | (owners[1:] != owners[:-1])
    starts = np.flatnonzero(new_pair)
    counts = np.diff(np.append(starts, len(codes)))
    codes, owners = codes[starts], owners[starts]
    new_term = np.flatnonzero(np.concatenate([[True], codes[1:] != codes[:-1]]))
    ends = np.append(new_term[1:], len(codes))
    terms = list(vocabulary)
    return {
        terms[int(codes[a])]: Postings(owners[a:b], counts[a:b])
        for a, b in zip(new_term.tolist(), ends.tolist(), strict=True)
    }
