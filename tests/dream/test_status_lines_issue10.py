"""Issue 10 (h90): current-status lines and the statement classifier.

``bench/data/judge/sentences_status.tsv`` holds durable status lines (relationship status,
providers and accounts, memberships, conditions now, contract terms, ownership, what one
still has not got) and chatter of the same registers; ``status_probe.tsv`` is a measurement
set of other lines of the same classes (``bench/status_probe.py``). A model trained with the
status file was measured and not shipped (ROUND_NOTES_h90-status.md), so the default data of
``bench/train_judge.py`` leaves it out and ``--extra`` brings it in.
"""

from __future__ import annotations

import re
from pathlib import Path

from bench.status_probe import language, register, rows_by_section
from bench.train_judge import DATA, UNSHIPPED, as_read, data_files, read, read_all
from tests.dream.tsv_rows import rows_loose as _loose

STATUS = DATA / "sentences_status.tsv"
PROBE = DATA / "status_probe.tsv"
DEV = Path(__file__).resolve().parents[2] / "bench" / "data" / "dream" / "dev"
CJK = re.compile(r"[\u4e00-\u9fff]")


def test_the_default_data_leaves_the_status_file_out_and_extra_brings_it_in() -> None:
    assert "sentences_status.tsv" in UNSHIPPED
    default = data_files(DATA, "sentences*.tsv", [])
    assert STATUS not in default
    assert DATA / "sentences_chatter_wide.tsv" not in default
    assert DATA / "sentences.tsv" in default
    assert len(read_all(DATA, "sentences_status.tsv")) == len(read(STATUS))


def test_the_probe_is_never_training_data() -> None:
    assert PROBE.exists()
    assert PROBE not in data_files(DATA, "sentences*.tsv", [])


def test_the_status_file_is_varied_matched_and_its_own() -> None:
    rows = read(STATUS)  # a bad kind or an empty text raises
    texts = [t for _, t in rows]
    assert len(set(texts)) == len(texts)
    chatter = [t for k, t in rows if k == "chatter"]
    durable = [t for k, t in rows if k != "chatter"]
    assert len(chatter) >= 0.6 * len(durable)  # matched chatter, not a durable-only file
    assert {k for k, _ in rows} == {"chatter", "identity", "fact", "health", "work"}
    for group in (chatter, durable):
        assert sum(bool(CJK.search(t)) for t in group) > 50  # Chinese
        assert sum(t.isascii() for t in group) > 50  # English
        assert sum(bool(CJK.search(t)) and bool(re.search(r"[A-Za-z]{2}", t)) for t in group) >= 4
        assert sum(t.startswith(("User: ", "用户：")) for t in group) > 15  # flush lines
        assert sum(t.startswith(("The user ", "用户")) for t in group) > 40  # summaries
    # "still"/"还没" lines on both sides: the content decides, not the word
    assert sum("还没" in t for t in durable) >= 8 and sum("还没" in t for t in chatter) >= 8
    assert sum("still" in t.lower() for t in durable) >= 3
    assert sum("still" in t.lower() for t in chatter) >= 3
    probe = {t for _, _, t in rows_by_section(PROBE)}
    others = {t for path in DATA.glob("*.tsv") if path != STATUS for _, t in _loose(path)}
    assert not [t for t in texts if t in others or t in probe]
    dev = "\n".join(p.read_text("utf-8") for p in sorted(DEV.glob("*.md")))
    assert not [t for t in texts if len(t) >= 6 and t in dev]


def test_the_probe_covers_every_class_language_and_register() -> None:
    rows = rows_by_section(PROBE)
    sections = {s for s, _, _ in rows}
    assert len(sections) == 8
    durable = [t for _, k, t in rows if k != "chatter"]
    assert {language(t) for t in durable} == {"en", "zh", "mixed"}
    assert {register(t) for t in durable} >= {"flush", "summary"}


def test_language_and_register_of_a_line() -> None:
    assert language("User: 我单身，no kids") == "mixed"
    assert language("用户：我还没考驾照呢") == "zh"
    assert language("User: I'm a Costco member") == "en"
    assert register("User: I'm a Costco member") == "flush"
    assert register("老刘：我手机是电信的号") == "flush"
    assert register("用户提到手机号是联通的") == "summary"
    assert register("The user banks with HSBC") == "summary"
    assert register("we get our broadband from Plusnet") == "plain"
    # what the classifier reads of a flush line and of a summary
    assert as_read("User: I'm a Costco member") == "The user is a Costco member"
    assert as_read("用户说自己还没有孩子") == "用户还没有孩子"
