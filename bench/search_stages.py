"""Where a hybrid search's wall time goes, stage by stage, back-to-back and spaced.

Usage: ``python bench/search_stages.py ROOT [--queries 80] [--spaced 30] [--gap 1.1]``
where ROOT is a memory root with its index (``python bench/search.py --step build
--folder ROOT --size 100000 --codec float16`` makes the bench's). Each stage is timed
around its call (the embedding as the time the search waits for it), each question of
the bench's pool asked once; prints the medians and the total's p95.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "data"))

from search import question_pool  # bench/search.py

from memory.paths import MemoryRoot
from memory.search import service
from memory.search.service import MemorySearch, SearchSettings

STAGES = ("refresh", "keywords", "rows", "embed", "faiss", "rank", "widen", "currency")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root")
    parser.add_argument("--queries", type=int, default=80)
    parser.add_argument("--spaced", type=int, default=30)
    parser.add_argument("--gap", type=float, default=1.1)
    args = parser.parse_args()
    svc = MemorySearch(MemoryRoot.at(args.root), SearchSettings(provider="local"))
    svc.search("热身")  # opened and warm
    state = svc._state
    assert state is not None and state.vectors.index is not None
    spent: dict[str, float] = {}

    def timed(name: str, call: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(call)
        def wrapper(*a: Any, **k: Any) -> Any:
            start = time.perf_counter()
            try:
                return call(*a, **k)
            finally:
                spent[name] = spent.get(name, 0.0) + (time.perf_counter() - start) * 1000

        return wrapper

    svc._refresh = timed("refresh", svc._refresh)  # type: ignore[method-assign]
    state.keywords.search = timed("keywords", state.keywords.search)  # type: ignore[method-assign]
    state.vectors._embed_query = timed("embed", state.vectors._embed_query)  # type: ignore[method-assign]
    state.vectors.index.search = timed("faiss", state.vectors.index.search)  # type: ignore[method-assign]
    service.rank = timed("rank", service.rank)  # type: ignore[assignment]
    service.widen = timed("widen", service.widen)  # type: ignore[assignment]
    service.chunk_rows = timed("rows", service.chunk_rows)  # type: ignore[assignment]
    svc._currency.read = timed("currency", svc._currency.read)  # type: ignore[method-assign]
    questions = iter(question_pool() * 3)
    for mode, count, gap in (("b2b", args.queries, 0.0), ("spaced", args.spaced, args.gap)):
        rows = []
        for _ in range(count):
            time.sleep(gap)
            spent.clear()
            start = time.perf_counter()
            svc.search(next(questions))
            spent["total"] = (time.perf_counter() - start) * 1000
            rows.append(dict(spent))
        medians = " ".join(
            f"{name} {statistics.median(r.get(name, 0.0) for r in rows):.1f}"
            for name in ("total", *STAGES)
        )
        totals = sorted(r["total"] for r in rows)
        p95 = totals[int(0.95 * (len(totals) - 1))]
        print(f"{mode:6} ms, medians: {medians}; total p95 {p95:.1f}", flush=True)
    svc.close()


if __name__ == "__main__":
    main()
