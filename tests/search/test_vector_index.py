"""The FAISS side: codes, removal by dead positions, compaction, exactness of float16."""

from __future__ import annotations

import numpy as np
import pytest

from memory.search import vector_index
from memory.search.vector_index import Codec, VectorIndex


def unit_vectors(n: int, dim: int = 16, seed: int = 0) -> np.ndarray:
    data = np.random.default_rng(seed).normal(size=(n, dim)).astype(np.float32)
    return data / np.linalg.norm(data, axis=1, keepdims=True)


def exact(data: np.ndarray, ids: list[int], query: np.ndarray, k: int) -> list[int]:
    scores = data @ query
    order = np.argsort(-scores, kind="stable")[:k]
    return [ids[i] for i in order]


@pytest.mark.parametrize("codec", ["float32", "float16"])
def test_search_matches_an_exact_scan(codec: str) -> None:
    data = unit_vectors(300)
    index = VectorIndex(Codec(codec, 16))
    ids = list(range(1000, 1300))
    index.add(ids, data)
    for query in unit_vectors(20, seed=1):
        found = [i for i, _ in index.search(query, 10)]
        assert found == exact(data, ids, query, 10)


def test_float16_codes_are_ieee_half_floats_and_decode_back() -> None:
    data = unit_vectors(5)
    codec = Codec("float16", 16)
    codes = codec.encode(data)
    assert codes.shape == (5, 32)
    assert np.array_equal(codes.view(np.float16).astype(np.float32), codec.decode(codes))
    assert np.allclose(codec.decode(codes), data, atol=1e-3)


def test_removed_ids_never_come_back_and_compaction_keeps_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(vector_index, "COMPACT_MIN", 8)
    data = unit_vectors(64)
    index = VectorIndex(Codec("float32", 16))
    index.add(list(range(64)), data)
    index.remove(list(range(0, 6)))
    assert index.positions == 64 and index.size == 58  # dead, not yet compacted
    for query in data[:6]:
        assert not {i for i, _ in index.search(query, 64)} & set(range(6))
    index.remove(list(range(6, 12)))
    assert index.positions == 52 and index.size == 52  # compacted
    kept = list(range(12, 64))
    for query in unit_vectors(10, seed=2):
        assert [i for i, _ in index.search(query, 5)] == exact(data[12:], kept, query, 5)
    index.add([5], data[5:6])
    assert index.search(data[5], 1)[0][0] == 5


def test_adding_an_id_again_replaces_its_vector() -> None:
    data = unit_vectors(4)
    index = VectorIndex(Codec("float32", 16))
    index.add([1, 2], data[:2])
    index.add([1], data[3:4])
    assert index.size == 2 and index.search(data[3], 1)[0][0] == 1
    assert all(i != 1 for i, _ in index.search(data[0], 2)[:1])


def test_sq8_needs_ranges_for_every_dimension() -> None:
    with pytest.raises(ValueError, match="every dimension"):
        Codec("sq8", 4).make()
    codec = Codec("sq8", 4, (-1.0,) * 4 + (2.0,) * 4)
    codes = codec.encode(unit_vectors(3, dim=4))
    assert codes.shape == (3, 4) and codes.dtype == np.uint8


