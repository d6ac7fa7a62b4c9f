"""Generate the Chinese evaluation root ``bench/data/zh/`` from ``zh_facts.py``.

Deterministic (fixed seed): about six months of daily notes in CowAgent's format, each day
mixing a few facts with everyday chatter, sections at various times; a MEMORY.md holding
some facts again (with provenance comments), and an archive of superseded items. Every
question is worded differently from its note; its evidence is the note line (and the
MEMORY.md line when the fact is also there). Run: ``python bench/data/make_zh.py``.
"""

from __future__ import annotations

import json
import random
import shutil
import sys
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from zh_facts import FACTS, FILLER

OUT = Path(__file__).parent / "zh"
START = date(2026, 6, 1)
DAYS = 180
SEED = 20261130


def main() -> None:
    rng = random.Random(SEED)
    shutil.rmtree(OUT, ignore_errors=True)
    (OUT / "memory").mkdir(parents=True)
    days = sorted(rng.sample(range(DAYS), 75))
    order = list(range(len(FACTS)))
    rng.shuffle(order)
    per_day: dict[int, list[int]] = {d: [] for d in days}
    for n, fact in enumerate(order):
        per_day[days[n % len(days)]].append(fact)
    where: dict[int, list[tuple[str, int]]] = {}
    for offset in days:
        day = START + timedelta(days=offset)
        items = [("fact", i) for i in per_day[offset]]
        items += [("filler", i) for i in rng.sample(range(len(FILLER)), rng.randint(3, 7))]
        rng.shuffle(items)
        cut = rng.randint(1, len(items) - 1)
        lines = [f"# Daily Memory: {day.isoformat()}", ""]
        hour = rng.randint(9, 15)
        for title, part in (
            (f"Trimmed Context ({hour:02d}:{rng.randint(0, 59):02d})", items[:cut]),
            ("Daily Summary (23:55)", items[cut:]),
        ):
            lines += [f"## {title}", ""]
            for kind, index in part:
                text = FACTS[index][0] if kind == "fact" else FILLER[index]
                lines.append(f"- {text}")
                if kind == "fact":
                    where.setdefault(index, []).append((f"memory/{day.isoformat()}.md", len(lines)))
            lines.append("")
        (OUT / "memory" / f"{day.isoformat()}.md").write_text("\n".join(lines), "utf-8")
    core = sorted(rng.sample(range(len(FACTS)), 12))
    memory_lines = ["# MEMORY", "", "## 关于用户", ""]
    for index in core:
        path, line = where[index][0]
        importance = rng.choice([None, 0.6, 0.9])
        extra = f"; importance: {importance}" if importance else ""
        memory_lines.append(f"- {FACTS[index][0]} <!-- src: {path}#L{line}{extra} -->")
        where[index].append(("MEMORY.md", len(memory_lines)))
    (OUT / "MEMORY.md").write_text("\n".join(memory_lines) + "\n", "utf-8")
    archive = [
        "# Archive",
        "",
        "- 用户以前喝拿铁 <!-- src: memory/2026-06-02.md#L5; reason: superseded; "
        "archived: 2026-07-01 -->",
        "- config.json 里的 max_tokens 设为 1024 <!-- src: memory/2026-06-03.md#L6; "
        "reason: superseded; archived: 2026-08-11 -->",
        "- 用户住在海淀区 <!-- src: memory/2026-06-05.md#L7; reason: superseded; "
        "archived: 2026-09-02 -->",
    ]
    (OUT / "memory" / "archive.md").write_text("\n".join(archive) + "\n", "utf-8")
    with open(OUT / "qa.jsonl", "w", encoding="utf-8") as handle:
        for index, (note, question) in enumerate(FACTS):
            evidence = [{"file": f, "line": n} for f, n in where[index]]
            record = {
                "qid": f"zh#{index}",
                "category": 4,
                "question": question,
                "answer": note,
                "evidence": evidence,
            }
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    last = START + timedelta(days=days[-1])
    (OUT / "last_date").write_text(last.isoformat() + "\n", "utf-8")
    print(f"{len(FACTS)} questions, {len(days)} daily notes, last date {last}")


if __name__ == "__main__":
    main()
