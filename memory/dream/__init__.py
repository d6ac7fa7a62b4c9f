"""Deep Dream: distilling daily notes and MEMORY.md into a small, grounded MEMORY.md."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memory.dream.model import DreamOptions, DreamReport
    from memory.dream.runner import run_dream

__all__ = ["DreamOptions", "DreamReport", "run_dream"]


def __getattr__(name: str) -> Any:
    # imported on first use: a process that only searches (python -m memory search) never
    # pays for the dream's modules
    if name in ("DreamOptions", "DreamReport"):
        from memory.dream import model

        return getattr(model, name)
    if name == "run_dream":
        from memory.dream.runner import run_dream

        return run_dream
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
