"""Hybrid memory search: jieba BM25 (SQLite FTS5) + dense vectors (FAISS), fused and ranked.

The public entry points are :mod:`memory.search.service` (``MemorySearch``),
:mod:`memory.search.tools` (the bot's ``memory_search``/``memory_get``) and
:mod:`memory.search.commands` (``index``, ``search``, ``eval`` subcommands).
"""
