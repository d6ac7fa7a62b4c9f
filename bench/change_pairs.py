"""Every pair the dream's supersede pass judges, labelled from the scenarios' labels.

Runs the extractive dream on the scenarios of a split (as ``bench/dream_quality.py`` does)
and records, for each (newer, older) pair of one subject the supersede pass asks "a new
value for the older's slot?", what the engine found (``rules``, ``learned``, ``named`` or
nothing), the pair's features (:func:`memory.dream.judge.changemodel.pair_features`) and a
label from the note lines both cite: 1 when the older cites a labelled old value of a fact
the newer states with another value, 0 when both cite labelled lines and that is not so,
None when either cites no labelled line. The dreams run without the shipped
``changemodel.json`` (the ways found decide, as the model's training data was collected).

Usage: ``python bench/change_pairs.py [--split dev] [--out pairs.jsonl]``; prints, per way
of finding a change, how many judged pairs were right.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.dream_quality import run_scenario
from bench.dream_scenarios import Scenario, load
from memory.dream import extractive
from memory.dream.extractive import Cluster, ExtractiveEngine
from memory.dream.judge import changemodel
from memory.provenance import SourceRef


def _lines(refs: tuple[SourceRef, ...]) -> list[str]:
    return [f"{r.path}#L{n}" for r in refs for n in range(r.start, r.end + 1)]


def label(scenario: Scenario, newer: Cluster, older: Cluster) -> int | None:
    """1 when ``older`` holds an old value of a fact ``newer`` gives another value of."""
    new_labels = [lab for ref in _lines(newer.head.refs) for lab in scenario.labels.get(ref, [])]
    old_labels = [lab for ref in _lines(older.head.refs) for lab in scenario.labels.get(ref, [])]
    if not new_labels or not old_labels:
        return None
    new_ids = {ident for kind, ident in new_labels if kind != "chatter" and ident}
    for kind, ident in old_labels:
        if kind != "old" or ident not in new_ids:
            continue
        fact = scenario.facts[ident]
        matched = [k for k in fact.olds if k.match(older.head.text)]
        if not matched or not any(k.match(newer.head.text) for k in matched):
            return 1
    return 0


@contextmanager
def recording(scenario: Scenario, out: list[dict[str, Any]]) -> Iterator[None]:
    """Record every pair :meth:`ExtractiveEngine._judge_pair` is asked about."""
    original = ExtractiveEngine._judge_pair

    def judge(
        self: ExtractiveEngine, newer: Cluster, older: Cluster, cosine: float | None
    ) -> extractive.PairJudgement:
        self.record_pairs = True
        judged = original(self, newer, older, cosine)
        out.append(
            {
                "scenario": scenario.name,
                "newer": newer.head.text,
                "older": older.head.text,
                "how": judged.how or "",
                "features": list(judged.features),
                "label": label(scenario, newer, older),
            }
        )
        return judged

    shipped = changemodel.model
    ExtractiveEngine._judge_pair = judge  # type: ignore[method-assign]
    changemodel.model = lambda: None  # type: ignore[assignment]  # the ways found decide
    try:
        yield
    finally:
        ExtractiveEngine._judge_pair = original  # type: ignore[method-assign]
        changemodel.model = shipped  # type: ignore[assignment]


def collect(split: str, only: str | None = None) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for scenario in load(split):
            if only and scenario.name != only:
                continue
            with recording(scenario, rows):
                run_scenario(scenario, Path(tmp))
    # one row per distinct pair and scenario (a nightly run asks again every night)
    seen: dict[tuple[str, str, str], dict[str, Any]] = {}
    for row in rows:
        seen[(row["scenario"], row["newer"], row["older"])] = row
    return list(seen.values())


def summary(rows: list[dict[str, Any]]) -> str:
    counts: Counter[tuple[str, int | None]] = Counter((r["how"], r["label"]) for r in rows)
    out = ["| found by | pairs | a change (1) | not (0) | unlabelled |", "|---|---|---|---|---|"]
    for how in ("rules", "loose", "learned", "named", ""):
        row = [counts[(how, lab)] for lab in (1, 0, None)]
        out.append(f"| {how or 'nothing'} | {sum(row)} | {row[0]} | {row[1]} | {row[2]} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", default="dev")
    parser.add_argument("--scenario")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    rows = collect(args.split, args.scenario)
    if args.out:
        with args.out.open("w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(summary(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
