"""Who the members of a chat are: ``<root>/people/index.json``.

A person is keyed by a stable platform id (``telegram:42``; ``wechat:<WeChat ID or remark>``;
``owner`` for the terminal and the web console), never by a display name, which anyone
can copy. Their folder, ``people/<slug>/``, is named by :func:`person_slug`, an encoding no
two ids share.

Each display name a person uses gets a **label**, the name the bot writes in the notes
(``- 张三: …``). Labels are unique within the chat and never handed to anyone else: the
first person called 张三 is ``张三``, a second one ``张三2``. A renamed person keeps every
label they had, so old note lines still point at them; a speaker with no lasting id (a
WeChat group member who is not a friend) claims a label too, without a person behind it,
so that nobody's lines are ever taken for theirs.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from memory.atomic import atomic_write_text, file_lock
from memory.folder_names import folder_name
from memory.paths import MemoryRoot

log = logging.getLogger(__name__)

FOLDER = "people"
INDEX = f"{FOLDER}/index.json"  # root-relative
OWNER_ID = "owner"
MAX_NAME_CHARS = 32
_UNSAFE_NAME = re.compile(r"[:：\s#<>`]+")


def person_slug(person_id: str) -> str:
    """``telegram:42`` -> ``telegram-42``; ``owner`` -> ``owner``. Injective: the platform
    holds no ``-`` and the rest is encoded by :func:`folder_name`."""
    platform, sep, rest = person_id.partition(":")
    if not sep:
        return folder_name(person_id)
    return f"{folder_name(platform.replace('-', '_'))}-{folder_name(rest)}"


def retired_hash(label: str) -> str:
    return hashlib.sha256(label.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def clean_name(name: str) -> str:
    """A display name fit to head a note line: no colon, ``#`` or markup, one line, short."""
    cleaned = " ".join(_UNSAFE_NAME.sub(" ", name).split())[:MAX_NAME_CHARS].strip()
    return cleaned or "member"


def folder(root: MemoryRoot) -> Path:
    return root.path / FOLDER


def index_path(root: MemoryRoot) -> Path:
    return root.path / INDEX


def lock_path(root: MemoryRoot) -> Path:
    """Held by every writer of the index (sightings, forget)."""
    return root.state_dir / "locks" / "people-index.lock"


@dataclass
class Person:
    """One member: their stable id, current display name and every label they had."""

    id: str
    name: str
    labels: dict[str, str] = field(default_factory=dict)  # display name -> label
    first_seen: str = ""
    last_seen: str = ""

    @property
    def slug(self) -> str:
        return person_slug(self.id)

    @property
    def label(self) -> str:
        """The label of the current name (what the newest note lines say)."""
        return self.labels.get(self.name) or next(iter(self.labels.values()), self.name)

    def all_labels(self) -> set[str]:
        return set(self.labels.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "labels": self.labels,
            "first_seen": self.first_seen,
            "last_seen": self.last_seen,
        }


