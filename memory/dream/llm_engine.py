"""The LLM Deep Dream engine: the JSON contract of DESIGN.md, then grounding.

The model sees the current generated MEMORY.md items and the notes, each line labelled
with its reference, and answers ``{"memory": [{"text", "sources"}], "diary"}``. Every item
is verified (grounding.py); unsupported ones are rejected and counted, never written.
Prior items the model leaves out are archived (superseded when a kept item replaces them,
else pruned), so nothing is lost.
"""

from __future__ import annotations

import json
import re
from typing import Any

from memory.dream.grounding import Similarity, verify
from memory.dream.judge import postcheck
from memory.dream.judgement import same_fact, supersedes
from memory.dream.model import MAX_DAYS, DreamInputs, Proposal
from memory.dream.sections import section_for
from memory.errors import ModelError
from memory.llm import ChatModel
from memory.memory_file import CONFLICT, SETTLED, MemoryItem, cited_lines, conflict_mark
from memory.provenance import SourceRef, compress_refs, ref_lines
from memory.redact import redact

MAX_INPUT_CHARS = 60_000
_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$", re.S)

SYSTEM_PROMPT = """You are the Deep Dream of a chat bot's long-term memory. Distil the \
current memory items and the recent daily notes into a new, small memory of at most \
{max_items} items.
Rules:
- Merge duplicates into one item. Keep preferences, decisions and plans, people, lessons \
and stable facts. Drop greetings, small talk and anything transient.
- When a newer note contradicts an older item about the same thing, keep only the newer.
- Items marked [open conflict cN] disagree and nobody has said which is right: keep each \
of them, citing its own MEMORY.md label, unless a note clearly settles it.
- Never invent anything: every item must be supported by the lines it cites.
- Write each item in the language of its sources; never translate.
- Cite every line an item comes from by its label, e.g. "memory/2026-11-28.md#L12". \
Items labelled MEMORY.md#Ln may be kept, merged or rewritten; cite them to keep their history.
- Hand-written items are kept by the user; do not repeat them.
Answer with one JSON object and nothing else:
{{"memory": [{{"text": "...", "sources": ["memory/YYYY-MM-DD.md#L12", ...]}}], \
"diary": "a few sentences, in the notes' language, on what you merged, added, replaced \
and dropped"}}"""


def render_inputs(inputs: DreamInputs) -> str:
    """The prompt's material. The memory items always go in whole; when the notes are too
    long for ``MAX_INPUT_CHARS`` the oldest note lines are left out."""
    parts = ["## Current memory items"]
    for item in inputs.prior:
        mark = f" {conflict_mark(item.conflict)}" if item.conflict else ""
        parts.append(f"MEMORY.md#L{item.line}: {item.text}{mark}")
    if inputs.handwritten:
        parts.append("## Hand-written items (kept as they are)")
        parts += [f"- {i.text}" for i in inputs.handwritten]
    head = redact("\n".join(parts))
    budget = MAX_INPUT_CHARS - len(head) - 40 * MAX_DAYS  # room for one heading a note
    lines: list[str] = []
    current = ""
    for note in reversed(inputs.notes):  # newest first, until the budget is spent
        line = redact(f"{note.ref}: {note.text}")
        if budget - len(line) - 1 < 0:
            break
        budget -= len(line) + 1
        lines.append(line)
    notes: list[str] = []
    for line in reversed(lines):
        path = line.split("#", 1)[0]
        if path != current:
            current = path
            notes.append(f"## {path}")
        notes.append(line)
    return "\n".join([head, *notes])


