"""Fit and measure the question–line reader (``memory/search/reader.py``) on dumped hits.

Usage: ``python bench/train_reader.py HITS.jsonl ... [--absent PRESENT.jsonl] [--write]``

The dumps come from ``python bench/gate_features.py DATASET ... --work DIR --hits FILE``
(every question's final hits as the eval asks it: answerable, evidence-withheld, foreign).
Line pairs are built from the dev questions only (bench/data/zh, zh-hard/dev, LoCoMo
conv-26/30/41): a line of the first ``HITS_READ`` hits of an answerable question is a
positive when it is one of the question's evidence lines (read from the dataset's own
files), a negative otherwise; every such line of a withheld or foreign question is a
negative (``--fit-absent``: only withheld questions whose gold answer is gone, as
``bench/answer_present.py --out`` finds it and ``--absent`` gives it). Each set and label
weighs the same; dev rows are read out of fold (by a reader fitted without their root). A
question passes when its best line's chance is at least the threshold; printed per threshold
and set, dev and held-out (zh-hard/heldout, conv-42/43, only measured) apart, as
``bench/train_answerable.py`` prints them: recall@5 / hit@5 / withheld no-match at the
eval's quarter (all quarters) / foreign no-match, and no-match among answer-absent and
answer-present withheld questions. ``--write`` saves the model to
``memory/search/reader.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.gate_features import _logistic
from bench.train_answerable import DEV, HELD_OUT, hits_of, key, set_of
from memory.paths import MemoryRoot
from memory.search.answerable import language_of
from memory.search.eval import find_roots, line_reader, load_questions
from memory.search.reader import (
    HITS_READ,
    MODEL_PATH,
    Question,
    ReaderModel,
    hit_lines,
    line_features,
    split_line,
)

ROOT = Path(__file__).resolve().parents[1]
SOURCES = {
    "locomo-dev": Path("/work/shared/datasets/locomo-dev"),
    "zh": ROOT / "bench/data/zh",
    "zh-hard": ROOT / "bench/data/zh-hard",
}
THRESHOLDS = (0.01, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)


def evidence_texts(datasets: set[str]) -> dict[tuple[str, str], set[str]]:
    """``(root name, qid) -> the texts of the question's evidence lines``."""
    out: dict[tuple[str, str], set[str]] = {}
    for name in datasets:
        for source in find_roots(SOURCES[name]):
            text = line_reader(MemoryRoot.at(source))
            for q in load_questions(source):
                out[(source.name, q.qid)] = {text(f, n) for f, n in q.evidence} - {""}
    return out


def presence(path: Path | None) -> dict[tuple[str, int], bool | None]:
    """``(qid, offset) -> whether the withheld copy still holds the gold answer`` (loosely;
    ``None``: no answer to test)."""
    if path is None:
        return {}
    found = {}
    for line in path.read_text("utf-8").splitlines():
        r = json.loads(line)
        found[(r["qid"], r["offset"])] = None if not r["tested"] else bool(r["loose"])
    return found


def pairs(
    rows: list[dict[str, Any]],
    evidence: dict[tuple[str, str], set[str]],
    depth: int,
    vectors: tuple[dict[str, np.ndarray], dict[str, np.ndarray]] | None = None,
    products: bool = False,
) -> tuple[list[dict[str, float]], list[float], list[int]]:
    """Every line of every row's first ``depth`` hits: its features, its label (1.0: an
    evidence line of an answerable question) and its row's index. With ``vectors`` (the
    questions' and the lines' e5 vectors, for measuring only) the line's own cosine with
    the question, and with ``products`` the 384 products ``q * l`` too."""
    feats, labels, owner = [], [], []
    for i, r in enumerate(rows):
        question = Question.read(r["question"], r["weights"])
        gold = evidence.get((r["root"], r["qid"]), set()) if r["kind"] == "answerable" else set()
        for rank, line in hit_lines(hits_of(r), depth):
            f = line_features(question, line, rank)
            if vectors is not None:
                q = vectors[0][r["question"]]
                v = vectors[1][split_line(line)[1] or line.strip()]
                f["line_cosine"] = float(q @ v)
                if products:
                    f.update({f"ql{k}": float(x) for k, x in enumerate(q * v)})
            feats.append(f)
            labels.append(float(any(g and g in line for g in gold)))
            owner.append(i)
    return feats, labels, owner


