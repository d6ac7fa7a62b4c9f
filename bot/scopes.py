"""Where each chat scope keeps its memory, and the visible map of scopes to folders.

The owner (the terminal and the web console) uses the workspace itself; every other chat
gets ``<workspace>/scopes/<platform>/<user|group>-<name>/``. ``<name>`` comes from the chat
id by :func:`folder_name`, an encoding no two ids share: letters, digits and ``_.@-`` stay
as they are (so ``42`` or ``家庭群`` stay readable), every other character becomes ``%XX``
(its UTF-8 bytes, ``%`` itself included), and an id too long for a file name becomes ``~``
and its full SHA-256. ``scopes/index.json`` maps each scope key to its folder and last
known display name, so ``/memory status`` can show it, and refuses two keys on one folder.

Folders named by the first scheme (which gave every non-ASCII id ``id-<8 hex>``, a name
any chat could also be called) are renamed to their new names when the directory opens;
a folder the index shows two chats using is set aside as ``shared~<name>`` for a person to
sort out, since nobody can tell whose lines are whose.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path

from bot.errors import ScopeConflict
from bot.messages import Scope
from memory.atomic import atomic_write_text
from memory.folder_names import folder_name
from memory.paths import MemoryRoot
from memory.recovery import ensure_recovered

log = logging.getLogger(__name__)

OWNER_PLATFORMS = frozenset({"terminal", "web"})
_LEGACY_UNSAFE = re.compile(r"[^A-Za-z0-9_.@-]+")


def legacy_safe_id(chat_id: str) -> str:
    """The first scheme's name for ``chat_id`` (not injective); kept to find old folders."""
    cleaned = _LEGACY_UNSAFE.sub("_", chat_id).strip("._") or "id"
    if cleaned == chat_id and len(chat_id) <= 64:
        return cleaned
    digest = hashlib.sha1(chat_id.encode("utf-8")).hexdigest()[:8]
    return f"{cleaned[:48]}-{digest}"


@dataclass(frozen=True)
class ScopeEntry:
    key: str
    folder: str  # relative to the workspace; "." for the owner
    title: str


def _scope_of(key: str) -> Scope | None:
    parts = key.split(":", 2)
    if len(parts) != 3 or parts[1] not in {"user", "group"}:
        return None
    return Scope(parts[0], parts[2], parts[1] == "group")


