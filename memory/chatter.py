"""Recognising transient chatter: greetings, acknowledgements, small talk, tool noise.

Pure functions shared by the rule-based flush, the light phase and the extractive dream.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory.plain_chinese import plain
from memory.redact import MASK
from memory.segment import content_words, has_cjk
from memory.speaker import split

_ACK_WORDS = frozenset(
    """
    hi hello hey yo morning night bye goodbye thanks thank thx ty ok okay k sure cool nice great
    lol yes yeah yep no nope alright np welcome you so much got it see sounds good all there
    then later soon guys everyone again too
    你好 您好 嗨 哈喽 早 早上好 早安 午安 晚上好 晚安 拜拜 再见 谢谢 多谢 谢啦 感谢 好的 好 行
    可以 收到 明白 了解 知道了 没问题 不客气 呵呵 嘿嘿 是的 对 没事 好吧 嗯嗯 嗯 哦 噢 喔 哈哈
    大家好 各位好
    """.split()
)
_CLAUSE_END = re.compile(r"[,，、.。!！~～…:：;；]+\s*")
_PIECES = re.compile(r"[\s,，、.。!！?？~～…:：;；]+")
_FILLER = re.compile(r"^(?:[嗯哦噢哈呵嘿]+|haha+|h[ae]h[ae]+)$", re.I)
_TRAILING_PARTICLES = re.compile(r"[呀啊哈啦了呢吧哦喔]+$")

_SMALL_TALK = re.compile(
    r"(?i)(今天天气|天气(?:真|不错|很好|好热|好冷)|how are you|how's it going|what's up|"
    r"你在吗|在吗|在不在|你是谁|你叫什么|are you there|who are you|"
    r"今天(?:好|真)?(?:累|困|无聊)|i'?m (?:bored|tired) today|"
    r"(?:讲|说)个笑话|tell me a joke)"
)

_TOOL_NOISE = re.compile(
    r"(?i)^\s*(?:\[?(?:tool|function)[ _]?(?:call|result|output)\]?|```|\{\s*\"|traceback|"
    r"calling tool|tool_call|<tool)"
)

_QUESTION = re.compile(r"[?？]\s*$")
_QUESTION_START = re.compile(
    r"(?i)^(?:what|when|where|who|why|how|which|can you|could you|would you|do you|is it|"
    r"are there|is there|请问|什么|怎么|为什么|哪|谁|几|多少|能不能|可不可以|你能|你会|是不是)"
)


def is_greeting_or_ack(text: str) -> bool:
    """Only greetings, thanks, acknowledgements and fillers ("好的，谢谢", "ok thanks!")."""
    pieces = [p for p in _PIECES.split(text.strip().lower()) if p]
    if not pieces:
        return True
    for piece in pieces:
        words = piece.split()
        core = _TRAILING_PARTICLES.sub("", piece) or piece
        if _FILLER.match(piece) or core in _ACK_WORDS or _all_ack_cjk(core):
            continue
        if words and all(w in _ACK_WORDS or _FILLER.match(w) for w in words):
            continue
        return False
    return True


def without_greeting(text: str) -> str:
    """``text`` after the greetings and acknowledgements it opens with ("你好，我叫李雷" ->
    "我叫李雷", "hi there! I work at Siemens" -> "I work at Siemens"); the whole text when
    it is nothing else."""
    rest = text.strip()
    while (end := _CLAUSE_END.search(rest)) and is_greeting_or_ack(rest[: end.start()]):
        if not rest[end.end() :].strip():
            break
        rest = rest[end.end() :].lstrip()
    return rest


def _all_ack_cjk(text: str) -> bool:
    """ "好的谢谢", "好的收到": a run of Chinese acknowledgements without punctuation."""
    i = 0
    while i < len(text):
        for size in (3, 2, 1):
            if text[i : i + size] in _ACK_WORDS and not text[i : i + size].isascii():
                i += size
                break
        else:
            return False
    return bool(text)


def is_tool_noise(text: str) -> bool:
    return bool(_TOOL_NOISE.match(text))


def is_small_talk(text: str) -> bool:
    return bool(_SMALL_TALK.search(text)) and len(content_words(text)) <= 6


def is_question(text: str) -> bool:
    stripped = plain(text).strip()
    return bool(_QUESTION.search(stripped)) or bool(_QUESTION_START.match(stripped))


def too_short(text: str) -> bool:
    """Fewer than two content words (or three CJK characters): nothing to remember."""
    words = content_words(text)
    if has_cjk(text):
        return len("".join(words)) < 3
    return len(words) < 2


def is_chatter(text: str) -> bool:
    """True for text not worth keeping in memory on its own (Traditional and Cantonese
    read as Simplified Mandarin: :func:`memory.plain_chinese.plain`)."""
    text = plain(text)
    return is_greeting_or_ack(text) or is_tool_noise(text) or is_small_talk(text) or too_short(text)


_TRANSIENT = re.compile(
    r"(?i)^(?:用户)?(?:问了?|询问|想知道)|\basked (?:about|what|how|when|where|why|whether|if)\b"
)


@lru_cache(maxsize=50_000)
def is_noise(text: str) -> bool:
    """A note line with nothing to judge: greetings, acknowledgements, small talk, tool
    output, an assistant's turn, or a secret (what was worth keeping there was redacted).
    The speaker prefix is read first (``用户说：你好呀`` is a greeting)."""
    spoken = split(text)
    statement = spoken.body
    if MASK in statement or spoken.by_assistant:
        return True
    return is_chatter(statement)


def is_transient(text: str) -> bool:
    """Noise, questions and "asked about ..." lines: left in the notes, not distilled (the
    rules used where no classifier judges; the extractive engine asks its classifier)."""
    statement = split(text).body
    return is_noise(text) or is_question(statement) or bool(_TRANSIENT.search(statement))
