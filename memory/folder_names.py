"""File names for ids no two of which share a name: chat scopes and group members.

Letters, digits and ``_.@-`` stay as they are (so ``42`` or ``家庭群`` stay readable), every
other character becomes ``%XX`` (its UTF-8 bytes, ``%`` itself included), and an id too
long for a file name becomes ``~`` and its full SHA-256. A name never starts with ``.``.
"""

from __future__ import annotations

import hashlib

MAX_NAME_BYTES = 150  # leaves room for "group-" and suffixes within NAME_MAX (255)
_KEPT = frozenset("_.@-")


def _kept(char: str, first: bool) -> bool:
    if char == ".":
        return not first  # never a hidden name, never "." or ".."
    return char in _KEPT or (char.isalnum() and char.isprintable())


def folder_name(chat_id: str) -> str:
    """A file name for ``chat_id`` that no other id encodes to (see the module doc)."""
    if not chat_id:
        return "%"  # a lone "%" is never an escape
    out = []
    for position, char in enumerate(chat_id):
        if _kept(char, position == 0):
            out.append(char)
        else:
            out.extend(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))
    name = "".join(out)
    if len(name.encode("utf-8")) <= MAX_NAME_BYTES:
        return name
    return "~" + hashlib.sha256(chat_id.encode("utf-8", "surrogatepass")).hexdigest()
