"""Benchmark: how a dream's time grows with one huge daily note (it must grow linearly).

Writes one daily note of each size in ``--sizes`` (MB) into a fresh temporary root, made
of varied statements and chatter like ``bench/dream.py``'s (``--distinct`` numbers every
line, so none repeats: the hardest case), plus one hand-written line of a megabyte, and
runs one dream over it (``--days 1``, extractive) in a fresh process; prints the time of
``run_dream`` and of each phase, the peak RSS and the seconds per MB.

Usage: ``python bench/dream_big_note.py [--sizes 0.25 0.5 1] [--distinct] [--seed 7]
[--no-embeddings]``.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from dream import CHATTER, ZONE, _child, child_env, statement


def write_note(root: Path, megabytes: float, seed: int, day: str, distinct: bool) -> int:
    rng = random.Random(seed)
    target = int(megabytes * 1024 * 1024)
    parts = [f"# Daily Memory: {day}\n\n## Daily Summary (23:55)\n"]
    size = len(parts[0].encode())
    lines = 0
    parts.append("- " + "用户写了一段很长的随笔，" * 40_000 + "\n")  # one huge hand-written line
    while size < target:
        text = rng.choice(CHATTER) if rng.random() < 0.25 else statement(rng)
        line = f"- {text} ({lines})\n" if distinct else f"- {text}\n"
        parts.append(line)
        size += len(line.encode())
        lines += 1
    notes = root / "memory"
    notes.mkdir(parents=True)
    (notes / f"{day}.md").write_text("".join(parts), encoding="utf-8")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[0.25, 0.5, 1.0])
    parser.add_argument("--distinct", action="store_true", help="no line repeats")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--no-embeddings",
        action="store_true",
        help="judge by words (COWDREAM_DREAM_EMBEDDINGS=off)",
    )
    args = parser.parse_args()
    from memory.clock import now_in

    day = now_in(ZONE).date().isoformat()
    env = child_env()
    if args.no_embeddings:
        env["COWDREAM_DREAM_EMBEDDINGS"] = "off"
    for megabytes in args.sizes:
        tmp = Path(tempfile.mkdtemp(prefix="cowdream-bignote-"))
        try:
            root = tmp / "root"
            lines = write_note(root, megabytes, args.seed, day, args.distinct)
            result = _child(root, "plain", days=1, env=env)
            phases = ", ".join(f"{k} {v[1]:.1f} s" for k, v in result["phases"].items())
            print(
                f"{megabytes:g} MB ({lines} lines): {result['status']}, run_dream "
                f"{result['seconds']:.1f} s, CPU {result['cpu']:.1f} s "
                f"({result['cpu'] / megabytes:.1f} CPU s/MB; by phase, CPU: {phases}), "
                f"peak RSS {result['maxrss_kb'] / 1024:.0f} MB"
            )
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
