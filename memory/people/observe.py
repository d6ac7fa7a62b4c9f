"""Note (or session) lines -> observations about the people of a chat, attributed.

A line ``- 王芳: 李四下个月结婚`` is an observation about 李四 *from* 王芳; ``- 李四: 我家在
南山区`` one about 李四 from himself (a self-statement). The speaker is the line's label in
the chat's directory (longest label first, so ``张三2`` is never read as ``张三``); the
subjects are the speaker when they speak of themselves ("我", "I", "my", or their own
name) and every other member the line names. Chatter, questions and lines about nobody
give no observation. The lines come from any evidence source whose line text is
``speaker: statement`` (the daily notes today; the session log plugs in the same way).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from memory.chatter import is_chatter, is_question
from memory.daily_notes import NoteLine
from memory.people.directory import Directory, Person
from memory.people.reasoning import (
    first_person,
    is_induction,
    mentions,
    only_addressed,
    speaks_for_a_group,
)
from memory.provenance import SourceRef
from memory.redact import MASK

_COLON = re.compile(r"^\s*[:：]\s*")
_STAMP = re.compile(r"^\[[^\]]{1,20}\]\s*")  # "[10:02] Ann: ...", "[D1:3] Ann: ..."
USER_ALIASES = ("用户", "User")


@dataclass(frozen=True)
class Observation:
    """What ``speaker`` said that concerns ``subject`` (a slug), from one source line."""

    subject: str
    speaker: str  # the label heading the line
    speaker_slug: str  # "" when the speaker has no lasting id
    statement: str
    ref: SourceRef
    day: str
    induction: bool

    @property
    def first_hand(self) -> bool:
        return self.subject == self.speaker_slug

    @property
    def text(self) -> str:
        return f"{self.speaker}: {self.statement}"


def speaker_of(text: str, labels: Sequence[str]) -> tuple[str, str] | None:
    """``("王芳", "李四下个月结婚")`` for ``"王芳: 李四下个月结婚"`` when 王芳 is a label (a
    leading ``[time]`` stamp is skipped)."""
    text = _STAMP.sub("", text, count=1)
    for label in labels:  # longest first
        if text.startswith(label):
            rest = text[len(label) :]
            colon = _COLON.match(rest)
            if colon:
                return label, rest[colon.end() :].strip()
    return None


def _names(person: Person) -> set[str]:
    return {person.name, *person.labels, *person.labels.values()}


def subjects(statement: str, speaker: Person | None, people: Iterable[Person]) -> list[Person]:
    """Who ``statement`` is about: the speaker speaking of themselves, and every other
    member it names (by any of their names; a longer name hides a shorter one inside it)."""
    out: list[Person] = []
    if speaker is not None and (
        (first_person(statement) and not speaks_for_a_group(statement))
        or any(mentions(statement, n) for n in _names(speaker))
    ):
        out.append(speaker)
    others = [p for p in people if speaker is None or p.slug != speaker.slug]
    named = {p.slug: max(_names(p), key=len) for p in others if _mentioned(statement, p)}
    for person in others:
        if person.slug not in named:
            continue
        longest = named[person.slug]
        hidden = any(
            longest != other and longest in other and mentions(statement, other)
            for slug, other in named.items()
            if slug != person.slug
        )
        if not hidden:
            out.append(person)
    return out


def _mentioned(statement: str, person: Person) -> bool:
    """Spoken of by one of their names (a name only called, "Thanks, Ann!", is no subject)."""
    return any(
        mentions(statement, n) and not only_addressed(statement, n)
        for n in _names(person)
        if len(n) >= 2 or not n.isascii()
    )


def worth_observing(statement: str) -> bool:
    return not (is_chatter(statement) or is_question(statement) or MASK in statement)


def observations(lines: Sequence[NoteLine], directory: Directory) -> list[Observation]:
    """Every observation the lines hold, oldest first."""
    labels = directory.labels()
    if len(directory.people) == 1 and not directory.others:
        # a private chat (people_enabled "all"): its notes call its one person the user
        (only,) = directory.people.values()
        for alias in USER_ALIASES:
            labels.setdefault(alias, only)
    order = sorted({*labels, *directory.others.values()}, key=lambda s: (-len(s), s))
    people = sorted(directory.people.values(), key=lambda p: p.slug)
    out: list[Observation] = []
    for line in lines:
        said = speaker_of(line.text, order)
        if said is None:
            continue
        label, statement = said
        if not worth_observing(statement):
            continue
        speaker = labels.get(label)
        ref = SourceRef(line.path, line.line, line.line)
        for subject in subjects(statement, speaker, people):
            out.append(
                Observation(
                    subject.slug,
                    label,
                    speaker.slug if speaker else "",
                    statement,
                    ref,
                    line.day.isoformat(),
                    is_induction(statement),
                )
            )
    return out
