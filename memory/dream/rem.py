"""The REM phase: recurring themes and possible lasting truths; never writes MEMORY.md.

Over the candidates seen in the lookback (default 7 days) and the recalls made in it:

- a **theme** is a content word that recurs: carried by at least three candidates or
  recall queries, on at least two days, and not by most of what was said (a word in
  over half of many candidates is too common to be a theme). Themes carried by mostly the
  same candidates are one theme ("咖啡 · 美式"). Each cites its candidates' lines.
- a **possible lasting truth** is a candidate that recurs across days or queries (two or
  more of either) with a confidence of at least 0.6. Each cites its own lines.

Every candidate in a theme or a truth gets a REM hit (once a day), which the deep phase
turns into a small boost. With a model (the llm engine), the reflections may be worded by
it after the deep phase has asked its own question (:func:`word_reflections`); each one
is verified like a memory item and a fabricated one is rejected, never written.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from typing import Any

from memory.dream.context import DreamContext
from memory.dream.grounding import verify
from memory.dream.judgement import concepts
from memory.dream.short_term import Candidate
from memory.errors import ModelError
from memory.llm import ChatModel
from memory.overlap import jaccard
from memory.provenance import SourceRef, compress_refs
from memory.redact import redact

LOOKBACK_DAYS = 7
THEME_SUPPORT = 3
THEME_DAYS = 2
COMMON_SHARE = 0.5  # a word in more than half of the candidates is not a theme...
COMMON_POOL = 8  # ...once there are this many candidates to tell
MERGE_OVERLAP = 0.6
TRUTH_CONFIDENCE = 0.6
SHOW = 10  # themes and truths kept
MAX_FOUND = 4 * SHOW  # themes considered (each new word is compared with these)
REFS_SHOWN = 5
GENERIC = frozenset("用户 user users the_user 我 他 她 今天 明天".split())
_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$", re.S)


@dataclass(frozen=True)
class Theme:
    label: str
    keys: tuple[str, ...]
    days: int
    recalls: int
    refs: tuple[SourceRef, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "theme": self.label,
            "candidates": len(self.keys),
            "days": self.days,
            "recalls": self.recalls,
            "refs": [str(r) for r in self.refs],
        }


@dataclass(frozen=True)
class Truth:
    key: str
    text: str
    refs: tuple[SourceRef, ...]
    days: int
    unique_queries: int
    confidence: float
    worded_by: str = "notes"  # "model" when a verified reflection words it

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "text": self.text,
            "refs": [str(r) for r in self.refs],
            "days": self.days,
            "unique_queries": self.unique_queries,
            "confidence": self.confidence,
            "worded_by": self.worded_by,
        }


@dataclass
class RemResult:
    themes: list[Theme] = field(default_factory=list)
    truths: list[Truth] = field(default_factory=list)
    reflections: list[Truth] = field(default_factory=list)  # verified model wordings
    rejected: list[str] = field(default_factory=list)  # why each fabricated one was refused
    lookback: int = LOOKBACK_DAYS
    model_note: str = ""  # a model failure, reported in the REM report


def _pool(ctx: DreamContext, first: date) -> list[Candidate]:
    light = ctx.state.light
    if light is None:
        return []
    return [
        c
        for key, c in sorted(light.store.candidates.items())
        if c.status in ("staged", "deferred", "promoted")
        and c.last_seen >= first
        and key in light.evidence
    ]


def _words(text: str) -> frozenset[str]:
    return frozenset(w for w in concepts(text) if w not in GENERIC and len(w) > 1)


def find_themes(
    pool: list[Candidate], seen_on: dict[str, frozenset[date]], queries: list[tuple[str, date]]
) -> list[Theme]:
    """Themes among ``pool`` (``seen_on``: each candidate's days) and recent ``queries``."""
    carriers: dict[str, set[str]] = defaultdict(set)
    days: dict[str, set[date]] = defaultdict(set)
    asked: dict[str, set[tuple[str, date]]] = defaultdict(set)
    by_key = {c.key: c for c in pool}
    for cand in pool:
        for word in _words(cand.text):
            carriers[word].add(cand.key)
            days[word].update(seen_on.get(cand.key, frozenset()))
    for query, day in sorted(set(queries)):
        for word in _words(query):
            if word in carriers:
                asked[word].add((query.casefold(), day))
                days[word].add(day)
    found: list[tuple[set[str], list[str], set[date], int]] = []
    for word in sorted(carriers, key=lambda w: (-len(carriers[w]) - len(asked[w]), w)):
        keys = carriers[word]
        if len(keys) + len(asked[word]) < THEME_SUPPORT or len(days[word]) < THEME_DAYS:
            continue
        if len(pool) >= COMMON_POOL and len(keys) > COMMON_SHARE * len(pool):
            continue
        home = next((f for f in found if jaccard(f[0], keys) >= MERGE_OVERLAP), None)
        if home is None and len(found) >= MAX_FOUND:
            continue  # enough themes to show: the rest are weaker (they come later)
        if home is None:
            found.append((set(keys), [word], set(days[word]), len(asked[word])))
        elif len(home[1]) < 3:
            home[0].update(keys)
            home[1].append(word)
            home[2].update(days[word])
    themes = []
    for keys, words, seen, recalls in found[:SHOW]:
        refs = compress_refs(r for k in sorted(keys) for r in by_key[k].refs[:1])
        themes.append(
            Theme(" · ".join(words), tuple(sorted(keys)), len(seen), recalls, refs[:REFS_SHOWN])
        )
    return themes


def find_truths(ctx: DreamContext, pool: list[Candidate]) -> list[Truth]:
    light = ctx.state.light
    assert light is not None
    out = []
    for cand in pool:
        evidence = light.evidence[cand.key]
        recurs = len(evidence.days) >= 2 or evidence.recall_contexts >= 2
        if recurs and cand.confidence >= TRUTH_CONFIDENCE:
            out.append(
                Truth(
                    cand.key, cand.text, cand.refs, cand.days, cand.unique_queries, cand.confidence
                )
            )
    out.sort(key=lambda t: (-t.days, -t.unique_queries, -t.confidence, t.key))
    return out[:SHOW]


class RemPhase:
    name = "rem"

    def __init__(self, lookback: int = LOOKBACK_DAYS) -> None:
        self.lookback = lookback

    def run(self, ctx: DreamContext) -> None:
        ctx.check()
        today = ctx.now.date()
        first = today - timedelta(days=self.lookback - 1)
        pool = _pool(ctx, first)
        queries = [(r.query, r.day) for r in ctx.recalls.recalls if r.day >= first]
        light = ctx.state.light
        if light is None:
            ctx.state.rem = RemResult(lookback=self.lookback)
            return
        seen_on = {
            c.key: frozenset(d for d in light.evidence[c.key].days if d >= first) for c in pool
        }
        result = RemResult(
            find_themes(pool, seen_on, queries), find_truths(ctx, pool), lookback=self.lookback
        )
        ctx.state.rem = result
        hit = {k for t in result.themes for k in t.keys} | {t.key for t in result.truths}
        for key in sorted(hit):
            cand = light.store.candidates[key]
            hits = cand.rem_hits + (1 if cand.rem_last != today else 0)
            light.store.candidates[key] = replace(cand, rem_hits=hits, rem_last=today)
            light.evidence[key] = replace(light.evidence[key], rem_hits=hits, rem_last=today)


REFLECT_PROMPT = """You are the REM phase of a chat bot's memory. Below are recurring themes \
and possible lasting truths found in the notes, each line labelled with its reference. \
Word each lasting truth as one short reflection, in the language of its sources, never \
inventing anything: a reflection must be supported by the lines it cites. Cite lines by \
their labels. Answer with one JSON object and nothing else:
{"reflections": [{"text": "...", "sources": ["memory/YYYY-MM-DD.md#L12", ...]}]}"""


def _material(ctx: DreamContext, rem: RemResult) -> tuple[str, dict[str, list[str]]]:
    light = ctx.state.light
    assert light is not None
    parts: list[str] = []
    shown: dict[str, list[str]] = {}
    for title, groups in (
        ("Themes", [(t.label, t.refs) for t in rem.themes]),
        ("Possible lasting truths", [(t.text, t.refs) for t in rem.truths]),
    ):
        parts.append(f"## {title}")
        for label, refs in groups:
            parts.append(f"- {redact(label)}")
            for ref in refs:
                for n in ref.lines():
                    text = light.live.text(ref.path, n)
                    if text:
                        parts.append(f"  {ref.path}#L{n}: {redact(text)}")
                        lines = light.live.files.get(ref.path)
                        if lines is not None:
                            shown[ref.path] = lines
    return "\n".join(parts), shown


def word_reflections(ctx: DreamContext, model: ChatModel) -> None:
    """Let ``model`` word the lasting truths; keep only the verified reflections."""
    rem = ctx.state.rem
    if rem is None or not rem.truths:
        return
    material, shown = _material(ctx, rem)
    messages = [
        {"role": "system", "content": REFLECT_PROMPT},
        {"role": "user", "content": material},
    ]
    try:
        raw = model.complete(messages, json_object=True)
        entries = _parse(raw)
    except ModelError as exc:
        rem.model_note = str(exc)
        return
    checked = replace(ctx.inputs, lines=shown)
    for text, cited in entries:
        text = redact(text)
        refs = [SourceRef.parse(c) for c in cited]
        if not refs or any(r is None for r in refs):
            rem.rejected.append(f"cites a malformed reference: {cited}")
            continue
        good = [r for r in refs if r is not None]
        verdict = verify(text, good, checked, None)
        if not verdict.ok:
            rem.rejected.append(verdict.reason)
            continue
        lines = {(r.path, n) for r in good for n in r.lines()}
        truth = next(
            (t for t in rem.truths if lines & {(r.path, n) for r in t.refs for n in r.lines()}),
            None,
        )
        key = truth.key if truth else ""
        rem.reflections.append(
            Truth(
                key,
                text,
                compress_refs(good),
                truth.days if truth else 0,
                truth.unique_queries if truth else 0,
                truth.confidence if truth else 0.0,
                worded_by="model",
            )
        )


def _parse(raw: str) -> list[tuple[str, list[str]]]:
    try:
        data = json.loads(_FENCE.sub("", raw.strip()))
    except json.JSONDecodeError as exc:
        raise ModelError(f"the model's reflections are not JSON ({exc.msg})") from exc
    entries = data.get("reflections") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ModelError('the model\'s answer lacks a "reflections" list')
    out = []
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("text"), str):
            raise ModelError('a reflection needs "text" (string) and "sources" (list)')
        sources = entry.get("sources", [])
        if not isinstance(sources, list):
            raise ModelError('a reflection needs "text" (string) and "sources" (list)')
        out.append((" ".join(entry["text"].split()), [str(s) for s in sources]))
    return out


class Reflect:
    """The model's wording of the REM reflections, asked once the deep phase has run
    (so the engine's own question comes first); only with the llm engine's model."""

    name = "rem-words"

    def run(self, ctx: DreamContext) -> None:
        if ctx.model is not None:
            ctx.check()
            word_reflections(ctx, ctx.model)