class ScopeDirectory:
    """Maps scopes to memory roots; thread-safe."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace
        self.index_path = workspace / "scopes" / "index.json"
        self._lock = threading.Lock()
        self._entries: dict[str, ScopeEntry] = self._read()
        if self._migrate():
            self._write()

    def _read(self) -> dict[str, ScopeEntry]:
        try:
            data = json.loads(self.index_path.read_text(encoding="utf-8"))
            return {k: ScopeEntry(k, v["folder"], v.get("title", "")) for k, v in data.items()}
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            log.error("scope index %s unreadable (%s); rebuilding it", self.index_path, exc)
            return {}

    def _write(self) -> None:
        data = {e.key: {"folder": e.folder, "title": e.title} for e in self._entries.values()}
        try:
            atomic_write_text(self.index_path, json.dumps(data, ensure_ascii=False, indent=1))
        except OSError as exc:  # bookkeeping: the chat goes on, the next change retries
            log.error("cannot save the scope index %s: %s", self.index_path, exc)

    # migration from the first naming scheme ----------------------------------------

    def _migrate(self) -> bool:
        """Point every entry at its folder by the current scheme; True if any changed."""
        claims: dict[str, list[str]] = {}
        for entry in self._entries.values():
            if entry.folder != ".":
                claims.setdefault(entry.folder, []).append(entry.key)
        for folder, keys in claims.items():
            if len(keys) > 1:
                self._set_aside(folder, keys)
        changed = False
        for entry in list(self._entries.values()):
            scope = _scope_of(entry.key)
            if scope is None:
                continue
            folder = self.folder_for(scope)
            if entry.folder == folder:
                continue
            if len(claims.get(entry.folder, ())) == 1 and entry.folder == _legacy_folder(scope):
                self._move(entry.folder, folder)
            self._entries[entry.key] = ScopeEntry(entry.key, folder, entry.title)
            changed = True
        return changed

    def _move(self, old: str, new: str) -> None:
        source, target = self.workspace / old, self.workspace / new
        if not source.is_dir():
            return
        if target.exists():
            log.warning("scope folder %s not moved: %s exists already", old, new)
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        os.rename(source, target)
        log.info("scope folder %s renamed to %s (new naming scheme)", old, new)

    def _set_aside(self, folder: str, keys: list[str]) -> None:
        source = self.workspace / folder
        if not source.is_dir() or ".." in Path(folder).parts or folder.startswith("/"):
            return
        target = source.with_name(f"shared~{source.name}")
        number = 1
        while target.exists():
            number += 1
            target = source.with_name(f"shared~{source.name}~{number}")
        os.rename(source, target)
        log.error(
            "chats %s shared the memory folder %s; it is set aside as %s: move its files "
            "by hand to the chat they belong to",
            ", ".join(sorted(keys)),
            folder,
            self.workspace.joinpath(target).relative_to(self.workspace),
        )

    # lookups -----------------------------------------------------------------------

    @staticmethod
    def is_owner(scope: Scope) -> bool:
        return scope.platform in OWNER_PLATFORMS

    def folder_for(self, scope: Scope) -> str:
        if self.is_owner(scope):
            return "."
        kind = "group" if scope.is_group else "user"
        return f"scopes/{folder_name(scope.platform)}/{kind}-{folder_name(scope.chat_id)}"

    def _holder(self, key: str, folder: str) -> str | None:
        """Another key already on ``folder`` (or on the same directory, where the file
        system folds case or Unicode forms)."""
        target = self.workspace / folder
        for entry in self._entries.values():
            if entry.key == key or entry.folder == ".":
                continue
            if entry.folder == folder:
                return entry.key
            other = self.workspace / entry.folder
            if target.exists() and other.exists() and os.path.samefile(target, other):
                return entry.key
        return None

    def root_for(self, scope: Scope) -> MemoryRoot:
        """The scope's memory root (created on first use), recording it in the index.

        Raises :class:`ScopeConflict` when another chat holds the folder."""
        folder = self.folder_for(scope)
        with self._lock:
            known = self._entries.get(scope.key)
            title = scope.title or (known.title if known else "")
            if known is None or known.title != title or known.folder != folder:
                holder = None if folder == "." else self._holder(scope.key, folder)
                if holder is not None:
                    raise ScopeConflict(
                        f"the memory folder {folder} already belongs to {holder}; "
                        f"refusing to share it with {scope.key}"
                    )
                self._entries[scope.key] = ScopeEntry(scope.key, folder, title)
                (self.workspace / folder / "memory").mkdir(parents=True, exist_ok=True)
                self._write()
        root = MemoryRoot.at(self.workspace / folder)
        ensure_recovered(root)  # what a crashed writer left is finished before any read
        return root

    def recover_all(self) -> int:
        """Recover the workspace and every chat's root (at start); how many needed it."""
        roots = {MemoryRoot.at(self.workspace / e.folder) for e in self.entries()}
        roots.add(MemoryRoot.at(self.workspace))
        return sum(1 for root in sorted(roots, key=str) if ensure_recovered(root))

    def entries(self) -> list[ScopeEntry]:
        with self._lock:
            return sorted(self._entries.values(), key=lambda e: e.key)

    def entry(self, key: str) -> ScopeEntry | None:
        with self._lock:
            return self._entries.get(key)

    def session_path(self, scope: Scope) -> Path:
        folder = self.root_for(scope).notes_dir / ".bot" / "sessions"
        path = folder / f"{folder_name(scope.key)}.json"
        legacy = folder / f"{legacy_safe_id(scope.key)}.json"
        if legacy != path and legacy.exists() and not path.exists():
            os.rename(legacy, path)  # saved under the first naming scheme
        return path

    def scope_from_key(self, key: str) -> Scope | None:
        """Rebuild a scope from its key (``platform:user|group:chat_id``)."""
        scope = _scope_of(key)
        if scope is None:
            return None
        entry = self.entry(key)
        return Scope(scope.platform, scope.chat_id, scope.is_group, entry.title if entry else "")


def _legacy_folder(scope: Scope) -> str:
    kind = "group" if scope.is_group else "user"
    return f"scopes/{legacy_safe_id(scope.platform)}/{kind}-{legacy_safe_id(scope.chat_id)}"
