"""Can this line answer this question? A small learned reader of a question and one hit line.

The answerability gate (:mod:`memory.search.answerable`) reads the hits as a whole: how
similar they are to the question and how much of its weight they hold. A look-alike line
scores like the evidence there ("What did Caroline paint?" finds Caroline talking about
her painting class, "阿杰结婚是在哪个城市办的？" finds "阿杰在上海一家券商做量化研究员"). The
reader looks at one line and the question together: how much of the *asked* part of the
question (its content terms other than names, and in Chinese its character pairs) the line
holds, whether the line is by or about the people the question names, whether it holds the
kind of value the question asks for (a date for *when* / 何时, a number for *how many* /
几, a place for *where* / 哪里, another person for *who* / 谁) and whether that comes
together with the asked part, and whether the line is itself a question or mere chatter. A
logistic model over those (``reader.json``, fitted by ``bench/train_reader.py`` on dev
questions only: evidence lines against the other lines of the top hits and the hits of
questions whose answer was deleted) gives each line a chance; :func:`best_line` is the best
chance among the lines of the first few hits.

Pure text processing and arithmetic: no model download, no forward pass.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from itertools import pairwise
from pathlib import Path

from memory.plain_chinese import plain
from memory.search.answerable import asks
from memory.search.keyword_index import index_tokens, query_terms
from memory.search.names import names
from memory.search.ranker import Hit
from memory.search.standardised import Standardised, standardised_fields

MODEL_PATH = Path(__file__).with_name("reader.json")
HITS_READ = 3  # the reader reads the lines of this many of the first hits
_ANCHOR = date(2000, 1, 1)
# "- [D1:3] 14:02 Caroline: text" -> speaker "Caroline", text
_TAG = re.compile(r"^\s*(?:[-*+]\s+)?(?:\[[^\]\n]{1,20}\]\s*)?(?:\d{1,2}:\d{2}\s+)?")
_SPEAKER = re.compile(r"(?P<who>[A-Za-z\u4e00-\u9fff][^:：\n]{0,29})(?::\s+|：\s*)")
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")
_QUESTION_CHARS = set("我你他她它们的了吗呢吧啊是在有和与跟什么哪谁几多少怎样么那这个次些去过")
_NUMBER = re.compile(
    r"\d|[一二两三四五六七八九十百千万半几][个次岁年位天只本件门级场趟口遍周块元斤公里点号月]"
    r"|(?i:\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|"
    r"thirty|forty|fifty|hundred|thousand|once|twice|several|a few|dozen|couple)\b)"
)
_PLACE = re.compile(
    r"\b(?:in|at|to|from|near|visited|moved to|around)\s+(?:the\s+)?[A-Z][a-z]+"
    r"|[\u4e00-\u9fff](?:市|省|区|县|路|街|镇|村|国|州|山|湖|海|馆|店|园|寺|站|厅|院|小区|机场|大学|中学|小学|酒店)"
    r"|(?i:\b(?:beach|park|city|town|country|museum|school|church|restaurant|cafe|home|"
    r"mountains?|lake|island|state|abroad|trip)\b)"
)
_RELATIVE = re.compile(
    r"[老小阿][\u4e00-\u9fff]|[妈爸哥姐弟妹叔姨舅婆爷奶]|同事|朋友|老师|教练|医生"
)
_TIME_WORD = re.compile(
    r"(?i)\b(?:yesterday|today|tonight|tomorrow|last|next|ago|weekend|week|month|year|"
    r"morning|evening|since|recently|lately|january|february|march|april|may|june|july|"
    r"august|september|october|november|december|monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday|\d{4})\b"
    r"|昨天|前天|今天|明天|后天|上周|下周|上个月|下个月|去年|今年|明年|周[一二三四五六日末]|"
    r"星期|[一二三四五六七八九十\d]+[月号日]|春节|国庆|中秋|元旦|端午|清明|暑假|寒假|早上|晚上|下午"
)
_CHATTER = re.compile(
    r"(?i)^(?:thanks?|thank you|wow|cool|awesome|great|nice|haha|lol|yeah|yes|sure|ok|okay|"
    r"hey|hi|bye|see you|take care|that's (?:so |really )?(?:great|cool|awesome|amazing))\b"
    r"|^(?:嗯|哈哈|好的|谢谢|收到|没事|晚安|早安)"
)
_ASKING = re.compile(r"[?？]\s*$")


def split_line(line: str) -> tuple[str, str]:
    """A snippet line's speaker (or ``""``) and its text, bullet, tag and time taken off."""
    rest = _TAG.sub("", line, count=1)
    said = _SPEAKER.match(rest)
    if said is None or len(said.group("who").split()) > 3:  # "I told her: yes": no label
        return "", rest.strip()
    return said.group("who").strip(), rest[said.end() :].strip()


def char_pairs(text: str, drop: frozenset[str] = frozenset()) -> set[str]:
    """The Chinese character pairs of ``text``, without pairs of question words and
    without pairs inside ``drop`` (names)."""
    out = set()
    for run in _CJK_RUN.findall(plain(text)):  # Traditional and Cantonese read plain
        for a, b in pairwise(run):
            pair = a + b
            if (a in _QUESTION_CHARS and b in _QUESTION_CHARS) or any(pair in d for d in drop):
                continue
            out.add(pair)
    return out


