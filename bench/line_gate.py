"""Measure line-level vectors as signals of the answerability gate (docs/search.md, "Round 17").

Usage: ``python bench/line_gate.py HITS.jsonl ... --work DIR --vectors QV.npz
--line-vectors LV.npz [--absent PRESENT.jsonl] [--depth 3] [--categories]``, and
``python bench/line_gate.py --cost SEARCH.sqlite ...`` (what a vector a line costs).

The dumps and the work folder come from ``python bench/gate_features.py DATASET ... --work
DIR --hits FILE --offsets 0,1,2,3`` (``DIR`` holds every dump's dataset folders); the
questions' vectors are embedded once with the local model (as ``bench/train_answerable.py``
does) and the lines of every row's first ``--depth`` hits once more as passages
(``LV.npz``; the embedding's time is printed: it is what storing one vector a line at
indexing would cost). Three gates are fitted per language on the dev questions only
(bench/data/zh, zh-hard/dev, LoCoMo conv-26/30/41), each set and kind weighing the same
(positives: answerable questions with evidence in their top 5; negatives: withheld and
foreign questions with hits):

- ``before``: :func:`memory.search.answerable.signals` (the shipped gate's signals);
- ``lines``: :data:`memory.search.line_signals.FEATURES` alone (with the hit count);
- ``after``: both.

Dev rows are scored **out of fold**: each dev root by the model fitted without it (LoCoMo:
leave one conversation out; bench/data/zh and zh-hard/dev by each other's); held-out rows
(zh-hard/heldout, conv-42/43: only measured) by the model fitted on every dev root. For
each gate, threshold and set: recall@5 / hit@5 / withheld no-match at the eval's quarter
(all quarters) / foreign no-match / no-match among answer-absent withheld questions (all
quarters). The point chosen on dev is the largest threshold at which LoCoMo dev recall@5
stays ≥ 0.80 (English) and no Chinese dev set loses hit@5 (Chinese); ``--categories``
prints every set by category there.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.gate_features import _logistic
from bench.train_answerable import DEV, HELD_OUT, _copy_of, hits_of, offline_cosines, set_of
from memory.search.answerable import language_of, signals, without_question
from memory.search.line_signals import FEATURES, embedded_text, hit_line_texts, line_signals
from memory.search.reader import HITS_READ

THRESHOLDS = (
    0.002,
    0.005,
    0.01,
    0.02,
    0.03,
    0.05,
    0.07,
    0.1,
    0.15,
    0.2,
    0.3,
    0.4,
    0.5,
    0.6,
    0.7,
    0.8,
    0.9,
)
SHOWN = (*DEV, *HELD_OUT)
EN_FLOOR = 0.80  # LoCoMo dev recall@5 the English point keeps


def line_vectors(texts: list[str], path: Path) -> dict[str, np.ndarray]:
    """The lines' passage vectors, embedded once with the local model and kept in ``path``."""
    known: dict[str, np.ndarray] = {}
    if path.is_file():
        known = dict(np.load(path, allow_pickle=True)["d"].item())
    todo = sorted(set(texts) - set(known))
    if todo:
        from memory.search.embeddings.local import LocalProvider

        model = LocalProvider()
        start = time.perf_counter()
        for i in range(0, len(todo), 64):
            batch = todo[i : i + 64]
            known.update(zip(batch, model.embed_passages(batch), strict=True))
        spent = time.perf_counter() - start
        chars = sum(len(t) for t in todo) / len(todo)
        print(
            f"embedded {len(todo)} lines in {spent:.1f} s ({1000 * spent / len(todo):.1f} ms a"
            f" line, {chars:.0f} characters a line)",
            file=sys.stderr,
        )
        np.savez(path, d=np.array(known, dtype=object))
    return known


BULK = ("line_bulk_z", "line_over20", "line_above", "line_top_z")


def copy_lines(db: Path) -> list[str]:
    """Every content line of a work copy's index, as embedded (each once)."""
    import sqlite3

    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    texts = [t for (t,) in conn.execute("SELECT text FROM chunks")]
    conn.close()
    return sorted({embedded_text(x) for t in texts for x in t.splitlines() if x.strip()} - {""})


