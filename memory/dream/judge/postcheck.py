"""The llm engine's items pass the extractive engine's bar: the same judge checks them.

After grounding, each item the model kept is checked again: relative dates are resolved
against the note it cites ("明天" in an item becomes the date); an item the classifier
judges chatter is rejected; a plan whose date has passed leaves for the archive as
``expired``; of two items giving values for one slot of one subject, the older is
rejected as stale. Every correction and rejection is counted (``Proposal.corrected``) and
named in the diary.
"""

from __future__ import annotations

from datetime import date

from memory.conflicts import settled_ids
from memory.dream.embed_cache import open_cache
from memory.dream.judge import dates
from memory.dream.judge.classifier import classify
from memory.dream.judge.relations import Said, alias_of, aliased, replaces, subject_of
from memory.dream.judge.wording import readable
from memory.dream.model import DreamInputs, Proposal
from memory.memory_file import MemoryItem
from memory.provenance import ref_lines
from memory.speaker import split

CHATTER = 0.5  # the model's item is chatter above this (embeddings)
WORDS_CHATTER = 0.8  # the same, judged by words alone


def _day(item: MemoryItem, inputs: DreamInputs) -> date:
    days = [n.day for n in inputs.notes if any(n.path == r.path for r in item.sources)]
    return max(days) if days else inputs.today


def check(inputs: DreamInputs, proposal: Proposal) -> None:
    """Correct or reject ``proposal.keep`` in place (see the module's docstring)."""
    if not proposal.keep:
        return
    names = frozenset(
        s for s in (split(n.text).speaker for n in inputs.notes) if s and s not in ("用户", "User")
    )
    items: list[MemoryItem] = []
    for item in proposal.keep:
        day = _day(item, inputs)
        text, _ = dates.resolve(item.text, day)
        if text != item.text:
            proposal.corrected += 1
            proposal.rewrites.append((item, item_with(item, text)))
            item = item_with(item, text)
        items.append(item)
    cache = open_cache(inputs.state_dir) if inputs.state_dir is not None else None
    texts = [readable(i.text) for i in items]
    vectors = cache.embed(texts) if cache is not None else None
    judged = classify(texts, vectors)
    limit = CHATTER if vectors is not None else WORDS_CHATTER
    kept: list[tuple[MemoryItem, Said, date]] = []
    rows: list[int] = []  # each kept item's row in ``vectors``
    aliases = {}
    for found in (alias_of(i.text, names) for i in items):
        if found:
            aliases[found[0]] = found[1]
    for row, (item, judgement) in enumerate(zip(items, judged, strict=True)):
        if judgement.chatter >= limit:
            proposal.rejected.append((item.text, "chatter, not a lasting fact"))
            proposal.corrected += 1
            continue
        day = _day(item, inputs)
        due = dates.latest(dates.find(item.text, day), day)
        if due is not None and due < inputs.today and judgement.kind not in ("identity", "event"):
            proposal.archive.append((_leaving(item, inputs), "expired"))
            proposal.corrected += 1
            continue
        subject = aliased(item.text, subject_of(item.text, names), aliases)
        said = Said(item.text, subject, judgement.kind, due is not None)
        kept.append((item, said, day))
        rows.append(row)
    stale: set[int] = set()
    for i, (older_item, older, old_day) in enumerate(kept):
        for j, (newer_item, newer, new_day) in enumerate(kept):
            if together(older_item, newer_item):
                continue  # sides of an open conflict, or kept together by a person
            cosine = float(vectors[rows[i]] @ vectors[rows[j]]) if vectors is not None else None
            if i != j and j not in stale and new_day >= old_day and replaces(newer, older, cosine):
                if new_day == old_day and j < i:
                    continue
                stale.add(i)
                proposal.rejected.append(
                    (older.text, f"an older value beside its replacement “{newer_item.text}”")
                )
                proposal.corrected += 1
                break
    proposal.keep = [item for n, (item, _, _) in enumerate(kept) if n not in stale]
    if cache is not None:
        cache.save()


def together(a: MemoryItem, b: MemoryItem) -> bool:
    """Both sides of one open conflict, or of one a person settled by keeping both."""
    return (a.conflict != "" and a.conflict == b.conflict) or bool(
        settled_ids([a]) & settled_ids([b])
    )


def item_with(item: MemoryItem, text: str) -> MemoryItem:
    return MemoryItem(text, item.sources, item.section, item.line, item.fields, item.raw)


def _leaving(item: MemoryItem, inputs: DreamInputs) -> MemoryItem:
    """The prior item an expired one restates (archived exactly as it was), else itself."""
    mine = ref_lines(item.sources)
    for prior in inputs.prior:
        if ref_lines(prior.sources) and ref_lines(prior.sources) <= mine:
            return prior
    return item
