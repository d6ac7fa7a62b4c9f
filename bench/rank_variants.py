"""Compare ranking settings on the evaluation sets, retrieval cached per query.

Usage: ``python bench/rank_variants.py DATASET ... --work DIR [--variant NAME ...]
[--no-match] [--json]``

Runs :class:`MemorySearch` on the same roots and questions as ``python -m memory eval`` (the
scorer of :mod:`memory.search.eval`), once per variant of :class:`RankSettings` named in
``VARIANTS``; each query's keyword and vector retrieval is asked once and kept, so a
variant costs only the ranking. The figures of ``base`` equal the CLI's. Per set: all
questions, and for LoCoMo the dev conversations (conv-26/30/41, where settings are chosen)
and the held-out ones (conv-42/43, only measured), by category.
"""

from __future__ import annotations

import argparse
import json
import pickle
import statistics
import sys
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory.paths import MemoryRoot
from memory.search.eval import (
    WITHHELD_EVERY,
    copy_root,
    find_roots,
    line_reader,
    load_questions,
    score_question,
    summarise,
    withhold,
)
from memory.search.ranker import RankSettings
from memory.search.ranking import Gate
from memory.search.service import MemorySearch, SearchSettings

LOCOMO_DEV = ("conv-26", "conv-30", "conv-41")
BASE = RankSettings()
VARIANTS: dict[str, RankSettings] = {
    "base": BASE,
    "noprov": replace(BASE, provenance=False),
    "ctx500": replace(BASE, context_chars=500),
    "sf0.1": replace(BASE, same_file_similarity=0.1),
    "sf0.2": replace(BASE, same_file_similarity=0.2),
    "sf0.4": replace(BASE, same_file_similarity=0.4),
    "lam0.65": replace(BASE, mmr_lambda=0.65),
    "lam0.85": replace(BASE, mmr_lambda=0.85),
    # the evidence gate's trade-off curve (coverage / vector / margin), with --no-match
    "gate.4": replace(BASE, gate=Gate(0.4, 0.5, 0.01)),
    "gate.6": replace(BASE, gate=Gate(0.6, 0.6, 0.02)),
    "gate.7": replace(BASE, gate=Gate(0.7, 0.65, 0.03)),
    "gate.8": replace(BASE, gate=Gate(0.8, 0.7, 0.04)),
    "gate.9": replace(BASE, gate=Gate(0.9, 0.8, 0.05)),
}


def _cached(service: MemorySearch, file: Path) -> Callable[[], None]:
    """Memoise the service's keyword and vector retrieval by query (and depth), kept in
    ``file`` between runs (delete it when the index changes); returns the saver."""
    state = service._open()
    keywords, vectors = state.keywords, state.vectors
    kw_search, vec_query = keywords.search, vectors.query
    kw_memo: dict[Any, Any] = {}
    vec_memo: dict[Any, Any] = {}
    if file.is_file():
        kw_memo, vec_memo = pickle.loads(file.read_bytes())

    def search(query: str, depth: int) -> Any:
        key = (query, depth)
        if key not in kw_memo:
            kw_memo[key] = kw_search(query, depth)
        return kw_memo[key]

    def query(text: str, depth: int) -> Any:
        key = (text, depth)
        if key not in vec_memo:
            vec_memo[key] = vec_query(text, depth)
        return vec_memo[key]

    keywords.search = search  # type: ignore[method-assign]
    vectors.query = query  # type: ignore[method-assign]

    def save() -> None:
        file.write_bytes(pickle.dumps((kw_memo, vec_memo)))

    return save


def _group(dataset: Path, root: Path) -> str:
    if dataset.name.startswith("locomo"):
        return "locomo-dev" if root.name in LOCOMO_DEV else "locomo-ho"
    return f"{dataset.name}/{root.name}" if dataset.name == "zh-hard" else dataset.name


def run(
    datasets: list[Path], work: Path, variants: list[str], no_match: bool
) -> dict[str, dict[str, Any]]:
    rows: dict[str, dict[str, list[dict[str, Any]]]] = {v: {} for v in variants}
    none: dict[str, dict[str, list[float]]] = {v: {} for v in variants}
    for dataset in datasets:
        for source in find_roots(dataset):
            group = _group(dataset, source)
            asked = [q for q in load_questions(source) if q.evidence]
            day_file = source / "last_date"
            day = date.fromisoformat(day_file.read_text().strip()) if day_file.is_file() else None
            kinds: list[tuple[str, Path, list[Any]]] = [("answerable", source, asked)]
            if no_match:
                kinds.append(("withheld", source, asked[::WITHHELD_EVERY]))
            for kind, _, questions in kinds:
                suffix = ".withheld" if kind == "withheld" else ""
                target = work / dataset.name / f"{source.name}{suffix}"
                copy_root(source, target)
                if kind == "withheld":
                    withhold(target, questions)
                root = MemoryRoot.at(target)
                service = MemorySearch(root, SearchSettings(provider="local"))
                try:
                    service.sync()
                    save = _cached(service, target.with_suffix(".retrieval.pickle"))
                    lines = line_reader(root)
                    for name in variants:
                        service.settings = replace(service.settings, ranking=VARIANTS[name])
                        for q in questions:
                            hits = service.search(q.question, limit=10, now=day)
                            if kind == "withheld":
                                none[name].setdefault(group, []).append(float(not hits))
                                continue
                            scored: dict[str, Any] = dict(score_question(q, hits, lines, 5))
                            scored["recall10"] = score_question(q, hits, lines, 10)["recall"]
                            scored["category"] = q.category
                            rows[name].setdefault(group, []).append(scored)
                    save()
                finally:
                    service.close()
            print(f"{dataset.name}/{source.name} done", file=sys.stderr, flush=True)
    out: dict[str, dict[str, Any]] = {}
    for name in variants:
        out[name] = {}
        for group, scored in rows[name].items():
            s = summarise(scored)
            if group in none[name]:
                s["no_match"] = round(statistics.mean(none[name][group]), 4)
            out[name][group] = s
        if "locomo-dev" in rows[name] and "locomo-ho" in rows[name]:
            both = rows[name]["locomo-dev"] + rows[name]["locomo-ho"]
            out[name]["locomo-all"] = summarise(both)
    return out


def _line(name: str, group: str, s: dict[str, Any]) -> str:
    cats = " ".join(f"{k}:{v:.3f}" for k, v in s["recall@5_by_category"].items())
    nm = f" nm {s['no_match']:.3f}" if "no_match" in s else ""
    return (
        f"{name:18} {group:18} r5 {s['recall@5']:.4f} hit5 {s['hit@5']:.3f} "
        f"chars {s['snippet_chars@5_mean']:.0f}/{s['snippet_chars@5_max']:.0f}{nm}  {cats}"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="rank_variants")
    parser.add_argument("datasets", nargs="+", type=Path)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--variant", action="append", choices=sorted(VARIANTS))
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        help="NAME=FIELD:VALUE,... a variant of RankSettings given on the command line",
    )
    parser.add_argument("--no-match", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    for spec in args.set:
        name, _, fields = spec.partition("=")
        changes = {}
        for item in fields.split(","):
            key, _, value = item.partition(":")
            changes[key] = type(getattr(BASE, key))(value)
        VARIANTS[name] = replace(BASE, **changes)
    named = [spec.split("=")[0] for spec in args.set]
    variants = [*(args.variant or ([] if named else VARIANTS)), *named]
    result = run(args.datasets, args.work, variants, args.no_match)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    for name in variants:
        for group, s in sorted(result[name].items()):
            print(_line(name, group, s))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