@dataclass(frozen=True)
class Question:
    """What the reader needs of a question, computed once for all its lines."""

    text: str
    slot: dict[str, float]  # content terms other than names, by weight
    terms: dict[str, float]  # every term, by weight
    named: frozenset[str]  # the names' terms
    name_words: frozenset[str]  # the names as written, lower case
    pairs: frozenset[str]
    asked: dict[str, float]
    focus: str

    @classmethod
    def read(cls, text: str, weights: Mapping[str, float]) -> Question:
        written = names(text)
        named = frozenset(t for n in written for t in query_terms(n))
        slot = {t: w for t, w in weights.items() if t not in named} or dict(weights)
        focus = max(slot, key=lambda t: (slot[t], t)) if slot else ""
        return cls(
            text,
            slot,
            dict(weights),
            named,
            frozenset(n.lower() for n in written),
            frozenset(char_pairs(text)),
            asks(text),
            focus,
        )


def _share(tokens: set[str], weights: Mapping[str, float]) -> float:
    total = sum(weights.values())
    return sum(w for t, w in weights.items() if t in tokens) / total if total else 0.0


def line_features(question: Question, line: str, rank: int = 0) -> dict[str, float]:
    """The reader's view of one ``line`` (a snippet line as search shows it) against
    ``question``; ``rank`` is its hit's place in the list (0 for the first)."""
    who, text = split_line(line)
    tokens = set(index_tokens(text))
    slot = _share(tokens, question.slot)
    speaker = who.lower()
    by_named = float(bool(speaker) and speaker in question.name_words)
    about = [t in tokens for t in question.named]
    named = (sum(about) / len(about)) if about else 1.0
    pairs = len(question.pairs & char_pairs(text)) / len(question.pairs) if question.pairs else 0.0
    asked = question.asked
    has = {"when": 0.0, "count": 0.0, "where": 0.0, "who": 0.0}
    if asked["when"]:
        from memory.dream.judge import dates  # not paid by a search without the reader

        read = plain(text)
        has["when"] = float(bool(dates.find(read, _ANCHOR)) or bool(_TIME_WORD.search(read)))
    if asked["count"]:
        has["count"] = float(bool(_NUMBER.search(text)))
    if asked["where"]:
        has["where"] = float(bool(_PLACE.search(text)))
    if asked["who"]:
        others = {n.lower() for n in names(". " + text)} - question.name_words
        has["who"] = float(bool(others) or bool(_RELATIVE.search(text)))
    wanted = [k for k, v in asked.items() if v]
    typed = float(all(has[k] for k in wanted)) if wanted else 1.0
    words = len(tokens)
    out = {
        "slot": slot,
        "slot_focus": float(question.focus in tokens),
        "cover": _share(tokens, question.terms),
        "named": named,
        "by_named": by_named,
        "has_names": float(bool(question.named)),
        "pairs": pairs,
        "typed": typed,
        "typed_slot": typed * slot,
        "typed_pairs": typed * pairs,
        "asks_any": float(bool(wanted)),
        "asking": float(bool(_ASKING.search(text))),
        "chatter": float(bool(_CHATTER.match(text))),
        "short": float(words <= 3),
        "words": math.log1p(words),
        "rank": float(rank),
    }
    for kind in has:
        out[f"asks_{kind}"] = asked[kind]
        out[f"has_{kind}"] = has[kind]
    return out


FEATURES = tuple(line_features(Question.read("what", {"what": 1.0}), "x"))


@dataclass(frozen=True)
class ReaderModel(Standardised):
    """A logistic model over :func:`line_features` (standardised), one per language."""

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> ReaderModel:
        return cls(**standardised_fields(data, "reader model"))


@lru_cache(maxsize=1)
def shipped() -> dict[str, ReaderModel]:
    """The fitted readers: ``zh`` for questions with Chinese characters, ``en`` for others."""
    data = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    return {language: ReaderModel.from_dict(data[language]) for language in ("en", "zh")}


def hit_lines(hits: Sequence[Hit], depth: int = HITS_READ) -> list[tuple[int, str]]:
    """The non-blank lines of the first ``depth`` hits, each with its hit's rank."""
    return [
        (rank, line)
        for rank, h in enumerate(hits[:depth])
        for line in h.snippet.splitlines()
        if line.strip()
    ]


def best_line(
    question: str,
    hits: Sequence[Hit],
    weights: Mapping[str, float],
    model: ReaderModel | None = None,
    depth: int = HITS_READ,
) -> float:
    """The reader's best chance that one line of the first ``depth`` hits answers
    ``question`` (0.0 without hits); ``weights`` are the question's term weights."""
    from memory.search.answerable import language_of

    chosen = model or shipped()[language_of(question)]
    read = Question.read(question, weights)
    seen = [line_features(read, line, rank) for rank, line in hit_lines(hits, depth)]
    return max((chosen.probability(f) for f in seen), default=0.0)
