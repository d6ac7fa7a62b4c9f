"""The dream bench's two diagnostic tables (round 27): why durable facts were wrongly
superseded (by the way that retired them and the pair's shape) and why durable facts are not
in MEMORY.md, counted on a small scenario of this file's own, labelled on purpose so that
each class the tables name is hit: a home "fact" a later move retires (a wrong supersession
as the labels have it, found by the rules), facts past the cap of two items, and one fact
whose line says nothing the dream keeps."""

from __future__ import annotations

from pathlib import Path

from bench.dream_quality import imprecise_table, run_scenario, watch_engine
from bench.dream_scenarios import parse

SCENARIO = """---
title: A private chat, labelled for the bench's own tables
today: 2027-05-06
mode: once
days: 7
max_items: 3
tags: [zh, private]
---

## 2027-05-02
- 用户: 我住在北京朝阳区 // fact home_then: 北京
- 用户: 我对青霉素过敏 // fact allergy: 青霉素
- 用户: 我养了一只猫叫团子 // fact cat: 团子
- 用户: 哈哈哈 // chatter

## 2027-05-05
- 用户: 我上周搬到上海了，住在徐汇 // fact home: 上海
- 用户: 我在学日语，每周二上课 // fact japanese: 日语
- 用户: 我女朋友叫安琪，是设计师 // fact gf: 安琪
- 用户: 早 // chatter
"""


def test_the_tables_count_a_wrong_supersession_and_the_misses(tmp_path: Path) -> None:
    path = tmp_path / "own.md"
    path.write_text(SCENARIO, "utf-8")
    scenario = parse(path)
    undo = watch_engine()
    try:
        counts, _ = run_scenario(scenario, tmp_path / "run")
    finally:
        undo()
    assert counts.wrongly_superseded == 1
    assert counts.wrong.get("rules", 0) + counts.wrong.get("loose", 0) == 1
    assert counts.wrong["s-user"] == 1 and counts.wrong["zh"] == 1
    assert counts.wrong["n-fact"] == 1  # the move is a current fact of its own
    missed = counts.facts - counts.recalled
    assert missed >= 3  # six facts, three items at most
    assert sum(counts.missed.values()) == missed
    assert counts.missed["superseded"] == 1
    assert counts.missed["cap"] >= 2
    text = imprecise_table("own", counts)
    assert "why 1 durable facts were wrongly superseded" in text
    assert f"why {missed} of 6 durable facts are not in MEMORY.md" in text
    assert "| rules: " in text and "| cap: " in text
