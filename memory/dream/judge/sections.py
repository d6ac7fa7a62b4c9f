"""MEMORY.md sections: one per kind of fact, all named in the scope's language."""

from __future__ import annotations

from memory.dream.judge.classifier import KINDS

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
# Names the dream itself gives (these and earlier ones); any other heading is the user's.
OURS = (
    frozenset(name for pair in SECTIONS.values() for name in pair)
    | frozenset(
        "Preferences 偏好 People 人物 Decisions and plans 决定与计划 Lessons 经验教训 Facts 事实 "
        "Notes 其他".split(" ")
    )
    | {"Decisions and plans", "决定与计划"}
)


def section_for(kind: str, zh: bool) -> str:
    en, chinese = SECTIONS.get(kind, SECTIONS["fact"])
    return chinese if zh else en


def keep_section(name: str) -> bool:
    """A section the user made (kept as it is) rather than one the dream named."""
    return bool(name) and name not in OURS
