"""``forget``: delete every line that mentions a text, everywhere, history included.

In daily notes a forgotten line becomes ``- [forgotten]`` (in a session log, a turn whose
content is ``[forgotten]``) so that line numbers, which other items cite, stay valid.

The only operation that deletes what a user said. Plan first (what would go), then apply
after the user confirms; the whole change is one atomic commit.
"""

from __future__ import annotations

import contextlib
import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from memory import session_log
from memory.atomic import file_lock
from memory.daily_notes import note_lock, repair_note
from memory.dream.short_term import FILE as SHORT_TERM
from memory.dream.short_term import ShortTerm, load_short_term_text
from memory.dream.state import (
    ABSENT,
    OPTIONAL_FILES,
    SNAPSHOT_FILES,
    content_hash,
    history_dir,
    root_lock,
)
from memory.dream.text_memo import FILE as TEXT_MEMO
from memory.errors import UsageError
from memory.paths import NOTE_NAME, MemoryRoot
from memory.provenance import strip_comments
from memory.recall_store import parse_recall, recalls_lock, store_path
from memory.textfile import read_optional
from memory.transaction import Fault, Transaction
from memory.wording import plural, quoted

MIN_CHARS = 2
STORES = (SHORT_TERM, "recalls.jsonl")
TOMBSTONE = "- [forgotten]"


def _is_daily_note(root: MemoryRoot, path: Path) -> bool:
    return path.parent == root.notes_dir and path.name != root.archive.name


@dataclass
class ForgetPlan:
    text: str
    matches: list[tuple[str, int, str]] = field(default_factory=list)  # (path, line, text)

    @property
    def files(self) -> list[str]:
        return sorted({path for path, _, _ in self.matches})

    def summary(self) -> str:
        if not self.matches:
            return f"nothing mentions {quoted(self.text)}"
        lines, files = len(self.matches), len(self.files)
        verb = "mentions" if lines == 1 else "mention"
        return f"{plural(lines, 'line')} in {plural(files, 'file')} {verb} {quoted(self.text)}"


def _files(root: MemoryRoot) -> list[Path]:
    files = [root.memory_md]
    if root.notes_dir.is_dir():
        files += sorted(root.notes_dir.glob("*.md"))
        files += sorted(root.diary_dir.glob("*.md")) if root.diary_dir.is_dir() else []
        files += sorted(root.reports_dir.glob("*/*.md")) if root.reports_dir.is_dir() else []
        folder = history_dir(root)
        files += sorted(folder.glob("*/*.md")) if folder.is_dir() else []
        # the dream's stores hold what was said (candidates) and asked (recall queries)
        files += sorted(folder.glob(f"*/{SHORT_TERM}")) if folder.is_dir() else []
        files += [root.state_dir / SHORT_TERM, store_path(root)]
    people = root.path / "people"  # group members' cards, ledgers and archives
    if people.is_dir():
        files += sorted(p for p in people.glob("*/*.md") if root.contains(p))
    return [f for f in files if f.is_file()]


def _without(path: Path, content: str, lowered: str, drop: set[int]) -> str:
    """The new text of a file once the planned lines are gone."""
    lines = content.splitlines()
    if path.name == SHORT_TERM:  # JSON, one candidate a line: drop those that mention it
        store = load_short_term_text(content)
        left = {
            key: c
            for key, c in store.candidates.items()
            if lowered not in json.dumps(c.to_dict(), ensure_ascii=False).casefold()
        }
        return ShortTerm(left).render() or ""
    kept = [line for n, line in enumerate(lines, start=1) if n not in drop]
    return "\n".join(kept) + ("\n" if kept else "")


def plan_forget(root: MemoryRoot, text: str) -> ForgetPlan:
    needle = text.strip()
    if len(needle) < MIN_CHARS:
        raise UsageError(f"forget needs at least {MIN_CHARS} characters to match")
    plan = ForgetPlan(needle)
    lowered = needle.casefold()
    recalls = store_path(root)
    for path in _files(root):
        content = read_optional(path)  # an undecodable file is reported and left alone
        for number, line in enumerate((content or "").splitlines(), start=1):
            if line.startswith("#"):
                continue
            if (line != TOMBSTONE and lowered in strip_comments(line).casefold()) or (
                path == recalls and _recalls_forgotten(line, plan)
            ):
                plan.matches.append((root.relative(path), number, line))
    plan.matches += session_log.matching_lines(root, needle)
    return plan


