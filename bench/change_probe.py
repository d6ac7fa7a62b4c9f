"""Plain changes and look-alike keeps, one pair at a time (``bench/data/judge/change_probe.tsv``).

Each row is ``label lang category old new half``: the old line is noted on one day, the new
line three days later, and one extractive Deep Dream runs over the week (the bench's shared
embedding cache, as ``bench/dream_quality.py`` uses it). A ``change`` row is retired when no
MEMORY.md item cites the old day and the archive holds the old line as superseded; a
``keep`` row is wrongly retired when the archive holds it as superseded. Group rows are
speaker-prefixed lines as the group notes write them.

Usage: ``python bench/change_probe.py [--data PATH] [--half even|odd|more|group|news|all]
[--part tune|check] [--category NAME] [--show]``; ``--show`` prints every miss with the
MEMORY.md it left.
``--data bench/data/judge/change_probe_more.tsv`` runs the second set (half ``more``, written
apart from the first); ``--data bench/data/judge/change_probe_news.tsv --half news`` the
news of a change told as chatter ("终于搬到良渚了哈哈") beside chatter sharing its topic (round
27, our own); ``--data bench/data/judge/change_probe_group.tsv --half group`` a group's
shared things changed by another member and facts told as heard (round 27, our own);
``--data bench/data/judge/change_probe_reach.tsv --half more`` changes no rule read before
round 28 (a breakup, a thing replaced, a school year, a course over) and their look-alikes;
``--data bench/data/judge/change_probe_numbers4.tsv --half more`` numbers of one measured thing
in other units, numerals and words, rescheduled dates, beside two things sharing a unit, a
target, a year gone by, another person's number (round 28, helper-118);
``--part`` takes every other two rows of the file (``tune``: rows 1-2,
5-6, ...; ``check``: rows 3-4, 7-8, ...), so half a set can be kept aside.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.dream_quality import _keep_cache, _seed_cache
from memory.daily_notes import append_section
from memory.dream import DreamOptions, run_dream
from memory.memory_file import parse_archive, parse_memory
from memory.paths import MemoryRoot

ZONE = ZoneInfo("Asia/Shanghai")
DATA = Path(__file__).resolve().parent / "data" / "judge" / "change_probe.tsv"
OLD_DAY = datetime(2027, 5, 3, 23, 50, tzinfo=ZONE)
NEW_DAY = datetime(2027, 5, 6, 23, 50, tzinfo=ZONE)
DREAM_AT = datetime(2027, 5, 6, 23, 58, tzinfo=ZONE)


@dataclass(frozen=True)
class Pair:
    label: str
    lang: str
    category: str
    old: str
    new: str
    half: str


@dataclass
class Outcome:
    pair: Pair
    kept: bool  # an item still cites the old day
    superseded: bool  # the archive holds the old line as superseded
    items: list[str]

    @property
    def retired(self) -> bool:
        return not self.kept and self.superseded


def load(path: Path = DATA) -> list[Pair]:
    rows = path.read_text("utf-8").splitlines()
    return [Pair(*line.split("\t")) for line in rows[1:] if line.strip()]


def run_pair(pair: Pair, work: Path) -> Outcome:
    root_dir = work / "root"
    root_dir.mkdir()
    root = MemoryRoot.at(root_dir)
    _seed_cache(root_dir)
    append_section(root, "Daily Summary", [pair.old], now=OLD_DAY)
    append_section(root, "Daily Summary", [pair.new], now=NEW_DAY)
    options = DreamOptions(days=7, engine="extractive", max_items=30, force=True)
    run_dream(root, options, model=None, now=DREAM_AT)
    _keep_cache(root_dir)
    old_file = f"{OLD_DAY.date().isoformat()}.md"
    memory = root_dir / "MEMORY.md"
    items = parse_memory(memory.read_text("utf-8")).generated if memory.exists() else []
    kept = any(old_file in str(s) for i in items for s in i.sources)
    archive_path = root_dir / "memory" / "archive.md"
    archive = parse_archive(archive_path.read_text("utf-8")) if archive_path.exists() else []
    superseded = any(
        a.reason == "superseded" and any(old_file in str(s) for s in a.sources) for a in archive
    )
    return Outcome(pair, kept, superseded, [i.text for i in items])


def table(outcomes: list[Outcome], key: str) -> list[str]:
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        groups[getattr(o.pair, key)].append(o)
        groups["all"].append(o)
    lines = [f"| {key} | changes retired | keeps wrongly retired |", "|---|---|---|"]
    for name in sorted(groups, key=lambda n: (n == "all", n)):
        rows = groups[name]
        ch = [o for o in rows if o.pair.label == "change"]
        kp = [o for o in rows if o.pair.label == "keep"]
        done = sum(o.retired for o in ch)
        wrong = sum(o.superseded for o in kp)
        lines.append(f"| {name} | {done}/{len(ch)} | {wrong}/{len(kp)} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the pairs' tsv")
    parser.add_argument(
        "--half", choices=("even", "odd", "more", "group", "news", "members", "all"), default="all"
    )
    parser.add_argument("--part", choices=("tune", "check"), help="every other row only")
    parser.add_argument("--category")
    parser.add_argument("--show", action="store_true", help="print every miss")
    args = parser.parse_args()
    rows = load(args.data)
    if args.part is not None:
        rows = [p for i, p in enumerate(rows) if (i // 2) % 2 == (args.part == "check")]
    pairs = [
        p for p in rows if args.half in ("all", p.half) and args.category in (None, p.category)
    ]
    t0 = time.perf_counter()
    outcomes: list[Outcome] = []
    for pair in pairs:
        with tempfile.TemporaryDirectory() as d:
            outcomes.append(run_pair(pair, Path(d)))
    seconds = time.perf_counter() - t0
    notes = {"even": " (tuned on)", "odd": " (held out)", "more": "", "group": "", "news": ""}
    notes["members"] = ""
    for half in notes:
        mine = [o for o in outcomes if o.pair.half == half]
        if not mine:
            continue
        print(f"\n### {half} rows{notes[half]}")
        print("\n".join(table(mine, "category")))
        print()
        print("\n".join(table(mine, "lang")))
    if args.show:
        print("\n### misses")
        for o in outcomes:
            wrong = o.pair.label == "change" and not o.retired
            wrong = wrong or (o.pair.label == "keep" and o.superseded)
            if wrong:
                state = "kept" if o.kept else ("lost" if not o.superseded else "retired")
                print(
                    f"- [{o.pair.half} {o.pair.label} {o.pair.category}] {state}: "
                    f"{o.pair.old} -> {o.pair.new} | {o.items}"
                )
    each = seconds / max(1, len(outcomes))
    print(f"\n{len(outcomes)} pairs in {seconds:.1f} s ({each:.2f} s/pair)")


if __name__ == "__main__":
    main()
