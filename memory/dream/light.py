"""The light phase: stage deduplicated candidates; never writes MEMORY.md.

It reads the window's lines from every evidence source (the daily notes; a session log
plugs in beside them), plus the older lines the recall store says were looked up; drops
noise and chatter and merges restatements (one fact about one subject) exactly as the
extractive engine judges them (:class:`judgement.TextJudge`); and updates the short-term store:
new candidates are ``staged``, known ones gain the new evidence, a candidate whose line
was edited or forgotten since it was staged is ``rejected`` (rehydration), one unseen for
30 days ``expired``. Every candidate it sees gets a light hit (once a day).
"""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date

from memory.daily_notes import NoteLine
from memory.dream.context import DreamContext
from memory.dream.embed_cache import open_cache
from memory.dream.evidence import (
    EvidenceSource,
    Line,
    LiveLines,
    RecallIndex,
    judged,
)
from memory.dream.judgement import TextJudge, blocking_keys, concepts
from memory.dream.scoring import Evidence, confidence
from memory.dream.short_term import Candidate, ShortTerm, candidate_key, line_hash
from memory.dream.verdicts import open_verdicts
from memory.forget import TOMBSTONE
from memory.provenance import SourceRef, compress_refs
from memory.segment import warm

EXPIRE_DAYS = 30  # a staged candidate unseen this long expires
FORGET_DAYS = 60  # a finished one (expired, rejected, promoted) unseen this long is dropped
CANDIDATES_PER_LOOKUP = 24
COMMON_KEY = 300  # a blocking key shared by this many groups says nothing
CHECK_EVERY = 500  # lines between two checks for an interrupted dream


SET_ASIDE = ("superseded", "conflict-dropped")  # archived lines that are no evidence any more


@dataclass
class Group:
    """Restatements of one statement about one subject."""

    lines: list[NoteLine] = field(default_factory=list)
    best: tuple[int, date, int, str] = (-1, date.min, -1, "")

    def add(self, line: NoteLine) -> None:
        self.lines.append(line)
        # The most informative wording: the longest, the newest among equals.
        self.best = max(self.best, (len(line.text), line.day, line.line, line.text))

    @property
    def text(self) -> str:
        return self.best[3]


@dataclass
class LightResult:
    store: ShortTerm  # the updated short-term store (every candidate)
    candidates: list[Candidate]  # the candidates of this cycle's lines
    evidence: dict[str, Evidence]  # by key, every live candidate's evidence
    index: RecallIndex
    live: LiveLines
    judge: TextJudge
    dropped: int = 0  # chatter left out
    merged: int = 0  # restatements folded into a candidate
    rejected: list[Candidate] = field(default_factory=list)  # lines changed since staging
    expired: int = 0
    staged: int = 0  # candidates in the store with status staged after this phase


def group_restatements(
    lines: Sequence[NoteLine], check: Callable[[], None], judge: TextJudge
) -> tuple[list[Group], int]:
    """Restatements grouped (oldest first); the number of lines folded into a group."""
    groups: list[Group] = []
    by_text: dict[str, Group] = {}
    index: dict[tuple[str, str], list[int]] = defaultdict(list)
    merged = 0
    for number, line in enumerate(lines):
        if number % CHECK_EVERY == 0:
            check()
        home = by_text.get(line.text)
        if home is None:
            text = judged(line.text)
            subject = judge.said(text).subject
            keys = blocking_keys(text)
            home = _similar(text, subject, keys, groups, index, judge)
            if home is None:
                home = Group()
                groups.append(home)
                for key in sorted(keys):
                    index[(subject, key)].append(len(groups) - 1)
            else:
                merged += 1
            by_text[line.text] = home
        else:
            merged += 1
        home.add(line)
    return groups, merged


def _similar(
    text: str,
    subject: str,
    keys: frozenset[str],
    groups: list[Group],
    index: dict[tuple[str, str], list[int]],
    judge: TextJudge,
) -> Group | None:
    """The group ``text`` restates, among those of its subject (another subject's is never
    the same fact), each distinct wording judged once."""
    counts: Counter[int] = Counter()
    for key in keys:
        postings = index.get((subject, key))
        if postings and len(postings) < COMMON_KEY:
            counts.update(postings)
    # Two restatements share at least two words or three character pairs (same_fact asks
    # 85 % of the smaller side's, which has at least two or three): fewer is never one.
    shared = [(-n, number) for number, n in counts.items() if n >= 2]
    seen: set[str] = set()
    for _, number in heapq.nsmallest(CANDIDATES_PER_LOOKUP, shared):
        group = groups[number]
        for member in group.lines[-3:]:
            wording = judged(member.text)
            if wording not in seen:
                seen.add(wording)
                if judge.same_fact(wording, text):
                    return group
    return None


def _lines_of(candidate: Candidate) -> list[Line]:
    return [(ref.path, n) for ref in candidate.refs for n in ref.lines()]


def rehydrate(candidate: Candidate, live: LiveLines) -> str:
    """Why ``candidate`` no longer stands ("" when every cited line is as staged)."""
    for label, digest in candidate.lines:
        ref = SourceRef.parse(label)
        text = live.text(ref.path, ref.start) if ref else None
        if text is None:
            return f"{label} no longer exists"
        if f"- {text}" == TOMBSTONE:
            return f"{label} was forgotten"
        if line_hash(text) != digest:
            return f"{label} was edited since it was staged"
    return ""


SourceFactory = Callable[[DreamContext], list[EvidenceSource]]


