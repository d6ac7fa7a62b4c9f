"""The surgical card refresh: new observations join the ledger, and the card changes one
line at a time.

For each new observation (in the order it was said):

- a restatement of a ledger entry is folded into it (one more source, ``seen`` + 1);
- an induction ("通常", "usually") stays in the ledger with a confidence, never on a card;
- a restatement of a card line confirms it (a premise and a source more);
- one that contradicts a card line (:mod:`slots`) is written beside it with ``status:
  open``, unless the person corrects themselves plainly (on a later day, or saying it
  changed: "我搬到宝安了"; without a doubt in it): then the card line is replaced and the old
  one archived, with its open conflicts;
- a plain fact, first-hand or attributed, becomes a new card line citing it;
- a doubt ("好像", "maybe") is kept in the ledger only.

Over ``max_entries`` the least used entries (never shown, never a premise, seen once, oldest)
go to the person's archive. Nothing is regenerated: :func:`rebuild` does that, on request.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from memory.dream.judgement import same_fact
from memory.paths import day_of
from memory.people.files import Entry, PersonFiles
from memory.people.limits import PeopleLimits
from memory.people.observe import Observation
from memory.people.reasoning import induction_confidence, is_hedged, is_induction
from memory.people.slots import contradicts, marks_change, same_slot_value
from memory.provenance import SourceRef


@dataclass
class FoldReport:
    observed: int = 0  # new ledger entries
    restated: int = 0  # folded into an entry
    inductions: int = 0  # new or strengthened patterns (ledger only)
    carded: int = 0  # new card lines
    confirmed: int = 0
    opened: int = 0  # conflicts left open
    corrected: int = 0  # self-corrections
    archived: int = 0  # entries over the limits
    rejected: int = 0  # worded lines the verifier refused

    def add(self, other: FoldReport) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


def statement_of(text: str) -> str:
    """A line's statement without its ``speaker: `` head."""
    head, sep, rest = text.partition(": ")
    return rest if sep and len(head) <= 40 else text


def clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip() + "…"


def days_of(refs: Iterable[SourceRef]) -> int:
    return len({day_of(r.path) or r.path for r in refs})


def _merge(entry: Entry, refs: Sequence[SourceRef], day: str, by: str) -> None:
    """One more source for ``entry``; one more occasion (``seen``) unless the same speaker
    said it again that day (the session log and the note of one message are one occasion)."""
    entry.refs = tuple(sorted({*entry.refs, *refs}))
    if day != entry.day or by != entry.by:
        entry.seen += 1
    entry.day = max(entry.day, day)


def fold(
    files: PersonFiles, new: Sequence[Observation], limits: PeopleLimits, today: str
) -> FoldReport:
    """Fold ``new`` into ``files`` (in place); what changed."""
    report = FoldReport()
    known = {ref for e in (*files.observations, *files.archive) for ref in e.refs}
    known |= {ref for e in files.card for c in (e, *e.conflicts) for ref in c.refs}
    for obs in new:
        if obs.ref in known:
            continue
        known.add(obs.ref)
        entry = _ledger(files, obs, limits, report)
        if entry is not None and not obs.induction:
            _card(files, entry, obs, limits, report)
    report.archived += enforce_limits(files, limits, today)
    return report


def _ledger(
    files: PersonFiles, obs: Observation, limits: PeopleLimits, report: FoldReport
) -> Entry | None:
    """The new ledger entry for ``obs``; None when it restated one."""
    kind = "induction" if obs.induction else "observation"
    for entry in files.observations:
        if entry.by_hand:
            continue
        if entry.kind == kind and same_fact(statement_of(entry.text), obs.statement):
            _merge(entry, (obs.ref,), obs.day, obs.speaker_slug)
            report.restated += 1
            for line in files.card:  # the card lines it is a premise of gain the source too
                if entry.id in line.premises and not is_hedged(obs.statement):
                    _merge(line, (obs.ref,), obs.day, obs.speaker_slug)
            if kind == "induction":
                first_hand = entry.by == files.slug
                entry.confidence = induction_confidence(entry.seen, days_of(entry.refs), first_hand)
                report.inductions += 1
            return None
    entry = Entry(
        files.next_id("i" if obs.induction else "o"),
        clip(obs.text, limits.max_entry_chars),
        (obs.ref,),
        kind=kind,
        day=obs.day,
        by=obs.speaker_slug,
    )
    if obs.induction:
        entry.confidence = induction_confidence(1, 1, obs.first_hand)
        report.inductions += 1
    else:
        report.observed += 1
    files.observations.append(entry)
    return entry


