"""Token estimates without a tokenizer download.

Chinese, Japanese and Korean characters count one token each; other text counts one token
per four characters (rounded up), which is close to what BPE tokenizers give for English
prose and errs on the safe side for code. Each message adds a fixed overhead of four.
"""

from __future__ import annotations

import math
import re

_WIDE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
MESSAGE_OVERHEAD = 4


def estimate_tokens(text: str) -> int:
    """Estimated tokens of ``text`` (0 for the empty string)."""
    if not text:
        return 0
    wide = len(_WIDE.findall(text))
    rest = len(text) - wide
    return wide + math.ceil(rest / 4)


def message_tokens(text: str) -> int:
    """Estimated tokens of one chat message holding ``text``."""
    return estimate_tokens(text) + MESSAGE_OVERHEAD