def test_fill_from_parts_equals_adding() -> None:
    data = unit_vectors(50)
    codec = Codec("float16", 16)
    codes = codec.encode(data)
    ids = np.arange(100, 150, dtype=np.int64)
    filled = VectorIndex(codec)
    filled.fill(ids, iter([codes[:20], codes[20:]]))
    added = VectorIndex(codec)
    added.add_codes(ids.tolist(), codes)
    assert filled.size == 50 and 120 in filled
    for query in unit_vectors(5, seed=3):
        assert filled.search(query, 7) == added.search(query, 7)
    filled.remove([100])
    filled.add([100], data[:1])
    assert filled.search(data[0], 1)[0][0] == 100
    with pytest.raises(ValueError, match="empty"):
        filled.fill(ids[:1], iter([codes[:1]]))
    with pytest.raises(ValueError, match="fewer"):
        VectorIndex(codec).fill(ids, iter([codes[:3]]))
    parts = list(filled.parts(16))  # a checkpoint's parts: live ids only, compacted
    assert [len(i) // 8 for i, _ in parts] == [16, 16, 16, 2]
    assert all(len(c) == len(i) // 8 * codec.code_size for i, c in parts)


def test_an_append_after_a_load_does_not_move_every_code() -> None:
    codec = Codec("float16", 16)
    data = unit_vectors(3000)
    index = VectorIndex(codec)
    index.fill(np.arange(3000), iter([codec.encode(data[:1000]), codec.encode(data[1000:])]))
    where = int(index._index.codes.data())
    for n in range(vector_index.SPARE_MIN):  # appended lines, one at a time
        index.add([10_000 + n], unit_vectors(1, seed=n))
    assert int(index._index.codes.data()) == where  # the load left room: no reallocation
    assert index.search(data[7], 1)[0][0] == 7


def whole_scan(index: VectorIndex, query: np.ndarray, k: int) -> list[tuple[int, float]]:
    """The index searched in one FAISS call, as below ``SPLIT_MIN``."""
    live = index.size
    with index._lock:
        scores, positions = index._scan(query.reshape(1, -1), min(k, live), None)
    return [(int(index._ids[p]), float(s)) for p, s in zip(positions, scores, strict=True)]


@pytest.mark.parametrize("k", [1, 7, 100, 250])
def test_a_search_in_halves_equals_one_scan_even_among_equal_scores(
    k: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vector_index, "SPLIT_MIN", 64)
    monkeypatch.setattr(vector_index, "idle_cores", lambda: 1)
    rng = np.random.default_rng(3)
    distinct = unit_vectors(40, seed=2)
    copies = distinct[rng.integers(0, 40, 1500)]  # each about 37 times: whole groups tie
    data = np.vstack([unit_vectors(1500, seed=5), copies])[rng.permutation(3000)]
    index = VectorIndex(Codec("float16", 16))
    index.add(list(range(5000, 8000)), data)
    index.remove(list(range(5000, 5200, 3)))  # dead positions in the first half
    halves: list[int] = []
    real = index._search_halves

    def counted(*args: object) -> object:
        merged = real(*args)  # type: ignore[arg-type]
        halves.append(merged is not None)
        return merged

    monkeypatch.setattr(index, "_search_halves", counted)
    queries = [*distinct[:10], *unit_vectors(10, seed=4)]
    for query in queries:
        assert index.search(query, k) == whole_scan(index, query, k)
    assert len(halves) == len(queries) and any(halves)  # some answered from the halves
    if k == 7:
        assert not all(halves)  # a cut among 37 equal scores: scanned whole


def test_merging_halves_orders_as_one_scan_and_refuses_an_ambiguous_cut() -> None:
    first = (np.array([0.9, 0.5, 0.5, 0.4], np.float32), np.array([3, 1, 2, 4]))
    second = (np.array([0.7, 0.5, -1.0, -1.0], np.float32), np.array([8, 9, -1, -1]))
    merged = vector_index.merge_halves([first, second], 5)
    assert merged is not None and merged[1].tolist() == [3, 8, 9, 2, 1]  # 0.5: later first
    merged = vector_index.merge_halves([first, second], 2)
    assert merged is not None and merged[1].tolist() == [3, 8]
    assert vector_index.merge_halves([first, second], 3) is None  # a 0.5 left out
    ties = (np.array([0.9, 0.8, 0.8], np.float32), np.array([1, 2, 5]))
    empty = (np.array([-1.0, -1.0, -1.0], np.float32), np.array([-1, -1, -1]))
    assert vector_index.merge_halves([ties, empty], 2) is None  # more 0.8s may follow
    merged = vector_index.merge_halves([ties, empty], 1)
    assert merged is not None and merged[1].tolist() == [1]