def _card(
    files: PersonFiles, entry: Entry, obs: Observation, limits: PeopleLimits, report: FoldReport
) -> None:
    hedged = is_hedged(obs.statement)
    for number, line in enumerate(files.card):
        if line.by_hand:
            continue
        old = statement_of(line.text)
        if same_fact(old, obs.statement) or same_slot_value(obs.statement, old):
            if not hedged:
                _merge(line, (obs.ref,), obs.day, obs.speaker_slug)
                line.premises = (*line.premises, entry.id)
                report.confirmed += 1
            return
        if not contradicts(obs.statement, old):
            continue
        if obs.first_hand and not hedged and (obs.day > line.day or marks_change(obs.statement)):
            files.archive_entry(line, obs.day, f"corrected by {entry.id}")
            for conflict in line.conflicts:
                files.archive_entry(conflict, obs.day, f"settled by {entry.id}")
            files.card[number] = _card_line(files, entry, obs)
            report.corrected += 1
        else:
            conflict = _card_line(files, entry, obs)
            line.conflicts.append(replace(conflict, id="", status="open"))
            report.opened += 1
        return
    if not hedged:
        files.card.append(_card_line(files, entry, obs))
        report.carded += 1


def card_from_ledger(files: PersonFiles, limits: PeopleLimits, today: str) -> FoldReport:
    """Fold every ledger observation into the card again, oldest first (a rebuild)."""
    report = FoldReport()
    for entry in sorted(files.observations, key=lambda e: (e.day, e.id)):
        if entry.kind != "observation" or not entry.refs or entry.by_hand:
            continue
        speaker, _, statement = entry.text.partition(": ")
        obs = Observation(
            files.slug,
            speaker,
            entry.by,
            statement or entry.text,
            entry.refs[0],
            entry.day,
            False,
        )
        _card(files, entry, obs, limits, report)
        if len(entry.refs) > 1 and files.card and files.card[-1].premises == (entry.id,):
            files.card[-1].refs = entry.refs
    report.archived += enforce_limits(files, limits, today)
    return report


def _card_line(files: PersonFiles, entry: Entry, obs: Observation) -> Entry:
    return Entry(
        files.next_id("c"),
        entry.text,
        (obs.ref,),
        day=obs.day,
        by=obs.speaker_slug,
        premises=(entry.id,),
    )


def _usage(entry: Entry, premises: set[str]) -> tuple[int, int, str]:
    return (1 if entry.id in premises else 0, entry.uses + entry.seen, entry.day)


def enforce_limits(files: PersonFiles, limits: PeopleLimits, today: str) -> int:
    """Move the least used ledger entries and card lines over ``max_entries`` to the
    archive; how many moved."""
    moved = 0
    premises = {p for line in files.card for p in line.premises}
    for attr in ("observations", "card"):
        entries: list[Entry] = getattr(files, attr)
        generated = [e for e in entries if not e.by_hand]  # hand-written lines stay
        excess = len(generated) - limits.max_entries
        if excess <= 0:
            continue
        ranked = sorted(generated, key=lambda e: _usage(e, premises))
        leaving = {id(e) for e in ranked[:excess]}
        for entry in ranked[:excess]:
            files.archive_entry(entry, today, "over the limit (least used)")
        setattr(files, attr, [e for e in entries if id(e) not in leaving])
        moved += excess
    return moved


def is_card_worthy(text: str) -> bool:
    """A conclusion that may stand on a card: not a pattern, not a doubt."""
    return not is_induction(text) and not is_hedged(text)
