"""How much people knowledge one person may hold (the ``people_*`` config keys)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

PeoplePolicy = Literal["groups", "all", "off"]
DEFAULT_MAX_ENTRIES = 40
DEFAULT_MAX_ENTRY_CHARS = 200
MIN_ENTRIES, MAX_ENTRIES = 1, 1000
MIN_ENTRY_CHARS, MAX_ENTRY_CHARS = 20, 2000


@dataclass(frozen=True)
class PeopleLimits:
    """Per person: at most ``max_entries`` ledger entries (the least used beyond go to the
    person's archive) and ``max_entry_chars`` characters per entry (longer statements
    are clipped at a word boundary, their source lines still cited)."""

    max_entries: int = DEFAULT_MAX_ENTRIES
    max_entry_chars: int = DEFAULT_MAX_ENTRY_CHARS

    def __post_init__(self) -> None:
        if not MIN_ENTRIES <= self.max_entries <= MAX_ENTRIES:
            raise ValueError(
                f"people_max_entries must be between {MIN_ENTRIES} and {MAX_ENTRIES}, "
                f"got {self.max_entries}"
            )
        if not MIN_ENTRY_CHARS <= self.max_entry_chars <= MAX_ENTRY_CHARS:
            raise ValueError(
                f"people_max_entry_chars must be between {MIN_ENTRY_CHARS} and "
                f"{MAX_ENTRY_CHARS}, got {self.max_entry_chars}"
            )


def people_on(policy: PeoplePolicy | bool, is_group: bool) -> bool:
    """Whether a chat keeps people knowledge: ``groups`` (the default) only in group chats,
    ``all`` in private chats too, ``off`` nowhere (``true``/``false`` mean groups/off)."""
    if policy is True:
        policy = "groups"
    if policy is False or policy == "off":
        return False
    return policy == "all" or is_group
