"""People knowledge on LoCoMo conversations: do the lines that answer a question about a
person land in that person's ledger, and on their card, and never only on the other's?

Usage: ``python bench/people_locomo.py [DATASET] [--max-entries N] [--json]`` (default
``../shared/datasets/locomo-dev``; each ``conv-*`` root is copied to a temporary folder and
its two speakers get one person each). For every question of categories 1-4 that names
exactly one speaker and has evidence: **ledger** = share of its evidence lines cited by an
entry of that person's ledger (or archive), **card** = share cited by their card,
**other** = share cited only by the other speaker's files (misattribution). Prints the
figures per category and conversation, plus the time taken.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from datetime import UTC, date, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory.daily_notes import parse_note_text
from memory.paths import MemoryRoot, day_of
from memory.people.directory import load_directory, record_sighting
from memory.people.files import read_person
from memory.people.limits import PeopleLimits
from memory.people.phase import refresh_people

DEFAULT = Path("../shared/datasets/locomo-dev")  # relative to the working directory
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


def speakers(root: MemoryRoot) -> list[str]:
    names: dict[str, int] = defaultdict(int)
    for path in sorted(root.notes_dir.glob("*.md")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("- [") and "]" in line:
                head = line.split("]", 1)[1].strip().split(":", 1)[0]
                names[head] += 1
    return [n for n, _ in sorted(names.items(), key=lambda kv: -kv[1])[:2]]


def cited(
    root: MemoryRoot, slug: str, name: str
) -> tuple[set[tuple[str, int]], set[tuple[str, int]]]:
    files = read_person(root, slug, name)
    ledger = {
        (r.path, n)
        for e in (*files.observations, *files.archive)
        for r in e.refs
        for n in r.lines()
    }
    card = {(r.path, n) for e in files.card for r in e.refs for n in r.lines()}
    return ledger, card


def run(conv: Path, limits: PeopleLimits) -> tuple[dict[str, list[float]], float]:
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(conv, tmp, dirs_exist_ok=True)
        root = MemoryRoot(Path(tmp))
        people = speakers(root)
        when = datetime(2023, 1, 1, tzinfo=UTC)
        for name in people:
            record_sighting(root, f"locomo:{name}", name, when)
        lines = []
        for path in sorted(root.notes_dir.glob("*.md")):
            day = day_of(path.name) or date(2023, 1, 1)
            lines += parse_note_text(path.read_text(encoding="utf-8"), f"memory/{path.name}", day)
        started = time.perf_counter()
        refresh_people(root, lines, max(line.day for line in lines).isoformat(), limits)
        took = time.perf_counter() - started
        directory = load_directory(root)
        files = {p.name: cited(root, p.slug, p.name) for p in directory.people.values()}
        scores: dict[str, list[float]] = defaultdict(list)
        for raw in (conv / "qa.jsonl").read_text(encoding="utf-8").splitlines():
            qa = json.loads(raw)
            named = [n for n in people if n in qa["question"]]
            if qa["category"] not in CATEGORIES or len(named) != 1 or not qa["evidence"]:
                continue
            evidence = {(e["file"], e["line"]) for e in qa["evidence"]}
            ledger, card = files[named[0]]
            (other,) = [files[n][0] for n in people if n != named[0]]
            cat = CATEGORIES[qa["category"]]
            for key, got in (("ledger", ledger), ("card", card), ("other", other - ledger)):
                scores[f"{cat}/{key}"].append(len(evidence & got) / len(evidence))
        return scores, took


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="people_locomo")
    parser.add_argument("dataset", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--max-entries", type=int, default=1000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    limits = PeopleLimits(max_entries=args.max_entries)
    total: dict[str, list[float]] = defaultdict(list)
    report: dict[str, dict[str, float]] = {}
    for conv in sorted(p for p in args.dataset.iterdir() if (p / "qa.jsonl").is_file()):
        scores, took = run(conv, limits)
        report[conv.name] = {k: round(sum(v) / len(v), 3) for k, v in sorted(scores.items())}
        report[conv.name]["seconds"] = round(took, 2)
        for key, values in scores.items():
            total[key] += values
    report["all"] = {k: round(sum(v) / len(v), 3) for k, v in sorted(total.items())}
    report["all"]["questions"] = len(total.get("single-hop/ledger", []))
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        for name, figures in report.items():
            print(name, " ".join(f"{k}={v}" for k, v in figures.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
