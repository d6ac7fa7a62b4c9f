"""Conversation transcripts: ``{"role", "content", "time"?, "name"?}`` JSON lines."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Literal, cast

from memory.errors import UsageError

Role = Literal["user", "assistant", "tool", "system"]
ROLES: frozenset[str] = frozenset({"user", "assistant", "tool", "system"})
MAX_CONTENT_CHARS = 20_000


@dataclass(frozen=True)
class Turn:
    """One message of a conversation. ``name`` is the speaker's display name in groups."""

    role: Role
    content: str
    time: datetime | None = None
    name: str | None = None


def parse_turn(data: object, where: str) -> Turn:
    if not isinstance(data, dict):
        raise UsageError(f"{where}: expected a JSON object")
    role = data.get("role")
    content = data.get("content")
    if role not in ROLES:
        raise UsageError(f"{where}: role must be one of {sorted(ROLES)}, got {role!r}")
    if not isinstance(content, str):
        raise UsageError(f"{where}: content must be a string")
    if len(content) > MAX_CONTENT_CHARS:
        raise UsageError(f"{where}: content longer than {MAX_CONTENT_CHARS} characters")
    when = None
    if data.get("time") is not None:
        try:
            when = datetime.fromisoformat(str(data["time"]))
        except ValueError as exc:
            raise UsageError(f"{where}: time is not ISO 8601: {data['time']!r}") from exc
    name = data.get("name")
    if name is not None and not isinstance(name, str):
        raise UsageError(f"{where}: name must be a string")
    return Turn(cast(Role, role), content, when, name)


def read_jsonl(path: Path) -> list[Turn]:
    """Parse a transcript file; any malformed line is a :class:`UsageError` naming it."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise UsageError(f"transcript not found: {path}") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read transcript {path}: {exc}") from exc
    turns = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{path.name} line {number}: invalid JSON ({exc.msg})") from exc
        except RecursionError:
            raise UsageError(f"{path.name} line {number}: JSON nested too deeply") from None
        turns.append(parse_turn(data, f"{path.name} line {number}"))
    return turns
