"""Chunks of a session log (``sessions/DATE.jsonl``): one turn a chunk.

A chunk cites the turn's line and shows it as ``HH:MM speaker: content``; a turn longer
than ``max_chars`` is cut into several chunks that all cite its line. Tombstones of
forgotten turns, lines that do not parse and turns that are nothing but a greeting, thanks or
an acknowledgement ("谢谢", "thanks!", "好的": no fact to find) are left out.
"""

from __future__ import annotations

from memory.chatter import is_greeting_or_ack
from memory.search.chunker import Chunk, ChunkerConfig, split_long
from memory.session_log import parse_line


def session_chunks(path: str, text: str, config: ChunkerConfig) -> list[Chunk]:
    if not config.sessions:
        return []
    chunks = []
    for number, raw in enumerate(text.splitlines(), start=1):
        turn = parse_line(raw, number)
        if turn is None or turn.forgotten or is_greeting_or_ack(turn.content):
            continue
        for piece in split_long(" ".join(turn.display().split()), config.max_chars):
            chunks.append(Chunk(path, number, number, piece))
    return chunks
