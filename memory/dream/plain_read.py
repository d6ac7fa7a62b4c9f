"""The dream's inputs as the judgement reads them, and its proposal in the user's script.

The extractive engine judges Simplified Mandarin (:mod:`memory.plain_chinese`): notes and
MEMORY.md written in Traditional characters or in Cantonese are read in their plain form
(:func:`plain_inputs`), and every item the engine proposes is given back as its cited lines
were written (:func:`written_back`): an item the engine kept as it was is that item; one
it worded from plain lines is reworded in their script ("用戶搬咗去大埔", not "用户搬到了大埔").
Inputs with nothing to read otherwise are the inputs themselves, and so is the proposal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from memory.dream.model import DreamInputs, Proposal
from memory.memory_file import MemoryDoc, MemoryItem
from memory.plain_chinese import plain, shown

WrittenBack = Callable[[Proposal], Proposal]


def plain_inputs(inputs: DreamInputs) -> tuple[DreamInputs, WrittenBack]:
    """``inputs`` read plain, and what gives a proposal made from them back in the
    inputs' own script."""
    notes = [n if plain(n.text) == n.text else replace(n, text=plain(n.text)) for n in inputs.notes]
    lines = {path: [plain(line) for line in texts] for path, texts in inputs.lines.items()}
    items: dict[int, MemoryItem] = {}  # id of a plain item -> the item as written
    sections: list[tuple[str, list[MemoryItem | str]]] = []
    changed = any(a is not b for a, b in zip(notes, inputs.notes, strict=True))
    for title, entries in inputs.memory.sections:
        read: list[MemoryItem | str] = []
        for entry in entries:
            if isinstance(entry, MemoryItem):
                if plain(entry.text) != entry.text:
                    changed = True
                    written, entry = entry, replace(entry, text=plain(entry.text))
                    items[id(entry)] = written
                else:
                    items[id(entry)] = entry  # an item kept as it was stays itself
            read.append(entry)
        sections.append((title, read))
    if not changed and lines == inputs.lines:
        return inputs, lambda proposal: proposal
    memory = MemoryDoc(inputs.memory.title, sections)
    read_inputs = replace(inputs, notes=notes, lines=lines, memory=memory)
    return read_inputs, lambda proposal: written_back(proposal, inputs, items)


def written_back(proposal: Proposal, inputs: DreamInputs, items: dict[int, MemoryItem]) -> Proposal:
    """``proposal`` (made from plain ``inputs``) in their own script: an item of MEMORY.md
    read plain (``items``, by id) is that item again, any other is reworded by the lines
    it cites (:func:`memory.plain_chinese.shown`)."""
    done: dict[int, MemoryItem] = {}

    def back(item: MemoryItem) -> MemoryItem:
        found = done.get(id(item))
        if found is None:
            found = items.get(id(item)) or _reworded(item, inputs)
            done[id(item)] = found
        return found

    return replace(
        proposal,
        keep=[back(i) for i in proposal.keep],
        archive=[(back(i), why) for i, why in proposal.archive],
        superseded=[(back(old), back(new)) for old, new in proposal.superseded],
        merges=[(back(i), n) for i, n in proposal.merges],
        rewrites=[(back(old), back(new)) for old, new in proposal.rewrites],
        returned=[(back(i), why) for i, why in proposal.returned],
        why={back(i): why for i, why in proposal.why.items()},
    )


def _reworded(item: MemoryItem, inputs: DreamInputs) -> MemoryItem:
    written = [
        inputs.lines[ref.path][number - 1]
        for ref in item.sources
        if ref.path in inputs.lines
        for number in ref.lines()
        if 0 < number <= len(inputs.lines[ref.path])
    ]
    text = shown(item.text, written) if written else item.text
    return item if text == item.text else replace(item, text=text)
