"""MEMORY.md sections: one per kind of fact (the judge's classifier), all named in the
scope's language; a heading the user made is theirs and keeps its items."""

from __future__ import annotations

from memory.dream.judge.classifier import KINDS, classify
from memory.plain_chinese import plain
from memory.segment import has_cjk

SECTIONS: dict[str, tuple[str, str]] = {
    "identity": ("Identity", "身份"),
    "work": ("Work and study", "工作与学习"),
    "people": ("People", "人物"),
    "health": ("Health", "健康"),
    "preference": ("Preferences", "偏好"),
    "routine": ("Habits", "习惯"),
    "plan": ("Plans", "计划"),
    "event": ("Events", "经历"),
    "fact": ("Facts", "事实"),
    "chatter": ("Notes", "其他"),
}
assert set(SECTIONS) == set(KINDS)
# The names the dream gives, and gave before: any other heading is the user's.
_EARLIER = ("Decisions and plans", "决定与计划", "Lessons", "经验教训")
OURS = frozenset(name for pair in SECTIONS.values() for name in pair) | frozenset(_EARLIER)


def for_kind(kind: str, zh: bool) -> str:
    en, chinese = SECTIONS.get(kind, SECTIONS["fact"])
    return chinese if zh else en


def users(name: str) -> bool:
    """A section the user made (kept as it is) rather than one the dream named."""
    return bool(name) and name not in OURS


def section_for(text: str, zh: bool | None = None) -> str:
    """The section of a new item judged by its words, named in ``zh``'s language (default:
    the item's)."""
    return for_kind(classify([plain(text)])[0].kind, has_cjk(text) if zh is None else zh)
