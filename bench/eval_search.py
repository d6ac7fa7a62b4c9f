"""Retrieval evaluation, same as ``python -m memory eval``.

Usage: ``python bench/eval_search.py [DATASET ...] [--work DIR] [--provider P] [--json]``
(defaults: ``bench/data/zh`` and ``../shared/datasets/locomo-dev``). Prints recall@5,
recall@10, shown@5, MRR, hit@5, the snippet characters of the top 5, recall@5 by question
category and query latency. Regenerate the Chinese set with ``python bench/data/make_zh.py``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory.search.commands import register


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="eval_search")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["eval", *argv])
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
