"""``forget``: delete every line that mentions a text, everywhere, history included.

In daily notes a forgotten line becomes ``- [forgotten]`` so that line numbers, which
other items cite, stay valid.

The only operation that deletes what a user said. Plan first (what would go), then apply
after the user confirms; the whole change is one atomic commit.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from memory.atomic import file_lock
from memory.dream.short_term import FILE as SHORT_TERM
from memory.dream.short_term import ShortTerm, load_short_term_text
from memory.dream.state import history_dir, root_lock
from memory.errors import UsageError
from memory.paths import MemoryRoot
from memory.provenance import strip_comments
from memory.recall_store import parse_recall, recalls_lock, store_path
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
        files += sorted(root.reports_dir.glob("*/*.md")) if root.reports_dir.is_dir() else []
        folder = history_dir(root)
        files += sorted(folder.glob("*/*.md")) if folder.is_dir() else []
        # the dream's stores hold what was said (candidates) and asked (recall queries)
        files += sorted(folder.glob(f"*/{SHORT_TERM}")) if folder.is_dir() else []
        files += [root.state_dir / SHORT_TERM, store_path(root)]
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
    return plan


def _recalls_forgotten(line: str, plan: ForgetPlan) -> bool:
    """A recall that showed a line being forgotten is forgotten with it (the notes are
    read before the recall store, so the plan already holds their lines)."""
    recall = parse_recall(line)
    if recall is None:
        return False
    gone = {(p, n) for p, n, _ in plan.matches}
    return any((ref.path, n) in gone for ref in recall.refs for n in ref.lines())


def apply_forget(root: MemoryRoot, plan: ForgetPlan) -> int:
    """Remove the planned lines (re-checked under the lock); the number removed."""
    # The recall store's writers take only its own lock: hold it too, so that no recall
    # appended meanwhile is lost when its file is rewritten.
    with root_lock(root), file_lock(recalls_lock(root)):
        fresh = plan_forget(root, plan.text)
        txn = Transaction(root)
        removed = 0
        for relative in fresh.files:
            path = root.resolve(relative)
            drop = {n for p, n, _ in fresh.matches if p == relative}
            content = path.read_text(encoding="utf-8")
            if _is_daily_note(root, path):
                # Keep the numbering: items elsewhere cite these notes by line.
                lines = content.splitlines()
                kept = [TOMBSTONE if n in drop else line for n, line in enumerate(lines, 1)]
                text = "\n".join(kept) + ("\n" if kept else "")
            else:
                text = _without(path, content, fresh.text.casefold(), drop)
            removed += len(drop)
            if text or _is_daily_note(root, path) or path == root.memory_md:
                txn.write(relative, text)
            else:
                txn.delete(relative)
        if removed:
            txn.commit()
        return removed
