"""The dream's judgement, measured on labelled scenarios (``bench/data/dream/``).

Runs the extractive Deep Dream on every scenario of the dev and held-out parts (``once``: one
dream over the window; ``nightly``: a dream on the evening of every note day, as the bot
runs it), then compares MEMORY.md and the archive with the labels (see
``bench/dream_scenarios.py``) and prints, for each part, every measure with its target,
then the same measures by category (the scenarios' tags).

Usage: ``python bench/dream_quality.py
[--split dev|heldout|heldout2|heldout3|heldout4|heldout5|heldout6|all]
[--scenario NAME] [--without PIECE ...] [--show] [--json]``. ``--without`` switches off one
piece of the judgement (``python bench/dream_quality.py --help`` lists them) for the ablation
rows; ``--show`` prints each scenario's MEMORY.md and what the labels say about every item.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from datetime import date, datetime
from datetime import time as dtime
from pathlib import Path
from zoneinfo import ZoneInfo

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.dream_scenarios import Fact, Keys, Scenario, load, write_root
from memory.dream import DreamOptions, run_dream
from memory.dream.grounding import SUPPORT_THRESHOLD, dated_numbers, support
from memory.memory_file import parse_archive, parse_memory
from memory.paths import MemoryRoot
from memory.provenance import strip_comments
from memory.segment import has_cjk

ZONE = ZoneInfo("Asia/Shanghai")
SPLITS = {  # the parts of bench/data/dream/ and how the tables name them
    "dev": "dev (tuned on)",
    "heldout": "held-out (not tuned on)",
    "heldout2": "held-out 2 (not tuned on)",
    "heldout3": "held-out 3 (not tuned on)",
    "heldout4": "held-out 4 (not tuned on)",
    "heldout5": "held-out 5 (not tuned on)",
    "heldout6": "held-out 6 (not tuned on)",
}


@dataclass
class Counts:
    """What one or more scenarios scored; every measure is a ratio of two of these."""

    items: int = 0
    precise: int = 0
    facts: int = 0
    recalled: int = 0
    chatter: int = 0
    leaked: int = 0
    olds: int = 0
    retired: int = 0
    remembered: int = 0
    item_matches: int = 0
    wrongly_superseded: int = 0
    past_plans: int = 0
    past_current: int = 0
    past_expired: int = 0
    long_facts: int = 0
    long_kept: int = 0
    ungrounded: int = 0
    handwritten_lost: int = 0
    unaccounted: int = 0
    over_cap: int = 0
    failed: int = 0
    dreams: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    imprecise: dict[str, int] = field(default_factory=dict)  # non-precise items by class
    unretired: dict[str, int] = field(default_factory=dict)  # old values not retired, by how
    wrong: dict[str, int] = field(default_factory=dict)  # wrongly superseded facts, by class
    missed: dict[str, int] = field(default_factory=dict)  # durable facts not recalled, by why
    sides: dict[str, int] = field(default_factory=dict)  # b-subject pairs, by how each side read

    def add(self, other: Counts) -> None:
        for f in fields(self):
            if f.name == "notes":
                self.notes += other.notes
            elif f.name in TABLES:
                mine, theirs = getattr(self, f.name), getattr(other, f.name)
                for name, n in theirs.items():
                    mine[name] = mine.get(name, 0) + n
            else:
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


TABLES = ("imprecise", "unretired", "wrong", "missed", "sides")  # the class counts of Counts


def ratio(a: float, b: float) -> float | None:
    return a / b if b else None


def at_least(a: int, b: int, target: float) -> bool:
    """``a / b >= target``; true when there is nothing to measure."""
    return not b or a / b >= target


def at_most(a: int, b: int, target: float) -> bool:
    return not b or a / b <= target


# (label, value, target text, met) for the table
Measure = tuple[str, Callable[[Counts], str], str, Callable[[Counts], bool]]


def _pct(a: int, b: int) -> str:
    r = ratio(a, b)
    return "n/a" if r is None else f"{a}/{b} = {r:.2f}"


MEASURES: list[Measure] = [
    (
        "item precision (items that are durable facts)",
        lambda c: _pct(c.precise, c.items),
        ">= 0.90",
        lambda c: at_least(c.precise, c.items, 0.9),
    ),
    (
        "durable recall (labelled facts in MEMORY.md)",
        lambda c: _pct(c.recalled, c.facts),
        ">= 0.90",
        lambda c: at_least(c.recalled, c.facts, 0.9),
    ),
    (
        "chatter leaked into MEMORY.md",
        lambda c: _pct(c.leaked, c.chatter),
        "<= 0.05",
        lambda c: at_most(c.leaked, c.chatter, 0.05),
    ),
    (
        "changed facts retired (old value out, in the archive)",
        lambda c: _pct(c.retired, c.olds),
        ">= 0.85",
        lambda c: at_least(c.retired, c.olds, 0.85),
    ),
    (
        "items per remembered fact",
        lambda c: (
            f"{c.item_matches}/{c.remembered} = {ratio(c.item_matches, c.remembered) or 0:.2f}"
        ),
        "<= 1.10",
        lambda c: at_most(c.item_matches, c.remembered, 1.10),
    ),
    (
        "durable facts wrongly archived as superseded",
        lambda c: str(c.wrongly_superseded),
        "0",
        lambda c: c.wrongly_superseded == 0,
    ),
    (
        "plans whose date has passed still current",
        lambda c: _pct(c.past_current, c.past_plans),
        "<= 0.10",
        lambda c: at_most(c.past_current, c.past_plans, 0.10),
    ),
    (
        "  of those, in the archive as expired",
        lambda c: _pct(c.past_expired, c.past_plans),
        "(info)",
        lambda c: True,
    ),
    (
        "long histories: durable facts kept",
        lambda c: _pct(c.long_kept, c.long_facts),
        ">= 0.90",
        lambda c: at_least(c.long_kept, c.long_facts, 0.9),
    ),
    (
        "grounding, hand-written kept, nothing dropped, cap",
        lambda c: (
            f"ungrounded {c.ungrounded}, hand-written lost {c.handwritten_lost}, "
            f"unaccounted {c.unaccounted}, over cap {c.over_cap}, failed {c.failed}"
        ),
        "all 0",
        lambda c: (
            not (c.ungrounded or c.handwritten_lost or c.unaccounted or c.over_cap) and not c.failed
        ),
    ),
]


@dataclass(frozen=True)
class Entry:
    text: str
    refs: tuple[str, ...]
    reason: str = ""


def _items(root: Path) -> list[Entry]:
    path = root / "MEMORY.md"
    if not path.exists():
        return []
    doc = parse_memory(path.read_text("utf-8"))
    return [Entry(i.text, tuple(str(r) for r in i.sources)) for i in doc.generated]


def _archive(root: Path) -> list[Entry]:
    path = root / "memory" / "archive.md"
    if not path.exists():
        return []
    return [
        Entry(a.text, tuple(str(r) for r in a.sources), a.reason)
        for a in parse_archive(path.read_text("utf-8"))
    ]


_NOTE = re.compile(r"memory/\d{4}-\d{2}-\d{2}\.md#")


def _dated(cited: list[str], refs: Iterable[str]) -> frozenset[str]:
    """The numbers of the dates the cited lines name, read on the latest cited note's day
    (as the dream's own verifier reads them): "今年" may be written "2026年"."""
    days = [date.fromisoformat(Path(r.partition("#")[0]).stem) for r in refs if _NOTE.match(r)]
    return dated_numbers(cited, max(days)) if days else frozenset()


def _cited(root: Path, refs: Iterable[str]) -> list[str] | None:
    out = []
    for ref in refs:
        path, _, span = ref.partition("#L")
        start, _, end = span.partition("-L")
        file = root / path
        if not file.exists():
            return None
        lines = file.read_text("utf-8").splitlines()
        for n in range(int(start), int(end or start) + 1):
            if n > len(lines):
                return None
            out.append(strip_comments(lines[n - 1]).removeprefix("- "))
    return out


def dream_nights(scenario: Scenario) -> list[date]:
    if scenario.mode == "nightly":
        return sorted(scenario.notes)
    return [scenario.today]


SHARED_CACHE = Path(tempfile.gettempdir()) / "cowdream-quality-embeddings.npz"


def _seed_cache(root: Path) -> None:
    """Start the root with the embeddings earlier runs computed (the bench measures
    judgement; ``--cold`` measures the first embedding too)."""
    if SHARED_CACHE.exists():
        target = root / "memory" / ".dreams" / "embeddings.npz"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SHARED_CACHE, target)


