"""Round 26 (helper-99): the change model's pairs from more than the dev scenarios (the
tuned-on probe rows and hand-written pairs, each run as a two-day dream), a fit pulled to a
model fitted before, and an end told by name or a partner's stage moved on as features of
the pair the model weighs (no rule beside it any more). Examples of this file's own."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bench.change_pairs import PROBES, collect_probes, probe_rows
from bench.change_probe import load
from bench.train_change import anchor, fit
from memory.dream.extractive import Cluster, ExtractiveEngine, Statement, _cosine
from memory.dream.judge import changemodel
from tests.dream.judged_lines import judged as _statement
from tests.dream.judged_lines import plain_pair as _pair

WRITTEN = Path(__file__).resolve().parents[2] / "bench/data/judge/change_pairs_written.tsv"


def test_an_end_told_and_a_stage_moved_are_features_of_the_pair() -> None:
    at = changemodel.FEATURES.index
    plain = changemodel.pair_features(_pair())
    ended = changemodel.pair_features(_pair(end_told=True))
    moved = changemodel.pair_features(_pair(stage_moved=True))
    assert plain[at("end_told")] == plain[at("stage_moved")] == 0.0
    assert ended[at("end_told")] == 1.0 and ended[at("stage_moved")] == 0.0
    assert moved[at("stage_moved")] == 1.0
    fitted = changemodel.model()
    assert fitted is not None  # the shipped file names them


@pytest.mark.parametrize(
    ("older", "newer", "feature"),
    [
        ("The user is dating Noor", "The user: Noor and I broke up", "end_told"),
        ("用户在和小周谈恋爱", "用户：和小周分手了", "end_told"),
        ("The user is engaged to Pavel", "The user got married last month", "stage_moved"),
    ],
)
def test_the_engine_tells_the_model_of_an_end_or_a_stage(
    older: str, newer: str, feature: str
) -> None:
    engine = ExtractiveEngine()
    engine.record_pairs = True  # every pair's features, as bench/change_pairs.py records them
    old, new = Cluster(), Cluster()
    old.add(_statement(older, 3, 4))
    new.add(_statement(newer, 9, 2))
    judged = engine._judge_pair(new, old, None)
    assert judged.features[changemodel.FEATURES.index(feature)] == 1.0


def test_someone_else_s_breakup_is_no_end_told() -> None:
    engine = ExtractiveEngine()
    engine.record_pairs = True
    old, new = Cluster(), Cluster()
    old.add(_statement("The user is dating Noor", 3, 4))
    new.add(_statement("The user: my sister broke up with her boyfriend", 9, 2))
    judged = engine._judge_pair(new, old, None)
    assert not judged.features or judged.features[changemodel.FEATURES.index("end_told")] == 0


def test_the_written_pairs_are_changes_and_look_alike_keeps() -> None:
    rows = load(WRITTEN)
    assert len(rows) >= 150
    assert {r.half for r in rows} == {"written"}
    assert {r.label for r in rows} == {"change", "keep"}
    assert {r.lang for r in rows} == {"en", "zh", "mixed"}
    changes = sum(r.label == "change" for r in rows)
    assert 0.4 < changes / len(rows) < 0.6
    # only the rows one may tune on: the probe's even rows, the more probe's tune part
    for path, half, part in PROBES:
        mine = probe_rows(path, half, part)
        assert mine and all(r.half == half for r in mine)
    odd = [r for r in load(PROBES[0][0]) if r.half == "odd"]
    assert not set(odd) & set(probe_rows(*PROBES[0]))


def test_a_probe_row_becomes_a_labelled_pair_of_its_group(tmp_path: Path) -> None:
    data = tmp_path / "mine.tsv"
    data.write_text(
        "label\tlang\tcategory\told\tnew\thalf\n"
        "change\ten\thome\tThe user lives in Derby\t"
        "User: we moved to Lincoln last month, settling in\tmine\n"
        "keep\ten\thome\tThe user lives in Derby\t"
        "User: my aunt moved to Lincoln last month\tmine\n",
        "utf-8",
    )
    rows = collect_probes(((data, "mine", None),))
    assert rows and {r["scenario"] for r in rows} == {"mine:home"}
    changed = [r for r in rows if "aunt" not in r["newer"]]
    assert [r["label"] for r in changed] == [1]
    assert all(r["label"] == 0 for r in rows if "aunt" in r["newer"])
    assert all(len(r["features"]) == len(changemodel.FEATURES) for r in rows if r["features"])


def test_a_fit_pulled_to_a_prior_model_stays_near_it(tmp_path: Path) -> None:
    shipped = tmp_path / "prior.json"
    names = list(changemodel.FEATURES[:-1])  # an older file, without the last feature
    shipped.write_text(
        json.dumps({"features": names, "weights": [0.5] * len(names), "bias": -1.0}), "utf-8"
    )
    weights, bias = anchor(shipped)
    assert len(weights) == len(changemodel.FEATURES) and weights[-1] == 0.0 and bias == -1.0
    rng = np.random.default_rng(0)
    x = rng.random((40, len(weights)))
    y = (rng.random(40) < 0.5).astype(float)
    w8 = np.ones(40)
    near, _ = fit(x, y, w8, 300, 1.0, (weights, bias))
    free, _ = fit(x, y, w8, 300, 1.0)
    assert np.abs(near - weights).max() < np.abs(free - weights).max()
    assert np.abs(near - weights).max() < 0.2


def _embedded(*statements: Statement) -> None:
    from memory.search.embeddings.local import LocalProvider

    vectors = LocalProvider().embed_passages([s.text for s in statements])
    for st, vector in zip(statements, np.asarray(vectors, dtype=np.float32), strict=True):
        st.vector = vector


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("The user is dating Noor", "The user: Noor and I broke up in April"),
        ("The user has a parrot called Rico", "The user: Rico died in March"),
    ],
)
def test_the_model_alone_retires_an_end_told_by_name(older: str, newer: str) -> None:
    fitted = changemodel.model()
    assert fitted is not None
    assert fitted.weights[changemodel.FEATURES.index("end_told")] > 0.5
    engine = ExtractiveEngine()
    old, new = _statement(older, 3, 4), _statement(newer, 9, 2)
    _embedded(old, new)
    judged = engine._judge_statements(new, old, _cosine(new, old))
    assert judged.how == "rules" and judged.retires
    assert fitted.probability(judged.features) >= fitted.threshold  # no rule beside it
