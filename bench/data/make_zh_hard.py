"""Generate the harder Chinese evaluation set ``bench/data/zh-hard/{dev,heldout}/``.

Each persona (``zh_hard_dev.py``, ``zh_hard_heldout.py``) becomes one memory root in
CowDream's format: six months of daily notes (events on their dates, look-alike lines
about other people, everyday chatter; some days as conversation turns ``- 用户: ...`` with
the assistant's reply), a MEMORY.md repeating some facts with provenance comments, and an
archive (with its real header) of superseded items. Questions are MemDaily's kinds:
simple, conditional, comparative (two events), aggregative (several), post-processing
(reasoning on the found facts) and noisy (chatter around the question). A question's
evidence is every line holding one of its facts: the note line, and the MEMORY.md or
archive line of that fact. Deterministic (fixed seed). Run:
``python bench/data/make_zh_hard.py``.
"""

from __future__ import annotations

import json
import random
import shutil
import sys
from datetime import date, timedelta
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).parent))
import zh_hard_dev
import zh_hard_heldout

OUT = Path(__file__).parent / "zh-hard"
SEED = 20261201

CHATTER = [
    "用户问今天要不要带伞",
    "帮用户把一段会议纪要整理成了要点",
    "用户说晚上吃了番茄炒蛋",
    "闲聊了几句最近的电视剧",
    "用户让我推荐一个记账软件",
    "帮用户算了一下这个月的水电费",
    "用户吐槽早高峰堵车",
    "用户问怎么清理手机内存",
    "帮用户写了一条生日祝福短信",
    "用户说今天午饭吃多了，下午犯困",
    "用户问了一个 Excel 里 VLOOKUP 的用法",
    "帮用户查了周末的天气",
    "用户说楼下的桂花开了，很香",
    "用户让我讲了一个冷笑话",
    "用户问西瓜放冰箱能放几天",
    "帮用户翻译了一封英文邮件",
    "用户说最近睡得有点晚",
    "用户问附近有没有好吃的面馆",
    "帮用户列了一个周末要买的东西的清单",
    "用户说今天工作特别多，忙得没空喝水",
    "用户问怎么把照片转成 PDF",
    "用户随口说想换个发型",
    "帮用户想了几个朋友圈的配文",
    "用户问空调开多少度最省电",
    "用户说小区停电了一个小时",
    "帮用户检查了一段 Python 代码的缩进",
    "用户问明天限不限行",
    "用户说最近在追一部悬疑剧",
    "帮用户换算了一下美元和人民币",
    "用户问绿萝叶子发黄怎么办",
]
REPLIES = [
    "助手: 好的，我记下了。",
    "助手: 听起来不错！",
    "助手: 辛苦了，注意休息。",
    "助手: 明白，有需要随时叫我。",
    "助手: 好的，这件事我帮你记着。",
    "助手: 真为你高兴！",
]


def _days(start: str, end: str) -> list[date]:
    first, last = date.fromisoformat(start), date.fromisoformat(end)
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]


def build(persona: ModuleType, out: Path, rng: random.Random) -> None:
    """One memory root for ``persona``; prints what it wrote."""
    shutil.rmtree(out, ignore_errors=True)
    (out / "memory").mkdir(parents=True)
    by_day: dict[str, list[tuple[str, str]]] = {}
    for key, (day, text) in persona.EVENTS.items():
        by_day.setdefault(day, []).append((key, text))
    for day, text in persona.DISTRACTORS.items():
        by_day.setdefault(day, []).append(("", text))
    calendar = [d.isoformat() for d in _days(persona.START, persona.END)]
    quiet = [d for d in calendar if d not in by_day]
    for day in rng.sample(quiet, len(by_day) // 2):  # chatter-only days
        by_day[day] = []
    where: dict[str, list[tuple[str, int]]] = {}
    for day in sorted(by_day):
        items = list(by_day[day])
        items += [("", c) for c in rng.sample(CHATTER, rng.randint(2, 6))]
        rng.shuffle(items)
        cut = rng.randint(1, len(items) - 1)
        lines = [f"# Daily Memory: {day}", ""]
        hour = rng.randint(9, 16)
        for title, part in (
            (f"Trimmed Context ({hour:02d}:{rng.randint(0, 59):02d})", items[:cut]),
            ("Daily Summary (23:55)", items[cut:]),
        ):
            lines += [f"## {title}", ""]
            for key, text in part:
                lines.append(f"- {text}")
                if key:
                    where.setdefault(key, []).append((f"memory/{day}.md", len(lines)))
                if text.startswith("用户: "):
                    lines.append(f"- {rng.choice(REPLIES)}")
            lines.append("")
        (out / "memory" / f"{day}.md").write_text("\n".join(lines), "utf-8")
    memory = ["# MEMORY", "", "## 关于用户", ""]
    for key, text in persona.MEMORY.items():
        path, line = where[key][0]
        memory.append(f"- {text} <!-- src: {path}#L{line} -->")
        where[key].append(("MEMORY.md", len(memory)))
    (out / "MEMORY.md").write_text("\n".join(memory) + "\n", "utf-8")
    archive = [
        "# Memory Archive",
        "",
        "Items that left MEMORY.md: why, when, and their sources. Still searchable.",
        "",
    ]
    for key, text, archived in persona.ARCHIVE:
        path, line = where[key][0]
        archive.append(
            f"- {text} <!-- src: {path}#L{line}; reason: superseded; archived: {archived} -->"
        )
        where[key].append(("memory/archive.md", len(archive)))
    (out / "memory" / "archive.md").write_text("\n".join(archive) + "\n", "utf-8")
    with open(out / "qa.jsonl", "w", encoding="utf-8") as handle:
        for number, (category, question, keys, answer) in enumerate(persona.QUESTIONS):
            evidence = [{"file": f, "line": n} for key in keys for f, n in where[key]]
            record = {
                "qid": f"zh-hard-{persona.PERSONA}#{number}",
                "category": category,
                "question": question,
                "answer": answer,
                "evidence": evidence,
            }
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    last = max(by_day)
    (out / "last_date").write_text(last + "\n", "utf-8")
    print(f"{out.name}: {len(persona.QUESTIONS)} questions, {len(by_day)} notes, last {last}")


def main() -> None:
    rng = random.Random(SEED)
    for persona in (zh_hard_dev, zh_hard_heldout):
        build(persona, OUT / persona.PERSONA, rng)


if __name__ == "__main__":
    main()