class LightPhase:
    name = "light"

    def __init__(self, sources: SourceFactory) -> None:
        self.sources = sources

    def run(self, ctx: DreamContext) -> None:
        ctx.state.light = stage(ctx, self.sources(ctx))


def stage(ctx: DreamContext, sources: list[EvidenceSource]) -> LightResult:
    """Run the light phase over ``ctx`` and return its result (nothing is written)."""
    today = ctx.now.date()
    stamp = ctx.now.isoformat(timespec="seconds")
    live = LiveLines(ctx.root, sources, ctx.inputs.lines)
    index = RecallIndex(ctx.recalls.recalls, live)
    store = ShortTerm(dict(ctx.short_term.candidates), ctx.short_term.problem)
    result = LightResult(store, [], {}, index, live, TextJudge(()))

    # 1. Rehydration: a staged line that changed or was forgotten drops its candidate.
    owner: dict[Line, str] = {}
    replaced: set[Line] = set()
    for key, cand in sorted(store.candidates.items()):
        if cand.status in ("staged", "deferred", "promoted"):
            why = rehydrate(cand, live)
            if why:
                cand = cand.with_status("rejected", why)
                store.candidates[key] = cand
                result.rejected.append(cand)
        if cand.origin != "light":
            continue  # backfill candidates are a lane of their own
        for cited_line in _lines_of(cand):
            if cand.status == "rejected":
                replaced.add(cited_line)
            else:
                owner.setdefault(cited_line, key)

    # 2. The window's statements and the older lines that were looked up.
    statements: list[NoteLine] = []
    seen: set[Line] = set()
    for source in sources:
        for note in source.lines():
            if ctx.inputs.archived_refs.get(f"{note.path}#L{note.line}") in SET_ASIDE:
                continue  # judged out of date by an earlier dream, or dropped by a person
            statements.append(note)
            seen.add((note.path, note.line))
    for path, number in sorted(index.recalled_lines() - seen - set(owner)):
        recalled = live.note_line(path, number)
        if recalled is not None:
            statements.append(recalled)
    # The engine's own judge: the same embeddings, which the engine then finds cached.
    texts = [judged(n.text) for n in statements]
    warm(texts)  # every line's words cut at once (the judge and the engine read them)
    cache = open_cache(ctx.root.state_dir)
    judge = result.judge = TextJudge(texts, cache, open_verdicts(ctx.root.state_dir))
    judge.prepare(judged(c.text) for c in store.candidates.values())
    if cache is not None:
        cache.save()
    kept = []
    for note in statements:
        if judge.transient(judged(note.text)):
            result.dropped += 1
        else:
            kept.append(note)
    kept.sort(key=lambda s: (s.day, s.path, s.line))
    groups, result.merged = group_restatements(kept, ctx.check, judge)

    # 3. Each group updates the candidate owning one of its lines, or is a new one.
    touched: set[str] = set()
    for group in groups:
        cited = [(s.path, s.line) for s in group.lines]
        key = next((owner[line] for line in cited if line in owner), "")
        old = store.candidates.get(key) if key else None
        if old is None:
            first = group.lines[0]
            key = candidate_key(SourceRef(first.path, first.line, first.line), first.text)
            old = store.candidates.get(key)
        refs = compress_refs([SourceRef(p, n, n) for p, n in cited] + list(old.refs if old else ()))
        fingerprints = dict(old.lines if old else ())
        fingerprints.update({f"{s.path}#L{s.line}": line_hash(s.text) for s in group.lines})
        since = old.since if old else (stamp if any(line in replaced for line in cited) else "")
        said = [s.day for s in group.lines]
        base = old or Candidate(
            key, group.text, refs, min(said), max(said), 0, 0, 0, 0.0, since=since
        )
        text = group.text if old is None or len(group.text) > len(old.text) else old.text
        cand = replace(base, text=text, refs=refs, lines=tuple(sorted(fingerprints.items())))
        store.candidates[key] = cand
        touched.add(key)
        for line in cited:
            owner.setdefault(line, key)

    # 4. Fresh evidence, counts, light hits and expiry for every candidate.
    for key, cand in sorted(store.candidates.items()):
        lights = cand.light_hits + (1 if key in touched and cand.light_last != today else 0)
        light_last = today if key in touched else cand.light_last
        evidence = index.evidence(
            _lines_of(cand),
            len(concepts(judged(cand.text))),
            since=cand.since,
            light=(lights, light_last),
            rem=(cand.rem_hits, cand.rem_last),
        )
        days = evidence.days
        cand = replace(
            cand,
            first_seen=min([cand.first_seen, *days]),
            last_seen=max([cand.last_seen, *days]),
            days=len(days),
            recall_count=evidence.recall_count,
            unique_queries=evidence.unique_queries,
            confidence=confidence(judge.durability(judged(cand.text)), evidence),
            light_hits=lights,
            light_last=light_last,
        )
        # Backfill candidates are old by nature: they stay until rolled back.
        age = (today - cand.last_seen).days if cand.origin == "light" else 0
        if cand.status in ("staged", "deferred") and age > EXPIRE_DAYS:
            cand = cand.with_status("expired", f"not seen for {age} days")
            result.expired += 1
        if cand.status in ("expired", "rejected", "promoted") and age > FORGET_DAYS:
            del store.candidates[key]
            continue
        store.candidates[key] = cand
        if cand.status != "rejected":
            result.evidence[key] = evidence
        if key in touched:
            result.candidates.append(cand)
    result.candidates.sort(key=lambda c: (c.first_seen, c.key))
    result.staged = sum(1 for c in store.candidates.values() if c.status == "staged")
    return result
