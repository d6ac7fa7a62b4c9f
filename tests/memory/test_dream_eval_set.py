"""The labelled dream scenarios (``bench/data/dream/``) load, and a malformed file is
refused with its line: the figures ``bench/dream_quality.py`` prints rest on them."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.dream_scenarios import DATA, load, parse

SPLITS = ("dev", "heldout", "heldout2", "heldout3", "heldout4", "heldout5", "heldout6")


@pytest.mark.parametrize("split", SPLITS)
def test_every_scenario_loads(split: str) -> None:
    scenarios = load(split)
    assert scenarios
    for s in scenarios:
        assert s.notes and s.facts and s.chatter, s.name
        assert max(s.notes) <= s.today, s.name  # no note after the evening of the dream
        assert s.mode in ("once", "nightly"), s.name


def test_dev_alone_has_the_issue_s_size() -> None:
    dev = load("dev")
    names = {p.stem for split in SPLITS[1:] for p in (DATA / split).glob("*.md")}
    assert len(dev) >= 14 and sum(s.bullets for s in dev) >= 1000
    assert not names & {s.name for s in dev}  # a held-out name never reused in dev
    tags = {t for s in dev for t in s.tags}
    assert {"zh", "en", "mixed", "group", "long", "flush_rules", "llm_summary"} <= tags


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "bad.md"
    path.write_text("---\ntitle: t\ntoday: 2026-11-02\n---\n\n## 2026-11-01\n" + body, "utf-8")
    return path


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("- 用户: 我叫小明\n", "bullet without labels"),
        ("- 用户: 我叫小明 // fakt name: 小明\n", "bad label"),
        ("- 用户: 我住朝阳 // old home: 朝阳\n", "has old values but no current one"),
        ("- 用户: 明天去天津 // plan trip: 天津\n", "needs a date"),
        ("- 用户: 还是我 // fact name\n", "restated before it has keys"),
    ],
)
def test_a_malformed_scenario_is_refused(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse(_write(tmp_path, body))
