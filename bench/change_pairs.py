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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.change_probe import Pair, run_pair
from bench.change_probe import load as load_probe
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
def recording(
    scenario: Scenario | str,
    out: list[dict[str, Any]],
    labelled: Callable[[Cluster, Cluster], int | None] | None = None,
) -> Iterator[None]:
    """Record every pair :meth:`ExtractiveEngine._judge_pair` is asked about, labelled by
    ``labelled`` (by default from ``scenario``'s labels, :func:`label`)."""
    original = ExtractiveEngine._judge_pair
    name = scenario if isinstance(scenario, str) else scenario.name
    if labelled is None:
        assert isinstance(scenario, Scenario)
        labelled = partial(label, scenario)

    def judge(
        self: ExtractiveEngine, newer: Cluster, older: Cluster, cosine: float | None
    ) -> extractive.PairJudgement:
        self.record_pairs = True
        judged = original(self, newer, older, cosine)
        out.append(
            {
                "scenario": name,
                "newer": newer.head.text,
                "older": older.head.text,
                "how": judged.how or "",
                "features": list(judged.features),
                "label": labelled(newer, older),
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


# Pairs the dev scenarios do not hold, each run as a two-day dream (bench/change_probe.py):
# the tuned-on rows of the probes and the hand-written pairs of change_pairs_written.tsv.
JUDGE = Path(__file__).resolve().parent / "data" / "judge"
PROBES = (
    (JUDGE / "change_probe.tsv", "even", None),  # the odd rows are held out
    (JUDGE / "change_probe_more.tsv", "more", "tune"),  # the check part is held out
    (JUDGE / "change_pairs_written.tsv", "written", None),
)


def probe_rows(path: Path, half: str, part: str | None) -> list[Pair]:
    """The rows of a probe file one may train on (:func:`bench.change_probe.load`)."""
    rows = load_probe(path)
    if part is not None:
        rows = [p for i, p in enumerate(rows) if (i // 2) % 2 == (part == "check")]
    return [p for p in rows if p.half == half]


Probe = tuple[Path, str, str | None]  # a probe file, the half and the part one may train on


def collect_probes(probes: tuple[Probe, ...] = PROBES) -> list[dict[str, Any]]:
    """Every pair the supersede pass judges when each probe row runs as a two-day dream, as
    :func:`collect` records them: a change row's one judged pair labelled 1 (unlabelled when
    the dream judged several: which of them is the change is not told), a keep row's 0.
    Grouped by file and category (a group is left out whole)."""
    rows: list[dict[str, Any]] = []
    for path, half, part in probes:
        for pair in probe_rows(path, half, part):
            mine: list[dict[str, Any]] = []
            group = f"{path.stem}:{pair.category}"
            with tempfile.TemporaryDirectory() as tmp, recording(group, mine, lambda n, o: 0):
                run_pair(pair, Path(tmp))
            for row in mine:
                row["label"] = int(pair.label == "change") if len(mine) == 1 else None
                if pair.label == "keep":
                    row["label"] = 0
            rows += mine
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
    parser.add_argument("--split", default="dev", help="scenarios, or 'probes' (PROBES)")
    parser.add_argument("--scenario")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    rows = collect_probes() if args.split == "probes" else collect(args.split, args.scenario)
    if args.out:
        with args.out.open("w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(summary(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
