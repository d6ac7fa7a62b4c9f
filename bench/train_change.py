"""Train the dream's last word on a judged pair and write ``memory/dream/judge/changemodel.json``.

Collects the pairs the supersede pass judges on the dev scenarios, labelled from the
scenarios' labels (:mod:`bench.change_pairs`), and the pairs it judges when each row one may
tune on of the probes and of ``change_pairs_written.tsv`` runs as a two-day dream
(:func:`bench.change_pairs.collect_probes`; or reads dumps of them with ``--pairs``), and
fits a logistic regression (full-batch gradient descent, L2; the slot model's fit) over
:func:`memory.dream.judge.changemodel.pair_features`, each scenario's and each probe group's
pairs weighing the same (``--probe-weight`` scales the probe groups). ``--anchor FILE`` pulls
the weights toward a model fitted before instead of toward 0. Prints leave-one-group-out
figures beside the ways found alone (a pair retires when any way found a change), per
threshold, for all pairs and for the scenarios' and the probes' apart, and picks the
threshold that maximises right retirements less ``--cost`` times wrong ones on the
scenarios' pairs left out (a probe is half changes, a dream about one pair in ten).
``--measure FILE`` prints the fitted model's figures on other dumps (held-out: measured,
never trained on).

Usage: ``python bench/train_change.py [--pairs dev.jsonl probes.jsonl] [--anchor old.json]
[--measure heldout.jsonl ...] [--cost 3] [--l2 0.01] [--dry-run]``. Deterministic: the same
pairs give the same file.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.change_pairs import collect, collect_probes
from bench.train_slots import scores
from memory.dream.judge import changemodel

THRESHOLDS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def arrays(rows: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """Features, labels, what the ways found alone, and each pair's scenario (labelled
    pairs with embeddings only: the model decides no other)."""
    kept = [
        r
        for r in rows
        if r["label"] is not None and len(r["features"]) == len(changemodel.FEATURES)
    ]
    x = np.array([r["features"] for r in kept], dtype=np.float64)
    y = np.array([r["label"] for r in kept], dtype=np.float64)
    found = np.array([bool(r["how"]) for r in kept])
    return x, y, found, [r["scenario"] for r in kept]


def fit(
    x: np.ndarray,
    y: np.ndarray,
    weight: np.ndarray,
    steps: int,
    l2: float,
    prior: tuple[np.ndarray, float] | None = None,
    free: np.ndarray | None = None,
) -> tuple[np.ndarray, float]:
    """Logistic regression by full-batch gradient descent; the L2 term pulls the weights to
    ``prior`` (a model fitted before: the new pairs move it where they tell something) or to
    0 without one. With ``free`` (a mask of features), only those weights move: the prior's
    others and its bias stay as they are."""
    centre = prior[0] if prior is not None else np.zeros(x.shape[1])
    weights, bias = centre.copy(), prior[1] if prior is not None else 0.0
    mask = np.ones(x.shape[1]) if free is None else free.astype(np.float64)
    rate = 0.5
    total = weight.sum()
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ weights + bias)))
        err = (p - y) * weight
        weights -= rate * mask * (x.T @ err / total + l2 * (weights - centre))
        if free is None:
            bias -= rate * float(err.sum() / total)
    return weights, bias


def anchor(path: Path) -> tuple[np.ndarray, float]:
    """The weights of a model file in today's :data:`changemodel.FEATURES` order (0 for a
    feature it lacks) and its bias."""
    data = json.loads(path.read_text(encoding="utf-8"))
    known = dict(zip(data["features"], data["weights"], strict=True))
    return np.array([known.get(n, 0.0) for n in changemodel.FEATURES]), float(data["bias"])


def balanced(groups: list[str], y: np.ndarray) -> np.ndarray:
    """Each scenario weighs the same; within one, a change weighs as all its non-changes."""
    out = np.ones(len(y))
    names = np.array(groups)
    for g in set(groups):
        rows = names == g
        pos, neg = (rows & (y == 1)).sum(), (rows & (y == 0)).sum()
        if pos:
            out[rows & (y == 1)] = 0.5 / pos
        if neg:
            out[rows & (y == 0)] = 0.5 / neg if pos else 1.0 / neg
    return out


def line(name: str, said: np.ndarray, y: np.ndarray) -> str:
    right, wrong = int((said & (y == 1)).sum()), int((said & (y == 0)).sum())
    return f"| {name} | {right}/{int(y.sum())} | {wrong}/{int((y == 0).sum())} |"


def table(guess: np.ndarray, y: np.ndarray, found: np.ndarray) -> list[str]:
    out = ["| judged by | changes retired | non-changes retired |", "|---|---|---|"]
    out.append(line("the ways found (before)", found, y))
    out += [line(f"model p >= {t}", guess >= t, y) for t in THRESHOLDS]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--pairs",
        type=Path,
        nargs="*",
        help="dumps of bench/change_pairs.py (default: --split dev and --split probes)",
    )
    parser.add_argument(
        "--probe-weight",
        type=float,
        default=1.0,
        help="a probe group's weight against a dev scenario's",
    )
    parser.add_argument(
        "--anchor", type=Path, help="a model file whose weights the L2 term pulls toward"
    )
    parser.add_argument(
        "--freeze",
        action="store_true",
        help="with --anchor: fit only the features its file lacks, keep the rest and the bias",
    )
    parser.add_argument("--measure", type=Path, nargs="*", default=[])
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--l2", type=float, default=0.01)
    parser.add_argument("--cost", type=float, default=3.0, help="a wrong retirement, in misses")
    parser.add_argument("--dry-run", action="store_true", help="print, write no model")
    args = parser.parse_args(argv)
    rows = [r for path in args.pairs for r in read(path)] if args.pairs else []
    rows = rows or collect("dev") + collect_probes()
    x, y, found, groups = arrays(rows)
    weight = balanced(groups, y)
    probe = np.array([":" in g for g in groups])  # "change_probe:home": a probe's group
    weight[probe] *= args.probe_weight
    print(f"{len(y)} pairs ({int(y.sum())} changes) from {len(set(groups))} scenarios")
    prior = anchor(args.anchor) if args.anchor else None
    free = None
    if args.freeze and args.anchor:
        named = json.loads(args.anchor.read_text(encoding="utf-8"))["features"]
        free = np.array([n not in named for n in changemodel.FEATURES])
    guess = np.zeros(len(y))
    names = np.array(groups)
    for g in sorted(set(groups)):
        test = names == g
        w, b = fit(x[~test], y[~test], weight[~test], args.steps, args.l2, prior, free)
        guess[test] = scores(x[test], w, b)
    print("\nleave one group out (all):\n" + "\n".join(table(guess, y, found)))
    for name, rows_of in (("dev scenarios", ~probe), ("probe groups", probe)):
        if rows_of.any():
            print(
                f"\nof them, the {name}:\n"
                + "\n".join(table(guess[rows_of], y[rows_of], found[rows_of]))
            )
    # counted on the scenarios' pairs alone: a probe holds changes and keeps half and half,
    # a dream about one change in ten, and the threshold is for the dream
    natural = ~probe if (~probe).any() else np.ones(len(y), dtype=bool)
    gain = [
        ((guess >= t) & natural & (y == 1)).sum()
        - args.cost * ((guess >= t) & natural & (y == 0)).sum()
        for t in THRESHOLDS
    ]
    threshold = THRESHOLDS[int(np.argmax(gain))]
    weights, bias = fit(x, y, weight, args.steps, args.l2, prior, free)
    print(f"\nthreshold {threshold} (right - {args.cost:g} x wrong, scenarios' pairs, left out)")
    for path in args.measure:
        mx, my, mfound, _ = arrays(read(path))
        print(
            f"\n{path} (not trained on):\n"
            + "\n".join(table(scores(mx, weights, bias), my, mfound))
        )
    for name, value in zip(changemodel.FEATURES, weights, strict=True):
        print(f"  {name:>22} {value:+.3f}")
    print(f"  {'bias':>22} {bias:+.3f}")
    if not args.dry_run:
        out = {
            "features": list(changemodel.FEATURES),
            "weights": [round(float(v), 6) for v in weights],
            "bias": round(bias, 6),
            "threshold": threshold,
            "pairs": len(y),
        }
        changemodel.MODEL_PATH.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {changemodel.MODEL_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
