"""Where each chat scope keeps its memory, and the visible map of scopes to folders.

The owner (the terminal and the web console) uses the workspace itself; every other chat
gets ``<workspace>/scopes/<platform>/<user|group>-<id>/``. ``scopes/index.json`` maps each
scope key to its folder and last known display name, so ``/memory status`` can show it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
from dataclasses import dataclass
from pathlib import Path

from bot.messages import Scope
from memory.atomic import atomic_write_text
from memory.paths import MemoryRoot

log = logging.getLogger(__name__)

OWNER_PLATFORMS = frozenset({"terminal", "web"})
_SAFE = re.compile(r"[^A-Za-z0-9_.@-]+")


def safe_id(chat_id: str) -> str:
    """A folder-safe form of ``chat_id``; a short hash keeps distinct ids distinct."""
    cleaned = _SAFE.sub("_", chat_id).strip("._") or "id"
    if cleaned == chat_id and len(chat_id) <= 64:
        return cleaned
    digest = hashlib.sha1(chat_id.encode("utf-8")).hexdigest()[:8]
    return f"{cleaned[:48]}-{digest}"


@dataclass(frozen=True)
class ScopeEntry:
    key: str
    folder: str  # relative to the workspace; "." for the owner
    title: str


class ScopeDirectory:
    """Maps scopes to memory roots; thread-safe."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace
        self.index_path = workspace / "scopes" / "index.json"
        self._lock = threading.Lock()
        self._entries: dict[str, ScopeEntry] = self._read()

    def _read(self) -> dict[str, ScopeEntry]:
        try:
            data = json.loads(self.index_path.read_text(encoding="utf-8"))
            return {k: ScopeEntry(k, v["folder"], v.get("title", "")) for k, v in data.items()}
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.error("scope index %s unreadable (%s); rebuilding it", self.index_path, exc)
            return {}

    def _write(self) -> None:
        data = {e.key: {"folder": e.folder, "title": e.title} for e in self._entries.values()}
        atomic_write_text(self.index_path, json.dumps(data, ensure_ascii=False, indent=1))

    @staticmethod
    def is_owner(scope: Scope) -> bool:
        return scope.platform in OWNER_PLATFORMS

    def folder_for(self, scope: Scope) -> str:
        if self.is_owner(scope):
            return "."
        kind = "group" if scope.is_group else "user"
        return f"scopes/{safe_id(scope.platform)}/{kind}-{safe_id(scope.chat_id)}"

    def root_for(self, scope: Scope) -> MemoryRoot:
        """The scope's memory root (created on first use), recording it in the index."""
        folder = self.folder_for(scope)
        root = MemoryRoot.at(self.workspace / folder)
        with self._lock:
            known = self._entries.get(scope.key)
            title = scope.title or (known.title if known else "")
            if known is None or known.title != title or known.folder != folder:
                self._entries[scope.key] = ScopeEntry(scope.key, folder, title)
                root.notes_dir.mkdir(parents=True, exist_ok=True)
                self._write()
        return root

    def root_of_key(self, key: str) -> MemoryRoot | None:
        with self._lock:
            entry = self._entries.get(key)
        return MemoryRoot.at(self.workspace / entry.folder) if entry else None

    def entries(self) -> list[ScopeEntry]:
        with self._lock:
            return sorted(self._entries.values(), key=lambda e: e.key)

    def entry(self, key: str) -> ScopeEntry | None:
        with self._lock:
            return self._entries.get(key)

    def session_path(self, scope: Scope) -> Path:
        root = self.root_for(scope)
        return root.notes_dir / ".bot" / "sessions" / f"{safe_id(scope.key)}.json"

    def scope_from_key(self, key: str) -> Scope | None:
        """Rebuild a scope from its key (``platform:user|group:chat_id``)."""
        parts = key.split(":", 2)
        if len(parts) != 3 or parts[1] not in {"user", "group"}:
            return None
        entry = self.entry(key)
        return Scope(parts[0], parts[2], parts[1] == "group", entry.title if entry else "")
