"""Summarising a conversation into a section of today's daily note.

With a model: a short bullet summary of what is worth keeping (possibly nothing).
Without one, or when the model fails: a rule-based summary that keeps what the users
stated and drops greetings, acknowledgements, questions and tool noise.
Secrets are redacted before anything is sent to a model or written.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Literal

from memory.chatter import is_chatter, is_question
from memory.daily_notes import append_section
from memory.errors import ModelError
from memory.llm import ChatModel
from memory.paths import MemoryRoot
from memory.redact import DEFAULT, Redaction, redact
from memory.segment import has_cjk
from memory.transcript import Turn

log = logging.getLogger(__name__)

FlushReason = Literal["trim", "daily", "overflow"]
SECTION_FOR: dict[str, str] = {
    "trim": "Trimmed Context",
    "daily": "Daily Summary",
    "overflow": "Context Overflow Recovery",
}
MAX_BULLET = 300
MAX_BULLETS = 40
_SENTENCE_END = re.compile(r"(?<=[。！？!?；;])\s*|(?<=[.])\s+")


@dataclass(frozen=True)
class FlushResult:
    """Where the summary went (None when nothing was worth keeping) and what it said."""

    path: Path | None
    bullets: list[str]
    engine: Literal["llm", "rules"]


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_BULLET else text[: MAX_BULLET - 1] + "…"


def rule_summary(
    turns: Sequence[Turn], *, group: bool, redaction: Redaction = DEFAULT
) -> list[str]:
    """What the users stated, one bullet per message, chatter and questions dropped."""
    bullets: list[str] = []
    seen: set[str] = set()
    for turn in turns:
        if turn.role != "user":
            continue
        kept = [
            s
            for s in _sentences(redact(turn.content, redaction))
            if not is_chatter(s) and not is_question(s)
        ]
        if not kept:
            continue
        statement = _clip(" ".join(kept) if not has_cjk(" ".join(kept)) else "".join(kept))
        if group:
            speaker = (turn.name or "someone").strip()
            bullet = f"{speaker}: {statement}"
        else:
            bullet = f"{'用户' if has_cjk(statement) else 'User'}: {statement}"
        if bullet not in seen:
            seen.add(bullet)
            bullets.append(bullet)
    return bullets[-MAX_BULLETS:]


_PROMPT = """You keep a chat bot's daily notes. From the conversation below, write the facts \
worth remembering later: the user's preferences, plans, decisions, people, lessons, \
commitments and stable facts. Skip greetings, thanks, small talk, questions that were \
answered and tool output. Write in the conversation's language; never translate; never add \
anything that was not said. {speaker_rule}Answer with a JSON object \
{{"bullets": ["...", ...]}}: at most 10 short bullets, or an empty list when nothing is worth \
keeping."""


def _transcript_text(turns: Sequence[Turn], redaction: Redaction) -> str:
    lines = []
    for turn in turns:
        if turn.role in ("user", "assistant"):
            who = turn.name or turn.role
            lines.append(f"{who}: {redact(turn.content, redaction)}")
    return "\n".join(lines)


def model_summary(
    turns: Sequence[Turn], model: ChatModel, *, group: bool, redaction: Redaction = DEFAULT
) -> list[str]:
    """Bullets from the model; raises :class:`ModelError` when it breaks the contract."""
    speaker_rule = (
        "This is a group chat: start every bullet with the speaker's name and a colon. "
        if group
        else ""
    )
    messages = [
        {"role": "system", "content": _PROMPT.format(speaker_rule=speaker_rule)},
        {"role": "user", "content": _transcript_text(turns, redaction)},
    ]
    raw = model.complete(messages, json_object=True)
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ModelError("model summary is not JSON") from exc
    bullets = data.get("bullets") if isinstance(data, dict) else None
    if not isinstance(bullets, list) or not all(isinstance(b, str) for b in bullets):
        raise ModelError('model summary lacks a "bullets" list of strings')
    cleaned = [_clip(redact(b.strip().lstrip("-*• ").strip(), redaction)) for b in bullets]
    return [b for b in cleaned if b][:MAX_BULLETS]


def flush_turns(
    root: MemoryRoot,
    turns: Sequence[Turn],
    reason: FlushReason,
    *,
    model: ChatModel | None,
    now: datetime,
    group: bool = False,
    redaction: Redaction = DEFAULT,
) -> FlushResult:
    """Summarise ``turns`` into the ``reason``'s section of the daily note of ``now``."""
    engine: Literal["llm", "rules"] = "rules"
    bullets: list[str]
    if model is not None and any(t.role == "user" for t in turns):
        try:
            bullets = model_summary(turns, model, group=group, redaction=redaction)
            engine = "llm"
        except ModelError as exc:
            log.warning("summary by model failed (%s); using the rule-based summary", exc)
            bullets = rule_summary(turns, group=group, redaction=redaction)
    else:
        bullets = rule_summary(turns, group=group, redaction=redaction)
    if not bullets:
        return FlushResult(None, [], engine)
    path = append_section(root, SECTION_FOR[reason], bullets, now=now, redaction=redaction)
    return FlushResult(path, bullets, engine)
