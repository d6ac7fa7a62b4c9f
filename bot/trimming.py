"""Which turns leave a context window that is over its limits (pure functions)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.session import ChatTurn

KEEP = 0.75  # a trim keeps this share of each limit, so the next one is a batch away


def turns_to_trim(
    window: Sequence[ChatTurn],
    *,
    max_turns: int,
    max_tokens: int,
    reserve: int = 0,
    keep: float = KEEP,
) -> int:
    """How many of the oldest turns to drop when the window is over either limit.

    ``max_turns`` counts user messages (a user message and the replies that follow it make
    one turn, as CowAgent counts). ``reserve`` tokens are kept free for the system prompt.
    Nothing is dropped while the window fits; once it does not, it is cut down to ``keep``
    of each limit, so trimmed turns leave in batches (one note section each) rather than
    one message at a time. The newest message always stays. Cuts are made before a user
    message when possible, so a reply is not kept without its question.
    """
    if not window:
        return 0
    user_starts = [i for i, t in enumerate(window) if t.role == "user"]
    budget = max(max_tokens - reserve, 0)
    if len(user_starts) <= max_turns and sum(t.tokens for t in window) <= budget:
        return 0
    max_turns = max(1, int(max_turns * keep))
    budget = int(budget * keep)
    cut = 0
    if len(user_starts) > max_turns:
        cut = user_starts[len(user_starts) - max_turns]
    total = sum(t.tokens for t in window[cut:])
    while total > budget and cut < len(window) - 1:
        total -= window[cut].tokens
        cut += 1
    if 0 < cut < len(window) - 1 and window[cut].role != "user":
        nxt = next((i for i in user_starts if i >= cut), None)
        if nxt is not None and nxt < len(window):
            cut = nxt
    return min(cut, len(window) - 1)


def hard_trim(window: Sequence[ChatTurn]) -> int:
    """After a context overflow: keep only the newest user message (and what follows)."""
    for i in range(len(window) - 1, -1, -1):
        if window[i].role == "user":
            return i
    return max(len(window) - 1, 0)
