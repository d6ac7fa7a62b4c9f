"""Token estimates without a tokenizer download.

Chinese, Japanese and Korean characters count one token each; other text counts one token
per four characters (rounded up), which is close to what BPE tokenizers give for English
prose and errs on the safe side for code. Each message adds a fixed overhead of four.
"""

from __future__ import annotations

from memory.tokens import estimate_tokens

__all__ = ["MESSAGE_OVERHEAD", "estimate_tokens", "message_tokens"]

MESSAGE_OVERHEAD = 4


def message_tokens(text: str) -> int:
    """Estimated tokens of one chat message holding ``text``."""
    return estimate_tokens(text) + MESSAGE_OVERHEAD
