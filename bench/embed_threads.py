"""What one query embedding costs on one or two engine threads, back-to-back and spaced.

Usage: ``python bench/embed_threads.py [--threads 1,2] [--queries 40] [--spaced 12]
[--gap 1.1]``; run it again under ``OMP_WAIT_POLICY=ACTIVE GOMP_SPINCOUNT=20000`` (read
by the engine's OpenMP runtime when it loads) to see spinning threads. Prints the wall
median and maximum and the process CPU median of each (threads, mode).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory.search.embeddings.local import LocalProvider


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--queries", type=int, default=40, help="back-to-back queries")
    parser.add_argument("--spaced", type=int, default=12, help="spaced queries")
    parser.add_argument("--gap", type=float, default=1.1, help="seconds between spaced ones")
    args = parser.parse_args()
    provider = LocalProvider()
    texts = [f"用户上次去杭州出差住在哪个酒店 第{i}次" for i in range(args.queries + args.spaced)]
    policy = os.environ.get("OMP_WAIT_POLICY", "-"), os.environ.get("GOMP_SPINCOUNT", "-")
    for threads in (int(t) for t in args.threads.split(",")):
        for mode, count, gap in (("b2b", args.queries, 0.0), ("spaced", args.spaced, args.gap)):
            walls, cpus = [], []
            for text in texts[:count]:
                time.sleep(gap)
                wall, cpu = time.perf_counter(), time.process_time()
                provider.embed_queries([text], cores=threads)
                walls.append((time.perf_counter() - wall) * 1000)
                cpus.append((time.process_time() - cpu) * 1000)
            print(
                f"wait {policy[0]} spin {policy[1]} threads {threads} {mode:6}: wall p50 "
                f"{statistics.median(walls):.1f} max {max(walls):.1f} ms, "
                f"cpu p50 {statistics.median(cpus):.1f} ms",
                flush=True,
            )


if __name__ == "__main__":
    main()
