"""The keyword index's posting segments and BM25 weights: exact bytes, exact numbers."""

from __future__ import annotations

import numpy as np
import pytest

from memory.search.postings import (
    ONE,
    best,
    bm25_weights,
    decode,
    encode,
    join,
    postings,
)


def test_a_segment_round_trips_at_every_width() -> None:
    for ids, counts in (
        ([3, 4, 9], [1, 1, 1]),  # one-byte gaps, counts not stored
        ([5, 700, 70_000, 70_001], [1, 2, 1, 400]),  # 2- and 4-byte gaps, 2-byte counts
        ([10, 11], [70_000, 1]),  # 4-byte counts
        ([1, 4, 304, 308, 313, 319, 70_000], [1] * 7),  # wide gaps escaped
        ([42], [1]),
        ([42], [3]),
    ):
        back = decode(ids[-1], len(ids), encode(postings(ids, counts)))
        assert back.ids.tolist() == ids
        assert back.counts.tolist() == counts


def test_a_segment_takes_the_narrowest_widths() -> None:
    # flags (gaps 1 byte: code 0; counts all one: code 3, not stored), then the 2 gaps
    assert encode(postings([3, 4, 9], [1, 1, 1])) == bytes([0b1100, 1, 5])
    # gaps 2 bytes (code 1), counts 1 byte (code 0)
    assert encode(postings([1, 301], [2, 1])) == bytes([0b01, 44, 1, 2, 1])
    # one byte a gap, the wide one (300) escaped as 255 and given after them in 4 bytes
    assert encode(postings([1, 4, 304, 308, 312, 316], [1] * 6)) == bytes(
        [0b1111, 3, 255, 4, 4, 4, 44, 1, 0, 0]
    )
    assert encode(postings([42], [1])) == ONE == bytes([0b1100])


def test_a_segment_refuses_ids_out_of_order() -> None:
    with pytest.raises(ValueError):
        encode(postings([4, 4], [1, 1]))


def test_joined_lists_are_in_id_order_each_id_once() -> None:
    joined = join([postings([7, 9], [1, 1]), postings([2, 8, 9], [2, 1, 3])])
    assert joined.ids.tolist() == [2, 7, 8, 9]
    assert joined.counts.tolist() == [2, 1, 1, 3]
    assert joined.without(np.array([7, 9])).ids.tolist() == [2, 8]


def test_bm25_weights_are_fts5s_formula() -> None:
    weights = bm25_weights(
        np.array([2.0, 2.0, 2.0]), np.array([1, 2, 1]), np.array([10, 20, 5]), 10.0
    ).tolist()
    # idf * (f * 2.2) / (f + 1.2 * (0.25 + 0.75 * D / avgdl))
    assert weights == [2.0, 2.1463414634146347, 2.5142857142857147]


def test_best_orders_by_score_then_id() -> None:
    ids = np.array([1, 2, 3, 4, 5])
    scores = np.array([0.5, 2.0, 0.5, 1.0, 0.5])
    top, values = best(ids, scores, 3)
    assert top.tolist() == [2, 4, 1] and values.tolist() == [2.0, 1.0, 0.5]
    assert best(ids, scores, 10)[0].tolist() == [2, 4, 1, 3, 5]