def bulk_signals(best: float, everything: np.ndarray) -> dict[str, float]:
    """The best hit line's cosine against the question's cosines with *every* line of the
    memory: its z-score, its lead over the 20th best, the share of lines above it, and the
    memory's own best line's z-score."""
    mean, spread = float(everything.mean()), float(everything.std()) + 1e-6
    ranked = np.sort(everything)[::-1]
    return {
        "line_bulk_z": (best - mean) / spread,
        "line_over20": best - float(ranked[min(19, len(ranked) - 1)]),
        "line_above": float((everything > best + 1e-6).mean()),
        "line_top_z": (float(ranked[0]) - mean) / spread,
    }


def features(
    rows: list[dict[str, Any]],
    work: Path,
    vectors: Path,
    lines_path: Path,
    depth: int,
    bulk: bool = False,
) -> tuple[list[dict[str, float]], list[dict[str, float]]]:
    """Each row's gate signals (as :func:`answerable.answers` reads them) and line signals
    (with ``bulk``, :func:`bulk_signals` too: every line of every copy embedded)."""
    near, _ = offline_cosines(rows, work, vectors)
    questions = dict(np.load(vectors, allow_pickle=True)["d"].item())
    base, read_lines = [], []
    for r, cosines in zip(rows, near, strict=True):
        read = [
            (kept, c)
            for h, c in zip(hits_of(r), cosines, strict=True)
            for kept in without_question(r["question"], [h])
        ]
        hits, chunk = [h for h, _ in read], [c for _, c in read]
        base.append(signals(r["question"], hits, r["weights"], chunk) if read else {})
        read_lines.append((hit_line_texts(r["question"], hits, depth), chunk))
    wanted = [t for lines, _ in read_lines for _, t in lines]
    copies: dict[Path, list[str]] = {}
    if bulk:
        copies = {db: copy_lines(db) for db in {_copy_of(work, r) for r in rows}}
        wanted += [t for texts in copies.values() for t in texts]
    known = line_vectors(wanted, lines_path)
    matrices = {db: np.array([known[t] for t in texts]) for db, texts in copies.items()}
    extra = []
    for r, (lines, chunk) in zip(rows, read_lines, strict=True):
        q = questions[r["question"]]
        cos = [float(known[t] @ q) for _, t in lines]
        seen = line_signals(r["question"], r["weights"], lines, cos, chunk)
        if bulk:
            seen.update(bulk_signals(seen["line_best"], matrices[_copy_of(work, r)] @ q))
        extra.append(seen)
    return base, extra


def fit_predict(
    x: np.ndarray, rows: list[dict[str, Any]], use: np.ndarray, apply: np.ndarray
) -> np.ndarray:
    """Fit a logistic model on ``use`` rows (positives: answerable with evidence in the top
    5; negatives: the rest), return the chance of the ``apply`` rows."""
    positive = np.array([r["kind"] == "answerable" and r.get("hit5", 0) > 0 for r in rows])
    negative = np.array([r["kind"] != "answerable" and bool(r["hits"]) for r in rows])
    use = use & (positive | negative)
    mean, scale = x[use].mean(0), x[use].std(0) + 1e-6
    groups = [f"{set_of(r)}/{r['kind']}" for r, u in zip(rows, use, strict=True) if u]
    b = _logistic((x[use] - mean) / scale, positive[use].astype(float), groups)
    z = b[-1] + ((x[apply] - mean) / scale) @ b[:-1]
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


def out_of_fold(x: np.ndarray, rows: list[dict[str, Any]], zh_folds: int = 0) -> np.ndarray:
    """Each dev row's chance by the model fitted without its root (``zh_folds``: Chinese dev
    rows instead by the model fitted without their fold of questions, ``zh_folds`` folds
    drawn by question, a question's answerable and withheld rows together); held-out rows'
    by the model fitted on every dev row of their language."""
    sets = np.array([set_of(r) for r in rows])
    dev = np.isin(sets, DEV)
    language = np.array([language_of(r["question"]) for r in rows])
    roots = np.array([f"{r['dataset']}/{r['root']}" for r in rows])
    if zh_folds:
        fold = np.array(
            [zlib.crc32(f"{r['dataset']}/{r['qid']}".encode()) % zh_folds for r in rows]
        )
        roots = np.where(language == "zh", np.char.add("fold", fold.astype(str)), roots)
    p = np.zeros(len(rows))
    for lang in ("en", "zh"):
        mine = language == lang
        held = mine & ~dev
        if held.any():
            p[held] = fit_predict(x, rows, dev & mine, held)
        for root in sorted(set(roots[dev & mine])):
            here = roots == root
            p[here] = fit_predict(x, rows, dev & mine & ~here, here)
    return p