@dataclass
class Directory:
    """The people of one chat, and the labels speakers without a lasting id hold."""

    people: dict[str, Person] = field(default_factory=dict)  # by slug
    others: dict[str, str] = field(default_factory=dict)  # id-less display name -> label
    # the labels of forgotten people, as hashes: never handed out again, never readable
    retired: set[str] = field(default_factory=set)

    # lookups -----------------------------------------------------------------------

    def owner_of(self, label: str) -> Person | None:
        """The person a note label names (None: nobody, or a speaker with no lasting id)."""
        for person in self.people.values():
            if label in person.labels.values():
                return person
        return None

    def by_id(self, person_id: str) -> Person | None:
        return self.people.get(person_slug(person_id))

    def labels(self) -> dict[str, Person]:
        """Every person's labels, longest first (so ``张三2`` is matched before ``张三``)."""
        pairs = [(label, p) for p in self.people.values() for label in p.labels.values()]
        return dict(sorted(pairs, key=lambda kv: (-len(kv[0]), kv[0])))

    def taken(self, label: str) -> bool:
        held = {x for p in self.people.values() for x in p.labels.values()}
        return label in held or label in self.others.values() or retired_hash(label) in self.retired

    def find(self, query: str) -> list[Person]:
        """People a user's ``query`` names: the one whose label, slug or id it is; else
        those whose display name it is (ignoring case); else the names that start with it."""
        wanted = query.strip().casefold()
        if not wanted:
            return []
        people = sorted(self.people.values(), key=lambda p: p.slug)
        for test in (
            lambda p: wanted in {x.casefold() for x in (p.slug, p.id, *p.labels.values())},
            lambda p: wanted in {x.casefold() for x in (p.name, *p.labels)},
            lambda p: p.name.casefold().startswith(wanted),
        ):
            found = [p for p in people if test(p)]
            if found:
                return found
        return []

    # sightings ---------------------------------------------------------------------

    def _fresh_label(self, name: str) -> str:
        if not self.taken(name):
            return name
        number = 2
        while self.taken(f"{name}{number}"):
            number += 1
        return f"{name}{number}"

    def sight(self, person_id: str | None, name: str, when: datetime) -> tuple[str, bool]:
        """The label for a message by ``person_id`` (None: no lasting id) called ``name``,
        and whether the directory changed."""
        shown = clean_name(name)
        if person_id is None:
            if shown in self.others:
                return self.others[shown], False
            self.others[shown] = self._fresh_label(shown)
            return self.others[shown], True
        day = when.date().isoformat()
        slug = person_slug(person_id)
        person = self.people.get(slug)
        if person is None:
            person = Person(person_id, shown, {}, day, day)
            self.people[slug] = person
            person.labels[shown] = self._fresh_label(shown)
            return person.labels[shown], True
        changed = False
        if shown not in person.labels:
            person.labels[shown] = self._fresh_label(shown)
            changed = True
        if person.name != shown:
            person.name, changed = shown, True
        if person.last_seen != day:
            person.last_seen, changed = max(person.last_seen, day), True
        return person.labels[shown], changed

    def remove(self, slug: str) -> Person | None:
        """Take a person out (forget); their labels stay claimed, so nobody inherits them."""
        person = self.people.pop(slug, None)
        if person is not None:
            self.retired |= {retired_hash(label) for label in person.all_labels()}
        return person

    # files -------------------------------------------------------------------------

    def render(self) -> str:
        data = {
            "people": {slug: p.to_dict() for slug, p in sorted(self.people.items())},
            "others": dict(sorted(self.others.items())),
            "retired": sorted(self.retired),
        }
        return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def parse_directory(text: str) -> Directory:
    """The directory in ``text`` (an index.json); raises ValueError when malformed."""
    data = json.loads(text) if text.strip() else {}
    if not isinstance(data, dict):
        raise ValueError("the top level is not an object")
    out = Directory()
    for slug, raw in (data.get("people") or {}).items():
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
            raise ValueError(f"person {slug!r} has no id")
        labels = raw.get("labels") or {}
        if not isinstance(labels, dict):
            raise ValueError(f"person {slug!r}: labels is not an object")
        person = Person(
            raw["id"],
            str(raw.get("name") or ""),
            {str(k): str(v) for k, v in labels.items()},
            str(raw.get("first_seen") or ""),
            str(raw.get("last_seen") or ""),
        )
        out.people[person.slug] = person
    others = data.get("others") or {}
    if not isinstance(others, dict):
        raise ValueError("others is not an object")
    out.others = {str(k): str(v) for k, v in others.items()}
    out.retired = {str(x) for x in data.get("retired") or []}
    return out


def load_directory(root: MemoryRoot) -> Directory:
    """The chat's directory; empty when there is none. One that cannot be read is set
    aside (``index.json.bad``) with one logged line and started again: it holds no memory,
    only names, and the next messages fill it again."""
    path = index_path(root)
    try:
        return parse_directory(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Directory()
    except (OSError, ValueError) as exc:
        log.error("people index %s unreadable (%s); set aside as index.json.bad", path, exc)
        with contextlib.suppress(OSError):
            path.replace(path.with_name("index.json.bad"))
        return Directory()


@contextlib.contextmanager
def editing(root: MemoryRoot) -> Iterator[Directory]:
    """The directory under its writers' lock; written back on exit when it changed."""
    with file_lock(lock_path(root)):
        directory = load_directory(root)
        before = directory.render()
        yield directory
        after = directory.render()
        if after != before:
            atomic_write_text(index_path(root), after)


def record_sighting(root: MemoryRoot, person_id: str | None, name: str, when: datetime) -> str:
    """Record that ``person_id`` (None: no lasting id) spoke as ``name``; their label."""
    with file_lock(lock_path(root)):
        directory = load_directory(root)
        label, changed = directory.sight(person_id, name, when)
        if changed:
            atomic_write_text(index_path(root), directory.render())
        return label
