"""Issue 10 (h117): the classifier's training reads a line as the dream reads it, plain.

The dream judges its inputs read plain (Traditional characters and Cantonese as Simplified
Mandarin: ``plain_read.plain_inputs``), so ``bench/train_judge.py`` reads its sentences the
same way before wording them; else a Traditional training line is embedded and counted in
n-grams as text the dream never meets. ``bench/data/judge/sentences_casual.tsv`` (durable
facts told in passing and chatter of every kind, in labels, emoji, summaries, Traditional
Chinese and mixed language) and ``casual_probe.tsv`` (its held-out part, never trained on)
are our own: none is in another data file or a dev scenario.
"""

from __future__ import annotations

import argparse
import random
import re
from pathlib import Path

from bench.train_judge import DATA, _draws, as_read, augment, read, read_all
from memory.plain_chinese import plain
from tests.dream.tsv_rows import rows_loose

CASUAL = DATA / "sentences_casual.tsv"
PROBE = DATA / "casual_probe.tsv"
DEV = Path(__file__).resolve().parents[2] / "bench" / "data" / "dream" / "dev"


def test_a_traditional_or_cantonese_line_is_read_plain_as_the_dream_reads_it() -> None:
    assert as_read("我喺一間物流公司做倉務主管") == plain("我喺一間物流公司做倉務主管")
    assert as_read("我喺一間物流公司做倉務主管") != "我喺一間物流公司做倉務主管"
    flush = as_read("阿明: 我屋企養咗隻唐狗")
    assert "養" not in flush and "咗" not in flush


def test_augment_gives_every_reading_plain() -> None:
    rows = [("fact", "我屋企養咗隻唐狗，叫旺財"), ("chatter", "今日好攰，想早啲瞓")]
    readings = augment(rows, random.Random(0))
    assert len(readings) >= 4
    for _, text in readings:
        assert plain(text) == text, text
    assert readings[0] == ("fact", plain("我屋企養咗隻唐狗，叫旺財"))


def test_the_casual_file_and_its_probe_are_varied_and_our_own() -> None:
    train = read(CASUAL)  # a bad kind or an empty text raises
    probe = read(PROBE)
    assert read_all(DATA, "sentences_casual.tsv") == train
    cjk = re.compile(r"[\u4e00-\u9fff]")
    for rows in (train, probe):
        texts = [t for _, t in rows]
        assert len(set(texts)) == len(texts)
        kinds = {k for k, _ in rows}
        assert "chatter" in kinds and len(kinds - {"chatter"}) == 9
        assert sum(plain(t) != t for t in texts) >= 10  # Traditional or Cantonese
        assert sum(t.startswith(("用户提到", "The user mentioned")) for t in texts) >= 20
        assert sum(bool(re.match(r"^(\[\d\d:\d\d\] )?[^\s:：]{1,8}[:：] ", t)) for t in texts) >= 20
        assert sum(bool(cjk.search(t)) for t in texts) >= 60
        assert sum(t.isascii() for t in texts) >= 40
    train_texts = {t for _, t in train}
    assert not train_texts & {t for _, t in probe}
    others = {
        t for path in DATA.glob("*.tsv") if path not in (CASUAL, PROBE) for _, t in rows_loose(path)
    }
    assert not (train_texts | {t for _, t in probe}) & others
    dev = "\n".join(p.read_text("utf-8") for p in sorted(DEV.glob("*.md")))
    assert not [t for _, t in train + probe if len(t) >= 6 and t in dev]


def test_each_bag_draws_its_own_plain_readings_for_a_dense_only_fit() -> None:
    """``--ngram-from`` fits the embedding model on the draws a full run would give it."""
    rows = [("work", "我喺機場做地勤"), ("chatter", "今日好攰")]
    extra = [("fact", "we rent a flat in Leeds")]
    args = argparse.Namespace(bags=3, extra_share=1.0, seed=0)
    draws = _draws(rows, args, extra)
    assert len(draws) == 3
    assert draws == _draws(rows, args, extra)  # deterministic
    for draw in draws:
        texts = [t for _, t in draw]
        assert plain("我喺機場做地勤") in texts and "we rent a flat in Leeds" in texts
        assert all(plain(t) == t for t in texts)


def test_a_summary_of_what_they_said_reads_with_the_verb_of_the_user() -> None:
    """ "The user mentioned they drive a van": the framing and its singular "they" dropped,
    the verb reads after "The user" as it would after "he"/"she" (the classifier and the
    item read this line)."""
    from memory.dream.judge.wording import readable, worded
    from memory.speaker import split

    def read(text: str) -> str:
        return readable(worded(split(text)))

    assert read("The user mentioned they drive a tram in Croydon") == (
        "The user drives a tram in Croydon"
    )
    assert read("The user said they are a night-shift nurse") == "The user is a night-shift nurse"
    assert read("The user mentioned that they have three ferrets") == "The user has three ferrets"
    assert read("The user noted they still don't own a car") == "The user still doesn't own a car"
    assert read("The user said they were born in Galway") == "The user was born in Galway"
    assert read("The user said they can knit") == "The user can knit"
    assert read("The user said he teaches chemistry") == "The user teaches chemistry"
    # a plural "they" keeps its verb
    assert read("The user said they and their brother run a bakery") == (
        "The user and their brother run a bakery"
    )
