"""Dump what the evidence gate sees, per question, answerable and evidence-withheld.

Usage: ``python bench/gate_features.py DATASET ... --work DIR --out FILE.jsonl``, then
``python bench/gate_features.py --analyse FILE.jsonl``

For every root of every dataset (as ``python -m memory eval`` finds them), every question
with evidence is asked of the root (``kind: answerable``), and every ``WITHHELD_EVERY``-th
one of a copy with those questions' evidence deleted (``kind: withheld``), as the eval
does. One JSON line a question: the query's term weights and document counts, and for the
best keyword and vector candidates their coverage, cosine and rank. Used to study which
signal tells "the memory holds nothing about this" from a weak real hit (see
docs/search.md).

``--hits FILE.jsonl`` instead dumps, per question, the final hits ``MemorySearch.search``
gives (as the eval asks: limit 10, the default minimum score) with their snippets, the
query's term weights, and for answerable questions recall@5 and hit@5: answerable
questions of each root, evidence-withheld ones of its withheld copy (with ``answer_strict``
/ ``answer_loose``: whether a line of the copy still holds all / most of the question's gold
answer's words, ``memory/search/gold_answer.py``), and foreign ones (every
``WITHHELD_EVERY``-th question of the next root of the same dataset). A gate that reads
only the question and its hits (``memory/search/answerable.py``) is fitted and measured on
it exactly (``bench/train_answerable.py``).

``--analyse`` prints, for each signal and for a logistic combination of all of them fitted
on the dev questions only (zh, zh-hard/dev, LoCoMo conv-26/30/41), the threshold that
keeps ``--keep`` of the answerable dev questions of every dev set, and at it, per set, the
share of answerable questions kept and of withheld ones answered with nothing; the
held-out sets (zh-hard/heldout, conv-42/43) are only measured.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory.paths import MemoryRoot
from memory.search.eval import (
    WITHHELD_EVERY,
    Question,
    _day,
    copy_root,
    find_roots,
    line_reader,
    load_questions,
    score_question,
    withhold,
)
from memory.search.gold_answer import Said, content_lines, find_answer, said
from memory.search.keyword_index import index_tokens, query_terms
from memory.search.names import names
from memory.search.ranker import EVIDENCE_DEPTH
from memory.search.ranking import DEFAULT_MIN_SCORE
from memory.search.service import MemorySearch, SearchSettings

TOP = 10
DEV_SETS = ("zh", "dev", "locomo-dev")
HELD_OUT = ("heldout", "locomo-ho")
LOCOMO_DEV = ("conv-26", "conv-30", "conv-41")


def features(service: MemorySearch, question: Question) -> dict[str, Any]:
    state = service._open()
    service._refresh(state)
    query = question.question
    keyword_hits = state.keywords.search(query, 100)
    _, vector_hits = state.vectors.query(query, 100)
    weights, _ = service._term_weights(query, state.keywords)
    terms = query_terms(query)
    counts = state.keywords.doc_counts(terms)
    ids = [h.chunk_id for h in keyword_hits[:TOP]] + [i for i, _ in vector_hits[:TOP]]
    rows = state.store.chunks(set(ids))
    cosine = dict(vector_hits)
    keyword = {h.chunk_id: h.score for h in keyword_hits}
    krank = {h.chunk_id: r for r, h in enumerate(keyword_hits, 1)}
    vrank = {i: r for r, (i, _) in enumerate(vector_hits, 1)}
    cands = []
    for i in dict.fromkeys(ids):
        if i not in rows:
            continue
        toks = set(index_tokens(rows[i].text))
        cands.append(
            {
                "id": i,
                "path": rows[i].path,
                "matched": [t for t in weights if t in toks],
                "cos": cosine.get(i),
                "kw": keyword.get(i),
                "krank": krank.get(i),
                "vrank": vrank.get(i),
                "chars": len(rows[i].text),
            }
        )
    cos_list = [c for _, c in vector_hits]
    return {
        "qid": question.qid,
        "category": question.category,
        "question": query,
        "weights": weights,
        "counts": {t: counts.get(t, 0) for t in terms},
        "total": state.keywords.row_count(),
        "cosines": [round(c, 5) for c in cos_list],
        "evidence_depth": EVIDENCE_DEPTH,
        "candidates": cands,
    }


def _signals(row: dict[str, Any]) -> dict[str, float]:
    """Per question: the best keyword coverage (top 10 keyword hits), the best cosine and its
    margin over the 100th, the best cosine's z-score among the 100, its lead over the 10th,
    the coverage of the best vector hits, whether both sides rank one chunk high, and the
    share of the query's weight some chunk holds. Higher reads as more evidence."""
    weights = row["weights"]
    total = sum(weights.values()) or 1.0
    cosines = np.array(row["cosines"] or [0.0])
    cands = row["candidates"]

    def cov(c: dict[str, Any]) -> float:
        return sum(weights[t] for t in c["matched"]) / total

    agree = [max(c["krank"], c["vrank"]) for c in cands if c["krank"] and c["vrank"]]
    floor = cosines[min(100, len(cosines)) - 1]
    return {
        "coverage": max([cov(c) for c in cands if c["krank"] and c["krank"] <= 10], default=0),
        "cosine": float(cosines[0]),
        "margin": float(cosines[0] - floor),
        "z": float((cosines[0] - cosines.mean()) / (cosines.std() + 1e-9)),
        "lead10": float(cosines[0] - cosines[min(9, len(cosines) - 1)]),
        "vector_coverage": max(
            [cov(c) for c in cands if c["vrank"] and c["vrank"] <= 3], default=0
        ),
        "agreement": 1.0 / min(agree) if agree else 0.0,
        "held": 1.0 - sum(w for t, w in weights.items() if not row["counts"].get(t)) / total,
        **_reading(row, cov),
    }