def _keep_cache(root: Path) -> None:
    from memory.dream.embed_cache import EmbeddingCache

    path = root / "memory" / ".dreams" / "embeddings.npz"
    if not path.exists():
        return
    mine = EmbeddingCache(path, lambda: None, "local:multilingual-e5-small")  # type: ignore[arg-type,return-value]
    shared = EmbeddingCache(SHARED_CACHE, lambda: None, "local:multilingual-e5-small")  # type: ignore[arg-type,return-value]
    fresh = {d: v for d, v in mine.vectors.items() if d not in shared.vectors}
    if fresh:
        shared.vectors.update(fresh)
        shared._dirty = True
        shared.save()


@dataclass(frozen=True)
class Retirement:
    """How the engine archived one text as superseded: the way that found the change
    (:data:`WRONG_CLASSES`), the route (``whole``, ``part``: a clause of its item,
    ``left-out``: a line the classifier left out) and the two statements as it read them."""

    way: str
    route: str
    old_subject: str
    new_subject: str
    together: bool  # judged as one group's shared thing
    old_speaker: str
    new_speaker: str
    new_text: str
    new_refs: tuple[str, ...]
    new_ahead: bool  # the new statement is a plan or names a day still to come
    new_said: object = None  # the two as the pair judgement read them (relations.Said)
    old_said: object = None
    cosine: float | None = None  # their embeddings'


@dataclass
class Watch:
    """What the bench sees of the engine's own steps while a scenario runs: every text it
    archived as superseded and how (all dreams), and of the last dream the note lines it
    made statements of, those it left out as chatter and the items it proposed."""

    retired: dict[str, Retirement] = field(default_factory=dict)
    lines: set[str] = field(default_factory=set)
    left_out: set[str] = field(default_factory=set)
    kept: list[str] = field(default_factory=list)
    pairs: dict[tuple[int, int], object] = field(default_factory=dict)
    # of the last dream: each note line's statement as read (subject, speaker, shared, order)
    read: dict[str, tuple[str, str, bool, tuple[object, int]]] = field(default_factory=dict)
    names: frozenset[str] = frozenset()  # the members (speaker labels) of the last dream


WATCH = Watch()


def _refs(refs: Iterable[object]) -> set[str]:
    from memory.provenance import ref_lines

    return {f"{path}#L{n}" for path, n in ref_lines(refs)}  # type: ignore[arg-type]


