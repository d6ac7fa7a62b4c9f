"""The two tools the bot's model calls: ``memory_search`` and ``memory_get``.

Both return JSON-ready dicts. Failures the model should see (a path outside the memory,
search unavailable) come back as ``{"error": ...}`` with a one-line reason rather than an
exception, so the conversation can go on.
"""

from __future__ import annotations

from typing import Any

from memory.errors import MemoryEngineError, PathOutsideRoot, UsageError
from memory.paths import MemoryRoot
from memory.provenance import strip_comments
from memory.search.indexer import indexable_files
from memory.search.ranking import DEFAULT_MIN_SCORE
from memory.search.service import MemorySearch
from memory.session_log import display_line, is_session_path

MAX_GET_LINES = 200

TOOL_SCHEMAS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "memory_search",
            "description": (
                "Search long-term memory (MEMORY.md, daily notes and the log of what was said) "
                "for facts, preferences, past events and decisions. Returns snippets with file "
                "path and line numbers."
            ),
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "what to look for"},
                    "max_results": {"type": "integer", "minimum": 1, "maximum": 20, "default": 6},
                    "min_score": {
                        "type": "number",
                        "minimum": 0,
                        "default": DEFAULT_MIN_SCORE,
                    },
                },
                "required": ["query"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "memory_get",
            "description": (
                "Read lines of a memory file (MEMORY.md, memory/*.md, a session log "
                "sessions/*.jsonl, or a group member's card people/<id>/card.md), e.g. around "
                "a memory_search hit."
            ),
            "parameters": {
                "type": "object",
                "properties": {
                    "path": {"type": "string", "description": "path relative to the memory root"},
                    "start_line": {"type": "integer", "minimum": 1, "default": 1},
                    "num_lines": {"type": "integer", "minimum": 1, "maximum": 200, "default": 40},
                },
                "required": ["path"],
            },
        },
    },
]


def memory_search(
    svc: MemorySearch, query: str, max_results: int = 6, min_score: float = DEFAULT_MIN_SCORE
) -> dict[str, Any]:
    """``{"results": [hit, ...], "provider", "degraded"?}`` or ``{"error": ...}``."""
    try:
        hits = svc.search(query, limit=max(1, min(int(max_results), 20)), min_score=min_score)
    except MemoryEngineError as exc:
        return {"results": [], "error": str(exc)}
    status = svc.status()
    result: dict[str, Any] = {
        "results": [h.to_dict() for h in hits],
        "provider": status["provider"],
    }
    if status["degraded"]:
        result["degraded"] = status["degraded"]
    return result


def readable_path(root: MemoryRoot, path: str) -> str:
    """The root-relative path ``memory_get`` may serve; raises ``PathOutsideRoot`` otherwise.

    Allowed: ``MEMORY.md``, markdown files under ``memory/`` outside dot-folders (the
    dream diaries are readable too: they are the user's to see), the session logs, and the
    cards of the chat's members (``people/<slug>/card.md``; their ledgers stay out of the
    model's reach).
    """
    resolved = root.resolve(path.strip())
    relative = root.relative(resolved)
    allowed = {root.relative(p) for p in indexable_files(root)}
    if root.diary_dir.is_dir():  # a symlink out of the root is no memory file
        allowed |= {root.relative(p) for p in root.diary_dir.glob("*.md") if root.contains(p)}
    people = root.path / "people"  # group members' cards (never their ledgers)
    if people.is_dir():
        allowed |= {root.relative(p) for p in people.glob("*/card.md") if root.contains(p)}
    if relative not in allowed:
        raise PathOutsideRoot(
            f"not a memory file: {path} (only MEMORY.md, memory/*.md, sessions/*.jsonl and "
            "people/*/card.md "
            "can be read)"
        )
    return relative


def memory_get(
    root: MemoryRoot, path: str, start_line: int = 1, num_lines: int = 40
) -> dict[str, Any]:
    """``{"path", "start_line", "end_line", "total_lines", "text"}`` or ``{"error": ...}``."""
    try:
        if int(start_line) < 1 or int(num_lines) < 1:
            raise UsageError("start_line and num_lines must be at least 1")
        relative = readable_path(root, path)
        lines = root.resolve(relative).read_text("utf-8", errors="replace").splitlines()
    except MemoryEngineError as exc:
        return {"path": path, "error": str(exc)}
    first = int(start_line)
    count = min(int(num_lines), MAX_GET_LINES)
    chosen = lines[first - 1 : first - 1 + count]
    return {
        "path": relative,
        "start_line": first,
        "end_line": first + len(chosen) - 1 if chosen else first - 1,
        "total_lines": len(lines),
        "text": "\n".join(
            display_line(line) if is_session_path(relative) else strip_comments(line)
            for line in chosen
        ),
    }
