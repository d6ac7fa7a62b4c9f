"""The dream's judgement, measured on labelled scenarios (``bench/data/dream/``).

Runs the extractive Deep Dream on every scenario of the dev and held-out parts (``once``: one
dream over the window; ``nightly``: a dream on the evening of every note day, as the bot
runs it), then compares MEMORY.md and the archive with the labels (see
``bench/dream_scenarios.py``) and prints, for each part, every measure with its target,
then the same measures by category (the scenarios' tags).

Usage: ``python bench/dream_quality.py [--split dev|heldout|heldout2|heldout3|all]
[--scenario NAME] [--without PIECE ...] [--show] [--json]``. ``--without`` switches off one
piece of the judgement (``python bench/dream_quality.py --help`` lists them) for the ablation
rows; ``--show`` prints each scenario's MEMORY.md and what the labels say about every item.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from datetime import date, datetime
from datetime import time as dtime
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.dream_scenarios import Scenario, load, write_root
from memory.dream import DreamOptions, run_dream
from memory.dream.grounding import SUPPORT_THRESHOLD, support
from memory.memory_file import parse_archive, parse_memory
from memory.paths import MemoryRoot
from memory.provenance import strip_comments

ZONE = ZoneInfo("Asia/Shanghai")
SPLITS = {  # the parts of bench/data/dream/ and how the tables name them
    "dev": "dev (tuned on)",
    "heldout": "held-out (not tuned on)",
    "heldout2": "held-out 2 (not tuned on)",
    "heldout3": "held-out 3 (not tuned on)",
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

    def add(self, other: Counts) -> None:
        for f in fields(self):
            if f.name == "notes":
                self.notes += other.notes
            else:
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


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


def run_scenario(scenario: Scenario, work: Path, cold: bool = False) -> tuple[Counts, Path]:
    root = work / scenario.name
    write_root(scenario, root)
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
    counts.facts = len(current)
    # A fact in a hand-written item is in MEMORY.md too (the dream folds restatements in).
    hand = [h.removeprefix("- ") for h in scenario.handwritten]
    for fact in current:
        hits = sum(1 for i in items if fact.keys.match(i.text))
        hits += sum(1 for h in hand if fact.keys.match(h))
        if hits:
            counts.recalled += 1
            counts.remembered += 1
            counts.item_matches += hits
        if "long" in scenario.tags:
            counts.long_facts += 1
            counts.long_kept += bool(hits)
        if any(a.reason == "superseded" and fact.keys.match(a.text) for a in archive):
            counts.wrongly_superseded += 1
            counts.notes.append(f"{scenario.name}: {fact.id} archived as superseded")
        for old in fact.olds:
            counts.olds += 1
            out = not any(old.match(i.text) for i in items)
            kept = any(old.match(a.text) for a in archive)
            counts.retired += out and kept
            if not (out and kept):
                still = [i.text for i in items if old.match(i.text)]
                counts.notes.append(
                    f"{scenario.name}: {fact.id} old value kept: {still or 'not archived'}"
                )
    counts.chatter = len(scenario.chatter)
    flat_items = [_flat(i.text) for i in items]
    for text in scenario.chatter:
        key = _flat(text)
        # A short string ("早") leaks only as (nearly) the whole item, not inside a word.
        if key and any(key in i and (len(key) >= 3 or len(i) <= len(key) + 4) for i in flat_items):
            counts.leaked += 1
            counts.notes.append(f"{scenario.name}: chatter leaked: {text}")
    for fact in scenario.facts.values():
        if fact.kind == "plan" and not fact.current(today):
            counts.past_plans += 1
            counts.past_current += any(fact.keys.match(i.text) for i in items)
            counts.past_expired += any(
                a.reason == "expired" and fact.keys.match(a.text) for a in archive
            )
    for entry in items + archive:
        cited = _cited(root, entry.refs)
        if cited is None or support(entry.text, cited) < SUPPORT_THRESHOLD:
            counts.ungrounded += 1
            counts.notes.append(f"{scenario.name}: ungrounded: {entry.text} <- {cited}")
    memory_text = (root / "MEMORY.md").read_text("utf-8") if (root / "MEMORY.md").exists() else ""
    lines = memory_text.splitlines()
    counts.handwritten_lost = sum(1 for h in scenario.handwritten if h not in lines)


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
        tag = ", ".join(ids + olds + past) or "NOT A FACT"
        out.append(f"  [{tag}] {item.text}")
    missing = [f for f in current if not any(f.keys.match(i.text) for i in items)]
    for fact in missing:
        where = [a.reason for a in archive if fact.keys.match(a.text)]
        out.append(f"  MISSING {fact.id} ({fact.kind}) archived as {where or '-'}")
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
                if args.notes:
                    print("\n".join(f"- {n}" for n in total.notes) + "\n")
    finally:
        restore()
    if args.json:
        out = {
            split: {
                "total": {k: v for k, v in vars(r["total"]).items() if k != "notes"},
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