def watch_engine() -> Callable[[], None]:
    """Wrap the extractive engine's steps so :data:`WATCH` records them; returns the undo."""
    from memory.dream import extractive as ex

    engine = ex.ExtractiveEngine
    saved = {
        name: getattr(engine, name)
        for name in ("propose", "_statements", "_judge_pair", "_supersede")
    }
    saved_left_out = ex.left_out_olds

    def note(texts: Iterable[str], way: str, route: str, new: object, old: object) -> None:
        together = ex._together(new, old)  # type: ignore[arg-type]
        for text in texts:
            WATCH.retired[text] = Retirement(
                way,
                route,
                old.subject,  # type: ignore[attr-defined]
                new.subject,  # type: ignore[attr-defined]
                together,
                old.speaker,  # type: ignore[attr-defined]
                new.speaker,  # type: ignore[attr-defined]
                new.text,  # type: ignore[attr-defined]
                tuple(sorted(_refs(new.refs))),  # type: ignore[attr-defined]
                new.kind == "plan" or bool(new.ahead),  # type: ignore[attr-defined]
                new.said(together),  # type: ignore[attr-defined]
                old.said(together),  # type: ignore[attr-defined]
                ex._cosine(new, old),  # type: ignore[arg-type]
            )

    def way_of(newer: object, older: object) -> str:
        judged = WATCH.pairs.get((id(newer), id(older)))
        if judged is None:
            return "unknown"
        if not judged.retires:  # type: ignore[attr-defined]
            return "clause"  # found, then asked of each clause of the packed older
        return judged.how or "model"  # type: ignore[attr-defined]

    def propose(self, inputs):  # type: ignore[no-untyped-def]
        WATCH.pairs = {}
        proposal = saved["propose"](self, inputs)
        WATCH.kept = [i.text for i in proposal.keep]
        return proposal

    def statements(self, inputs):  # type: ignore[no-untyped-def]
        out, dropped = saved["_statements"](self, inputs)
        WATCH.lines = {r for st in out if st.prior is None for r in _refs(st.refs)}
        WATCH.left_out = set()
        WATCH.names = frozenset(self._names)
        # a prior item's lines first, so that a note line read again (in the window) wins
        ordered = sorted(out, key=lambda st: st.prior is None)
        WATCH.read = {
            r: (st.subject, st.speaker, st.shared, (st.prior is None, st.day, st.order))
            for st in ordered
            for r in _refs(st.refs)
        }
        return out, dropped

    def judge_pair(self, newer, older, cosine):  # type: ignore[no-untyped-def]
        judged = saved["_judge_pair"](self, newer, older, cosine)
        WATCH.pairs[(id(newer), id(older))] = judged
        return judged

    def supersede(self, clusters):  # type: ignore[no-untyped-def]
        out = saved["_supersede"](self, clusters)
        for older in out:
            newer = older.superseded_by
            texts = [p.text for p in older.priors] or [older.head.text]
            note(texts, way_of(newer, older), "whole", newer.head, older.head)
        for cluster in clusters:
            for clause, by in cluster.retired:
                note([clause.text], way_of(by, cluster), "part", by.head, cluster.head)
        return out

    def left_out_olds(left_out, kept, changes):  # type: ignore[no-untyped-def]
        WATCH.left_out = {r for st in left_out for r in _refs(st.refs)}
        found = saved_left_out(left_out, kept, changes)
        for st, by in found:
            note([st.text], "left-out", "left-out", by.head, st)
        return found

    for name, fn in (
        ("propose", propose),
        ("_statements", statements),
        ("_judge_pair", judge_pair),
        ("_supersede", supersede),
    ):
        setattr(engine, name, fn)
    ex.left_out_olds = left_out_olds  # type: ignore[assignment]

    def undo() -> None:
        for name, fn in saved.items():
            setattr(engine, name, fn)
        ex.left_out_olds = saved_left_out

    return undo


def run_scenario(scenario: Scenario, work: Path, cold: bool = False) -> tuple[Counts, Path]:
    root = work / scenario.name
    write_root(scenario, root)
    WATCH.__init__()  # type: ignore[misc]
    if not cold:
        _seed_cache(root)
    counts = Counts()
    t0 = time.perf_counter()
    for night in dream_nights(scenario):
        before = _items(root)
        now = datetime.combine(night, dtime(23, 58), ZONE)
        options = DreamOptions(
            days=scenario.days, force=True, engine="extractive", max_items=scenario.max_items
        )
        archive_before = len(_archive(root))
        report = run_dream(MemoryRoot.at(root), options, model=None, now=now)
        counts.dreams += 1
        if report.status == "failed":
            counts.failed += 1
            counts.notes.append(f"{scenario.name} {night}: failed: {report.reason}")
            continue
        if report.status != "done":
            continue
        after = {e.text for e in _items(root)}
        archived = {e.text for e in _archive(root)[archive_before:]}
        diary = (root / "memory" / "dreams" / f"{night.isoformat()}.md").read_text("utf-8")
        for old in before:
            if old.text not in after and old.text not in archived and old.text not in diary:
                counts.unaccounted += 1
                counts.notes.append(f"{scenario.name} {night}: left unreported: {old.text}")
    counts.seconds = time.perf_counter() - t0
    if not cold:
        _keep_cache(root)
    measure(scenario, root, counts)
    return counts, root


def measure(scenario: Scenario, root: Path, counts: Counts) -> None:
    items, archive = _items(root), _archive(root)
    today = scenario.today
    current = [f for f in scenario.facts.values() if f.current(today)]
    counts.items = len(items)
    counts.over_cap = max(0, len(items) + len(scenario.handwritten) - scenario.max_items)
    for item in items:
        if any(f.keys.match(item.text) for f in current):
            counts.precise += 1
        else:
            name = imprecise_class(scenario, item, items)
            counts.imprecise[name] = counts.imprecise.get(name, 0) + 1
    counts.facts = len(current)
    # A fact in a hand-written item is in MEMORY.md too (the dream folds restatements in).
    hand = [h.removeprefix("- ") for h in scenario.handwritten]
    for fact in current:
        hits = sum(1 for i in items if fact.keys.match(i.text))
        hits += sum(1 for h in hand if fact.keys.match(h))
        if hits > 1:
            said = [i.text for i in items if fact.keys.match(i.text)]
            counts.notes.append(f"{scenario.name}: {fact.id} stated by {hits} items: {said}")
        if hits:
            counts.recalled += 1
            counts.remembered += 1
            counts.item_matches += hits
        if "long" in scenario.tags:
            counts.long_facts += 1
            counts.long_kept += bool(hits)
        gone = [a for a in archive if a.reason == "superseded" and fact.keys.match(a.text)]
        if gone:
            counts.wrongly_superseded += 1
            counts.notes.append(f"{scenario.name}: {fact.id} archived as superseded")
            for name in wrong_class(scenario, fact, gone[0]):
                counts.wrong[name] = counts.wrong.get(name, 0) + 1
        if not hits:
            for name in missed_class(scenario, fact, items, archive):
                counts.missed[name] = counts.missed.get(name, 0) + 1
        for old in fact.olds:
            counts.olds += 1
            out = not any(old.match(i.text) for i in items)
            kept = any(old.match(a.text) for a in archive)
            counts.retired += out and kept
            if not (out and kept):
                why = unretired_class(scenario, fact, old, items, archive)
                for name in why:
                    counts.unretired[name] = counts.unretired.get(name, 0) + 1
                if "b-subject" in why:
                    for name in subject_sides(scenario, fact, old, items):
                        counts.sides[name] = counts.sides.get(name, 0) + 1
                still = [i.text for i in items if old.match(i.text)]
                counts.notes.append(
                    f"{scenario.name}: {fact.id} old value kept ({', '.join(why)}): "
                    f"{still or 'not archived'}"
                )
    counts.chatter = len(scenario.chatter)
    for text in scenario.chatter:
        if any(_leaks(i.text, [text]) for i in items):
            counts.leaked += 1
            counts.notes.append(f"{scenario.name}: chatter leaked: {text}")
    for fact in scenario.facts.values():
        if fact.kind == "plan" and not fact.current(today):
            counts.past_plans += 1
            still = [i.text for i in items if fact.keys.match(i.text)]
            counts.past_current += bool(still)
            if still:
                counts.notes.append(f"{scenario.name}: {fact.id} past its date, current: {still}")
            counts.past_expired += any(
                a.reason == "expired" and fact.keys.match(a.text) for a in archive
            )
    for entry in items + archive:
        cited = _cited(root, entry.refs)
        if (
            cited is None
            or support(entry.text, cited, _dated(cited, entry.refs)) < SUPPORT_THRESHOLD
        ):
            counts.ungrounded += 1
            counts.notes.append(f"{scenario.name}: ungrounded: {entry.text} <- {cited}")
    memory_text = (root / "MEMORY.md").read_text("utf-8") if (root / "MEMORY.md").exists() else ""
    lines = memory_text.splitlines()
    counts.handwritten_lost = sum(1 for h in scenario.handwritten if h not in lines)


