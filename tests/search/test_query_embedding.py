"""A query embedded on the idle cores: the same vector, bit for bit, as on one thread."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from memory.search.embeddings import cores
from memory.search.embeddings.local import LocalProvider


@pytest.fixture(scope="module")
def local() -> LocalProvider:
    return LocalProvider()


def test_queries_in_one_call_on_two_threads_equal_each_query_on_one(local: LocalProvider) -> None:
    texts = ["孩子的钢琴课改到周几了", "where did we park the car", "API_KEY 轮换"]
    alone = np.vstack([local.embed_query(t) for t in texts])
    for threads in (1, 2):
        together = local.embed_queries(texts, threads)
        assert together.shape == (3, local.dim)
        assert np.array_equal(together, alone)  # exactly: the hits and scores stay the same
    assert local.embed_queries([], 2).shape == (0, local.dim)


@pytest.mark.parametrize(
    ("loadavg", "cpus", "idle"),
    [
        ("0.10 0.20 0.30 1/180 4242\n", 2, 1),  # only the caller runs: one core idle
        ("3.00 2.00 1.00 2/180 4242\n", 2, 0),
        ("9.00 9.00 9.00 7/180 4242\n", 2, 0),
        ("0.00 0.00 0.00 1/90 1\n", 4, 3),
    ],
)
def test_idle_cores_counts_the_runnable_tasks_besides_the_caller(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, loadavg: str, cpus: int, idle: int
) -> None:
    path = tmp_path / "loadavg"
    path.write_text(loadavg)
    monkeypatch.setattr(cores, "LOADAVG", str(path))
    monkeypatch.setattr(cores.os, "sched_getaffinity", lambda _pid: set(range(cpus)))
    assert cores.idle_cores() == idle


def test_idle_cores_is_zero_where_the_system_does_not_say(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cores, "LOADAVG", str(tmp_path / "missing"))
    assert cores.idle_cores() == 0
    (tmp_path / "bad").write_text("garbage\n")
    monkeypatch.setattr(cores, "LOADAVG", str(tmp_path / "bad"))
    assert cores.idle_cores() == 0
