"""How many of the eval's "unanswerable" questions are still answerable? (issue 13)

Usage: ``python bench/answer_present.py DATASET ... [--offsets 0,1,2,3] [--hits DUMP.jsonl]
[--show N]``

For every root, every ``WITHHELD_EVERY``-th question with evidence (offset 0: the eval's
``no_match`` quarter; 1-3 the other quarters, as ``bench/gate_features.py --offsets``)
is withheld as the eval does (a copy with the evidence lines of that quarter deleted),
and its gold answer looked for (``memory/search/gold_answer.py``) in the full root and in
the copy. Printed per set (bench/data/zh, zh-hard dev / held-out, LoCoMo dev conv-26/30/41
/ held-out conv-42/43) and category: withheld questions; with answer words to test; the
answer in the full root (strict: what the word test can see at all); still in the copy,
strict and loose, and *in context* (strict, and a line holding the answer or one of its
items also holds one of the question's own terms other than its names: a tighter reading,
"Running" in a line about shoes rather than any line saying "running"); absent (not even
loosely). With ``--hits`` (a
``gate_features.py --hits`` dump of the same datasets and offsets) also the share with no
hit at all (``no_match``) among all, answer-absent and answer-present (strict) questions.
``--show N`` prints N withheld questions of the dev sets whose answer is still there, with
the line that holds it.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory.search.eval import WITHHELD_EVERY, copy_root, find_roots, load_questions, withhold
from memory.search.gold_answer import Said, content_lines, find_answer, holders, said
from memory.search.keyword_index import query_terms
from memory.search.names import names

LOCOMO_DEV = ("conv-26", "conv-30", "conv-41")
DEV_SETS = ("zh", "zh-hard/dev", "locomo/dev")


def set_of(dataset: str, root: str) -> str:
    if dataset == "locomo-dev":
        return "locomo/dev" if root in LOCOMO_DEV else "locomo/heldout"
    return "zh" if dataset == "zh" else f"{dataset}/{root}"


def study(datasets: list[Path], offsets: list[int], scratch: Path) -> list[dict[str, Any]]:
    """One row per withheld question: its set, category, offset and where its answer is."""
    rows = []
    for dataset in datasets:
        for source in find_roots(dataset):
            asked = [q for q in load_questions(source) if q.evidence]
            full = said(content_lines(source))
            for k in offsets:
                held = asked[k::WITHHELD_EVERY]
                copy = scratch / dataset.name / f"{source.name}.{k}"
                copy_root(source, copy)
                withhold(copy, held)
                left = said(content_lines(copy))
                for q in held:
                    in_root, in_copy = find_answer(q.answer, full), find_answer(q.answer, left)
                    row: dict[str, Any] = {
                        "qid": q.qid,
                        "set": set_of(dataset.name, source.name),
                        "category": str(q.category),
                        "offset": k,
                        "question": q.question,
                        "answer": q.answer,
                        "tested": in_copy is not None,
                    }
                    if in_root is not None and in_copy is not None:
                        held_by = holders(q.answer, left) if in_copy.strict else []
                        row.update(root=in_root.strict, strict=in_copy.strict, loose=in_copy.loose)
                        row["line"] = held_by[0].text if held_by else ""
                        row["context"] = _in_context(q.question, held_by)
                    rows.append(row)
    return rows


def _in_context(question: str, holders: list[Said]) -> bool:
    """Whether a line holding the whole answer also holds one of the question's terms that
    are not its names' (the asked slot, as ``memory/search/gate_slots.py`` reads it)."""
    named = {t for n in names(question) for t in query_terms(n)}
    slot = set(query_terms(question)) - named
    return any(slot & line.words for line in holders)


def _share(rows: Iterable[dict[str, Any]], key: str) -> str:
    rows = list(rows)
    if not rows:
        return "—"
    return f"{sum(1 for r in rows if r[key]) / len(rows):.2f} ({len(rows)})"


def table(rows: list[dict[str, Any]], with_hits: bool) -> None:
    columns = ["set", "category", "withheld", "tested", "in root", "present strict"]
    columns += ["present loose", "in context", "absent"]
    if with_hits:
        columns += ["no_match all", "no_match absent", "no_match present"]
    print("| " + " | ".join(columns) + " |")
    print("|---" * len(columns) + "|")
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[(r["set"], r["category"])].append(r)
        groups[(r["set"], "all")].append(r)
    for (name, category), mine in sorted(groups.items(), key=_order):
        tested = [r for r in mine if r["tested"]]
        n = len(tested)
        cells = [name, category, str(len(mine)), str(n)]
        for key in ("root", "strict", "loose", "context", "absent"):
            held = sum(1 for r in tested if (not r["loose"] if key == "absent" else r[key]))
            cells.append(f"{held} ({held / n:.2f})" if n else "—")
        if with_hits:
            cells.append(_share(mine, "none"))
            cells.append(_share((r for r in tested if not r["loose"]), "none"))
            cells.append(_share((r for r in tested if r["strict"]), "none"))
        print("| " + " | ".join(cells) + " |")


def _order(item: tuple[tuple[str, str], Any]) -> tuple[int, int, str]:
    (name, category), _ = item
    sets = ["zh", "zh-hard/dev", "zh-hard/heldout", "locomo/dev", "locomo/heldout"]
    rank = sets.index(name) if name in sets else len(sets)
    return (rank, category == "all", category)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="answer_present")
    parser.add_argument("datasets", nargs="+", type=Path)
    parser.add_argument("--offsets", default="0", help="withheld quarters, e.g. 0,1,2,3")
    parser.add_argument("--hits", type=Path, help="a gate_features.py --hits dump: no_match too")
    parser.add_argument("--show", type=int, default=0, help="print N dev questions still there")
    parser.add_argument("--out", type=Path, help="write the rows as JSON lines")
    args = parser.parse_args(argv)
    offsets = [int(k) for k in args.offsets.split(",")]
    with tempfile.TemporaryDirectory(prefix="answer-present-") as scratch:
        rows = study(args.datasets, offsets, Path(scratch))
    if args.hits:
        none = {}
        for line in args.hits.read_text("utf-8").splitlines():
            d = json.loads(line)
            if d["kind"] == "withheld":
                none[(d["qid"], d.get("offset", 0))] = not d["hits"]
        for r in rows:
            r["none"] = none[(r["qid"], r["offset"])]
    for label, chosen in (
        ("the eval's quarter (offset 0)", [r for r in rows if r["offset"] == 0]),
        (f"all offsets {args.offsets}", rows),
    ):
        if len(offsets) == 1 and label.startswith("all"):
            break
        print(f"\n{label}:")
        table(chosen, bool(args.hits))
    if args.out:
        with args.out.open("w", encoding="utf-8") as out:
            for r in rows:
                out.write(json.dumps(r, ensure_ascii=False) + "\n")
    shown = [r for r in rows if r["set"] in DEV_SETS and r["tested"] and r["strict"]]
    for r in shown[: args.show]:
        print(f"- {r['qid']} [{r['category']}] {r['question']} -> {r['answer']!r}: {r['line']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