class Table:
    def __init__(self, rows: list[dict[str, Any]], found: dict[tuple[str, int], bool | None]):
        self.sets = np.array([set_of(r) for r in rows])
        self.kind = np.array([r["kind"] for r in rows])
        self.offset = np.array([r.get("offset", 0) for r in rows])
        self.recall = np.array([r.get("recall5", 0.0) for r in rows])
        self.hit = np.array([r.get("hit5", 0.0) for r in rows])
        self.cats = np.array([str(r.get("category")) for r in rows])
        self.has = np.array([bool(r["hits"]) for r in rows])
        self.absent = np.array([found.get((r["qid"], r.get("offset", 0))) is False for r in rows])
        self.language = np.array([language_of(r["question"]) for r in rows])

    def figures(self, passed: np.ndarray, where: np.ndarray) -> dict[str, float]:
        passed = passed & self.has
        a = where & (self.kind == "answerable")
        w, f = where & (self.kind == "withheld"), where & (self.kind == "foreign")
        q, ab = w & (self.offset == 0), w & self.absent
        nan = float("nan")
        return {
            "recall5": float((self.recall[a] * passed[a]).mean()) if a.any() else nan,
            "hit5": float((self.hit[a] * passed[a]).mean()) if a.any() else nan,
            "nm": float((~passed[q]).mean()) if q.any() else nan,
            "nm_all": float((~passed[w]).mean()) if w.any() else nan,
            "nm_foreign": float((~passed[f]).mean()) if f.any() else nan,
            "nm_absent": float((~passed[ab]).mean()) if ab.any() else nan,
        }

    def line(self, passed: np.ndarray, label: str) -> None:
        cells = []
        for s in SHOWN:
            g = self.figures(passed, self.sets == s)
            cells.append(
                f"{g['recall5']:.4f} / {g['hit5']:.3f} / {g['nm']:.2f} ({g['nm_all']:.2f}) / "
                f"{g['nm_foreign']:.2f} / ab {g['nm_absent']:.2f}"
            )
        print(f"| {label} | " + " | ".join(cells) + " |")

    def categories(self, passed: np.ndarray, label: str) -> None:
        print(f"\n{label}, by category (recall@5 / hit@5 / withheld no-match all quarters (n)):")
        for s in SHOWN:
            cells = []
            for c in sorted(set(self.cats[self.sets == s])):
                g = self.figures(passed, (self.sets == s) & (self.cats == c))
                n = int(((self.sets == s) & (self.cats == c) & (self.kind == "withheld")).sum())
                cells.append(f"{c} {g['recall5']:.3f} / {g['hit5']:.3f} / {g['nm_all']:.2f} ({n})")
            print(f"- {s}: " + "; ".join(cells))


def aucs(table: Table, rows: list[dict[str, Any]], x: np.ndarray, names: list[str]) -> None:
    """Each signal alone, per set: the AUC of answerable questions with evidence in their
    top 5 against withheld ones with hits (1.0: every answerable one reads higher)."""
    positive = np.array([r["kind"] == "answerable" and r.get("hit5", 0) > 0 for r in rows])
    negative = (table.kind == "withheld") & table.has
    print("| signal | " + " | ".join(SHOWN) + " |")
    print("|---" * (1 + len(SHOWN)) + "|")
    for j, name in enumerate(names):
        cells = []
        for s in SHOWN:
            pos, neg = x[positive & (table.sets == s), j], x[negative & (table.sets == s), j]
            if not len(pos) or not len(neg):
                cells.append("—")
                continue
            auc = (pos[:, None] > neg[None, :]).mean() + 0.5 * (pos[:, None] == neg[None, :]).mean()
            cells.append(f"{auc:.3f}")
        print(f"| {name} | " + " | ".join(cells) + " |")
    print()


