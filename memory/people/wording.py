"""The model words a person's deductions and inductions; the verifier decides.

The model sees the person's ledger (``id: speaker: statement``) and current card and
answers ``{"card": [{"text", "premises": [id, ...]}], "inductions": [{"text", "premises",
"confidence"}]}``. Each card line is checked by :func:`verify.check_deduction` (an
induction aimed at the card, a doubt or an unsupported line is rejected and counted), each
induction by :func:`verify.check_induction`; accepted lines are added one at a time, never
replacing the card. A model that breaks the contract changes nothing.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from memory.dream.judgement import same_fact
from memory.errors import ModelError
from memory.llm import ChatModel
from memory.people.files import Entry, PersonFiles
from memory.people.fold import FoldReport, clip, statement_of
from memory.people.limits import PeopleLimits
from memory.people.verify import check_deduction, check_induction
from memory.provenance import SourceRef

log = logging.getLogger(__name__)
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")
MAX_LEDGER_LINES = 80

PROMPT = """You keep notes about one member of a group chat, {name}. Below are the \
observations recorded about them (each "id: speaker: statement") and their current card. \
Write only what follows from the observations:
- "card": deductions: facts that follow for certain from the observations you cite. Never a \
pattern or habit ("usually", "often", "tends to", "通常", "经常", "似乎"), never a guess.
- "inductions": patterns the observations suggest, each with a confidence between 0 and 0.9.
Cite observation ids in "premises". Write in the observations' language; add nothing that \
was not said. Answer with a JSON object {{"card": [{{"text": str, "premises": [str]}}], \
"inductions": [{{"text": str, "premises": [str], "confidence": float}}]}}; empty lists when \
nothing follows."""


def _ask(files: PersonFiles, model: ChatModel) -> dict[str, Any]:
    ledger = [e for e in files.observations if e.kind == "observation"][-MAX_LEDGER_LINES:]
    body = "\n".join(
        ["Observations:", *(f"{e.id}: {e.text}" for e in ledger), "", "Card:"]
        + [f"- {c.text}" for c in files.card]
    )
    raw = model.complete(
        [
            {"role": "system", "content": PROMPT.format(name=files.name)},
            {"role": "user", "content": body},
        ],
        json_object=True,
    )
    try:
        data = json.loads(_FENCE.sub("", raw.strip()))
    except json.JSONDecodeError as exc:
        raise ModelError("the people wording is not JSON") from exc
    if not isinstance(data, dict):
        raise ModelError("the people wording is not a JSON object")
    return data


def _items(data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    value = data.get(key) or []
    if not isinstance(value, list):
        raise ModelError(f'the people wording\'s "{key}" is not a list')
    return [v for v in value if isinstance(v, dict)]


def _premise_ids(item: dict[str, Any]) -> list[str]:
    raw = item.get("premises") or []
    return [str(p).strip() for p in raw] if isinstance(raw, list) else []


def _refs(premises: list[str], ledger: dict[str, Entry]) -> tuple[SourceRef, ...]:
    return tuple(sorted({r for p in premises for r in ledger[p].refs}))


def word_card(files: PersonFiles, model: ChatModel, limits: PeopleLimits) -> FoldReport:
    """Add the model's verified deductions to the card and inductions to the ledger."""
    report = FoldReport()
    try:
        data = _ask(files, model)
        cards, inductions = _items(data, "card"), _items(data, "inductions")
    except ModelError as exc:
        log.warning("people wording for %s skipped: %s", files.slug, exc)
        return report
    ledger = files.ledger
    names = {files.name, *(statement_head(e.text) for e in files.observations)}
    for item in cards:
        text, premises = str(item.get("text") or "").strip(), _premise_ids(item)
        check = check_deduction(text, premises, ledger, names)
        if not check.ok:
            log.info("people: card line %r rejected: %s", text, check.reason)
            report.rejected += 1
            continue
        if any(same_fact(statement_of(c.text), text) for c in files.card):
            continue
        day = max(ledger[p].day for p in premises)
        files.card.append(
            Entry(
                files.next_id("c"),
                clip(text, limits.max_entry_chars),
                _refs(premises, ledger),
                day=day,
                premises=tuple(premises),
            )
        )
        report.carded += 1
    for item in inductions:
        text, premises = str(item.get("text") or "").strip(), _premise_ids(item)
        confidence = item.get("confidence")
        check = check_induction(text, premises, confidence, ledger, names)
        if not check.ok:
            log.info("people: induction %r rejected: %s", text, check.reason)
            report.rejected += 1
            continue
        if any(e.kind == "induction" and same_fact(e.text, text) for e in files.observations):
            continue
        refs = _refs(premises, ledger)
        assert isinstance(confidence, int | float)  # check_induction accepted only numbers
        files.observations.append(
            Entry(
                files.next_id("i"),
                clip(text, limits.max_entry_chars),
                refs,
                kind="induction",
                day=max(ledger[p].day for p in premises),
                confidence=round(float(confidence), 2),  # checked: a number in [0, 0.9]
                premises=tuple(premises),
            )
        )
        report.inductions += 1
    return report


def statement_head(text: str) -> str:
    head, sep, _ = text.partition(": ")
    return head if sep and len(head) <= 40 else ""
