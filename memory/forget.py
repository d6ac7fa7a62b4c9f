"""``forget``: delete every line that mentions a text, everywhere, history included.

In daily notes a forgotten line becomes ``- [forgotten]`` (in a session log, a turn whose
content is ``[forgotten]``) so that line numbers, which other items cite, stay valid.

The only operation that deletes what a user said. Plan first (what would go), then apply
after the user confirms; the whole change is one atomic commit.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from memory import session_log
from memory.dream.state import history_dir, root_lock
from memory.errors import UsageError
from memory.paths import MemoryRoot
from memory.provenance import strip_comments
from memory.textfile import read_optional
from memory.transaction import Transaction
from memory.wording import plural

MIN_CHARS = 2
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
            return f"nothing mentions {self.text!r}"
        lines, files = len(self.matches), len(self.files)
        verb = "mentions" if lines == 1 else "mention"
        return f"{plural(lines, 'line')} in {plural(files, 'file')} {verb} {self.text!r}"


def _files(root: MemoryRoot) -> list[Path]:
    files = [root.memory_md]
    if root.notes_dir.is_dir():
        files += sorted(root.notes_dir.glob("*.md"))
        files += sorted(root.diary_dir.glob("*.md")) if root.diary_dir.is_dir() else []
        folder = history_dir(root)
        files += sorted(folder.glob("*/*.md")) if folder.is_dir() else []
    return [f for f in files if f.is_file()]


def plan_forget(root: MemoryRoot, text: str) -> ForgetPlan:
    needle = text.strip()
    if len(needle) < MIN_CHARS:
        raise UsageError(f"forget needs at least {MIN_CHARS} characters to match")
    plan = ForgetPlan(needle)
    lowered = needle.casefold()
    for path in _files(root):
        content = read_optional(path)  # an undecodable file is reported and left alone
        for number, line in enumerate((content or "").splitlines(), start=1):
            if line.startswith("#"):
                continue
            if line != TOMBSTONE and lowered in strip_comments(line).casefold():
                plan.matches.append((root.relative(path), number, line))
    plan.matches += session_log.matching_lines(root, needle)
    return plan


def apply_forget(root: MemoryRoot, plan: ForgetPlan) -> int:
    """Remove the planned lines (re-checked under the lock); the number removed."""
    with root_lock(root), session_log.writers_paused(root):
        fresh = plan_forget(root, plan.text)
        txn = Transaction(root)
        removed = 0
        for relative in fresh.files:
            path = root.resolve(relative)
            drop = {n for p, n, _ in fresh.matches if p == relative}
            if session_log.is_session_path(relative):  # tombstones keep the numbering
                removed += len(drop)
                txn.write(relative, session_log.forgotten_text(path, drop))
                continue
            lines = path.read_text(encoding="utf-8").splitlines()
            if _is_daily_note(root, path):
                # Keep the numbering: items elsewhere cite these notes by line.
                kept = [TOMBSTONE if n in drop else line for n, line in enumerate(lines, 1)]
            else:
                kept = [line for n, line in enumerate(lines, start=1) if n not in drop]
            removed += len(drop)
            txn.write(relative, "\n".join(kept) + ("\n" if kept else ""))
        if removed:
            txn.commit()
            # The search index is derived and may hold the forgotten words (in its tables
            # and free pages): it goes, and the next search rebuilds it from the files.
            shutil.rmtree(root.index_dir, ignore_errors=True)
        return removed