def _reading(row: dict[str, Any], cov: Callable[[dict[str, Any]], float]) -> dict[str, float]:
    """Signals that read the question against its best hits (round 4): whether the
    question's focus (its heaviest term) and its names are in one of the 5 best candidates
    of either side, the coverage of that candidate, and coverage times rescaled cosine."""
    weights = row["weights"]
    cands = [
        c
        for c in row["candidates"]
        if (c["krank"] and c["krank"] <= 5) or (c["vrank"] and c["vrank"] <= 5)
    ]
    focus = max(weights, key=lambda t: weights[t]) if weights else ""
    named = {t for n in names(row["question"]) for t in query_terms(n)}

    def joint(c: dict[str, Any]) -> float:
        cosine = c["cos"] if c["cos"] is not None else 0.72
        return cov(c) * min(1.0, max(0.0, (cosine - 0.72) / 0.18))

    return {
        "focus": float(any(focus in c["matched"] for c in cands)),
        "names": min([float(any(t in c["matched"] for c in cands)) for t in named], default=1.0),
        "coverage5": max([cov(c) for c in cands], default=0.0),
        "joint": max([joint(c) for c in cands], default=0.0),
    }


def _set_of(row: dict[str, Any]) -> str:
    if row["dataset"] != "locomo-dev":
        return str(row["root"])
    return "locomo-dev" if row["root"] in LOCOMO_DEV else "locomo-ho"


def _logistic(x: np.ndarray, y: np.ndarray, groups: list[str]) -> np.ndarray:
    """Weights of a logistic regression (each set and kind weighing the same), by gradient
    descent on standardised features; returns the scores of ``x``'s rows' model."""
    w = np.ones(len(y))
    for g in set(groups):
        for k in (0.0, 1.0):
            m = (np.array(groups) == g) & (y == k)
            w[m] = 1.0 / max(1, m.sum())
    z = np.c_[x, np.ones(len(x))]
    b = np.zeros(z.shape[1])
    for _ in range(3000):
        p = 1.0 / (1.0 + np.exp(-z @ b))
        b -= 2.0 * (z.T @ ((p - y) * w) / w.sum() + 1e-3 * np.r_[b[:-1], 0.0])
    return b


def analyse(path: Path, keep: float) -> None:
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    names = list(_signals(rows[0]))
    x = np.array([[_signals(r)[n] for n in names] for r in rows])
    sets = [_set_of(r) for r in rows]
    answerable = np.array([r["kind"] == "answerable" for r in rows])
    dev = np.array([s in DEV_SETS for s in sets])
    mu, sd = x[dev].mean(0), x[dev].std(0) + 1e-9
    b = _logistic(
        (x[dev] - mu) / sd, answerable[dev].astype(float), [s for s in sets if s in DEV_SETS]
    )
    scores = {n: x[:, i] for i, n in enumerate(names)}
    scores["logistic(all)"] = np.c_[(x - mu) / sd, np.ones(len(x))] @ b
    order = [*DEV_SETS, *HELD_OUT]
    print(f"keep {keep:.0%} of every dev set's answerable questions; kept / no hit (withheld)")
    print(f"{'signal':16} " + " ".join(f"{s:>15}" for s in order))
    for name, score in scores.items():
        cut = min(
            np.percentile(score[(np.array(sets) == s) & answerable], 100 * (1 - keep))
            for s in DEV_SETS
        )
        cells = []
        for s in order:
            mine = np.array(sets) == s
            kept = (score[mine & answerable] >= cut).mean()
            none = (score[mine & ~answerable] < cut).mean()
            cells.append(f"{kept:.3f} / {none:.3f}")
        print(f"{name:16} " + " ".join(f"{c:>15}" for c in cells))


def hit_rows(
    service: MemorySearch,
    questions: list[Question],
    lines: Callable[[str, int], str] | None,
    day: date | None,
) -> list[dict[str, Any]]:
    """The final hits of each question as the eval asks it, with its term weights; with
    ``lines`` (answerable questions), recall@5 and hit@5 too."""
    out = []
    for q in questions:
        hits = service.search(q.question, limit=10, min_score=DEFAULT_MIN_SCORE, now=day)
        weights, _ = service._term_weights(q.question, service._open().keywords)
        row: dict[str, Any] = {
            "qid": q.qid,
            "category": q.category,
            "question": q.question,
            "weights": weights,
            "hits": [
                {"path": h.path, "lines": [h.start_line, h.end_line], "score": h.score}
                | {"source": h.source, "snippet": h.snippet}
                for h in hits
            ],
        }
        if lines is not None:
            recall = score_question(q, hits, lines, 5)["recall"]
            row.update(recall5=recall, hit5=float(recall > 0))
        out.append(row)
    return out


