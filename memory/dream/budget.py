"""MEMORY.md's token budget: the estimate the prompt pays for it (pure)."""

from __future__ import annotations

from memory.provenance import strip_comments
from memory.tokens import estimate_tokens


def memory_tokens(text: str) -> int:
    """Estimated tokens of MEMORY.md as a prompt gets it: comments stripped, blank lines
    left out, one token per line break."""
    lines = [strip_comments(line).rstrip() for line in text.splitlines()]
    kept = [line for line in lines if line.strip()]
    return sum(estimate_tokens(line) for line in kept) + max(0, len(kept) - 1)
