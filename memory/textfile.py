"""Reading the markdown files of a root: missing is empty, undecodable is a clear error."""

from __future__ import annotations

import logging
import re
from pathlib import Path

from memory.errors import MalformedFile

log = logging.getLogger(__name__)

# Lone surrogates (what undecodable bytes become) and control characters but tab and newline.
_UNSTORABLE = re.compile(r"[\ud800-\udfff]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def clean_text(text: str) -> str:
    """``text`` made safe to store as UTF-8: a lone surrogate becomes U+FFFD, a control
    character (other than tab and newline) is dropped."""
    return _UNSTORABLE.sub(lambda m: "\ufffd" if m.group() >= "\ud800" else "", text)


def read_text(path: Path) -> str:
    """``path``'s UTF-8 text, "" when it does not exist; :class:`MalformedFile` when it is
    not UTF-8 text (a file the engine would rewrite must never be guessed at)."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
    except UnicodeDecodeError as exc:
        raise MalformedFile(
            f"{path.name} is not UTF-8 text; fix or move it ({exc.reason})"
        ) from exc
    except IsADirectoryError as exc:
        raise MalformedFile(f"{path} is a folder, not a file") from exc


def read_optional(path: Path) -> str | None:
    """Like :func:`read_text` for files the engine only reads (daily notes): an unreadable
    one is skipped with a warning instead of stopping everything."""
    try:
        return read_text(path)
    except MalformedFile as exc:
        log.warning("skipping %s: %s", path, exc)
        return None
