"""Benchmark of memory search: index build time, query latency, peak memory, embeddings.

Usage: ``python bench/search.py [--sizes 1000,10000,100000] [--queries 200]``

Each size runs in a fresh subprocess (so peak RSS is its own) on a synthetic root of daily
notes built from the Chinese evaluation facts and chatter, made unique with numbers and
English identifiers. Keyword: ``provider=none``. Hybrid: ``provider=local``; at these sizes
the embedding cache is pre-filled (the model would need hours for 100k chunks on 2 cores):
1,000 distinct passages are embedded for real once, and each chunk's cached vector is one of
them plus small noise, re-normalised. Embedding throughput is measured separately, for real.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent / "data"))

import numpy as np
from zh_facts import FACTS, FILLER

from memory.paths import MemoryRoot
from memory.search.service import MemorySearch, SearchSettings
from memory.search.store import Store, connect
from memory.search.vector_index import VectorIndex

WORDS = "deploy config cache retry timeout backup invoice travel gym coffee report".split()


def build_root(base: Path, chunks: int, rng: random.Random) -> None:
    lines_per_file, per_chunk = 40, 2
    files = max(1, chunks * per_chunk // lines_per_file)
    start = date(2020, 1, 1)
    pool = [f for f, _ in FACTS] + FILLER
    for n in range(files):
        day = start + timedelta(days=n)
        out = [f"# Daily Memory: {day.isoformat()}", "", "## Trimmed Context (10:00)", ""]
        for i in range(lines_per_file):
            out.append(
                f"- {rng.choice(pool)}，{rng.choice(WORDS)}_{n}_{i} 第{rng.randint(1, 999)}次"
            )
        (base / "memory").mkdir(parents=True, exist_ok=True)
        (base / "memory" / f"{day.isoformat()}.md").write_text("\n".join(out) + "\n", "utf-8")


def prefill_vectors(root: MemoryRoot, rng: random.Random) -> None:
    from memory.search.embeddings.local import LocalProvider

    provider = LocalProvider()
    base = provider.embed_passages([f for f, _ in FACTS][:111] + FILLER)
    noise = np.random.default_rng(1)
    store = Store(connect(root.index_dir / "search.sqlite"))
    rows = store.chunk_hashes()
    for begin in range(0, len(rows), 5000):
        part = rows[begin : begin + 5000]
        picks = base[[rng.randrange(len(base)) for _ in part]]
        vectors = picks + noise.normal(0, 0.02, picks.shape).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        store.put_vectors(
            provider.key, [(h, v) for (_, h, _), v in zip(part, vectors, strict=True)]
        )
    store.conn.close()


def latencies(svc: MemorySearch, queries: list[str]) -> dict[str, float]:
    times = []
    for q in queries:
        started = time.perf_counter()
        svc.search(q, limit=6)
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return {
        "p50_ms": round(statistics.median(times), 2),
        "p95_ms": round(times[int(0.95 * (len(times) - 1))], 2),
    }


def run_size(chunks: int, n_queries: int) -> dict[str, object]:
    rng = random.Random(chunks)
    queries = [q for _, q in FACTS] * (n_queries // len(FACTS) + 1)
    with tempfile.TemporaryDirectory() as tmp:
        root = MemoryRoot.at(tmp)
        build_root(root.path, chunks, rng)
        started = time.perf_counter()
        keyword = MemorySearch(root, SearchSettings(provider="none"))
        report = keyword.sync()
        build_s = time.perf_counter() - started
        result: dict[str, object] = {"chunks": report.chunks, "keyword_build_s": round(build_s, 1)}
        result["keyword"] = latencies(keyword, queries[:n_queries])
        keyword.close()
        prefill_vectors(root, rng)
        started = time.perf_counter()
        hybrid = MemorySearch(root, SearchSettings(provider="local"))
        hybrid.sync()
        result["hybrid_open_s"] = round(time.perf_counter() - started, 1)
        hybrid.search("预热", limit=6)
        result["hybrid"] = latencies(hybrid, queries[:n_queries])
        hybrid.close()
    result["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return result


def embedding_throughput() -> dict[str, float]:
    from memory.search.embeddings.local import LocalProvider

    provider = LocalProvider()
    provider.embed_passages(["warm up"])
    out = {}
    short = [f for f, _ in FACTS][:64]
    long = [" ".join(f for f, _ in FACTS[i : i + 3]) for i in range(64)]
    english = [
        f"- [D1:{i}] Caroline: I went to a support group yesterday and it was powerful, number {i}."
        * 2
        for i in range(64)
    ]
    for name, texts in (
        ("zh_bullet", short),
        ("zh_3_bullets", long),
        ("en_dialogue_2_turns", english),
    ):
        started = time.perf_counter()
        provider.embed_passages(texts)
        out[f"{name}_per_s"] = round(len(texts) / (time.perf_counter() - started), 1)
    return out


def ivf_recall(size: int = 100_000, queries: int = 200) -> dict[str, float]:
    gen = np.random.default_rng(7)
    centres = gen.normal(size=(2000, 384)).astype(np.float32)
    data = centres[gen.integers(0, 2000, size)] + gen.normal(0, 0.6, (size, 384)).astype(np.float32)
    data /= np.linalg.norm(data, axis=1, keepdims=True)
    flat = VectorIndex(384)
    flat.add(list(range(size)), data)
    ivf = VectorIndex(384, ivf_threshold=1)
    ivf.add(list(range(size)), data)
    started = time.perf_counter()
    ivf.optimise()
    train_s = time.perf_counter() - started
    qs = data[gen.integers(0, size, queries)] + gen.normal(0, 0.1, (queries, 384)).astype(
        np.float32
    )
    hits, flat_t, ivf_t = 0, [], []
    for q in qs:
        t = time.perf_counter()
        exact = {i for i, _ in flat.search(q, 10)}
        flat_t.append(time.perf_counter() - t)
        t = time.perf_counter()
        approx = {i for i, _ in ivf.search(q, 10)}
        ivf_t.append(time.perf_counter() - t)
        hits += len(exact & approx)
    return {
        "vectors": size,
        "ivf_recall@10_vs_flat": round(hits / (10 * queries), 4),
        "flat_p50_ms": round(statistics.median(flat_t) * 1000, 2),
        "ivf_p50_ms": round(statistics.median(ivf_t) * 1000, 2),
        "ivf_train_s": round(train_s, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_size(args.one, args.queries)))
        return
    print(json.dumps({"embedding_throughput": embedding_throughput()}), flush=True)
    for size in (int(s) for s in args.sizes.split(",")):
        out = subprocess.run(
            [sys.executable, __file__, "--one", str(size), "--queries", str(args.queries)],
            check=True,
            capture_output=True,
            text=True,
        )
        print(out.stdout.strip(), flush=True)
    print(json.dumps({"ivf": ivf_recall()}), flush=True)


if __name__ == "__main__":
    main()
