"""Benchmark of memory search: what a query, an update, an open and a process cost.

Usage: ``python bench/search.py [--sizes 10000,100000] [--queries 140] [--spaced 40]
[--facet-vectors question|own|none]``

Prints each target's figure next to the target, at every size, for queries back-to-back
and spaced (``--gap`` seconds apart, as in a chat), then one JSON line of all figures.
Each step runs in a fresh subprocess, so a peak RSS is that step's own:

- ``build``: a synthetic root of daily notes (40 bullets a day from the Chinese evaluation
  facts and chatter, made unique with numbers and English identifiers), its keyword index,
  and, for the hybrid rows, a pre-filled embedding cache: 141 passages are embedded for
  real and each chunk's cached vector is one of them plus small noise (100k chunks would
  take the model about an hour on 2 cores). Embedding throughput is measured for real.
- ``keyword`` / ``hybrid``: a first open (joins the chunks to the cache, then checkpoints)
  and a reopen (reads the checkpoint and the blocks), each timed to its first answer;
  back-to-back and spaced latencies, each question asked once in the whole run
  (:func:`question_pool`), with the p95 of the questions naming several things (facet
  queries, ``SearchSettings.facet_vectors``) and of the others apart; an appended line
  until it is found; peak RSS; index size on disk.
- ``cold``: ``python -m memory search`` as a new process, wall and CPU time to its answer.
- ``pool``: a bot's search pool over ``--chats`` chats, each queried in turn, peak RSS.
- ``recall``: real embeddings of ``--recall-passages`` chunk texts; recall@10 of the
  compressed FAISS codecs against flat float32, for real question embeddings.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any, get_args

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent / "data"))

import numpy as np
from zh_facts import FACTS, FILLER
from zh_hard_dev import QUESTIONS as HARD_DEV_QUESTIONS

from memory.paths import MemoryRoot
from memory.search.facets import facets
from memory.search.service import FacetVectors, MemorySearch, SearchSettings

WORDS = "deploy config cache retry timeout backup invoice travel gym coffee report".split()
TARGETS = {  # figure: (comparison, target, unit)
    "keyword_p50_ms": ("<", 10.0, "ms"),
    "keyword_p95_ms": ("<=", 15.0, "ms"),
    "hybrid_p50_ms": ("<", 50.0, "ms"),
    "hybrid_p95_ms": ("<=", 50.0, "ms"),
    "append_keyword_ms": ("<=", 100.0, "ms"),
    "append_hybrid_ms": ("<=", 300.0, "ms"),
    "hybrid_peak_rss_mb": ("<=", 350.0, "MB"),
    "index_disk_mb": ("<=", 120.0, "MB"),
    "reopen_first_hybrid_ms": ("<=", 300.0, "ms"),
    "cold_cli_s": ("<=", 1.0, "s"),
    "pool_peak_rss_mb": ("<", 1024.0, "MB"),
    "recall@10": (">=", 0.99, ""),
}


def question_pool() -> list[str]:
    """Every bench question once: the 111 the notes are made of, then the 72 of the harder
    dev set (another persona: they find fewer lines). The questions that name several
    things (each then a facet query of its own, three times the cost) are spread evenly
    over the run, so that the back-to-back and the spaced questions hold the same share.
    No question is asked twice in a run, so nothing kept from an earlier answer can make a
    later one cheaper."""
    pool = list(dict.fromkeys([q for _, q in FACTS] + [q for _, q, *_ in HARD_DEV_QUESTIONS]))
    groups = [[q for q in pool if not facets(q)], [q for q in pool if facets(q)]]
    placed = [((i + 0.5) / len(g), n, q) for n, g in enumerate(groups) for i, q in enumerate(g)]
    return [q for _, _, q in sorted(placed)]


def rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def note_lines(n: int, rng: random.Random) -> list[str]:
    pool = [f for f, _ in FACTS] + FILLER
    return [
        f"- {rng.choice(pool)}，{rng.choice(WORDS)}_{n}_{i} 第{rng.randint(1, 999)}次"
        for i in range(40)
    ]


def build_root(base: Path, chunks: int, rng: random.Random) -> None:
    files = max(1, chunks * 2 // 40)  # 40 bullets a file, 2 bullets a chunk
    start = date(2020, 1, 1)
    (base / "memory").mkdir(parents=True, exist_ok=True)
    for n in range(files):
        day = start + timedelta(days=n)
        out = [f"# Daily Memory: {day.isoformat()}", "", "## Trimmed Context (10:00)", ""]
        out += note_lines(n, rng)
        (base / "memory" / f"{day.isoformat()}.md").write_text("\n".join(out) + "\n", "utf-8")


def prefill_vectors(root: MemoryRoot, base: np.ndarray, codec: str, rng: random.Random) -> None:
    """Cache a vector for every chunk: a real passage's vector plus noise, re-normalised."""
    from memory.search.store import Store, connect
    from memory.search.vector_index import Codec

    store = Store(connect(root.index_dir / "search.sqlite").conn)
    model = store.model_id("local:multilingual-e5-small", base.shape[1], codec)
    coder = Codec(codec, base.shape[1])
    noise = np.random.default_rng(1)
    chunks = store.chunks_after(0)
    for begin in range(0, len(chunks), 5000):
        part = chunks[begin : begin + 5000]
        picks = base[[rng.randrange(len(base)) for _ in part]]
        vectors = picks + noise.normal(0, 0.02, picks.shape).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        codes = coder.encode(vectors)
        store.put_codes(
            model, [(c.text_hash, v.tobytes()) for c, v in zip(part, codes, strict=True)]
        )
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.conn.close()


