"""The people pass of a dream cycle: the window's lines -> each member's ledger and card.

It runs after the phases, under the root's dream lock, and writes every person's files in
one transaction (a crash leaves all old or all new). It is idempotent: an observation is
known by its source line, so a line read twice is folded once. A person whose files cannot
be read is left alone (reported), never overwritten.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from memory.daily_notes import NoteLine
from memory.dream.context import DreamContext
from memory.errors import MemoryEngineError
from memory.llm import ChatModel
from memory.paths import MemoryRoot
from memory.people.directory import load_directory
from memory.people.files import (
    ARCHIVE,
    CARD,
    OBSERVATIONS,
    PersonFiles,
    read_person,
    relative,
)
from memory.people.fold import FoldReport, card_from_ledger, fold
from memory.people.limits import PeopleLimits
from memory.people.observe import Observation, observations
from memory.people.wording import word_card
from memory.transaction import Fault, Transaction

log = logging.getLogger(__name__)


@dataclass
class PeopleReport:
    people: int = 0  # members with a card or ledger touched
    counts: FoldReport = field(default_factory=FoldReport)
    unreadable: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {"people": self.people, **vars(self.counts), "unreadable": self.unreadable}


def _write(txn: Transaction, files: PersonFiles) -> None:
    txn.write(relative(files.slug, OBSERVATIONS), files.render_observations())
    txn.write(relative(files.slug, CARD), files.render_card())
    if files.archive:
        txn.write(relative(files.slug, ARCHIVE), files.render_archive())


def refresh_people(
    root: MemoryRoot,
    lines: Sequence[NoteLine],
    today: str,
    limits: PeopleLimits,
    *,
    model: ChatModel | None = None,
    fault: Fault | None = None,
) -> PeopleReport | None:
    """Fold the observations ``lines`` hold into the people's files; None when the chat
    has no people directory (not a group that keeps people knowledge)."""
    directory = load_directory(root)
    if not directory.people:
        return None
    report = PeopleReport()
    about: dict[str, list[Observation]] = defaultdict(list)
    for obs in observations(lines, directory):
        about[obs.subject].append(obs)
    txn = Transaction(root)
    for slug, person in sorted(directory.people.items()):
        try:
            files = read_person(root, slug, person.name)
        except (OSError, ValueError) as exc:
            log.error("people files of %s unreadable (%s); left alone", slug, exc)
            report.unreadable.append(slug)
            continue
        before = (files.render_observations(), files.render_card(), files.render_archive())
        files.name = person.name
        counts = fold(files, about.get(slug, []), limits, today)
        if model is not None and (counts.observed or counts.inductions or counts.corrected):
            counts.add(word_card(files, model, limits))
        after = (files.render_observations(), files.render_card(), files.render_archive())
        if after != before:
            report.people += 1
            report.counts.add(counts)
            _write(txn, files)
    if txn.writes:
        txn.commit(fault)
    return report


def people_pass(
    ctx: DreamContext, limits: PeopleLimits, model: ChatModel | None
) -> dict[str, object] | None:
    """The people pass after a cycle's phases (the caller holds the dream lock): the
    window's lines into the people's files. Its failures are logged, never the dream's."""
    from memory.dream.session_source import SessionLog

    try:
        # the window's notes and its whole session logs (what was said, before any flush)
        said = SessionLog(ctx.root, ctx.now.date(), ctx.options.days, cursors={}).lines()
        report = refresh_people(
            ctx.root,
            [*ctx.inputs.notes, *said],
            ctx.now.date().isoformat(),
            limits,
            model=model if ctx.engine.name == "llm" else None,
        )
    except MemoryEngineError as exc:
        log.error("people pass on %s failed: %s", ctx.root.path, exc)
        return {"error": str(exc)}
    return None if report is None else report.to_dict()


def rebuild(
    root: MemoryRoot, slug: str, today: str, limits: PeopleLimits, *, model: ChatModel | None
) -> FoldReport:
    """Regenerate one person's card from their ledger (an admin's request): the old card
    lines go to the archive, then every observation is folded again, in order."""
    directory = load_directory(root)
    person = directory.people.get(slug)
    if person is None:
        raise KeyError(slug)
    files = read_person(root, slug, person.name)
    for line in files.card:
        if line.by_hand:
            continue
        files.archive_entry(line, today, "rebuilt")
        for conflict in line.conflicts:
            files.archive_entry(conflict, today, "rebuilt")
    files.card = [line for line in files.card if line.by_hand]  # hand-written lines stay
    counts = card_from_ledger(files, limits, today)
    if model is not None:
        counts.add(word_card(files, model, limits))
    txn = Transaction(root)
    _write(txn, files)
    txn.commit()
    return counts
