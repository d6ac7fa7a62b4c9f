"""Retrieval evaluation on LoCoMo-style datasets (``qa.jsonl`` beside a memory root).

A dataset is a memory root holding ``qa.jsonl`` (and optionally ``last_date``), or a folder
of such roots. Each root's markdown is copied to a work folder (the shared data stays
read-only; the work folder keeps its index and embedding cache between runs). For every
question with evidence: recall@k is the share of evidence lines inside a top-k hit's line
span, shown@k the share whose line text appears in a top-k snippet, MRR the reciprocal
rank of the first hit holding evidence, hit@5 whether any evidence is in the top 5; plus
the snippet characters of the top 5 and the query latency. Figures by category (LoCoMo's
numbers, or any label a dataset uses) for recall@5 and hit@5.

Knowing when nothing matches is measured on questions whose answer is not in the memory:

- ``no_match``: every ``WITHHELD_EVERY``-th question with evidence is asked of a second
  copy of its root from which the evidence lines of all those questions were deleted; the
  share answered with no hit at all. Where the evidence is the only mention of the fact
  (a daily-life event set) the answer is gone; where a conversation goes back to the same
  thing elsewhere (LoCoMo) part of it is still there, so this is a floor.
- ``no_match_foreign`` (datasets of several roots): every ``WITHHELD_EVERY``-th question of
  the next root asked of this one (other people, other events): the share with no hit.
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
from memory.search.gold_answer import Said, content_lines, find_answer, said
from memory.search.ranking import DEFAULT_MIN_SCORE
from memory.search.service import Hit, MemorySearch, SearchSettings

WITHHELD_EVERY = 4


@dataclass(frozen=True)
class Question:
    qid: str
    question: str
    evidence: list[tuple[str, int]]
    category: str | None
    answer: object = None  # the gold answer as the dataset gives it (None: none)


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
            category = item.get("category")
            label = None if category is None else str(category)
            question = Question(
                str(item["qid"]), str(item["question"]), evidence, label, item.get("answer")
            )
            out.append(question)
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


def withhold(target: Path, questions: list[Question]) -> None:
    """Delete every evidence line of ``questions`` from the copy at ``target``."""
    doomed: dict[str, set[int]] = {}
    for question in questions:
        for path, line in question.evidence:
            doomed.setdefault(path, set()).add(line)
    for path, lines in doomed.items():
        file = target / path
        if not file.is_file():
            continue
        text = file.read_text("utf-8").splitlines()
        kept = [line for number, line in enumerate(text, 1) if number not in lines]
        file.write_text("\n".join(kept) + "\n", "utf-8")


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


def _day(source: Path, now: date | None) -> date | None:
    if now is None and (source / "last_date").is_file():
        return date.fromisoformat((source / "last_date").read_text().strip())
    return now


def _no_hits(
    service: MemorySearch, questions: list[Question], min_score: float, day: date | None
) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for question in questions:
        hits = service.search(question.question, limit=10, min_score=min_score, now=day)
        rows.append({"category": question.category, "none": float(not hits)})
    return rows


def evaluate(
    dataset: Path,
    settings: SearchSettings,
    work: Path,
    *,
    min_score: float = DEFAULT_MIN_SCORE,
    now: date | None = None,
    progress: Callable[[str], None] | None = None,
    no_match: bool = True,
) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    withheld: list[dict[str, Any]] = []
    foreign: list[dict[str, Any]] = []
    latencies: list[float] = []
    per_root: dict[str, dict[str, Any]] = {}
    sources = find_roots(dataset)
    asked = {s: [q for q in load_questions(s) if q.evidence] for s in sources}
    for position, source in enumerate(sources):
        target = work / source.name
        copy_root(source, target)
        root = MemoryRoot.at(target)
        day = _day(source, now)
        line_text = line_reader(root)
        service = MemorySearch(root, settings)
        local: list[dict[str, Any]] = []
        try:
            service.sync(progress)
            for question in asked[source]:
                started = time.perf_counter()
                hits = service.search(question.question, limit=10, min_score=min_score, now=day)
                latencies.append((time.perf_counter() - started) * 1000)
                scored: dict[str, Any] = dict(score_question(question, hits, line_text, 5))
                scored["recall10"] = score_question(question, hits, line_text, 10)["recall"]
                scored["category"] = question.category
                local.append(scored)
            if no_match and len(sources) > 1:
                other = asked[sources[(position + 1) % len(sources)]][::WITHHELD_EVERY]
                foreign += _no_hits(service, other, min_score, day)
        finally:
            service.close()
        if no_match:
            held = asked[source][::WITHHELD_EVERY]
            copy = work / f"{source.name}.withheld"
            copy_root(source, copy)
            withhold(copy, held)
            service = MemorySearch(MemoryRoot.at(copy), settings)
            try:
                service.sync(progress)
                asked_rows = _no_hits(service, held, min_score, day)
            finally:
                service.close()
            full, left = said(content_lines(target)), said(content_lines(copy))
            withheld += _with_answers(asked_rows, held, full, left)
        rows.extend(local)
        per_root[source.name] = summarise(local)
    result = summarise(rows)
    result["latency_ms_p50"] = round(statistics.median(latencies), 2) if latencies else 0.0
    result["latency_ms_p95"] = round(_p95(latencies), 2)
    if no_match:
        result.update(_no_match_summary("no_match", withheld))
        result.update(_answer_summary(withheld))
        if foreign:
            result.update(_no_match_summary("no_match_foreign", foreign))
    result["roots"] = per_root
    return result


def _no_match_summary(key: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    if not rows:
        return {f"{key}_questions": 0}
    return {
        key: round(statistics.mean(r["none"] for r in rows), 4),
        f"{key}_questions": len(rows),
        f"{key}_by_category": _by_category(rows, "none"),
    }


def _with_answers(
    rows: list[dict[str, Any]], questions: list[Question], full: list[Said], copy: list[Said]
) -> list[dict[str, Any]]:
    """``rows`` (one per question) with whether its gold answer is in the full root's lines
    and in the withheld copy's (``None``: no answer words to test)."""
    for row, question in zip(rows, questions, strict=True):
        in_root = find_answer(question.answer, full)
        row["in_root"] = None if in_root is None else in_root.strict
        row["in_copy"] = find_answer(question.answer, copy)
    return rows


