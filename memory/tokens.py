"""Token estimates without a tokenizer download.

Chinese, Japanese and Korean characters count one token each; other text counts one token
per four characters (rounded up), which is close to what BPE tokenizers give for English
prose and errs on the safe side for code.
"""

from __future__ import annotations

import math
import re

_WIDE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_BREAK = re.compile(r"[。！？!?；;，,、]\s*|\.\s+")
ELLIPSIS = "…"


def estimate_tokens(text: str) -> int:
    """Estimated tokens of ``text`` (0 for the empty string)."""
    if not text:
        return 0
    wide = len(_WIDE.findall(text))
    rest = len(text) - wide
    return wide + math.ceil(rest / 4)


def clip_tokens(text: str, budget: int) -> str:
    """``text`` cut to at most ``budget`` estimated tokens: at the last sentence or clause
    break that keeps at least half the budget, else at a word, marked with an ellipsis."""
    if estimate_tokens(text) <= budget:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix (plus the ellipsis) within the budget
        middle = (low + high + 1) // 2
        if estimate_tokens(text[:middle] + ELLIPSIS) <= budget:
            low = middle
        else:
            high = middle - 1
    prefix = text[:low]
    breaks = [m.start() + 1 for m in _BREAK.finditer(prefix)]
    cut = max((b for b in breaks if estimate_tokens(prefix[:b]) * 2 >= budget), default=0)
    if cut:
        return prefix[:cut].rstrip(" ,，、;；")
    space = prefix.rfind(" ")
    if space > len(prefix) // 2:
        prefix = prefix[:space]
    return prefix.rstrip() + ELLIPSIS