def single(table: Table, rows: list[dict[str, Any]], v: np.ndarray, name: str) -> None:
    """One signal as the gate (a question passes when it reads at least the cut), no
    fitting: cuts at quantiles of the answerable dev questions' values, per language; the
    dev-chosen cut as :func:`chosen` chooses."""
    answerable = np.array([r["kind"] == "answerable" and r.get("hit5", 0) > 0 for r in rows])
    dev = np.isin(table.sets, DEV)
    cuts: dict[str, list[float]] = {}
    for lang in ("en", "zh"):
        mine = answerable & dev & (table.language == lang)
        q = (0.0, 0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.3, 0.5)
        cuts[lang] = (
            [float(np.quantile(v[mine], x)) - 1e-9 for x in q] if mine.any() else [0.0] * 10
        )
    best = {"en": 0, "zh": 0}
    base = {s: table.figures(np.ones(len(v), bool), table.sets == s) for s in DEV}
    for k in range(10):
        cut = np.where(table.language == "en", cuts["en"][k], cuts["zh"][k])
        passed = v >= cut
        table.line(passed, f"{name} ≥ en {cuts['en'][k]:.3f} / zh {cuts['zh'][k]:.3f}")
        en_kept, zh_kept = _dev_kept(table, passed, base)
        if en_kept:
            best["en"] = k
        if zh_kept:
            best["zh"] = k
    en, zh = cuts["en"][best["en"]], cuts["zh"][best["zh"]]
    cut = np.where(table.language == "en", en, zh)
    table.line(v >= cut, f"**{name}, chosen on dev: en {en:.3f} / zh {zh:.3f}**")


def chosen(table: Table, p: np.ndarray) -> dict[str, float]:
    """The largest threshold per language that keeps LoCoMo dev recall@5 ≥ ``EN_FLOOR``
    (English) or every Chinese dev set's hit@5 (Chinese), read on dev rows only."""
    out = {"en": 0.0, "zh": 0.0}
    base = {s: table.figures(np.ones(len(p), bool), table.sets == s) for s in DEV}
    for t in THRESHOLDS:
        en_kept, zh_kept = _dev_kept(table, p >= t, base)
        if en_kept:
            out["en"] = t
        if zh_kept:
            out["zh"] = t
    return out


def _dev_kept(
    table: Table, passed: np.ndarray, base: dict[str, dict[str, float]]
) -> tuple[bool, bool]:
    """Whether the questions ``passed`` keep LoCoMo dev recall@5 ≥ ``EN_FLOOR`` (English),
    and every Chinese dev set's hit@5 of ``base`` (Chinese)."""
    en = table.figures(passed, table.sets == "locomo/dev")["recall5"] >= EN_FLOOR
    zh = all(
        table.figures(passed, table.sets == s)["hit5"] >= base[s]["hit5"] - 1e-9
        for s in ("zh", "zh-hard/dev")
    )
    return en, zh