def _answer_summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    tested = [r for r in rows if r["in_copy"] is not None]
    present = [r for r in tested if r["in_copy"].strict]
    absent = [r for r in tested if not r["in_copy"].loose]
    out: dict[str, Any] = {
        "no_match_answer_tested": len(tested),
        "no_match_answer_in_root": sum(1 for r in tested if r["in_root"]),
        "no_match_answer_present": len(present),
        "no_match_answer_present_loose": sum(1 for r in tested if r["in_copy"].loose),
    }
    out.update(_no_match_summary("no_match_absent", absent))
    out.update(_no_match_summary("no_match_present", present))
    return out


def _by_category(rows: list[dict[str, Any]], key: str) -> dict[str, float]:
    labels = sorted({r["category"] for r in rows if r.get("category")}, key=_label_order)
    return {
        label: round(statistics.mean(r[key] for r in rows if r.get("category") == label), 4)
        for label in labels
    }


def _label_order(label: str) -> tuple[int, str]:
    return (int(label), "") if label.isdigit() else (1 << 30, label)


def _p95(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    if not rows:
        return {"questions": 0}
    n = len(rows)
    for row in rows:
        row["hit"] = float(row["recall"] > 0)
    return {
        "questions": n,
        "recall@5": round(sum(r["recall"] for r in rows) / n, 4),
        "recall@10": round(sum(r["recall10"] for r in rows) / n, 4),
        "shown@5": round(sum(r["shown"] for r in rows) / n, 4),
        "mrr": round(sum(r["rr"] for r in rows) / n, 4),
        "hit@5": round(sum(r["hit"] for r in rows) / n, 4),
        "snippet_chars@5_mean": round(sum(r["chars"] for r in rows) / n, 1),
        "snippet_chars@5_max": max(r["chars"] for r in rows),
        "recall@5_by_category": _by_category(rows, "recall"),
        "hit@5_by_category": _by_category(rows, "hit"),
    }