def answer_in_copy(question: Question, lines: list[Said]) -> dict[str, Any]:
    """Whether a withheld question's gold answer is still said by a line of its copy
    (``memory/search/gold_answer.py``): ``answer_strict`` / ``answer_loose``, both ``None``
    when the answer has no words to test."""
    found = find_answer(question.answer, lines)
    if found is None:
        return {"answer_strict": None, "answer_loose": None}
    return {"answer_strict": found.strict, "answer_loose": found.loose}


def seed(source: Path, target: Path) -> None:
    """A new copy starts from ``source``'s index, so its unchanged chunks' vectors come from
    the embedding cache (the sync then re-chunks only the files that differ)."""
    index = MemoryRoot.at(source).index_dir / "search.sqlite"
    mine = MemoryRoot.at(target).index_dir / "search.sqlite"
    if index.is_file() and not mine.exists() and source != target:
        mine.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(index, mine)


def dump_hits(datasets: list[Path], work: Path, out_path: Path, offsets: list[int]) -> None:
    """``offsets``: which quarters of the questions get withheld copies (0 is the eval's;
    1-3 give more negatives to fit on)."""
    settings = SearchSettings(provider="local")
    with out_path.open("w", encoding="utf-8") as out:
        for dataset in datasets:
            sources = find_roots(dataset)
            asked = {s: [q for q in load_questions(s) if q.evidence] for s in sources}
            for position, source in enumerate(sources):
                day = _day(source, None)
                other = asked[sources[(position + 1) % len(sources)]][::WITHHELD_EVERY]
                base = work / dataset.name
                plan: list[tuple[str, int, Path, list[Question]]] = []
                if 0 in offsets:
                    plan.append(("answerable", 0, base / source.name, asked[source]))
                    if len(sources) > 1:
                        plan.append(("foreign", 0, base / source.name, other))
                for k in offsets:
                    name = f"{source.name}.withheld" + (str(k) if k else "")
                    plan.append(("withheld", k, base / name, asked[source][k::WITHHELD_EVERY]))
                for kind, k, target, questions in plan:
                    seed(base / source.name, target)
                    copy_root(source, target)
                    if kind == "withheld":
                        withhold(target, questions)
                    root = MemoryRoot.at(target)
                    service = MemorySearch(root, settings)
                    try:
                        service.sync()
                        lines = line_reader(root) if kind == "answerable" else None
                        left = said(content_lines(target)) if kind == "withheld" else []
                        rows = hit_rows(service, questions, lines, day)
                        for row, q in zip(rows, questions, strict=True):
                            row.update(dataset=dataset.name, root=source.name, kind=kind, offset=k)
                            if kind == "withheld":
                                row.update(answer_in_copy(q, left))
                            out.write(json.dumps(row, ensure_ascii=False) + "\n")
                    finally:
                        service.close()
                print(f"{dataset.name}/{source.name}: {len(asked[source])} q.", flush=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="gate_features")
    parser.add_argument("datasets", nargs="*", type=Path)
    parser.add_argument("--work", type=Path)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--analyse", type=Path, help="a dump to analyse")
    parser.add_argument("--hits", type=Path, help="dump the final hits of every question here")
    parser.add_argument("--offsets", default="0", help="withheld quarters to dump, e.g. 0,1,2,3")
    parser.add_argument("--keep", type=float, default=0.97)
    args = parser.parse_args(argv)
    if args.analyse:
        analyse(args.analyse, args.keep)
        return 0
    if args.hits and args.datasets and args.work:
        dump_hits(args.datasets, args.work, args.hits, [int(k) for k in args.offsets.split(",")])
        return 0
    if not args.datasets or not args.work or not args.out:
        parser.error("give DATASET ..., --work and --out or --hits (or --analyse FILE)")
    settings = SearchSettings(provider="local")
    with args.out.open("w", encoding="utf-8") as out:
        for dataset in args.datasets:
            for source in find_roots(dataset):
                asked = [q for q in load_questions(source) if q.evidence]
                held = asked[::WITHHELD_EVERY]
                base = args.work / dataset.name
                for kind, target, questions in (
                    ("answerable", base / source.name, asked),
                    ("withheld", base / f"{source.name}.withheld", held),
                ):
                    copy_root(source, target)
                    if kind == "withheld":
                        withhold(target, held)
                    service = MemorySearch(MemoryRoot.at(target), settings)
                    try:
                        service.sync()
                        for q in questions:
                            row = features(service, q)
                            row.update(dataset=dataset.name, root=source.name, kind=kind)
                            out.write(json.dumps(row, ensure_ascii=False) + "\n")
                    finally:
                        service.close()
                print(f"{dataset.name}/{source.name}: {len(asked)} + {len(held)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
