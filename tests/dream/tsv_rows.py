"""The rows of a judge data file read loosely: ``KIND<TAB>text``, comments and blanks out."""

from __future__ import annotations

from pathlib import Path


def rows_loose(path: Path) -> list[tuple[str, str]]:
    out = []
    for line in path.read_text("utf-8").splitlines():
        kind, _, text = line.partition("\t")
        if text and not line.startswith("#"):
            out.append((kind, text.strip()))
    return out
