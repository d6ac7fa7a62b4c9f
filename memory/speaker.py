"""Who said a note line: ``用户: …``, ``User: …``, ``张三：…``, ``[10:02] Alice: …``,
``用户说：…``. A full-width colon needs no space after it; a label ("注意：", "Lesson:",
"Error:") is not a speaker."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

_PREFIX = re.compile(
    r"^(?:\[[^\]]{1,20}\]\s*)?"
    r"(?P<name>[^:：\s\[\]{}\"'(（][^:：\[\]{}\"]{0,24}?)"
    r"\s*(?P<said>说|said|says|wrote)?\s*(?:[:：]\s*|[:]\s+)(?P<rest>\S.*)$",
    re.S,
)
USER_NAMES = frozenset({"用户", "user", "the user", "我", "me", "u"})
ASSISTANT_NAMES = frozenset({"助手", "assistant", "bot", "ai", "机器人", "系统", "system", "tool"})
# Labels that head a line without naming a speaker.
_LABELS = frozenset(
    """
    注意 教训 提醒 备注 待办 计划 决定 总结 更新 偏好 经验 结论 事实 问题 原因 目标 重点 状态
    note notes lesson lessons reminder update todo plan plans decision summary fact facts goal
    error warning info debug traceback exception status result output input tip important fyi
    ps re fw http https file line question answer example q a tldr
    """.split()
)
_NAME_SHAPE = re.compile(
    r"^(?:[\u4e00-\u9fff]{1,5}|[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2}|[a-z][\w]{0,14}"
    r"|[\u4e00-\u9fff]{1,3}[A-Za-z0-9]{0,4}|[A-Za-z]+\s?[\u4e00-\u9fff]{1,3})$"
)


@dataclass(frozen=True)
class Spoken:
    """A note line split into its speaker (None when the line names none) and the rest."""

    speaker: str | None
    body: str

    @property
    def by_user(self) -> bool:
        return self.speaker is None or self.speaker.lower() in USER_NAMES

    @property
    def by_assistant(self) -> bool:
        return self.speaker is not None and self.speaker.lower() in ASSISTANT_NAMES


@lru_cache(maxsize=50_000)
def split(text: str, labels: frozenset[str] = frozenset()) -> Spoken:
    """``"用户说：你好呀"`` -> ``Spoken("用户", "你好呀")``; a label or prose stays whole, and
    so does a line headed by one of ``labels`` (a chat's field labels: :func:`field_labels`)."""
    match = _PREFIX.match(text.strip())
    if not match:
        return Spoken(None, text.strip())
    name = match.group("name").strip()
    low = name.lower()
    if low in USER_NAMES:
        return Spoken("用户" if re.search(r"[\u4e00-\u9fff]", name) else "User", match["rest"])
    if low in _LABELS or low.rstrip("s") in _LABELS or not _NAME_SHAPE.match(name):
        return Spoken(None, text.strip())
    if name in labels:
        return Spoken(None, text.strip())
    return Spoken(name, match.group("rest").strip())


# What a person's words have and a field's value has not: a pronoun, a greeting or thanks, a
# question or an exclamation, a particle of speech.
_SPOKEN = re.compile(
    r"(?i)\b(?:i|i'm|i've|i'll|i'd|me|my|mine|we|we're|us|our|you|you're|your|he|she|him|"
    r"her|his|they|them|their|it's|lol|haha|ok|okay|thanks|thank|cheers|yes|yeah|yep|nope|"
    r"hi|hey|hello|morning|night|bye|please|pls|sorry|omg|nice|same|fair)\b|[?!？！~]"
    r"|我|你|您|咱|他|她|吗|呢|吧|啊|呀|哈|嗯|哦|好的|谢谢"
)
_ONE_WORD = re.compile(r"^(?:[A-Z][a-z]+|[\u4e00-\u9fff]{2,4})$")
MIN_LABELS = 3  # a summary written in fields has several; one silent name is no such style
# A Chinese head shaped as someone's name (a family name first, 老/小/阿 before one, or a
# kin word or title last: 王磊, 老钱, 孙阿姨, 刘老师, 猫姐) is a member, however silent.
SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾萧田董潘袁蔡蒋余于杜"
    "叶程魏苏吕丁任卢姚沈钟姜崔谭陆范汪廖石金贾夏付方邹熊白孟秦邱侯江尹薛闫段雷龙黎史陶贺"
    "毛郝顾龚邵万覃武钱戴严莫孔向常汤康易乔赖文施洪牛"
)
_ZH_PERSON = re.compile(
    r"^(?:[老小阿][\u4e00-\u9fff]|.*(?:[姐哥妹弟姨姑叔伯舅婶妈爸爷奶婆公]|老师|医生|师傅|总|"
    r"宝|仔|儿))$"
)


def _person_shaped(name: str) -> bool:
    return not name.isascii() and (name[0] in SURNAMES or bool(_ZH_PERSON.match(name)))


def field_labels(texts: Iterable[str]) -> frozenset[str]:
    """The speaker-shaped heads of ``texts`` (one chat's lines) that are field labels: one
    word, never named inside a line's words, never heading words a person says
    (:data:`_SPOKEN`), each value short; none unless the chat has :data:`MIN_LABELS` of them
    (a chat written in fields)."""
    lines = [t.strip() for t in texts]
    heads: dict[str, list[str]] = {}
    for line in lines:
        spoken = split(line)
        if spoken.speaker and spoken.speaker not in ("用户", "User"):
            heads.setdefault(spoken.speaker, []).append(spoken.body)
    bodies = " \n ".join(split(line).body for line in lines)
    out = set()
    for name, said in heads.items():
        if not _ONE_WORD.match(name) or name.lower() in ASSISTANT_NAMES or _person_shaped(name):
            continue
        named = re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", bodies)
        if named or any(_SPOKEN.search(b) or len(b.split()) > 10 for b in said):
            continue
        out.add(name)
    return frozenset(out) if len(out) >= MIN_LABELS else frozenset()