def cost(dbs: list[Path], sample: int) -> None:
    """What one vector a line would cost at indexing, per index (a work copy's
    ``search.sqlite``): its distinct chunk texts and distinct non-blank lines, and the
    local model's time for ``sample`` chunks and for the same chunks' lines (interleaved,
    three rounds; the best round counts), and the whole index's time at those rates; then
    what the gate would do at query time with the lines' vectors at hand
    (:func:`line_signals` over the first 3 hits' lines) and without them (embedding those
    lines then)."""
    import sqlite3

    from memory.search.embeddings.local import LocalProvider

    model = LocalProvider()
    for db in dbs:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        # the cache keys vectors by text: a chunk or line said on many days is embedded once
        texts = list(
            dict.fromkeys(t for (t,) in conn.execute("SELECT text FROM chunks ORDER BY id"))
        )
        conn.close()
        lines_of = [[embedded_text(x) for x in t.splitlines() if x.strip()] for t in texts]
        line_count = len({x for t in lines_of for x in t} - {""})
        step = max(1, len(texts) // sample)
        chunks = texts[::step][:sample]
        lines = [x for t in lines_of[::step][:sample] for x in t if x]
        spent: dict[str, list[float]] = {"chunks": [], "lines": []}
        for _ in range(3):
            for name, batch in (("chunks", chunks), ("lines", lines)):
                start = time.perf_counter()
                for i in range(0, len(batch), 32):
                    model.embed_passages(batch[i : i + 32])
                spent[name].append(time.perf_counter() - start)
        per_chunk = min(spent["chunks"]) / len(chunks)
        per_line = min(spent["lines"]) / max(1, len(lines))
        print(
            f"{db}: {len(texts)} chunks, {line_count} lines ({line_count / len(texts):.2f} a"
            f" chunk); {1000 * per_chunk:.1f} ms a chunk, {1000 * per_line:.1f} ms a line;"
            f" whole index: chunks {len(texts) * per_chunk:.1f} s, lines"
            f" {line_count * per_line:.1f} s"
            f" (x{line_count * per_line / (len(texts) * per_chunk):.2f})"
        )
        query_lines = [x for t in lines_of[:3] for x in t][:15] or ["x"]
        rounds = []
        for _ in range(5):
            start = time.perf_counter()
            model.embed_passages(query_lines)
            rounds.append(time.perf_counter() - start)
        vectors = np.random.default_rng(0).standard_normal((len(query_lines), 384))
        q = vectors[0]
        start = time.perf_counter()
        for _ in range(100):
            cos = list(vectors @ q)
            line_signals(
                "what did she paint?", {"paint": 1.0}, [(0, x) for x in query_lines], cos, [0.8]
            )
        signals_ms = 10 * (time.perf_counter() - start)
        print(
            f"  at query time: {len(query_lines)} lines embedded then"
            f" {1000 * float(np.median(rounds)):.0f} ms"
            f" (median of 5); signals from vectors at hand {signals_ms:.2f} ms"
        )


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--cost":
        cost([Path(a) for a in argv[1:]], 64)
        return 0
    parser = argparse.ArgumentParser(prog="line_gate")
    parser.add_argument("dumps", nargs="+", type=Path)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--vectors", type=Path, required=True, help="questions' vectors (.npz)")
    parser.add_argument("--line-vectors", type=Path, required=True, help="lines' vectors (.npz)")
    parser.add_argument("--absent", type=Path, help="answer_present.py rows (all quarters)")
    parser.add_argument("--depth", type=int, default=HITS_READ, help="hits whose lines are read")
    parser.add_argument("--drop", default="", help="line signals left out, comma-separated")
    parser.add_argument("--bulk", action="store_true", help="embed every line: bulk signals too")
    parser.add_argument("--categories", action="store_true", help="by category at the chosen point")
    parser.add_argument(
        "--zh-folds", type=int, default=0, help="Chinese dev rows out of fold by question (k folds)"
    )
    args = parser.parse_args(argv)
    rows = [json.loads(line) for p in args.dumps for line in p.read_text("utf-8").splitlines()]
    found: dict[tuple[str, int], bool | None] = {}
    if args.absent:
        for line in args.absent.read_text("utf-8").splitlines():
            r = json.loads(line)
            found[(r["qid"], r["offset"])] = None if not r["tested"] else bool(r["loose"])
    base, extra = features(rows, args.work, args.vectors, args.line_vectors, args.depth, args.bulk)
    base_names = list(next(b for b in base if b))
    signal_names = [*FEATURES, *BULK] if args.bulk else list(FEATURES)
    line_names = [n for n in signal_names if n not in set(args.drop.split(","))]

    def matrix(names: list[str]) -> np.ndarray:
        merged = [
            {**{n: 0.0 for n in base_names}, **b, **e} for b, e in zip(base, extra, strict=True)
        ]
        return np.array([[m[n] for n in names] for m in merged])

    small = ["hits", "cosine_best", "cover_best", "cover5"]
    gates = {
        "before": matrix(base_names),
        "lines": matrix(["hits", *line_names]),
        "after": matrix([*base_names, *line_names]),
        "small": matrix(small),
        "small+lines": matrix([*small, *line_names]),
    }
    table = Table(rows, found)
    aucs(table, rows, matrix([*small, "cosine1", *line_names]), [*small, "cosine1", *line_names])
    print(
        "| gate, p ≥ | "
        + " | ".join(f"{s} (r@5 / hit@5 / nm (all) / nm_f / ab (all))" for s in SHOWN)
        + " |"
    )
    print("|---" * (1 + len(SHOWN)) + "|")
    table.line(np.ones(len(rows), bool), "no gate")
    points = {}
    for name, x in gates.items():
        p = out_of_fold(x, rows, args.zh_folds)
        for t in THRESHOLDS:
            table.line(p >= t, f"{name} {t}")
        point = chosen(table, p)
        cut = np.where(table.language == "en", point["en"], point["zh"])
        table.line(p >= cut, f"**{name}, chosen on dev: en {point['en']} / zh {point['zh']}**")
        points[name] = (p, cut)
    for name in ("cosine_best", "line_best", "line_cover_max", "line_bulk_z", "line_over20"):
        j = (
            [*small, "cosine1", *line_names].index(name)
            if name in line_names or name in small
            else -1
        )
        if j >= 0:
            single(table, rows, matrix([*small, "cosine1", *line_names])[:, j], name)
    if args.categories:
        table.categories(np.ones(len(rows), bool), "no gate")
        for name, (p, cut) in points.items():
            table.categories(p >= cut, f"{name} at the dev-chosen point")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
