"""Does the memory answer this question? A small learned gate over the question and its hits.

The evidence gate (:func:`memory.search.ranking.has_evidence`) reads each candidate alone,
by its keyword coverage or its cosine; a question whose answer was never written down still
finds look-alike lines that pass it ("公司年会在哪里办？" finds "用户在公司负责支付网关的重构").
This gate reads the question *against* the hits search would return: how much of the
question's weight (its terms' idf) the best hit and the top 5 together hold, whether its
heaviest term and its names are among them, whether a question asking *when*, *how many*,
*where* or *who* finds a hit holding a date, a number, a place or a name, and how the hits
scored. A logistic model over those signals (``answerable.json``, fitted by
``bench/train_answerable.py`` on the dev questions with their evidence present and deleted)
gives the chance the hits answer the question; under the threshold, search answers nothing.

Opt-in (``SearchSettings.answerable``): on our data it buys withheld no-match only at a
recall cost (docs/search.md, "Round 7"). Pure text processing and arithmetic: no model.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from functools import lru_cache
from pathlib import Path

from memory import plain_chinese
from memory.search.keyword_index import index_tokens, query_terms
from memory.search.names import names
from memory.search.ranker import Hit
from memory.search.ranking import note_date, plain
from memory.search.standardised import Standardised, standardised_fields
from memory.search.store import StoredChunk
from memory.segment import has_cjk

MODEL_PATH = Path(__file__).with_name("answerable.json")
TOP = 5  # hits read together
READS = 10  # the gate reads the top of a search of this many hits (the eval's), any limit
READER = "reader"  # the signal of memory.search.reader: its best line's chance
_ANCHOR = date(2000, 1, 1)  # dates.find needs an anchor; only whether a date is said counts

# what a question asks for, English and Chinese
_ASKS = {
    "when": re.compile(
        r"(?i)\bwhen\b|\bwhat (?:time|date|day|year|month)\b|\bwhich (?:day|year|month)\b"
        r"|\bhow long ago\b|什么时候|哪天|哪一天|几号|几月|哪年|哪一年|几点|何时|啥时候|日期"
    ),
    "count": re.compile(
        r"(?i)\bhow (?:many|much|often|long|old|far)\b|\bwhat age\b"
        r"|多少|几[个次岁年位天只本件门级场趟口遍周]|多大|多久|多长|多高|多重|多远|几年级"
    ),
    "where": re.compile(
        r"(?i)\bwhere\b|\bwhich (?:city|country|place|state|town|school|restaurant)\b"
        r"|哪里|哪儿|在哪|什么地方|哪个(?:城市|国家|区|地方|小区|学校|医院|公园|餐厅)"
    ),
    "who": re.compile(r"(?i)\bwho(?:m|se)?\b|谁"),
}
_NUMBER = re.compile(
    r"\d|[一二两三四五六七八九十百千万半][个次岁年位天只本件门级场趟口遍周块元斤公里点号月]"
    r"|(?i:\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|"
    r"thirty|hundred|thousand|once|twice|several|a few|dozen)\b)"
)
_PLACE = re.compile(
    r"\b(?:in|at|to|from|near|visited|moved to)\s+(?:the\s+)?[A-Z][a-z]+"
    r"|[\u4e00-\u9fff](?:市|省|区|县|路|街|镇|村|国|州|山|湖|馆|店|园|寺|站|厅|院|小区|机场|大学|中学|小学)"
)

_RELATIVE = re.compile(r"[老小阿][\u4e00-\u9fff]|[妈爸哥姐弟妹]")  # 老赵, 小何, 妈妈: who
KINDS = ("when", "when_said", "count", "where", "who")
_BULLET = re.compile(r"^\s*(?:[-*+]\s+)?(?:[A-Z][a-z]+:\s)?")  # a bullet and its speaker


@dataclass(frozen=True)
class AnswerModel(Standardised):
    """A logistic model over :func:`signals` (standardised), and its threshold."""

    threshold: float

    def to_dict(self) -> dict[str, object]:
        return {**super().to_dict(), "threshold": self.threshold}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> AnswerModel:
        fields = standardised_fields(data, "answerable model")
        return cls(**fields, threshold=float(data["threshold"]))  # type: ignore[arg-type]


@lru_cache(maxsize=1)
def shipped() -> dict[str, AnswerModel]:
    """The fitted models, one for questions in Chinese (``zh``), one for the rest (``en``)."""
    data = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    return {language: AnswerModel.from_dict(data[language]) for language in ("en", "zh")}


def language_of(question: str) -> str:
    return "zh" if has_cjk(question) else "en"


def asks(question: str) -> dict[str, float]:
    """Which kinds of value the question asks for (1.0 or 0.0 each)."""
    return {kind: float(bool(rx.search(question))) for kind, rx in _ASKS.items()}


def holds(hit: Hit, question_names: set[str], kinds: Iterable[str] = KINDS) -> dict[str, float]:
    """Which kinds of value a hit holds: a date (said, or the note's own day), a number, a
    place, a name the question does not already give; only ``kinds`` are looked for (the
    others read 0)."""
    wanted = set(kinds)
    text = hit.snippet
    said = False
    if wanted & {"when", "when_said"}:
        from memory.dream.judge import dates  # not paid by a search without the gate

        said = bool(dates.find(plain_chinese.plain(text), _ANCHOR))
    others: set[str] = set()
    if "who" in wanted:
        sentences = ". ".join(_BULLET.sub("", line) for line in text.splitlines())
        others = {n for n in names(sentences) if n not in question_names}
    found = {
        "when": said or note_date(hit.path) is not None,
        "when_said": said,
        "count": "count" in wanted and bool(_NUMBER.search(text)),
        "where": "where" in wanted and bool(_PLACE.search(text)),
        "who": bool(others) or ("who" in wanted and bool(_RELATIVE.search(text))),
    }
    return {kind: float(found[kind] and kind in wanted) for kind in KINDS}


def _share(terms: set[str], weights: Mapping[str, float], total: float) -> float:
    return sum(w for t, w in weights.items() if t in terms) / total


_SAID_BY = re.compile(r"^\s*(?:[-*+]\s+)?(?:\d{1,2}:\d{2}\s+)?(?:[^:：\n]{1,40}[:：]\s*)?$")


_A_QUESTION = re.compile(
    r"[?？]\s*$|[吗呢谁哪几]|什么|多少|怎么|为什么|(?i:\b(?:what|who|whom|whose|when|where|why|which|how)\b)"
)


def is_the_question(line: str, question: str) -> bool:
    """Whether ``line`` is ``question`` itself, as a session log or a note quotes it
    (``"14:02 Lena: where do I live?"``, ``"- 用户: 我能吃多辣？"``): the message being
    answered is logged before it is searched, and a question is no answer to itself. A
    query that asks nothing ("用户对花生过敏", as the model's tool may search) is never
    one: the line that says it is the best answer there is."""
    said, asked = plain(line), plain(question)
    if not asked or not _A_QUESTION.search(asked) or not said.endswith(asked):
        return False
    return bool(_SAID_BY.match(said[: -len(asked)]))


def without_question(question: str, hits: Sequence[Hit]) -> list[Hit]:
    """``hits`` as the gate reads them: lines that are the question itself taken out of
    their snippets, and a hit of nothing else dropped."""
    out = []
    for h in hits:
        lines = h.snippet.splitlines()
        kept = [line for line in lines if not is_the_question(line, question)]
        if len(kept) == len(lines):
            out.append(h)
        elif kept:
            out.append(replace(h, snippet="\n".join(kept)))
    return out


def hit_cosines(
    hits: Sequence[Hit],
    rows: Iterable[StoredChunk],
    cosines: Mapping[int, float],
    question: str = "",
) -> list[float]:
    """Each hit's cosine with the question: the best of the chunks inside its lines among
    the vector side's candidates ``cosines`` (``rows`` are those chunks; a chunk that is
    ``question`` itself does not count); a hit with none of them gets the lowest candidate
    cosine (its own is at most that)."""
    floor = min(cosines.values(), default=0.0)
    rows = [r for r in rows if not (question and is_the_question(r.text, question))]
    out = []
    for h in hits:
        inside = [
            cosines[r.id]
            for r in rows
            if r.path == h.path and h.start_line <= r.start_line and r.end_line <= h.end_line
        ]
        out.append(max(inside, default=floor))
    return out


def signals(
    question: str, hits: Sequence[Hit], weights: Mapping[str, float], cosines: Sequence[float]
) -> dict[str, float]:
    """The gate's reading of ``question`` against its ``hits`` (best first); ``weights``
    are the question's term weights (:func:`memory.search.ranking.term_weight`),
    ``cosines`` the hits' cosines with it (:func:`hit_cosines`)."""
    top = list(hits[:TOP])
    near = list(cosines[:TOP]) + [0.0] * (TOP - min(TOP, len(cosines)))
    total = sum(weights.values()) or 1.0
    held = [set(index_tokens(h.snippet)) for h in top]
    union = set().union(*held) if held else set()
    focus = max(weights, key=lambda t: weights[t]) if weights else ""
    named = {t for n in names(question) for t in query_terms(n)}
    question_names = set(names(question))
    scores = [h.score for h in top] + [0.0] * (TOP - len(top))
    wanted = asks(question)
    looked = [kind for kind, v in wanted.items() if v] + (["when_said"] if wanted["when"] else [])
    have = [holds(h, question_names, looked) for h in top] if looked else []
    missing = [w for t, w in weights.items() if t not in union]
    out = {
        "hits": min(len(hits), TOP) / TOP,
        "cosine1": near[0],
        "cosine_best": max(near),
        "cosine_lead": near[0] - near[1],
        "score1": scores[0],
        "score2": scores[1],
        "score5": scores[4],
        "lead": scores[0] - scores[1],
        "hybrid5": sum(h.source == "hybrid" for h in top) / TOP,
        "hybrid1": float(bool(top) and top[0].source == "hybrid"),
        "cover1": _share(held[0], weights, total) if held else 0.0,
        "cover_best": max((_share(h, weights, total) for h in held), default=0.0),
        "cover5": _share(union, weights, total),
        "focus1": float(bool(held) and focus in held[0]),
        "focus5": float(focus in union),
        "missing_most": max(missing, default=0.0) / total,
        "names5": float(all(t in union for t in named)) if named else 1.0,
        "named": float(bool(named)),
    }
    for kind, asked in wanted.items():
        out[f"asks_{kind}"] = asked
        out[f"asks_{kind}_top1"] = asked * (have[0][kind] if have else 0.0)
        out[f"asks_{kind}_top3"] = asked * max((h[kind] for h in have[:3]), default=0.0)
    out["asks_when_said3"] = wanted["when"] * max((h["when_said"] for h in have[:3]), default=0.0)
    return out


def type_check(question: str, hits: Sequence[Hit], depth: int = 3) -> bool:
    """The answer-type check alone: a question asking when / how many / where / who passes
    only when one of its ``depth`` best hits holds a date, a number, a place or a name."""
    wanted = [k for k, v in asks(question).items() if v]
    if not wanted:
        return True
    question_names = set(names(question))
    have = [holds(h, question_names, wanted) for h in hits[:depth]]
    return all(any(h[k] for h in have) for k in wanted)


def answers(
    question: str,
    hits: Sequence[Hit],
    weights: Mapping[str, float],
    cosines: Sequence[float],
    model: AnswerModel | None = None,
) -> bool:
    """Whether ``hits`` likely answer ``question`` (no hits: no); ``model`` defaults to the
    shipped one of the question's language. ``cosines`` are :func:`hit_cosines` of ``hits``
    given the question; the lines that are the question itself are not read."""
    read = [
        (kept, cosine)
        for h, cosine in zip(hits, cosines, strict=True)
        for kept in without_question(question, [h])
    ]
    if not read:
        return False
    chosen = model or shipped()[language_of(question)]
    seen = signals(question, [h for h, _ in read], weights, [c for _, c in read])
    if READER in chosen.features:  # the question-line reader's best line (reader.py)
        from memory.search.reader import best_line

        seen[READER] = best_line(question, [h for h, _ in read], weights)
    return chosen.probability(seen) >= chosen.threshold
