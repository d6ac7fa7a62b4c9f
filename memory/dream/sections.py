"""The MEMORY.md section a new item goes under: its kind, named in its language."""

from __future__ import annotations

from memory.dream.similarity import features
from memory.segment import has_cjk

SECTION_NAMES = {
    "preference": ("Preferences", "偏好"),
    "person": ("People", "人物"),
    "decision": ("Decisions and plans", "决定与计划"),
    "lesson": ("Lessons", "经验教训"),
    "fact": ("Facts", "事实"),
    "other": ("Notes", "其他"),
}


def section_for(text: str) -> str:
    """The MEMORY.md section of a new item: its kind, named in its language."""
    en, zh = SECTION_NAMES[features(text).kind]
    return zh if has_cjk(text) else en
