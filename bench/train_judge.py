"""Train the dream's statement classifier and write ``memory/dream/judge/classifier.json``.

Reads ``bench/data/judge/sentences.tsv`` (``KIND<TAB>text`` a line, hand-written, none
taken from the evaluation scenarios), adds each sentence again under other speaker
prefixes (``用户: ``, ``User: ``, a group member's name, ``用户说：``) so the prefix never
decides, and fits a multinomial logistic regression (AdaGrad, L2) over
``memory.dream.judge.features``. Prints 5-fold cross-validated accuracy and the chatter
vs durable error rates before fitting on everything.

Usage: ``python bench/train_judge.py [--epochs 30] [--l2 1e-4] [--min-count 2]``.
Deterministic: the same data gives the same file.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory.dream.judge.classifier import KINDS, MODEL_PATH
from memory.dream.judge.features import features

DATA = Path(__file__).resolve().parent / "data" / "judge" / "sentences.tsv"
NAMES_ZH = ["张磊", "小雪", "老王", "陈思"]
NAMES_EN = ["Omar", "Julia", "Ben", "Keiko"]


def read(path: Path) -> list[tuple[str, str]]:
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        kind, _, text = line.partition("\t")
        if kind not in KINDS or not text.strip():
            raise SystemExit(f"{path}:{number}: bad line {line!r}")
        out.append((kind, text.strip()))
    return out


def augment(rows: list[tuple[str, str]], rng: random.Random) -> list[tuple[str, str]]:
    out = []
    for kind, text in rows:
        out.append((kind, text))
        zh = any("\u4e00" <= ch <= "\u9fff" for ch in text)
        first = text.startswith(("我", "I ", "I'm", "I've", "I'd", "I'll", "My ", "my "))
        third = text.startswith(("用户", "The user", "the user"))
        if ":" in text[:12] or "：" in text[:12]:
            continue
        if first or kind == "chatter" or not third:
            prefixes = (
                ["用户: ", "用户说：", rng.choice(NAMES_ZH) + ": "]
                if zh
                else [
                    "User: ",
                    rng.choice(NAMES_EN) + ": ",
                ]
            )
            out += [(kind, p + text) for p in prefixes]
    return out


def encode(rows: list[tuple[str, str]], vocab: dict[str, int]) -> list[tuple[int, list[int]]]:
    out = []
    for kind, text in rows:
        ids = [vocab[f] for f in features(text) if f in vocab]
        out.append((KINDS.index(kind), ids))
    return out


def fit(
    data: list[tuple[int, list[int]]], size: int, epochs: int, l2: float, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    k = len(KINDS)
    weights = np.zeros((size, k))
    bias = np.zeros(k)
    g_w = np.full((size, k), 1e-8)
    g_b = np.full(k, 1e-8)
    rate = 0.5
    rng = random.Random(seed)
    order = list(range(len(data)))
    for _ in range(epochs):
        rng.shuffle(order)
        for i in order:
            label, ids = data[i]
            logits = weights[ids].sum(axis=0) + bias
            logits -= logits.max()
            probs = np.exp(logits)
            probs /= probs.sum()
            probs[label] -= 1.0  # the gradient of the log loss
            counts = Counter(ids)
            for fid, c in counts.items():
                grad = c * probs + l2 * weights[fid]
                g_w[fid] += grad * grad
                weights[fid] -= rate * grad / np.sqrt(g_w[fid])
            g_b += probs * probs
            bias -= rate * probs / np.sqrt(g_b)
    return weights, bias


def predict(weights: np.ndarray, bias: np.ndarray, ids: list[int]) -> int:
    return int(np.argmax(weights[ids].sum(axis=0) + bias))


def build_vocab(rows: list[tuple[str, str]], min_count: int) -> dict[str, int]:
    counts = Counter(f for _, text in rows for f in set(features(text)))
    names = sorted(f for f, c in counts.items() if c >= min_count)
    return {n: i for i, n in enumerate(names)}


def fit_dense(
    x: np.ndarray, y: np.ndarray, l2: float, epochs: int
) -> tuple[np.ndarray, np.ndarray]:
    """Full-batch gradient descent on the log loss over embeddings (scaled by 10)."""
    weights = np.zeros((x.shape[1], len(KINDS)))
    bias = np.zeros(len(KINDS))
    for _ in range(epochs):
        logits = x @ weights + bias
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)
        probs[np.arange(len(y)), y] -= 1.0
        weights -= 2.0 * (x.T @ probs / len(y) + l2 * weights)
        bias -= 2.0 * probs.mean(axis=0)
    return weights, bias


class Embeddings:
    """Embeddings of the training texts, each computed once."""

    def __init__(self) -> None:
        from memory.search.embeddings.local import LocalProvider

        self.provider = LocalProvider()
        self.cache: dict[str, np.ndarray] = {}

    def __call__(self, texts: list[str]) -> np.ndarray:
        todo = sorted({t for t in texts if t not in self.cache})
        for start in range(0, len(todo), 64):
            batch = todo[start : start + 64]
            for text, row in zip(batch, self.provider.embed_passages(batch), strict=True):
                self.cache[text] = row
        return np.vstack([self.cache[t] for t in texts])


DENSE_SCALE = 10.0  # embeddings are unit vectors: scaled up, the weights stay small


def cross_validate(rows: list[tuple[str, str]], args: argparse.Namespace) -> None:
    rng = random.Random(1)
    order = list(range(len(rows)))
    rng.shuffle(order)
    folds = 5
    tally = {"ngram": [0, 0, 0, 0, 0, 0], "embedding": [0, 0, 0, 0, 0, 0]}
    for fold in range(folds):
        test = [rows[i] for n, i in enumerate(order) if n % folds == fold]
        train = augment([rows[i] for n, i in enumerate(order) if n % folds != fold], rng)
        vocab = build_vocab(train, args.min_count)
        weights, bias = fit(encode(train, vocab), len(vocab), args.epochs, args.l2, fold)
        guesses = {"ngram": [predict(weights, bias, ids) for _, ids in encode(test, vocab)]}
        if args.embed is not None:
            x = args.embed([t for _, t in train]) * DENSE_SCALE
            y = np.array([KINDS.index(k) for k, _ in train])
            dw, db = fit_dense(x, y, args.dense_l2, args.dense_epochs)
            xt = args.embed([t for _, t in test]) * DENSE_SCALE
            guesses["embedding"] = [int(g) for g in np.argmax(xt @ dw + db, axis=1)]
        for name, got in guesses.items():
            t = tally[name]
            for (kind, _), guess in zip(test, got, strict=True):
                label = KINDS.index(kind)
                t[0] += guess == label
                t[1] += 1
                t[2] += label == 0 and guess != 0
                t[3] += label == 0
                t[4] += label != 0 and guess == 0
                t[5] += label != 0
    for name, t in tally.items():
        if t[1]:
            print(
                f"5-fold CV, {name}: accuracy {t[0] / t[1]:.3f}; chatter judged durable "
                f"{t[2]}/{t[3]}; durable judged chatter {t[4]}/{t[5]}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--min-count", type=int, default=2)
    parser.add_argument("--dense-l2", type=float, default=1e-3)
    parser.add_argument("--dense-epochs", type=int, default=300)
    parser.add_argument("--no-cv", action="store_true")
    parser.add_argument("--no-embeddings", action="store_true")
    args = parser.parse_args()
    args.embed = None if args.no_embeddings else Embeddings()
    rows = read(DATA)
    print(
        f"{len(rows)} sentences: "
        + ", ".join(f"{k} {n}" for k, n in Counter(k for k, _ in rows).most_common())
    )
    if not args.no_cv:
        cross_validate(rows, args)
    train = augment(rows, random.Random(0))
    vocab = build_vocab(train, args.min_count)
    weights, bias = fit(encode(train, vocab), len(vocab), args.epochs, args.l2, 0)
    # Drop features whose weights all round to zero; keep the file small.
    scale = 1000
    rounded = np.rint(weights * scale).astype(int)
    keep = [i for i in range(len(vocab)) if np.abs(rounded[i]).max() > 0]
    names = sorted(vocab, key=vocab.__getitem__)
    model: dict[str, object] = {
        "classes": list(KINDS),
        "ngram": {
            "scale": scale,
            "bias": [round(float(b), 4) for b in bias],
            "features": [names[i] for i in keep],
            "weights": [rounded[i].tolist() for i in keep],
        },
    }
    if args.embed is not None:
        x = args.embed([t for _, t in train]) * DENSE_SCALE
        y = np.array([KINDS.index(k) for k, _ in train])
        dw, db = fit_dense(x, y, args.dense_l2, args.dense_epochs)
        model["embedding"] = {
            "key": args.embed.provider.key,
            "scale": scale / DENSE_SCALE,
            "bias": [round(float(b), 4) for b in db],
            "weights": np.rint(dw * scale).astype(int).tolist(),
        }
    MODEL_PATH.write_text(json.dumps(model, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"wrote {MODEL_PATH} ({len(keep)} features, {MODEL_PATH.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
