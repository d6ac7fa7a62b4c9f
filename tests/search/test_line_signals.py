"""Line-level signals of the answerability gate: which lines are read and embedded, and the
signals' arithmetic over given line cosines (docs/search.md, "Round 17")."""

from __future__ import annotations

import numpy as np
import pytest

from memory.search.keyword_index import query_terms
from memory.search.line_signals import FEATURES, embedded_text, hit_line_texts, line_signals
from memory.search.ranker import Hit


def hit(snippet: str) -> Hit:
    return Hit("memory/2026-06-01.md", 1, 1, 0.5, snippet, "hybrid")


def test_a_line_is_embedded_with_its_speaker_and_without_bullet_tag_and_time() -> None:
    assert embedded_text("- [D1:3] 14:02 Caroline: I painted a lake.") == (
        "Caroline: I painted a lake."
    )
    assert embedded_text("- 用户下周三要去上海出差") == "用户下周三要去上海出差"


def test_the_lines_of_the_first_hits_are_read_and_the_question_itself_is_not() -> None:
    hits = [
        hit("- 14:02 Lena: where do I live?\n- 14:03 Lena: I moved to Porto"),
        hit("- Lena likes tea\n\n- Lena runs"),
        hit("- not read at depth 2"),
    ]
    assert hit_line_texts("where do I live?", hits, depth=2) == [
        (0, "Lena: I moved to Porto"),
        (1, "Lena likes tea"),
        (1, "Lena runs"),
    ]


def test_the_signals_read_the_best_line_against_the_others_and_its_chunk() -> None:
    question = "What did Caroline paint?"
    weights = {t: 1.0 for t in query_terms(question)}
    lines = [(0, "Caroline: I went to a class"), (0, "Caroline: I painted a lake"), (1, "Mel: wow")]
    seen = line_signals(question, weights, lines, [0.80, 0.90, 0.70], [0.85, 0.75])
    assert set(seen) == set(FEATURES)
    assert seen["line_best"] == pytest.approx(0.90)
    assert seen["line_best1"] == pytest.approx(0.90)
    assert seen["line_gap"] == pytest.approx(0.10)
    assert seen["line_spread"] == pytest.approx(0.10)  # over the median 0.80
    assert seen["line_margin"] == pytest.approx(0.05)  # over the best chunk, 0.85
    # the best line holds "caroline" and "paint" (stemmed from "painted"), the slot "paint"
    assert seen["line_slot"] == pytest.approx(1.0)
    assert seen["line_cover"] == pytest.approx(seen["line_cover_max"])
    assert 0.0 < seen["line_cover"] <= 1.0


def test_a_best_line_in_a_later_hit_leaves_the_first_hits_best_lower() -> None:
    weights = {"tea": 1.0}
    lines = [(0, "chatter"), (1, "tea every morning")]
    seen = line_signals("tea?", weights, lines, [0.70, 0.88], [0.8, 0.8])
    assert seen["line_best"] == pytest.approx(0.88)
    assert seen["line_best1"] == pytest.approx(0.70)
    assert seen["line_cover"] == pytest.approx(1.0)


def test_no_lines_reads_nothing_but_the_chunks_margin() -> None:
    seen = line_signals("tea?", {"tea": 1.0}, [], [], [0.8])
    assert seen == {name: 0.0 for name in FEATURES} | {"line_margin": pytest.approx(-0.8)}


def test_the_bench_reads_the_best_line_against_every_line_of_the_memory() -> None:
    from bench.line_gate import bulk_signals

    everything = np.array([0.70, 0.72, 0.74, 0.76, 0.90])
    seen = bulk_signals(0.76, everything)
    assert seen["line_bulk_z"] == pytest.approx((0.76 - 0.764) / (everything.std() + 1e-6))
    assert seen["line_over20"] == pytest.approx(0.76 - 0.70)  # fewer than 20: the last
    assert seen["line_above"] == pytest.approx(0.2)  # one line of five reads above it
    assert seen["line_top_z"] == pytest.approx((0.90 - 0.764) / (everything.std() + 1e-6))


def test_the_bench_reads_each_dev_conversation_by_a_model_fitted_without_it() -> None:
    """Two dev conversations where the signal means opposite things: read out of fold, each
    is scored by the other's model, so its answerable rows read *lower* than its withheld
    ones; a model that saw the conversation itself would rank them right."""
    from bench.line_gate import out_of_fold

    rows, x = [], []
    for root, sign in (("conv-26", 1.0), ("conv-30", -1.0)):
        for k in range(40):
            answerable = k % 2 == 0
            rows.append(
                {
                    "dataset": "locomo-dev",
                    "root": root,
                    "qid": f"{root}#{k}",
                    "question": "what did she paint?",
                    "kind": "answerable" if answerable else "withheld",
                    "hit5": 1.0 if answerable else 0.0,
                    "hits": [{}],
                }
            )
            x.append([sign * (1.0 if answerable else -1.0) + 0.01 * k])
    p = out_of_fold(np.array(x), rows)
    for root in ("conv-26", "conv-30"):
        mine = [i for i, r in enumerate(rows) if r["root"] == root]
        yes = [p[i] for i in mine if rows[i]["kind"] == "answerable"]
        no = [p[i] for i in mine if rows[i]["kind"] == "withheld"]
        assert max(yes) < min(no)