# Why a MEMORY.md item is not a durable fact, most telling first; printed as counts only,
# so the held-out splits can be diagnosed without reading them.
IMPRECISE_CLASSES = {
    "chatter": "a labelled chatter string",
    "old": "an old value kept (its fact changed)",
    "expired": "a plan past its date",
    "chatter-line": "cites only chatter lines, worded otherwise",
    "old-line": "cites only an old value's lines, keys not matched",
    "expired-line": "cites only a past plan's lines, keys not matched",
    "mixed": "cites lines of several facts (packed line or merged pair)",
    "duplicate": "cites one fact another item already states, keys missed",
    "fragment": "cites one fact no item states, keys missed (fragment or rewording)",
    "unlabelled": "cites no labelled note line (hand-written or unresolved source)",
}


def _leaks(text: str, chatter: Iterable[str]) -> str | None:
    """The first chatter string ``text`` contains, as the leak measure counts it."""
    flat = _flat(text)
    for raw in chatter:
        key = _flat(raw)
        # A short string ("早") leaks only as (nearly) the whole item, not inside a word.
        if key and key in flat and (len(key) >= 3 or len(flat) <= len(key) + 4):
            return raw
    return None


def _cited_labels(scenario: Scenario, refs: Iterable[str]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for ref in refs:
        path, _, span = ref.partition("#L")
        start, _, end = span.partition("-L")
        if not start.isdigit():
            continue
        for n in range(int(start), int(end or start) + 1):
            out += scenario.labels.get(f"{path}#L{n}", [])
    return out


def imprecise_class(scenario: Scenario, item: Entry, items: list[Entry]) -> str:
    """The key of :data:`IMPRECISE_CLASSES` that says why ``item`` matches no current fact."""
    today = scenario.today
    facts = scenario.facts
    if _leaks(item.text, scenario.chatter) is not None:
        return "chatter"
    if any(o.match(item.text) for f in facts.values() for o in f.olds):
        return "old"
    if any(not f.current(today) and f.keys.match(item.text) for f in facts.values()):
        return "expired"
    labels = _cited_labels(scenario, item.refs)
    if not labels:
        return "unlabelled"
    ids = {ident for kind, ident in labels if kind != "chatter"}
    if not ids:
        return "chatter-line"
    if len(ids) > 1:
        return "mixed"
    (ident,) = ids
    fact = facts[ident]
    if all(kind == "old" for kind, i in labels if i == ident):
        return "old-line"
    if not fact.current(today):
        return "expired-line"
    if any(fact.keys.match(other.text) for other in items if other is not item):
        return "duplicate"
    return "fragment"


# How a changed fact's old value failed to retire: the first four classes split them, the
# rest describe those kept in MEMORY.md (a value may be in several).
UNRETIRED_CLASSES = {
    "beside": "kept, the new value in another item",
    "together": "kept in the same item as the new value",
    "alone": "kept, the new value not in MEMORY.md",
    "lost": "out of MEMORY.md but not in the archive",
    "l-worded": "  lost: an archive entry cites its line (worded without the keys)",
    "l-cited": "  lost: an item of MEMORY.md cites its line (merged into another fact's item)",
    "l-chatter": "  lost: its lines left out as chatter by the last dream's classifier",
    "l-never": "  lost: no item or archive entry cites its lines (never stated, out of the window)",
    "prior": "  kept: an item of the prior MEMORY.md",
    "digits": "  kept: the value has digits (a number, a date)",
    "same-day": "  kept: old and new value first said on the same day",
    "zh": "  kept: the item is in Chinese",
    "group": "  kept: in a group chat",
    "b-subject": "  beside: the two items read as about different people",
    "b-packed": "  beside: judged a change, the old item packs several clauses",
    "b-judged": "  beside: judged a change, kept all the same (one slot, conflict)",
    "b-apart": "  beside: no word or topic in common (no candidate pair)",
    "b-unjudged": "  beside: not judged a change",
}


def _days(scenario: Scenario, ident: str, kinds: tuple[str, ...]) -> list[date]:
    out = []
    for ref, labels in scenario.labels.items():
        if any(k in kinds and i == ident for k, i in labels):
            out.append(date.fromisoformat(ref.removeprefix("memory/")[:10]))
    return sorted(out)


def unretired_class(
    scenario: Scenario, fact: Fact, old: Keys, items: list[Entry], archive: Sequence[Entry] = ()
) -> list[str]:
    """The keys of :data:`UNRETIRED_CLASSES` that describe an old value not retired."""
    still = [i for i in items if old.match(i.text)]
    if not still:
        return ["lost", _lost(scenario, fact, items, archive)]
    new = [i for i in items if fact.keys.match(i.text)]
    together = any(i in new for i in still)
    names = ["together" if together else "beside" if new else "alone"]
    prior = {line.removeprefix("- ").split(" <!--")[0] for line in scenario.memory}
    if any(i.text in prior for i in still):
        names.append("prior")
    if any(ch.isdigit() for g in old.groups for a in g for ch in a):
        names.append("digits")
    olds, news = _days(scenario, fact.id, ("old",)), _days(scenario, fact.id, ("fact", "plan"))
    if olds and news and olds[0] == news[0]:
        names.append("same-day")
    if any(has_cjk(i.text) for i in still):
        names.append("zh")
    if "group" in scenario.tags:
        names.append("group")
    if new and not together:
        names.append(_beside(scenario, still[0].text, new[0].text))
    return names


def _lost(scenario: Scenario, fact: Fact, items: list[Entry], archive: Sequence[Entry]) -> str:
    """Where an old value that left MEMORY.md unarchived went: by the lines its fact's old
    values were told on (an archive entry or an item citing one, or neither)."""

    def cites(entry: Entry) -> bool:
        return ("old", fact.id) in _cited_labels(scenario, entry.refs)

    if any(cites(a) for a in archive):
        return "l-worded"
    if any(cites(i) for i in items):
        return "l-cited"
    olds = {ref for ref, labels in scenario.labels.items() if ("old", fact.id) in labels}
    seen = olds & WATCH.lines
    return "l-chatter" if seen and seen <= WATCH.left_out else "l-never"


# How the engine read each side of a ``b-subject`` pair (the statements of the last dream
# the two items cite): whom it took each to be about, and how it knew. Counts only.
SIDE_KINDS = {
    "user": "the user",
    "label": "a member, by the line's speaker label",
    "name": "a member named in another's line (a name, a summary's 'X said')",
    "kin-user": "a relative of the user",
    "kin-member": "a relative of a member or of someone named",
    "group": "a group's shared thing",
    "other": "someone named who is no member",
    "unknown": "no statement of the last dream cites the item",
    "@m": "(after user, kin-user, other) the line is a member's",
    "@other": "(after kin-member) of a member or someone not the line's speaker",
    "^": "(after any) read from a prior MEMORY.md item, its lines before the last window",
}
SIDE_FLAGS = {
    "one": "one subject as the engine read them",
    "same-speaker": "both lines said by one speaker",
    "crossed": "one side's speaker is the other side's subject",
    "named": "one side's subject (or its owner) is named in the other side's item",
    "named-inside": "... not at its opening (past a speaker's label)",
}


def _line(scenario: Scenario, ref: str) -> str:
    """The note line ``path#Ln`` cites, without its bullet ("" when there is none)."""
    path, _, n = ref.partition("#L")
    try:
        lines = scenario.notes.get(date.fromisoformat(Path(path).stem), [])
    except ValueError:
        return ""
    line = lines[int(n) - 1] if n.isdigit() and 0 < int(n) <= len(lines) else ""
    return line[2:] if line[:2] == "- " else ""


def _side(scenario: Scenario, item: Entry) -> tuple[str, str, str]:
    """The engine's subject of ``item`` (its latest cited line's statement), its kind
    (:data:`SIDE_KINDS`; ``@m`` after a user's or a non-member's: the line is a member's)
    and the line's speaker."""
    from memory.speaker import split

    refs = sorted(_refs_of(item.refs))
    read = [WATCH.read[r] for r in refs if r in WATCH.read]
    if not read:
        return "", "unknown", ""
    subject, speaker, shared, (now, _, _) = max(read, key=lambda r: r[3])  # type: ignore[misc]
    prior = "" if now else "^"
    if not speaker:  # a prior item's: the speaker of its latest line
        lines = [_line(scenario, r) for r in refs]
        speaker = next((split(t).speaker or "" for t in reversed(lines) if t), "")
    members = {
        split(line[2:]).speaker
        for day in scenario.notes.values()
        for line in day
        if line[:2] == "- "
    } - {None, "", "用户", "User"}
    member = "@m" if speaker in members else ""
    if shared:
        return subject, "group" + prior, speaker
    if subject == "user":
        return subject, "user" + member + prior, speaker
    who, slash, _ = subject.partition("/")
    if slash:
        if who == "user":
            return subject, "kin-user" + member + prior, speaker
        kin = "kin-member" if who == speaker else "kin-member@other"
        return subject, kin + prior, speaker
    if subject in members:
        return subject, ("label" if subject == speaker else "name") + prior, speaker
    return subject, "other" + member + prior, speaker


def subject_sides(scenario: Scenario, fact: Fact, old: Keys, items: list[Entry]) -> list[str]:
    """The keys of the side table for an old value kept beside its new one as another
    person's: ``old>new`` by :data:`SIDE_KINDS`; ``one`` when the engine read the two as one
    subject all the same (the bench's reading of the items' words differs); ``same-speaker``
    when one speaker said both; ``crossed`` when one side's speaker is the other's subject."""
    still = next(i for i in items if old.match(i.text))
    new = next(i for i in items if fact.keys.match(i.text))  # as unretired_class reads them
    who_old, kind_old, by_old = _side(scenario, still)
    who_new, kind_new, by_new = _side(scenario, new)
    names = [f"{kind_old}>{kind_new}"]
    if who_old and who_old == who_new:
        names.append("one")
    if by_old and by_old == by_new:
        names.append("same-speaker")
    if (by_old and by_old == who_new) or (by_new and by_new == who_old):
        names.append("crossed")
    for who, text in ((who_old, new.text), (who_new, still.text)):
        person = who.partition("/")[0]
        if person not in ("", "user") and person in text:
            names.append("named")
            if not text.split("：", 1)[-1].split(": ", 1)[-1].startswith(person):
                names.append("named-inside")
            break
    return names


def _beside(scenario: Scenario, old: str, new: str) -> str:
    """Why the engine's judgement, asked of the two items as they read, kept both."""
    from memory.dream.extractive import ExtractiveEngine
    from memory.dream.judge.classifier import classify
    from memory.dream.judge.clauses import packed
    from memory.dream.judge.core_words import core_words
    from memory.dream.judge.relations import Said, alias_of, aliased, subject_of
    from memory.dream.judge.wording import worded
    from memory.dream.similarity import features
    from memory.search.embeddings.local import LocalProvider
    from memory.speaker import split

    lines = [line[2:] for day in scenario.notes.values() for line in day if line[:2] == "- "]
    speakers = {split(line).speaker for line in lines}
    names = frozenset(n for n in speakers if n and n not in ("用户", "User"))
    # whom each item is about as the dream reads it: the names the chat gave people too
    aliases: dict[str, str] = {}
    for line in lines:
        found = alias_of(line, names) or alias_of(worded(split(line)), names)
        if found and found[0] not in names:
            aliases.setdefault(found[0], found[1])
    who_old = aliased(old, subject_of(old, names), aliases)
    who_new = aliased(new, subject_of(new, names), aliases)
    if who_old != who_new:
        return "b-subject"
    vectors = np.asarray(LocalProvider().embed_passages([new, old]))
    kinds = [j.kind for j in classify([new, old], vectors)]
    said_new, said_old = Said(new, who_new, kinds[0]), Said(old, who_old, kinds[1])
    if ExtractiveEngine._judge_change(said_new, said_old, float(vectors[0] @ vectors[1])):
        return "b-packed" if packed(said_old) else "b-judged"
    shared = core_words(new) & core_words(old) or features(new).families & features(old).families
    return "b-unjudged" if shared else "b-apart"


# Why a durable fact was archived as superseded: the way that retired it splits them (the
# first group), the rest describe the pair (a fact may be in several).
WRONG_CLASSES = {
    "rules": "the rules (a new value of one exclusive slot, or replaces)",
    "loose": "the loosest rule alone (a change word and a topic in common)",
    "learned": "the learned slot judgement alone",
    "named": "the English name swap",
    "model": "the change model, no way finding a change",
    "clause": "found, then judged clause by clause (a packed item)",
    "left-out": "a line left out as chatter, retired by a kept statement",
    "unknown": "no judged pair recorded",
    "part": "  one clause of its item retired, the rest kept",
    "r-replaces": "  rules: relations.replaces (a value changed to, a number, a date, new_value)",
    "r-joined": "  rules: joined a new employer, or an age grown",
    "r-slot": "  rules: one exclusive slot's value swapped (single_slots)",
    "r-reversal": "  rules: reversal, a sibling of the same kind, or a swapped value",
    "s-user": "  subject: the user, both",
    "s-person": "  subject: one other person, both",
    "s-shared": "  subject: a group's shared thing (two members, judged together)",
    "s-differ": "  subject: the two read as different people's",
    "p-other": "  the new line by another speaker than the old",
    "p-same": "  the new line by the old line's speaker (group)",
    "n-fact": "  the new line states another current durable fact",
    "n-same": "  the new line states this fact again",
    "n-chatter": "  the new line is labelled chatter",
    "n-old": "  the new line is an old value or a plan/event of another fact",
    "n-none": "  the new line is unlabelled (a prior or hand-written item)",
    "ahead": "  the new statement is a plan or names a day ahead",
    "future": "  ... and that day is still to come (the judgement reads it as future)",
    "zh": "  language: both Chinese",
    "en": "  language: both not Chinese",
    "mixed": "  language: one Chinese, one not",
    "group": "  in a group chat",
}


def _fact_lines(scenario: Scenario, ident: str) -> set[str]:
    """The note lines labelled with the current value of fact ``ident``."""
    return {
        ref
        for ref, labels in scenario.labels.items()
        if any(k in ("fact", "plan", "event") and i == ident for k, i in labels)
    }


def wrong_class(scenario: Scenario, fact: Fact, entry: Entry) -> list[str]:
    """The keys of :data:`WRONG_CLASSES` that describe how ``fact`` (archived as ``entry``)
    was wrongly superseded."""
    got = WATCH.retired.get(entry.text)
    if got is None:
        return ["unknown"]
    names = [got.way]
    if got.route == "part":
        names.append("part")
    if got.together:
        names.append("s-shared")
    elif got.old_subject != got.new_subject:
        names.append("s-differ")
    else:
        names.append("s-user" if got.old_subject == "user" else "s-person")
    if got.old_speaker and got.new_speaker:
        names.append("p-other" if got.old_speaker != got.new_speaker else "p-same")
    labels = [label for ref in got.new_refs for label in scenario.labels.get(ref, [])]
    current = {f.id for f in scenario.facts.values() if f.current(scenario.today)}
    if any(k in ("fact", "plan", "event") and i == fact.id for k, i in labels):
        names.append("n-same")
    elif any(k in ("fact", "plan", "event") and i in current for k, i in labels):
        names.append("n-fact")
    elif labels and all(k == "chatter" for k, _ in labels):
        names.append("n-chatter")
    elif labels:
        names.append("n-old")
    else:
        names.append("n-none")
    if got.way in ("rules", "loose") and got.new_said is not None:
        names.append(_rule_step(got.new_said, got.old_said, got.cosine))
        if names[-1] == "r-replaces":
            names.append(_replaces_step(got.new_said, got.old_said, got.cosine))
    if got.new_ahead:
        names.append("ahead")
    if getattr(got.new_said, "future", False):
        names.append("future")
    cjk = (has_cjk(entry.text), has_cjk(got.new_text))
    names.append("zh" if all(cjk) else "en" if not any(cjk) else "mixed")
    if "group" in scenario.tags:
        names.append("group")
    return names


def _rule_step(new: object, old: object, cosine: float | None = None) -> str:
    """Which step of the engine's rules (:meth:`ExtractiveEngine._rules_change`, in its
    order) finds the change."""
    from memory.dream import extractive as ex
    from memory.dream.judge import relations, single_slots

    if ex._joined(new, old) or ex._age_grown(new, old):  # type: ignore[arg-type]
        return "r-joined"
    if relations.replaces(new, old, cosine):  # type: ignore[arg-type]
        return "r-replaces"
    text = new.text  # type: ignore[attr-defined]
    if ex._slot_swapped(new, old) and not single_slots.at_subject(  # type: ignore[arg-type]
        text,
        relations.subject_words(new.subject),  # type: ignore[attr-defined]
    ):
        return "r-slot"
    return "r-reversal"


def _replaces_step(new: object, old: object, cosine: float | None) -> str:
    """The ``return True`` of :func:`relations.replaces` that finds the change, named by its
    line's comment (``rr: ...``; the line number when it has none): the call traced."""
    import inspect

    from memory.dream.judge import relations

    code = relations.replaces.__code__
    lines, first = inspect.getsourcelines(relations.replaces)
    returned: list[int] = []

    def tracer(frame, event, arg):  # type: ignore[no-untyped-def]
        if frame.f_code is not code:
            return None
        if event == "return" and arg is True:
            returned.append(frame.f_lineno)
        return tracer

    sys.settrace(tracer)
    try:
        relations.replaces(new, old, cosine)  # type: ignore[arg-type]
    finally:
        sys.settrace(None)
    if not returned:
        return "rr: (not found again)"
    at = returned[-1] - first
    source = lines[at].strip() if 0 <= at < len(lines) else ""
    _, _, comment = source.partition("#")
    return "rr: " + (comment.strip()[:60] or f"line {returned[-1] - first}")


# Why a current durable fact is not in MEMORY.md, most telling first (one class a fact).
MISSED_CLASSES = {
    "superseded": "archived as superseded",
    "expired": "archived as expired",
    "cap": "no room under the cap (kept by the engine, or archived as overflow)",
    "merged": "its line cited by an item that states another fact",
    "worded": "its line cited by an item that states no fact (keys missed)",
    "chatter": "its lines left out as chatter by the classifier",
    "archived": "archived for another reason (merged, chatter)",
    "never": "no line of it made a statement (noise, out of the window, archived lines)",
    "other": "none of the above",
}


def missed_class(
    scenario: Scenario, fact: Fact, items: list[Entry], archive: list[Entry]
) -> list[str]:
    """The key of :data:`MISSED_CLASSES` that says why ``fact`` is not in MEMORY.md."""
    lines = _fact_lines(scenario, fact.id)
    # as its keys find it in the archive, else as an archived item citing its lines
    reasons = {a.reason for a in archive if fact.keys.match(a.text)}
    reasons = reasons or {a.reason for a in archive if _refs_of(a.refs) & lines}
    for name in ("superseded", "expired"):
        if name in reasons:
            return [name]
    if "overflow" in reasons or any(fact.keys.match(text) for text in WATCH.kept):
        return ["cap"]
    citing = [i for i in items if _refs_of(i.refs) & lines]
    current = [f for f in scenario.facts.values() if f.current(scenario.today)]
    if any(f.keys.match(i.text) for i in citing for f in current):
        return ["merged"]
    if citing:
        return ["worded"]
    if lines and lines & WATCH.lines and lines & WATCH.lines <= WATCH.left_out:
        return ["chatter"]
    if reasons:
        return ["archived"]
    if not lines & WATCH.lines:
        return ["never"]
    return ["other"]


def _refs_of(refs: Iterable[str]) -> set[str]:
    """The ``path#Ln`` of every line the references (as strings) cite."""
    out = set()
    for ref in refs:
        path, _, span = ref.partition("#L")
        start, _, end = span.partition("-L")
        if start.isdigit():
            out |= {f"{path}#L{n}" for n in range(int(start), int(end or start) + 1)}
    return out


def _class_rows(counts: dict[str, int], classes: dict[str, str], of: int) -> list[str]:
    rows = []
    for name, label in classes.items():
        n = counts.get(name, 0)
        share = f"{n / of:.2f}" if of else "-"
        rows.append(f"| {name}: {label.strip()} | {n} | {share} |")
    return rows


def imprecise_table(title: str, counts: Counts) -> str:
    total = counts.items - counts.precise
    rows = [f"### {title}: why {total} of {counts.items} items are not durable facts", ""]
    rows += ["| class | items | share of items |", "|---|---|---|"]
    rows += _class_rows(counts.imprecise, IMPRECISE_CLASSES, counts.items)
    left = counts.olds - counts.retired
    rows += ["", f"### {title}: how {left} of {counts.olds} changed facts were not retired", ""]
    rows += ["| class | old values | share of old values |", "|---|---|---|"]
    rows += _class_rows(counts.unretired, UNRETIRED_CLASSES, counts.olds)
    rows += ["", *side_table(title, counts)]
    wrong = counts.wrongly_superseded
    rows += ["", f"### {title}: why {wrong} durable facts were wrongly superseded", ""]
    rows += ["| class | facts | share of them |", "|---|---|---|"]
    rr = {k: "  (the step of replaces, by its comment)" for k in counts.wrong if k[:3] == "rr:"}
    found = {**WRONG_CLASSES, **dict(sorted(rr.items()))}
    rows += _class_rows(counts.wrong, found, wrong)
    missed = counts.facts - counts.recalled
    rows += ["", f"### {title}: why {missed} of {counts.facts} durable facts are not in MEMORY.md"]
    rows += ["", "| class | facts | share of missed |", "|---|---|---|"]
    rows += _class_rows(counts.missed, MISSED_CLASSES, missed)
    return "\n".join(rows)


def side_table(title: str, counts: Counts) -> list[str]:
    """The ``b-subject`` pairs by how the engine read each side (old > new), then how many
    it read as one subject all the same."""
    pairs = counts.unretired.get("b-subject", 0)
    rows = [f"### {title}: how the engine read the two sides of {pairs} b-subject pairs", ""]
    rows += ["| old side > new side | pairs |", "|---|---|"]
    found = sorted((n, k) for k, n in counts.sides.items() if ">" in k)
    for n, key in sorted(found, key=lambda f: (-f[0], f[1])):
        rows.append(f"| {key} | {n} |")
    for key, label in SIDE_FLAGS.items():
        rows.append(f"| (of them, {label}) | {counts.sides.get(key, 0)} |")
    rows += ["", "Sides: " + "; ".join(f"{k}: {v}" for k, v in SIDE_KINDS.items()) + "."]
    return rows


def _flat(text: str) -> str:
    from bench.dream_scenarios import normalise

    return normalise(text)


def explain(scenario: Scenario, root: Path) -> str:
    """Each MEMORY.md item with the labels it matches, then what is missing."""
    items, archive = _items(root), _archive(root)
    current = [f for f in scenario.facts.values() if f.current(scenario.today)]
    out = [f"== {scenario.split}/{scenario.name}: {scenario.title}"]
    for item in items:
        ids = [f.id for f in current if f.keys.match(item.text)]
        olds = [
            f.id + "(old)"
            for f in scenario.facts.values()
            if any(o.match(item.text) for o in f.olds)
        ]
        past = [
            f.id + "(expired)"
            for f in scenario.facts.values()
            if not f.current(scenario.today) and f.keys.match(item.text)
        ]
        why = "" if ids else f" ({imprecise_class(scenario, item, items)})"
        tag = (", ".join(ids + olds + past) or "NOT A FACT") + why
        out.append(f"  [{tag}] {item.text}")
    missing = [f for f in current if not any(f.keys.match(i.text) for i in items)]
    for fact in missing:
        where = [a.reason for a in archive if fact.keys.match(a.text)]
        why = missed_class(scenario, fact, items, archive)[0]
        out.append(f"  MISSING {fact.id} ({fact.kind}, {why}) archived as {where or '-'}")
    for fact in current:
        gone = [a for a in archive if a.reason == "superseded" and fact.keys.match(a.text)]
        if gone:
            got = WATCH.retired.get(gone[0].text)
            by = f" by {got.new_text!r}" if got else ""
            how = ", ".join(wrong_class(scenario, fact, gone[0]))
            out.append(f"  WRONGLY SUPERSEDED {fact.id} ({how}): {gone[0].text!r}{by}")
    return "\n".join(out)


def table(title: str, counts: Counts) -> str:
    rows = [f"### {title}", "", "| measure | now | target | met |", "|---|---|---|---|"]
    for label, value, target, met in MEASURES:
        rows.append(f"| {label} | {value(counts)} | {target} | {'yes' if met(counts) else 'NO'} |")
    return "\n".join(rows)


CATEGORY_COLUMNS = (
    ("precision", lambda c: ratio(c.precise, c.items)),
    ("recall", lambda c: ratio(c.recalled, c.facts)),
    ("chatter", lambda c: ratio(c.leaked, c.chatter)),
    ("retired", lambda c: ratio(c.retired, c.olds)),
    ("items/fact", lambda c: ratio(c.item_matches, c.remembered)),
    ("wrong sup.", lambda c: float(c.wrongly_superseded)),
    ("past plans", lambda c: ratio(c.past_current, c.past_plans)),
)


def category_table(title: str, by_tag: dict[str, Counts], scenarios: dict[str, int]) -> str:
    head = " | ".join(name for name, _ in CATEGORY_COLUMNS)
    rows = [f"### {title}: by category", "", f"| category (scenarios) | {head} |"]
    rows.append("|---" * (len(CATEGORY_COLUMNS) + 1) + "|")
    for tag in sorted(by_tag):
        cells = []
        for _, fn in CATEGORY_COLUMNS:
            value = fn(by_tag[tag])
            cells.append("-" if value is None else f"{value:.2f}")
        rows.append(f"| {tag} ({scenarios[tag]}) | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    from bench.dream_ablation import PIECES, switch_off

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=(*SPLITS, "all"), default="all")
    parser.add_argument("--scenario", action="append", default=[])
    parser.add_argument("--without", action="append", default=[], choices=sorted(PIECES))
    parser.add_argument("--show", action="store_true")
    parser.add_argument("--notes", action="store_true", help="print every failure noted")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--cold", action="store_true", help="no shared embedding cache")
    parser.add_argument("--keep", help="run in this folder and keep the memory roots")
    args = parser.parse_args(argv)
    splits = tuple(SPLITS) if args.split == "all" else (args.split,)
    restore = switch_off(args.without)
    unwatch = watch_engine()
    results: dict[str, dict[str, object]] = {}
    try:
        with tempfile.TemporaryDirectory(prefix="cowdream-quality-") as scratch:
            tmp = args.keep or scratch
            for split in splits:
                scenarios = [s for s in load(split) if not args.scenario or s.name in args.scenario]
                total, by_tag, per = Counts(), defaultdict(Counts), {}
                tag_count: dict[str, int] = defaultdict(int)
                lines = 0
                for scenario in scenarios:
                    counts, root = run_scenario(scenario, Path(tmp) / split, args.cold)
                    total.add(counts)
                    lines += scenario.bullets
                    per[scenario.name] = counts
                    for tag in scenario.tags:
                        by_tag[tag].add(counts)
                        tag_count[tag] += 1
                    if args.show:
                        print(explain(scenario, root) + "\n")
                results[split] = {"total": total, "by_tag": by_tag, "per": per}
                if args.json:
                    continue
                name = SPLITS[split]
                print(
                    table(
                        f"{name}: {len(scenarios)} scenarios, {lines} note lines, "
                        f"{total.dreams} dreams in {total.seconds:.1f} s",
                        total,
                    )
                )
                print()
                print(category_table(name, by_tag, tag_count))
                print()
                print(imprecise_table(name, total))
                print()
                if args.notes:
                    print("\n".join(f"- {n}" for n in total.notes) + "\n")
    finally:
        unwatch()
        restore()
    if args.json:
        out = {
            split: {
                "total": {k: v for k, v in vars(r["total"]).items() if k != "notes"},
                "imprecise": r["total"].imprecise,  # type: ignore[attr-defined]
                "unretired": r["total"].unretired,  # type: ignore[attr-defined]
                "wrong": r["total"].wrong,  # type: ignore[attr-defined]
                "missed": r["total"].missed,  # type: ignore[attr-defined]
                "sides": r["total"].sides,  # type: ignore[attr-defined]
                "per": {
                    n: {k: v for k, v in vars(c).items() if k != "notes"}
                    for n, c in r["per"].items()  # type: ignore[attr-defined]
                },
            }
            for split, r in results.items()
        }
        print(json.dumps(out, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
