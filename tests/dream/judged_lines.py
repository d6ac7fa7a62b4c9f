"""Statements as the classifier judged them, the left-out lines kept as news of them, and a
plain judged pair for the change model."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from memory.dream.extractive import ExtractiveEngine, Statement
from memory.dream.judge import changemodel
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


def plain_pair(**changed: object) -> changemodel.Pair:
    """A pair of the user's facts the rules found a change in (slot probability 0.5, no slot
    features), with ``changed`` fields set otherwise."""
    base = changemodel.Pair(
        how="rules",
        slot_probability=0.5,
        slot_features=None,
        newer_kind="fact",
        older_kind="fact",
        subject="user",
        older_packed=False,
        older_prior=False,
        language_differs=False,
    )
    return replace(base, **changed)  # type: ignore[arg-type]