def parse_answer(raw: str) -> tuple[list[tuple[str, list[str]]], str]:
    """The model's items and diary; :class:`ModelError` when the contract is broken."""
    try:
        data = json.loads(_FENCE.sub("", raw.strip()))
    except json.JSONDecodeError as exc:
        raise ModelError(f"the model's answer is not JSON ({exc.msg})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("memory"), list):
        raise ModelError('the model\'s answer lacks a "memory" list')
    items: list[tuple[str, list[str]]] = []
    for entry in data["memory"]:
        if not isinstance(entry, dict):
            raise ModelError("a memory entry is not an object")
        text, sources = entry.get("text"), entry.get("sources", [])
        if not isinstance(text, str) or not isinstance(sources, list):
            raise ModelError('a memory entry needs "text" (string) and "sources" (list)')
        items.append((" ".join(text.split()), [str(s) for s in sources]))
    diary = data.get("diary")
    return items, diary.strip() if isinstance(diary, str) else ""


def _carried(refs: list[SourceRef], prior: dict[int, MemoryItem]) -> tuple[tuple[str, str], ...]:
    """The open conflict (or a person's settling of one) of the prior item a model item keeps."""
    fields: dict[str, str] = {}
    for ref in refs:
        if ref.path == "MEMORY.md":
            for line in ref.lines():
                item = prior.get(line)
                for key, value in item.fields if item else ():
                    if key in (CONFLICT, SETTLED):
                        fields.setdefault(key, value)
    return tuple(fields.items())


class LLMEngine:
    name = "llm"

    def __init__(self, model: ChatModel, similarity: Similarity | None = None) -> None:
        self.model = model
        self.similarity = similarity

    def propose(self, inputs: DreamInputs) -> Proposal:
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": SYSTEM_PROMPT.format(max_items=inputs.max_items)},
            {"role": "user", "content": render_inputs(inputs)},
        ]
        answer, diary = parse_answer(self.model.complete(messages, json_object=True))
        proposal = Proposal(keep=[], model_diary=redact(diary))
        prior_by_line = {item.line: item for item in inputs.prior}
        handwritten = [i.text for i in inputs.handwritten]
        for text, cited in answer:
            text = redact(text)
            refs, bad = self._refs(cited)
            if bad:
                proposal.rejected.append((text, f"cites a malformed reference: {bad}"))
                continue
            verdict = verify(text, refs, inputs, self.similarity)
            if not verdict.ok:
                proposal.rejected.append((text, verdict.reason))
                continue
            if any(same_fact(text, h) for h in handwritten):
                proposal.merged += 1
                continue
            sources = self._resolve(refs, prior_by_line)
            section = next(
                (
                    prior_by_line[r.start].section
                    for r in refs
                    if r.path == "MEMORY.md" and r.start in prior_by_line
                ),
                "",
            ) or section_for(text)
            lines = sum(len(r.lines()) for r in sources)
            if lines > 1:
                proposal.merged += lines - 1
            proposal.keep.append(
                MemoryItem(text, sources, section, fields=_carried(refs, prior_by_line))
            )
        postcheck.check(inputs, proposal)
        # Every verified item in the model's order: the deep phase admits them under the cap.
        self._archive_left_out(inputs, proposal)
        return proposal

    @staticmethod
    def _refs(cited: list[str]) -> tuple[list[SourceRef], str | None]:
        refs = []
        for text in cited:
            ref = SourceRef.parse(text)
            if ref is None:
                return [], text
            refs.append(ref)
        return refs, None

    @staticmethod
    def _resolve(refs: list[SourceRef], prior: dict[int, MemoryItem]) -> tuple[SourceRef, ...]:
        """MEMORY.md citations become the cited item's own sources (line numbers change)."""
        out: list[SourceRef] = []
        for ref in refs:
            if ref.path != "MEMORY.md":
                out.append(ref)
                continue
            for line in ref.lines():
                if line in prior:
                    out.extend(prior[line].sources)
        return compress_refs(out)

    @staticmethod
    def _archive_left_out(inputs: DreamInputs, proposal: Proposal) -> None:
        """Prior items the model left out go to the archive as they were; one whose lines a
        kept item cites in other words is a rewrite, reported in the diary."""
        kept_lines = cited_lines(proposal.keep)
        archived = {id(item) for item, _ in proposal.archive}
        texts = {k.text for k in proposal.keep}
        for old in inputs.prior:
            if id(old) in archived:
                continue
            if ref_lines(old.sources) <= kept_lines:
                if old.text not in texts:
                    new = next(
                        (k for k in proposal.keep if ref_lines(old.sources) & ref_lines(k.sources)),
                        None,
                    )
                    if new is not None:
                        proposal.rewrites.append((old, new))
                continue
            newer = next((k for k in proposal.keep if supersedes(k.text, old.text)), None)
            if newer is not None:
                proposal.superseded.append((old, newer))
                proposal.archive.append((old, "superseded"))
            else:
                proposal.archive.append((old, "pruned"))
