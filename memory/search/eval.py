"""Retrieval evaluation on LoCoMo-style datasets (``qa.jsonl`` beside a memory root).

A dataset is a memory root holding ``qa.jsonl`` (and optionally ``last_date``), or a folder
of such roots. Each root's markdown is copied to a work folder (the shared data stays
read-only; the work folder keeps its index and embedding cache between runs). For every
question with evidence: recall@k is the share of evidence lines inside a top-k hit's line
span, shown@k the share whose line text appears in a top-k snippet, MRR the reciprocal
rank of the first hit holding evidence; plus the snippet characters of the top 5 and the
query latency.
"""

from __future__ import annotations

import json
import shutil
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from memory.errors import UsageError
from memory.paths import MemoryRoot
from memory.provenance import strip_comments
from memory.search.service import Hit, MemorySearch, SearchSettings


@dataclass(frozen=True)
class Question:
    qid: str
    question: str
    evidence: list[tuple[str, int]]
    category: int | None


def find_roots(dataset: Path) -> list[Path]:
    if (dataset / "qa.jsonl").is_file():
        return [dataset]
    roots = sorted(p for p in dataset.iterdir() if (p / "qa.jsonl").is_file())
    if not roots:
        raise UsageError(f"no qa.jsonl found in {dataset} or its subfolders")
    return roots


def load_questions(root: Path) -> list[Question]:
    out = []
    for number, line in enumerate((root / "qa.jsonl").read_text("utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            evidence = [(str(e["file"]), int(e["line"])) for e in item.get("evidence") or []]
            out.append(
                Question(str(item["qid"]), str(item["question"]), evidence, item.get("category"))
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise UsageError(f"{root / 'qa.jsonl'}:{number}: bad question: {exc}") from exc
    return out


def copy_root(source: Path, target: Path) -> None:
    """Copy MEMORY.md and memory/*.md (no index, no qa) into ``target``."""
    (target / "memory").mkdir(parents=True, exist_ok=True)
    wanted = {p.relative_to(source) for p in [source / "MEMORY.md"] if p.is_file()}
    wanted |= {p.relative_to(source) for p in (source / "memory").glob("*.md")}
    for relative in wanted:
        if (
            not (target / relative).is_file()
            or (target / relative).read_bytes() != (source / relative).read_bytes()
        ):
            shutil.copyfile(source / relative, target / relative)
    for stale in (target / "memory").glob("*.md"):
        if stale.relative_to(target) not in wanted:
            stale.unlink()


def line_reader(root: MemoryRoot) -> Callable[[str, int], str]:
    """``(path, line) -> text`` of a root's lines, comments stripped, files read once."""
    cache: dict[str, list[str]] = {}

    def line_text(path: str, number: int) -> str:
        if path not in cache:
            cache[path] = root.resolve(path).read_text("utf-8").splitlines()
        text = cache[path]
        return strip_comments(text[number - 1]).strip() if 0 < number <= len(text) else ""

    return line_text


def score_question(
    question: Question, hits: list[Hit], lines: Callable[[str, int], str], k: int
) -> dict[str, float]:
    top = hits[:k]
    inside = [
        any(h.path == f and h.start_line <= n <= h.end_line for h in top)
        for f, n in question.evidence
    ]
    shown = [
        lines(f, n) != "" and any(lines(f, n) in h.snippet for h in top)
        for f, n in question.evidence
    ]
    rank = next(
        (
            i
            for i, h in enumerate(hits, 1)
            if any(h.path == f and h.start_line <= n <= h.end_line for f, n in question.evidence)
        ),
        None,
    )
    return {
        "recall": sum(inside) / len(inside),
        "shown": sum(shown) / len(shown),
        "rr": 1.0 / rank if rank else 0.0,
        "chars": float(sum(len(h.snippet) for h in hits[:5])),
    }


def evaluate(
    dataset: Path,
    settings: SearchSettings,
    work: Path,
    *,
    min_score: float = 0.35,
    now: date | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    rows: list[dict[str, float]] = []
    latencies: list[float] = []
    per_root: dict[str, dict[str, float]] = {}
    for source in find_roots(dataset):
        target = work / source.name
        copy_root(source, target)
        root = MemoryRoot.at(target)
        day = now
        if day is None and (source / "last_date").is_file():
            day = date.fromisoformat((source / "last_date").read_text().strip())
        line_text = line_reader(root)
        service = MemorySearch(root, settings)
        try:
            service.sync(progress)
            local: list[dict[str, float]] = []
            for question in load_questions(source):
                if not question.evidence:
                    continue
                started = time.perf_counter()
                hits = service.search(question.question, limit=10, min_score=min_score, now=day)
                latencies.append((time.perf_counter() - started) * 1000)
                scored = score_question(question, hits, line_text, 5)
                scored["recall10"] = score_question(question, hits, line_text, 10)["recall"]
                scored["category"] = float(question.category or 0)
                local.append(scored)
        finally:
            service.close()
        rows.extend(local)
        per_root[source.name] = summarise(local)
    result = summarise(rows)
    result["latency_ms_p50"] = round(statistics.median(latencies), 2) if latencies else 0.0
    result["latency_ms_p95"] = round(_p95(latencies), 2)
    result["roots"] = per_root
    return result


def _p95(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def summarise(rows: list[dict[str, float]]) -> dict[str, Any]:
    if not rows:
        return {"questions": 0}
    n = len(rows)
    categories = sorted({int(r["category"]) for r in rows if r.get("category")})
    by_category = {
        str(c): round(statistics.mean(r["recall"] for r in rows if r.get("category") == c), 4)
        for c in categories
    }
    return {
        "questions": n,
        "recall@5": round(sum(r["recall"] for r in rows) / n, 4),
        "recall@10": round(sum(r["recall10"] for r in rows) / n, 4),
        "shown@5": round(sum(r["shown"] for r in rows) / n, 4),
        "mrr": round(sum(r["rr"] for r in rows) / n, 4),
        "hit@5": round(sum(1 for r in rows if r["recall"] > 0) / n, 4),
        "snippet_chars@5_mean": round(sum(r["chars"] for r in rows) / n, 1),
        "snippet_chars@5_max": max(r["chars"] for r in rows),
        "recall@5_by_category": by_category,
    }