def _recalls_forgotten(line: str, plan: ForgetPlan) -> bool:
    """A recall that showed a line being forgotten is forgotten with it (the notes are
    read before the recall store, so the plan already holds their lines)."""
    recall = parse_recall(line)
    if recall is None:
        return False
    gone = {(p, n) for p, n, _ in plan.matches}
    return any((ref.path, n) in gone for ref in recall.refs for n in ref.lines())


def _lock_notes(
    root: MemoryRoot, stack: contextlib.ExitStack[bool | None], held: set[str], files: list[str]
) -> None:
    """Take the append lock of every daily note in ``files`` not held yet (sorted, so two
    forgets cannot deadlock; appenders hold one lock at a time), and cut back any append
    a killed writer left."""
    for relative in sorted(set(files) - held):
        path = root.resolve(relative)
        if NOTE_NAME.match(path.name) and _is_daily_note(root, path):
            stack.enter_context(file_lock(note_lock(root, path)))
            repair_note(root, path)
        elif session_log.is_session_path(relative):
            stack.enter_context(file_lock(session_log.lock_path(root, path)))
        held.add(relative)


def _rehash_snapshots(root: MemoryRoot, txn: Transaction, rewritten: dict[str, str]) -> None:
    """Snapshots forget rewrote keep hashes that match, so undo can still verify them."""
    history = root.relative(history_dir(root)) + "/"
    folders = {r.rsplit("/", 1)[0] for r in rewritten if r.startswith(history)}
    for folder in sorted(folders):
        meta_path = root.resolve(f"{folder}/meta.json")
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(meta, dict) or not isinstance(meta.get("sha256"), dict):
            continue  # an old snapshot without hashes, or not one at all
        names = SNAPSHOT_FILES + tuple(n for n in OPTIONAL_FILES if n in meta["sha256"])
        for name in names:
            relative = f"{folder}/{name}"
            text = rewritten.get(relative)
            if text is None:
                text = read_optional(root.resolve(relative))
            if text is not None:
                meta["sha256"][name] = content_hash(text)
        txn.write(root.relative(meta_path), json.dumps(meta, ensure_ascii=False, indent=2))


def apply_forget(root: MemoryRoot, plan: ForgetPlan, *, fault: Fault | None = None) -> int:
    """Remove the planned lines (re-checked under the locks); the number removed.

    Daily notes are rewritten under the same per-note lock appends take, held through the
    commit, so a line appended while forget runs is never lost."""
    # The recall store's writers take only its own lock: hold it too, so that no recall
    # appended meanwhile is lost when its file is rewritten.
    with root_lock(root), file_lock(recalls_lock(root)), contextlib.ExitStack() as stack:
        held: set[str] = set()
        fresh = plan_forget(root, plan.text)
        while set(fresh.files) - held:
            _lock_notes(root, stack, held, fresh.files)
            fresh = plan_forget(root, plan.text)
        txn = Transaction(root)
        removed = 0
        rewritten: dict[str, str] = {}
        for relative in fresh.files:
            path = root.resolve(relative)
            drop = {n for p, n, _ in fresh.matches if p == relative}
            if session_log.is_session_path(relative):  # tombstones keep the numbering
                removed += len(drop)
                text, size = session_log.forgotten_text(path, drop)
                lock = session_log.lock_path(root, path)
                txn.write_appendable(relative, text, size=size, lock=lock)
                continue
            raw = path.read_bytes()
            content = raw.decode("utf-8")
            removed += len(drop)
            if _is_daily_note(root, path):
                # Keep the numbering: items elsewhere cite these notes by line.
                lines = content.splitlines()
                kept = [TOMBSTONE if n in drop else line for n, line in enumerate(lines, 1)]
                text = "\n".join(kept) + ("\n" if kept else "")
                txn.write_appendable(relative, text, size=len(raw), lock=note_lock(root, path))
                continue
            text = _without(path, content, fresh.text.casefold(), drop)
            if not text and path.name == SHORT_TERM and path.parent != root.state_dir:
                text = ABSENT  # a snapshot's copy: undo then restores no store at all
            if text or path.name not in STORES:
                rewritten[relative] = text
                txn.write(relative, text)
            else:  # the dream's own stores go when nothing is left in them
                txn.delete(relative)
        _rehash_snapshots(root, txn, rewritten)
        if removed:
            txn.commit(fault)
            # The search index is derived and may hold the forgotten words (in its tables
            # and free pages): it goes, and the next search rebuilds it from the files.
            shutil.rmtree(root.index_dir, ignore_errors=True)
            (root.state_dir / TEXT_MEMO).unlink(missing_ok=True)  # the dream's, likewise
        return removed
