"""Forgetting one person: their card, ledger and archive, and their entry in the people
index, in one transaction. Their labels stay retired (as hashes), so a newcomer with the
same name is never taken for them and old note lines are never attributed again; the
note lines themselves are the text ``forget``'s to delete."""

from __future__ import annotations

from dataclasses import dataclass

from memory.atomic import file_lock
from memory.dream.state import root_lock
from memory.paths import MemoryRoot
from memory.people.directory import INDEX, Person, load_directory, lock_path
from memory.people.files import person_dir
from memory.transaction import Fault, Transaction


@dataclass(frozen=True)
class PersonForget:
    person: Person
    files: tuple[str, ...]  # root-relative
    lines: int


def plan_forget_person(root: MemoryRoot, person: Person) -> PersonForget:
    folder = person_dir(root, person.slug)
    files = sorted(p for p in folder.glob("*.md") if root.contains(p)) if folder.is_dir() else []
    lines = sum(
        1
        for path in files
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
        if line.lstrip().startswith("- ")
    )
    return PersonForget(person, tuple(root.relative(p) for p in files), lines)


def forget_person(root: MemoryRoot, slug: str, *, fault: Fault | None = None) -> bool:
    """Delete the person ``slug`` (under the dream lock and the index lock); False when
    there is no such person any more."""
    with root_lock(root), file_lock(lock_path(root)):
        directory = load_directory(root)
        person = directory.remove(slug)
        if person is None:
            return False
        txn = Transaction(root)
        txn.write(INDEX, directory.render())
        for path in plan_forget_person(root, person).files:
            txn.delete(path)
        txn.commit(fault)
        folder = person_dir(root, slug)
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
        return True
