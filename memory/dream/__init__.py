"""Deep Dream: distilling daily notes and MEMORY.md into a small, grounded MEMORY.md."""

from memory.dream.model import DreamOptions, DreamReport
from memory.dream.runner import run_dream

__all__ = ["DreamOptions", "DreamReport", "run_dream"]
