"""Gathering a dream's inputs from a root."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable
from datetime import date, timedelta

from memory.daily_notes import MAX_BULLET_CHARS, NoteLine, parse_note, read_lines
from memory.dream.model import DreamInputs, DreamOptions
from memory.memory_file import parse_memory, read_archive
from memory.paths import MemoryRoot
from memory.redact import redact
from memory.textfile import read_text


def window(root: MemoryRoot, today: date, days: int) -> list[date]:
    """Dates of the notes from the last ``days`` days, today included, oldest first."""
    first = today - timedelta(days=days - 1)
    return [d for d in root.note_dates() if first <= d <= today]


def gather(root: MemoryRoot, today: date, options: DreamOptions) -> DreamInputs:
    memory_text = read_text(root.memory_md)
    lines = {"MEMORY.md": memory_text.splitlines()}
    notes: list[NoteLine] = []
    redacted: dict[str, str] = {}  # a line said again on many days is redacted once

    def clean(text: str) -> str:
        if text not in redacted:
            redacted[text] = redact(text)
        return redacted[text]

    for day in window(root, today, options.days):
        path = root.daily_note(day)
        # The bot redacts what it writes; a note written by hand or by another tool may
        # still hold a secret, and nothing the dream writes may (the grounding check reads
        # the same redacted lines).
        lines[root.relative(path)] = [clean(line) for line in read_lines(path)]
        # A bullet is judged by its first MAX_BULLET_CHARS (what the bot writes at most),
        # so that one huge hand-written line cannot make a dream slow.
        notes.extend(_judged(n, clean) for n in parse_note(root, day))
    archived: dict[str, str] = {}
    archive = read_archive(root)
    for item in archive:
        for ref in item.sources:
            for line in ref.lines():
                archived[f"{ref.path}#L{line}"] = item.reason
    return DreamInputs(
        today=today,
        memory=parse_memory(memory_text),
        notes=notes,
        lines=lines,
        archived_refs=archived,
        max_items=options.max_items,
        state_dir=root.state_dir,
        archive=archive,
    )


def _judged(note: NoteLine, clean: Callable[[str], str]) -> NoteLine:
    text = clean(note.text[:MAX_BULLET_CHARS])
    return note if text == note.text else dataclasses.replace(note, text=text)


def input_hash(
    inputs: DreamInputs, engine: str, options: DreamOptions, stores: dict[str, str]
) -> str:
    """A fingerprint of everything a dream reads (``stores``: the digests of the recall
    and short-term stores); unchanged inputs need no new dream."""
    digest = hashlib.sha256()
    settings = {
        "engine": engine,
        "days": options.days,
        "max_items": options.max_items,
        "thresholds": dataclasses.asdict(options.thresholds),
        "stores": stores,
    }
    digest.update(json.dumps(settings, sort_keys=True).encode())
    for path in sorted(inputs.lines):
        digest.update(path.encode() + b"\0")
        digest.update("\n".join(inputs.lines[path]).encode() + b"\0")
    return digest.hexdigest()