def fit(
    x: np.ndarray, y: np.ndarray, groups: list[str], use: np.ndarray, names: list[str]
) -> ReaderModel:
    mean, scale = x[use].mean(0), x[use].std(0) + 1e-6
    chosen = [g for g, u in zip(groups, use, strict=True) if u]
    b = _logistic((x[use] - mean) / scale, y[use], chosen)
    return ReaderModel(
        tuple(names),
        tuple(round(float(v), 6) for v in mean),
        tuple(round(float(v), 6) for v in scale),
        tuple(round(float(v), 6) for v in b[:-1]),
        round(float(b[-1]), 6),
    )


def curve_line(
    rows: list[dict[str, Any]],
    passed: np.ndarray,
    label: str,
    found: dict[tuple[str, int], bool | None],
    shown: tuple[str, ...],
) -> None:
    sets = np.array([set_of(r) for r in rows])
    kind = np.array([r["kind"] for r in rows])
    offset = np.array([r.get("offset", 0) for r in rows])
    recall = np.array([r.get("recall5", 0.0) for r in rows])
    hit = np.array([r.get("hit5", 0.0) for r in rows])
    state = [found.get((r["qid"], r.get("offset", 0))) for r in rows]
    absent = np.array([s is False for s in state])
    present = np.array([s is True for s in state])
    cells = []
    for s in shown:
        a = (sets == s) & (kind == "answerable")
        w, f = (sets == s) & (kind == "withheld"), (sets == s) & (kind == "foreign")
        q = w & (offset == 0)
        cell = f"{(recall[a] * passed[a]).mean():.4f} / {(hit[a] * passed[a]).mean():.3f} / "
        cell += f"{(~passed[q]).mean():.2f} ({(~passed[w]).mean():.2f}) / "
        cell += f"{(~passed[f]).mean():.2f}" if f.any() else "—"
        if found:
            ab, pr = w & absent, w & present
            cell += f" / ab {(~passed[ab & (offset == 0)]).mean():.2f} ({(~passed[ab]).mean():.2f})"
            cell += f" pr {(~passed[pr]).mean():.2f}" if pr.any() else ""
        cells.append(cell)
    print(f"| {label} | " + " | ".join(cells) + " |")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="train_reader")
    parser.add_argument("dumps", nargs="+", type=Path)
    parser.add_argument("--absent", type=Path, help="answer_present.py rows (all quarters)")
    parser.add_argument("--fit-absent", action="store_true", help="negatives: answer-absent only")
    parser.add_argument("--depth", type=int, default=HITS_READ, help="hits whose lines are read")
    parser.add_argument("--drop", default="", help="features left out, comma-separated")
    parser.add_argument("--vectors", type=Path, help="questions' e5 vectors (.npz, measuring)")
    parser.add_argument("--line-vectors", type=Path, help="lines' e5 vectors (.npz, measuring)")
    parser.add_argument("--products", action="store_true", help="with vectors: q * l too")
    parser.add_argument("--at", type=float, help="print this threshold only")
    parser.add_argument("--scores", type=Path, help="write each row's best line here (.json)")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--dev-only", action="store_true", help="print the dev sets only")
    args = parser.parse_args(argv)
    rows = [json.loads(line) for p in args.dumps for line in p.read_text("utf-8").splitlines()]
    found = presence(args.absent)
    evidence = evidence_texts({r["dataset"] for r in rows})
    vectors = None
    if args.vectors and args.line_vectors:
        vectors = (
            dict(np.load(args.vectors, allow_pickle=True)["d"].item()),
            dict(np.load(args.line_vectors, allow_pickle=True)["d"].item()),
        )
    feats, labels, owner = pairs(rows, evidence, args.depth, vectors, args.products)
    names = [n for n in feats[0] if n not in set(args.drop.split(","))]
    x = np.array([[f[n] for n in names] for f in feats])
    y = np.array(labels)
    own = np.array(owner)
    row_set = [set_of(r) for r in rows]
    row_kind = [r["kind"] for r in rows]
    dev_row = np.array([s in DEV for s in row_set])
    use_row = dev_row.copy()
    if args.fit_absent:
        use_row &= np.array(
            [
                k != "withheld" or found.get((r["qid"], r.get("offset", 0))) is False
                for k, r in zip(row_kind, rows, strict=True)
            ]
        )
    language = np.array([language_of(r["question"]) for r in rows])
    groups = [f"{row_set[i]}/{row_kind[i]}/{int(y[n])}" for n, i in enumerate(own)]
    models = {}
    probability = np.zeros(len(y))
    for lang in ("en", "zh"):
        mine = language[own] == lang
        models[lang] = fit(x, y, groups, use_row[own] & mine, names)
        m = models[lang]
        z = m.bias + ((x[mine] - np.array(m.mean)) / np.array(m.scale)) @ np.array(m.weights)
        probability[mine] = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
        print(f"{lang}:", ", ".join(f"{n} {w:+.2f}" for n, w in zip(names, m.weights, strict=True)))
        dev_lines = use_row[own] & mine
        pos, neg = probability[dev_lines & (y == 1)], probability[dev_lines & (y == 0)]
        auc = (pos[:, None] > neg[None, :]).mean() if len(pos) and len(neg) else float("nan")
        print(f"{lang}: {int(dev_lines.sum())} dev lines, {len(pos)} evidence; line AUC {auc:.3f}")
    # out of fold for the dev rows (a reader fitted without the row's own root), so the
    # dev curve and a model fitted on the dev questions over this signal see it as on new
    # data; held-out rows are read by the reader fitted on every dev root
    folded = probability.copy()
    row_root = np.array([f"{r['dataset']}/{r['root']}" for r in rows])
    for root in sorted(set(row_root[dev_row])):
        lines = row_root[own] == root
        lang = language[int(np.flatnonzero(row_root == root)[0])]
        mine = language[own] == lang
        m = fit(x, y, groups, use_row[own] & mine & ~lines, names)
        z = m.bias + ((x[lines] - np.array(m.mean)) / np.array(m.scale)) @ np.array(m.weights)
        folded[lines] = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
    for lang in ("en", "zh"):
        dev_lines = use_row[own] & (language[own] == lang)
        pos, neg = folded[dev_lines & (y == 1)], folded[dev_lines & (y == 0)]
        print(f"{lang}: line AUC out of fold {(pos[:, None] > neg[None, :]).mean():.3f}")
    best = np.zeros(len(rows))
    np.maximum.at(best, own, folded)
    if args.scores:
        keyed = {key(r): float(v) for r, v in zip(rows, best, strict=True)}
        args.scores.write_text(json.dumps(keyed) + "\n", encoding="utf-8")
        print(f"wrote {args.scores} (dev rows out of fold)")
    has = np.array([bool(r["hits"]) for r in rows])
    shown = DEV if args.dev_only else (*DEV, *HELD_OUT)
    print("| reader (dev out of fold), best line ≥ | " + " | ".join(shown) + " |")
    print("|---" * (1 + len(shown)) + "|")
    curve_line(rows, has, "no gate", found, shown)
    thresholds = [args.at] if args.at is not None else THRESHOLDS
    for t in thresholds:
        curve_line(rows, has & (best >= t), f"{t}", found, shown)
    if args.write:
        data = {lang: m.to_dict() for lang, m in models.items()}
        MODEL_PATH.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {MODEL_PATH}")
    np.save(Path(args.dumps[0]).with_suffix(".best.npy"), best)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
