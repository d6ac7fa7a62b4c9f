"""Round 14 (issue 16): the 8-bit codes scanned folded, as FAISS's uniform 8-bit codes.

``QT_8bit`` decodes a code per dimension as ``low + (code + 0.5) / 255 * width``; the
search now scans the same codes as ``QT_8bit_uniform`` over 0..1 with the query multiplied
by the widths, and adds ``query . low`` to every score. These tests pin that the index
scans that way (the cheaper scan), and that its hits and cosines are those of the ranges'
own decode, whole, in halves, after a compaction and after a fill from codes.
"""

from __future__ import annotations

import faiss
import numpy as np
import pytest

from memory.search import vector_codecs, vector_index
from memory.search.vector_index import Codec, VectorIndex

DIM = 32


def clustered(n: int, seed: int = 0) -> np.ndarray:
    """Unit vectors around a few centres, with dimensions of unequal ranges (as e5's)."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(7, DIM)) * np.linspace(0.2, 3.0, DIM)
    data = centres[rng.integers(0, 7, n)] + rng.normal(0, 0.3, size=(n, DIM))
    data /= np.linalg.norm(data, axis=1, keepdims=True)
    return data.astype(np.float32)


def sq8_for(data: np.ndarray) -> Codec:
    seen = vector_codecs.Extent()
    seen.add(data)
    assert seen.low is not None and seen.high is not None
    ranges = vector_codecs.ranges_of(seen.low, seen.high)
    return Codec("sq8", DIM, tuple(float(x) for x in ranges))


def decoded_scan(
    codec: Codec, data: np.ndarray, ids: list[int], query: np.ndarray, k: int
) -> tuple[list[int], np.ndarray]:
    """``(ids, cosines)`` of the ``k`` best by the codes' own decode (``QT_8bit``)."""
    scores = codec.decode(codec.encode(data)).astype(np.float64) @ query.astype(np.float64)
    order = np.argsort(-scores, kind="stable")[:k]
    return [ids[i] for i in order], scores[order]


def assert_same_as_decoded(index: VectorIndex, data: np.ndarray, ids: list[int]) -> None:
    for query in clustered(25, seed=9):
        found = index.search(query, 10)
        want_ids, want_scores = decoded_scan(index.codec, data, ids, query, 10)
        got = dict(found)
        # the same set; the order may differ only between scores equal to float rounding
        assert set(got) == set(want_ids)
        for chunk_id, score in zip(want_ids, want_scores, strict=True):
            assert got[chunk_id] == pytest.approx(score, abs=1e-5)
        cosines = [c for _, c in found]
        assert cosines == sorted(cosines, reverse=True)


def test_an_8bit_index_scans_its_codes_as_uniform_codes_over_0_to_1() -> None:
    data = clustered(200)
    index = VectorIndex(sq8_for(data))
    index.add(list(range(200)), data)
    scanned = index._index
    assert scanned.sq.qtype == faiss.ScalarQuantizer.QT_8bit_uniform
    assert faiss.vector_to_array(scanned.sq.trained).tolist() == [0.0, 1.0]
    # the codes it holds are the cache's: the per-dimension codec's, byte for byte
    held = faiss.vector_to_array(scanned.codes).reshape(200, DIM)
    assert np.array_equal(held, index.codec.encode(data))


def test_the_other_codecs_scan_as_they_encode() -> None:
    for name in ("float16", "float32"):
        codec = Codec(name, DIM)
        query = clustered(1)[0]
        folded, offset = codec.fold(query)
        assert folded is query and offset == 0.0
        assert type(codec.scanner()) is type(codec.make())


def test_the_folded_scan_finds_what_the_ranges_decode_finds() -> None:
    data = clustered(600)
    ids = list(range(5000, 5600))
    index = VectorIndex(sq8_for(data))
    index.add(ids, data)
    assert_same_as_decoded(index, data, ids)


def test_a_folded_scan_in_halves_adds_the_offset_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vector_index, "SPLIT_MIN", 64)
    monkeypatch.setattr(vector_index, "idle_cores", lambda: 1)
    halves = []
    scan_in_halves = VectorIndex._search_halves

    def counted(self: VectorIndex, *args: object) -> object:
        halves.append(1)
        return scan_in_halves(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(VectorIndex, "_search_halves", counted)
    data = clustered(400, seed=3)
    ids = list(range(400))
    index = VectorIndex(sq8_for(data))
    index.add(ids, data)
    assert_same_as_decoded(index, data, ids)
    assert halves


def test_compaction_and_a_fill_keep_the_folded_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vector_index, "COMPACT_MIN", 8)
    data = clustered(300, seed=5)
    codec = sq8_for(data)
    index = VectorIndex(codec)
    index.add(list(range(300)), data)
    index.remove(list(range(0, 60)))  # past the compaction share: a fresh FAISS index
    assert index.positions == 240
    assert index._index.sq.qtype == faiss.ScalarQuantizer.QT_8bit_uniform
    assert_same_as_decoded(index, data[60:], list(range(60, 300)))
    filled = VectorIndex(codec)
    codes = codec.encode(data)
    filled.fill(np.arange(300, dtype=np.int64), iter([codes[:100], codes[100:]]))
    assert_same_as_decoded(filled, data, list(range(300)))