def real_passages() -> np.ndarray:
    from memory.search.embeddings.local import LocalProvider

    return LocalProvider().embed_passages([f for f, _ in FACTS][:111] + FILLER)


def run_build(chunks: int, folder: Path, codec: str) -> dict[str, Any]:
    rng = random.Random(chunks)
    root = MemoryRoot.at(folder)
    build_root(root.path, chunks, rng)
    started = time.perf_counter()
    keyword = MemorySearch(root, SearchSettings(provider="none"))
    report = keyword.sync()
    keyword.close()
    build_s = time.perf_counter() - started
    prefill_vectors(root, real_passages(), codec, rng)
    return {"chunks": report.chunks, "keyword_build_s": round(build_s, 1)}


def timed(
    svc: MemorySearch, queries: list[str], gap: float = 0.0
) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds of each query (CPU time of the process, every thread: what
    the query costs when the machine is shared and the wall clock waits for a core; the
    query is embedded on another thread while the keyword side runs)."""
    wall, cpu = [], []
    for query in queries:
        if gap:
            time.sleep(gap)
        started, used = time.perf_counter(), time.process_time()
        svc.search(query, limit=6)
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - used) * 1000)
    return wall, cpu


def p50_p95(times: list[float]) -> tuple[float | None, float | None]:
    """Median and 95th percentile (``None`` of no times)."""
    if not times:
        return None, None
    ordered = sorted(times)
    return round(statistics.median(ordered), 2), round(ordered[int(0.95 * (len(ordered) - 1))], 2)


def append_latency(svc: MemorySearch, root: MemoryRoot, tries: int, gap: float) -> float:
    """Median ms from appending a line to the newest note to a search that returns it."""
    newest = max((root.path / "memory").glob("*.md"))
    times = []
    for i in range(tries):
        time.sleep(gap)
        token = f"appendmark{i}q{random.randrange(10**6)}"
        with open(newest, "a", encoding="utf-8") as handle:
            handle.write(f"- 用户刚刚说起一件新鲜事 {token}\n")
        started = time.perf_counter()
        hits = svc.search(f"新鲜事 {token}", limit=6)
        elapsed = (time.perf_counter() - started) * 1000
        if not any(token in h.snippet for h in hits):
            raise SystemExit(f"appended line {token} was not found")
        times.append(elapsed)
    return round(statistics.median(times), 1)


def disk_mb(root: MemoryRoot) -> float:
    index = root.index_dir
    return round(sum(p.stat().st_size for p in index.glob("search.sqlite*")) / 1e6, 1)


def run_measure(folder: Path, mode: str, args: argparse.Namespace) -> dict[str, Any]:
    root = MemoryRoot.at(folder)
    provider = None
    if mode == "hybrid":
        from memory.search.embeddings.local import LocalProvider

        provider = LocalProvider()
        provider.embed_query("预热")
    settings = SearchSettings(
        provider="local" if mode == "hybrid" else "none", facet_vectors=args.facet_vectors
    )
    pool = question_pool()
    if 2 + args.queries + args.spaced > len(pool):
        raise SystemExit(f"--queries plus --spaced must stay within {len(pool) - 2} questions")
    first_query, reopen_query, asked = pool[0], pool[1], pool[2:]
    out: dict[str, Any] = {"questions": len(pool)}
    started = time.perf_counter()
    first = MemorySearch(root, settings, provider=provider)
    first.search(first_query, limit=6)  # the first open joins the cache, checkpoints
    out["first_open_ms"] = round((time.perf_counter() - started) * 1000, 1)
    first.close()
    started, used = time.perf_counter(), time.process_time()
    svc = MemorySearch(root, settings, provider=provider)
    svc.search(reopen_query, limit=6)
    out["reopen_first_ms"] = round((time.perf_counter() - started) * 1000, 1)
    out["reopen_first_cpu_ms"] = round((time.process_time() - used) * 1000, 1)
    for label, batch, gap in (
        ("back_to_back", asked[: args.queries], 0.0),
        ("spaced", asked[args.queries : args.queries + args.spaced], args.gap),
    ):
        wall, cpu = timed(svc, batch, gap)
        (p50, p95), (c50, c95) = p50_p95(wall), p50_p95(cpu)
        out.update({f"p50_{label}_ms": p50, f"p95_{label}_ms": p95})
        out.update({f"cpu_p50_{label}_ms": c50, f"cpu_p95_{label}_ms": c95})
        # the questions naming several things (a query per facet) apart from the others
        named = [bool(facets(q)) for q in batch]
        for part, keep in (("plain", False), ("facets", True)):
            picked = [(w, c) for w, c, n in zip(wall, cpu, named, strict=True) if n == keep]
            (w50, w95), (c50, c95) = (
                p50_p95([w for w, _ in picked]),
                p50_p95([c for _, c in picked]),
            )
            out.update({f"p50_{part}_{label}_ms": w50, f"p95_{part}_{label}_ms": w95})
            out.update({f"cpu_p50_{part}_{label}_ms": c50, f"cpu_p95_{part}_{label}_ms": c95})
        out[f"facet_questions_{label}"] = sum(named)
        out[f"questions_{label}"] = len(batch)
    out["append_ms"] = append_latency(svc, root, args.appends, args.gap)
    svc.close()
    out["peak_rss_mb"] = rss_mb()
    out["disk_mb"] = disk_mb(root)
    return out


def run_cold(folder: Path, tries: int) -> tuple[float, float]:
    """Median wall time and CPU time (user + system) of a new ``python -m memory search``
    process. Bytecode is written as an installed package has it (this machine's
    environment may set ``PYTHONDONTWRITEBYTECODE``, which would compile every module of
    every run: 0.4 s of CPU); one untimed run writes it first."""
    query = FACTS[0][1]
    command = [sys.executable, "-m", "memory", "search", query, "--workspace", str(folder)]
    command += ["--provider", "local", "--json"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(command, check=True, capture_output=True, env=env)
    times, cpus = [], []
    for _ in range(tries):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env=env)
        times.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return round(statistics.median(times), 2), round(statistics.median(cpus) * 1000, 1)


def run_pool_build(folder: Path, chats: int, chunks: int, codec: str) -> dict[str, Any]:
    """Build ``chats`` roots of ``chunks`` chunks each, with their caches filled."""
    rng = random.Random(chats)
    base = real_passages()
    for n in range(chats):
        root = MemoryRoot.at(folder / f"chat{n}")
        build_root(root.path, chunks, rng)
        svc = MemorySearch(root, SearchSettings(provider="none"))
        svc.sync()
        svc.close()
        prefill_vectors(root, base, codec, rng)
    return {"built": chats}


def run_pool_queries(folder: Path, chats: int, rounds: int) -> dict[str, Any]:
    from bot.config import BotConfig
    from bot.search_pool import SearchPool

    config = BotConfig(agent_workspace=str(folder), embedding_provider="local")
    pool = SearchPool(config)
    times = []
    for r in range(rounds):
        for n in range(chats):
            root = MemoryRoot.at(folder / f"chat{n}")
            query = FACTS[(n + r) % len(FACTS)][1]
            started = time.perf_counter()
            pool.search(root, query, limit=6)
            times.append((time.perf_counter() - started) * 1000)
    p50, p95 = p50_p95(times)
    open_now = pool.open_count()
    pool.close()
    return {
        "chats": chats,
        "p50_ms": p50,
        "p95_ms": p95,
        "open_at_end": open_now,
        "peak_rss_mb": rss_mb(),
    }


def run_recall(passages: int) -> dict[str, Any]:
    import faiss

    from memory.search import vector_codecs
    from memory.search.embeddings.local import LocalProvider
    from memory.search.vector_index import Codec, VectorIndex

    rng = random.Random(7)
    texts: list[str] = []
    for n in range(passages // 20 + 1):
        lines = note_lines(n, rng)
        texts.extend("\n".join(lines[i : i + 2]) for i in range(0, 40, 2))
    texts = texts[:passages]
    provider = LocalProvider()
    started = time.perf_counter()
    data = provider.embed_passages(texts)
    per_s = len(texts) / (time.perf_counter() - started)
    questions = np.vstack([provider.embed_query(q) for _, q in FACTS])
    flat = faiss.IndexFlatIP(data.shape[1])
    flat.add(data)
    _, exact = flat.search(questions, 10)
    out: dict[str, Any] = {
        "passages": len(texts),
        "queries": len(questions),
        "embed_per_s": round(per_s, 1),
    }
    # 8-bit codes: ranges fitted as the index fits them (every vector it holds at the fit),
    # and, for robustness, fitted on the first third only (the rest arrive later, clipped)
    third = vector_codecs.Extent()
    third.add(data[: max(1, len(data) // 3)])
    whole = vector_codecs.Extent()
    whole.add(data)
    codecs = {"float16": Codec("float16", data.shape[1])}
    for name, seen in (("sq8", whole), ("sq8_fit_on_a_third", third)):
        assert seen.low is not None and seen.high is not None
        ranges = vector_codecs.ranges_of(seen.low, seen.high)
        codecs[name] = Codec("sq8", data.shape[1], tuple(ranges.tolist()))
        if seen is third:
            later = data[len(data) // 3 :]
            out["clipped_after_a_third"] = vector_codecs.outside(ranges, later) / len(later)
    for name, codec in codecs.items():
        index = VectorIndex(codec)
        index.add(list(range(len(data))), data)
        found = [{i for i, _ in index.search(q, 10)} for q in questions]
        out[f"{name}_recall@10"] = round(
            float(np.mean([len(f & set(e)) / 10 for f, e in zip(found, exact, strict=True)])), 4
        )
    return out


def verdict(name: str, value: float, cpu: float | None = None) -> str:
    op, target, unit = TARGETS[name]
    ok = {"<": value < target, "<=": value <= target, ">=": value >= target}[op]
    line = f"{value:>10} {unit:3} target {op} {target:g} {unit:3} {'met   ' if ok else 'MISSED'}"
    return line + (f"  (cpu {cpu} ms)" if cpu is not None else "")


def facet_rows(side: dict[str, Any], label: str) -> list[tuple[str, str, float, float | None]]:
    """The hybrid p95 of ``label``'s questions without facets and of those naming several
    things (each then a facet query of its own), as rows under the target."""
    several = side[f"facet_questions_{label}"]
    plain = side[f"questions_{label}"] - several
    return [
        (
            f"  {count} {kind}",
            "hybrid_p95_ms",
            side[f"p95_{part}_{label}_ms"],
            side[f"cpu_p95_{part}_{label}_ms"],
        )
        for count, kind, part in (
            (plain, "without facets", "plain"),
            (several, "naming several things", "facets"),
        )
        if count
    ]


def sub(*extra: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, *extra], check=True, capture_output=True, text=True
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=140, help="back-to-back queries")
    parser.add_argument("--spaced", type=int, default=40, help="spaced queries per mode")
    parser.add_argument("--gap", type=float, default=1.1, help="seconds between spaced queries")
    parser.add_argument("--appends", type=int, default=10)
    parser.add_argument("--cold-tries", type=int, default=5)
    parser.add_argument("--chats", type=int, default=200)
    parser.add_argument("--chat-chunks", type=int, default=500)
    parser.add_argument("--pool-rounds", type=int, default=2)
    parser.add_argument("--recall-passages", type=int, default=1500)
    parser.add_argument("--codec", default="float16")
    parser.add_argument(
        "--facet-vectors",
        default=SearchSettings().facet_vectors,
        choices=get_args(FacetVectors),
        help="the vector side of a facet query (SearchSettings.facet_vectors)",
    )
    parser.add_argument("--work", help="folder for the roots (default: temporary)")
    parser.add_argument("--step", help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    parser.add_argument("--size", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step:
        folder = Path(args.folder or ".")
        result = {
            "build": lambda: run_build(args.size, folder, args.codec),
            "keyword": lambda: run_measure(folder, "keyword", args),
            "hybrid": lambda: run_measure(folder, "hybrid", args),
            "pool-build": lambda: run_pool_build(folder, args.chats, args.chat_chunks, args.codec),
            "pool": lambda: run_pool_queries(folder, args.chats, args.pool_rounds),
            "recall": lambda: run_recall(args.recall_passages),
        }[args.step]()
        print(json.dumps(result))
        return
    figures: dict[str, Any] = {}
    if args.work:
        Path(args.work).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="bench-search-", dir=args.work) as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            folder = Path(tmp) / f"root{size}"
            common = ["--folder", str(folder), "--size", str(size), "--codec", args.codec]
            timing = [
                "--queries",
                str(args.queries),
                "--spaced",
                str(args.spaced),
                "--gap",
                str(args.gap),
                "--appends",
                str(args.appends),
                "--facet-vectors",
                args.facet_vectors,
            ]
            built = sub("--step", "build", *common)
            keyword = sub("--step", "keyword", *common, *timing)
            hybrid = sub("--step", "hybrid", *common, *timing)
            cold, cold_cpu = run_cold(folder, args.cold_tries)
            figures[str(size)] = {
                "build": built,
                "keyword": keyword,
                "hybrid": hybrid,
                "cold_cli_s": cold,
                "cold_cli_cpu_ms": cold_cpu,
            }
            shape = (
                f"keyword build {built['keyword_build_s']} s, facet vectors {args.facet_vectors}"
            )
            print(f"\n== {built['chunks']} chunks ({shape})")
            rows: list[tuple[str, str, float, float | None]] = []
            for mode, side in (("keyword", keyword), ("hybrid", hybrid)):
                for stat in ("p50", "p95"):
                    for label in ("back_to_back", "spaced"):
                        name = f"{mode}_{stat}_ms"
                        row = f"{mode} {stat}, {label.replace('_', '-')}"
                        cpu = side[f"cpu_{stat}_{label}_ms"]
                        rows.append((row, name, side[f"{stat}_{label}_ms"], cpu))
                        if mode == "hybrid" and stat == "p95":  # the facet questions apart
                            rows += facet_rows(side, label)
            rows += [
                ("appended line found, keyword", "append_keyword_ms", keyword["append_ms"], None),
                ("appended line found, hybrid", "append_hybrid_ms", hybrid["append_ms"], None),
                ("peak RSS, hybrid process", "hybrid_peak_rss_mb", hybrid["peak_rss_mb"], None),
                ("index on disk, hybrid", "index_disk_mb", hybrid["disk_mb"], None),
                (
                    "reopened index, first hybrid",
                    "reopen_first_hybrid_ms",
                    hybrid["reopen_first_ms"],
                    hybrid["reopen_first_cpu_ms"],
                ),
                ("cold python -m memory search", "cold_cli_s", cold, cold_cpu),
            ]
            for label, name, value, cpu in rows:
                print(f"  {label:34} {verdict(name, value, cpu)}", flush=True)
            print(f"  {'first open (reads the cache)':34} {hybrid['first_open_ms']:>10} ms")
        if args.chats:
            folder = Path(tmp) / "pool"
            pool_args = [
                "--folder",
                str(folder),
                "--chats",
                str(args.chats),
                "--chat-chunks",
                str(args.chat_chunks),
                "--codec",
                args.codec,
            ]
            sub("--step", "pool-build", *pool_args)
            pool = sub("--step", "pool", *pool_args, "--pool-rounds", str(args.pool_rounds))
            figures["pool"] = pool
            shape = f"{args.chats} chats x {args.chat_chunks} chunks, {args.pool_rounds} rounds"
            print(f"\n== search pool: {shape}")
            print(f"  {'peak RSS':34} {verdict('pool_peak_rss_mb', pool['peak_rss_mb'])}")
            latency = f"{pool['p50_ms']} / {pool['p95_ms']} ms"
            print(f"  {'query p50 / p95, reopens included':34} {latency}")
            print(f"  {'indexes open at the end':34} {pool['open_at_end']}")
    if args.recall_passages:
        recall = sub("--step", "recall", "--recall-passages", str(args.recall_passages))
        figures["recall"] = recall
        shape = f"{recall['passages']} real passages, {recall['queries']} real questions"
        print(f"\n== FAISS codecs against flat float32 ({shape})")
        print(f"  {'model throughput':34} {recall['embed_per_s']} passages/s")
        for key, value in recall.items():
            if key.endswith("recall@10"):
                print(f"  {key:34} {verdict('recall@10', value)}")
    print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
