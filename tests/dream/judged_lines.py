"""Statements as the classifier judged them, and the left-out lines kept as news of them."""

from __future__ import annotations

from datetime import date

from memory.dream.extractive import ExtractiveEngine, Statement
from memory.dream.judge.classifier import KINDS, Judgement
from memory.dream.retire import left_out_news
from memory.provenance import SourceRef


def judged(text: str, day: int, line: int, chatter: float = 0.0) -> Statement:
    """``text`` said on line ``line`` of the note of 2026-03-``day``, read as chatter with
    probability ``chatter`` and otherwise as a fact."""
    ref = SourceRef(f"memory/2026-03-{day:02d}.md", line, line)
    st = Statement(text, (ref,), date(2026, 3, day), line)
    probs = [0.0] * len(KINDS)
    probs[0], probs[KINDS.index("fact")] = chatter, 1.0 - chatter
    st.judgement = Judgement(tuple(probs))
    return st


def news(left: list[Statement], kept: list[Statement]) -> list[str]:
    """The texts of the ``left`` lines kept as news of the ``kept`` ones."""
    engine = ExtractiveEngine()
    return [st.text for st in left_out_news(left, kept, engine._changed_by_rules)]
