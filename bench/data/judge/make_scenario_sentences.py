"""Write ``scenario_lines_dev.tsv``: the dev scenarios' note lines as classifier data.

Each labelled note line of ``bench/data/dream/dev/`` (never the held-out parts), its
speaker's label left out: ``chatter`` when every label on it is chatter; ``plan`` or
``event`` when a label says so; else the durable kind the shipped classifier reads in it
(the scenarios label facts, not their kinds). Lines labelled both chatter and a fact are
left out.

Also writes ``scenario_long_dev.tsv``, the same without short chatter lines: what
``python bench/train_judge.py`` teaches the embedding model beside the hand-written
sentences (``--dense-extra``). Usage: ``python bench/data/judge/make_scenario_sentences.py``
(regenerating after the classifier changed may change some durable lines' kinds).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bench.dream_scenarios import load
from memory.dream.judge.classifier import classify
from memory.search.embeddings.local import LocalProvider
from memory.speaker import split

OUT = Path(__file__).with_name("scenario_lines_dev.tsv")
LONG = Path(__file__).with_name("scenario_long_dev.tsv")  # what the embedding model learns
SHORT_CJK, SHORT_WORDS = 8, 5  # chatter shorter than both is left out of LONG


def short_chatter(kind: str, text: str) -> bool:
    """A chatter line shorter than 8 Chinese characters and 5 English words ("累死了",
    "ok thx"): the hand-written sentences teach those; a thousand of them would teach the
    model that a short line is chatter, and short updates ("跳槽去了拼多多") are facts."""
    cjk = len(re.findall(r"[\u4e00-\u9fff]", text))
    return (
        kind == "chatter" and cjk < SHORT_CJK and len(re.findall(r"[A-Za-z]+", text)) < SHORT_WORDS
    )


def rows() -> list[list[str]]:
    out: list[list[str]] = []
    for scenario in load("dev"):
        for day, lines in scenario.notes.items():
            for number, line in enumerate(lines, start=1):
                labels = scenario.labels.get(f"memory/{day.isoformat()}.md#L{number}")
                body = split(line[2:]).body.strip() if labels else ""
                if not body:
                    continue
                kinds = {kind for kind, _ in labels or ()}
                if kinds == {"chatter"}:
                    out.append(["chatter", body])
                elif "chatter" not in kinds:
                    fixed = "plan" if "plan" in kinds else "event" if "event" in kinds else ""
                    out.append([fixed, body])
    todo = [i for i, (kind, _) in enumerate(out) if not kind]
    texts = [out[i][1] for i in todo]
    vectors = np.asarray(LocalProvider().embed_passages(texts))
    for i, judgement in zip(todo, classify(texts, vectors), strict=True):
        out[i][0] = judgement.kind
    return out


def main() -> int:
    data = rows()
    lines = ["# The dev scenarios' note lines (bench/data/dream/dev), written by"]
    lines.append("# bench/data/judge/make_scenario_sentences.py: KIND<TAB>text.")
    lines += [f"{kind}\t{text}" for kind, text in data]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(data)} lines: {dict(Counter(kind for kind, _ in data))} -> {OUT}")
    long = [f"{kind}\t{text}" for kind, text in data if not short_chatter(kind, text)]
    LONG.write_text("\n".join(lines[:2] + long) + "\n", encoding="utf-8")
    print(f"{len(long)} lines -> {LONG}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
