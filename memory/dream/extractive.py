"""The extractive Deep Dream engine: deterministic, offline, no model.

Statements come from the prior MEMORY.md items and the bullets of the notes in the window.
Chatter is dropped; near-duplicates merge into one item citing every line; a newer
statement that contradicts an older one about the same thing supersedes it; the rest is
ranked, most durable first (the deep phase cuts it at the cap).
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import date

from memory.daily_notes import split_speaker
from memory.dream.judgement import is_transient, same_fact, supersedes
from memory.dream.model import DreamInputs, Proposal
from memory.dream.sections import section_for
from memory.dream.similarity import KIND_WEIGHT, features
from memory.memory_file import MemoryItem, cited_lines
from memory.provenance import SourceRef, compress_refs

_DATE_IN_PATH = re.compile(r"(\d{4})-(\d{2})-(\d{2})\.md$")
CANDIDATES_PER_LOOKUP = 24
# A token in this many groups ("用户", "user") says nothing about which group is alike.
COMMON_TOKEN = 300


@dataclass
class Statement:
    text: str
    refs: tuple[SourceRef, ...]
    day: date
    order: int
    prior: MemoryItem | None = None


@dataclass
class Cluster:
    members: list[Statement] = field(default_factory=list)
    superseded_by: Cluster | None = None
    # Kept up to date by add(): recomputing them over the members made dreams quadratic.
    _best: tuple[int, date, int, str] = (-1, date.min, -1, "")
    _latest: tuple[date, int] = (date.min, -1)

    def add(self, st: Statement) -> None:
        self.members.append(st)
        # The most informative wording: the longest, the newest among equals.
        self._best = max(self._best, (len(st.text), st.day, st.order, st.text))
        self._latest = max(self._latest, (st.day, st.order))

    @property
    def text(self) -> str:
        return self._best[3]

    @property
    def latest(self) -> tuple[date, int]:
        return self._latest

    @property
    def refs(self) -> tuple[SourceRef, ...]:
        return compress_refs(ref for s in self.members for ref in s.refs)

    @property
    def priors(self) -> list[MemoryItem]:
        return [s.prior for s in self.members if s.prior is not None]


def _day_of(refs: tuple[SourceRef, ...], default: date) -> date:
    days = []
    for ref in refs:
        match = _DATE_IN_PATH.search(ref.path)
        if match:
            try:
                days.append(date(*map(int, match.groups())))
            except ValueError:
                continue
    return max(days) if days else default


def _speaker(text: str) -> str | None:
    return split_speaker(text)[0]


class ExtractiveEngine:
    name = "extractive"

    def propose(self, inputs: DreamInputs) -> Proposal:
        statements, dropped = self._statements(inputs)
        handwritten = [i.text for i in inputs.handwritten]
        clusters, merged, folded_into_handwritten = self._cluster(statements, handwritten)
        superseded = self._supersede(clusters)
        live = [c for c in clusters if c.superseded_by is None]
        ranked = sorted(live, key=lambda c: self._rank_key(c, inputs.today), reverse=True)

        # Every live item, most durable first: the deep phase admits them under the cap.
        proposal = Proposal(keep=[self._item(c) for c in ranked], dropped=dropped)
        proposal.merged = merged + folded_into_handwritten
        proposal.merges = [(self._item(c), n) for c, n in self._merge_counts(ranked) if n]
        for old in superseded:
            assert old.superseded_by is not None
            proposal.superseded.append((self._item(old), self._item(old.superseded_by)))
            proposal.archive.append((self._item(old), "superseded"))
        return proposal

    # -- steps -----------------------------------------------------------------------

    def _statements(self, inputs: DreamInputs) -> tuple[list[Statement], int]:
        out: list[Statement] = []
        order = 0
        for item in inputs.prior:
            out.append(
                Statement(item.text, item.sources, _day_of(item.sources, inputs.today), order, item)
            )
            order += 1
        dropped = 0
        for line in inputs.notes:
            if is_transient(line.text):
                dropped += 1
                continue
            ref = SourceRef(line.path, line.line, line.line)
            if inputs.archived_refs.get(f"{line.path}#L{line.line}") == "superseded":
                continue  # judged out of date by an earlier dream
            out.append(Statement(line.text, (ref,), line.day, order + line.line))
        out.sort(key=lambda s: (s.day, s.order))
        return out, dropped

    def _cluster(
        self, statements: list[Statement], handwritten: list[str]
    ) -> tuple[list[Cluster], int, int]:
        clusters: list[Cluster] = []
        by_ref: dict[tuple[str, int], Cluster] = {}
        by_text: dict[str, Cluster] = {}  # the same words again: the fast path
        index: dict[str, list[int]] = defaultdict(list)
        merged = folded = 0
        for st in statements:
            if st.prior is None and any(same_fact(st.text, h) for h in handwritten):
                folded += 1
                continue
            # A line an item already cites belongs to that item.
            home = next(
                (by_ref[(r.path, n)] for r in st.refs for n in r.lines() if (r.path, n) in by_ref),
                None,
            )
            if home is None:
                home = by_text.get(st.text) or self._similar_cluster(st, clusters, index)
                if home is not None and st.prior is None:
                    merged += 1
            if home is None:
                home = Cluster()
                clusters.append(home)
                for token in sorted(self._tokens(st.text)):
                    index[token].append(len(clusters) - 1)
            home.add(st)
            by_text.setdefault(st.text, home)
            for ref in st.refs:
                for n in ref.lines():
                    by_ref.setdefault((ref.path, n), home)
        return clusters, merged, folded

    @staticmethod
    def _tokens(text: str) -> frozenset[str]:
        f = features(text)
        return f.words | f.grams

    def _similar_cluster(
        self, st: Statement, clusters: list[Cluster], index: dict[str, list[int]]
    ) -> Cluster | None:
        counts: Counter[int] = Counter()
        for token in self._tokens(st.text):
            postings = index.get(token)
            if postings and len(postings) < COMMON_TOKEN:
                counts.update(postings)
        speaker = _speaker(st.text)
        # Ties broken by cluster number, not by set order (which varies with PYTHONHASHSEED).
        candidates = heapq.nsmallest(
            CANDIDATES_PER_LOOKUP, counts.items(), key=lambda kv: (-kv[1], kv[0])
        )
        for cid, _ in candidates:
            cluster = clusters[cid]
            if _speaker(cluster.text) != speaker:
                continue
            if any(same_fact(m.text, st.text) for m in cluster.members[-3:]):
                return cluster
        return None

    def _supersede(self, clusters: list[Cluster]) -> list[Cluster]:
        ordered = sorted(clusters, key=lambda c: c.latest)
        by_family: dict[str, list[Cluster]] = defaultdict(list)
        by_word: dict[str, list[Cluster]] = defaultdict(list)
        out: list[Cluster] = []
        for newer in ordered:
            f = features(newer.text)
            if f.change or f.exclusive or f.negated:
                seen: set[int] = set()
                pool = [c for fam in sorted(f.families) for c in by_family[fam]]
                pool += [
                    c
                    for w in sorted(f.words)
                    if len(by_word.get(w, ())) < COMMON_TOKEN
                    for c in by_word.get(w, [])
                ]
                for older in pool:
                    if id(older) in seen or older.superseded_by is not None:
                        continue
                    seen.add(id(older))
                    if _speaker(older.text) != _speaker(newer.text):
                        continue
                    if older.latest < newer.latest and supersedes(newer.text, older.text):
                        older.superseded_by = newer
                        out.append(older)
            for fam in f.families:
                by_family[fam].append(newer)
            for w in f.words:
                by_word[w].append(newer)
        return out

    @staticmethod
    def _rank_key(cluster: Cluster, today: date) -> tuple[float, date, int, str]:
        f = features(cluster.text)
        latest_day, order = cluster.latest
        age = max(0, (today - latest_day).days)
        distinct_days = len({s.day for s in cluster.members})
        score = (
            KIND_WEIGHT[f.kind]
            + math.log2(1 + distinct_days)
            + 1.0 / (1.0 + age / 7.0)
            + (0.5 if cluster.priors else 0.0)
        )
        return (round(score, 6), latest_day, order, cluster.text)

    @staticmethod
    def _merge_counts(clusters: list[Cluster]) -> list[tuple[Cluster, int]]:
        out = []
        for c in clusters:
            cited = cited_lines(c.priors)
            fresh = [
                s
                for s in c.members
                if s.prior is None and (s.refs[0].path, s.refs[0].start) not in cited
            ]
            out.append((c, len(fresh) - (0 if c.priors else 1)))
        return out

    @staticmethod
    def _item(cluster: Cluster) -> MemoryItem:
        text = cluster.text
        sections = [p.section for p in cluster.priors if p.section]
        section = sections[-1] if sections else section_for(text)
        fields = next((p.fields for p in reversed(cluster.priors) if p.fields), ())
        return MemoryItem(text, cluster.refs, section, fields=fields)
