"""Keyword search: SQLite FTS5 over jieba-segmented text, with normalised BM25 scores.

Text is segmented in Python (``memory.segment.tokens(..., for_search=True)``: jieba's
``cut_for_search`` for Chinese, whole ASCII identifiers plus their parts) and stored as
space-separated tokens; FTS5's ``unicode61`` tokenizer then only splits on those spaces
because every identifier joiner is declared a token character. Queries go through the same
segmentation (plus a light English stemmer, :mod:`memory.search.stemming`), so
``API_KEY``, ``ECONNREFUSED`` or ``v2.3`` match exactly.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from memory.search.ranking import IDF_FLOOR, bm25_normalise, fts5_idf
from memory.search.stemming import stem
from memory.segment import STOPWORDS, tokens

TOKENIZER_VERSION = "jieba-search-stem-2"
_CJK_CHAR = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
COMMON_CHAR_IDF = 3.0  # fts5_idf of a term in about 5 % of the chunks
# From this many chunks on, a query whose every term is in at least half of them gets no
# keyword hits: BM25 gives such terms no weight (FTS5's idf is floored to nothing), so
# scoring them ranks nothing, and it reads the postings of most of the index.
UNINFORMATIVE_MIN_ROWS = 1000
COUNTS_KEPT = 4096  # terms whose chunk counts are remembered between changes


def _common_char(term: str, idf: float) -> bool:
    return len(term) == 1 and _CJK_CHAR.match(term) is not None and idf < COMMON_CHAR_IDF


# Contentless: the chunk text lives once, in ``chunks``; FTS keeps only its inverted index
# and document sizes (what bm25 needs). Deleting a row therefore re-supplies its tokens,
# which segmentation reproduces exactly (the index signature names the tokenizer, jieba's
# version and its dictionary, so a change of any of them rebuilds the index instead).
_FTS = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5("
    "body, content = '', tokenize = \"unicode61 remove_diacritics 0 tokenchars '_.-:/@'\")"
)
_VOCAB = "CREATE VIRTUAL TABLE IF NOT EXISTS chunks_vocab USING fts5vocab(chunks_fts, 'row')"


def index_tokens(text: str) -> list[str]:
    """Tokens stored for a chunk: search-mode segmentation, stopwords kept for phrases.

    A two-character Chinese word also stores its characters, so a one-character query
    (狗, 茶) finds the word jieba joined it into (狗叫, 喝茶)."""
    out = []
    for token in tokens(text, for_search=True):
        if '"' in token:
            continue
        out.append(stem(token))
        if len(token) == 2 and _CJK_CHAR.match(token[0]) and _CJK_CHAR.match(token[1]):
            out.extend(token)
    return out


# Chinese question words ask for information and hold none (English ones are stopwords).
QUESTION_WORDS = frozenset(
    "什么 什么样 怎么 怎样 怎么样 如何 多少 多久 多大 多长 谁 为什么 为啥 啥 吗 呢 几 哪".split()
)


def is_question_word(token: str) -> bool:
    """True for 什么, 多少, 谁, ... and for 哪/几 with a measure word (哪个, 哪天, 几次)."""
    return token in QUESTION_WORDS or (len(token) == 2 and token[0] in "哪几")


def query_terms(query: str) -> list[str]:
    """Distinct content tokens of a query, in order (stopwords and question words dropped
    when others remain)."""
    words = [t for t in tokens(query, for_search=True) if '"' not in t]
    content = [
        t
        for t in words
        if t not in STOPWORDS and not is_question_word(t) and not (len(t) == 1 and t.isascii())
    ]
    chosen = content or words
    return list(dict.fromkeys(stem(t) for t in chosen))


def _varint(data: bytes) -> int:
    """The SQLite varint at the start of ``data`` (big-endian, 7 bits a byte)."""
    value = 0
    for position, byte in enumerate(data[:9]):
        if position == 8:
            return (value << 8) | byte
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value
    return value


class IndexedText(Protocol):
    @property
    def id(self) -> int: ...
    @property
    def text(self) -> str: ...


@dataclass(frozen=True)
class KeywordHit:
    chunk_id: int
    raw: float
    score: float


class KeywordIndex:
    """FTS5 table keyed by chunk id, sharing the store's connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        conn.execute(_FTS)
        conn.execute(_VOCAB)
        # How many chunks hold a term, as last read (counting a common term reads its whole
        # posting list: 1-2 ms at 100k, asked twice a search); forgotten on every change.
        self._counts: dict[str, int] = {}

    def changed(self) -> None:
        """Forget what was read of the index: it changed (here, or in another process)."""
        self._counts.clear()

    def add(self, ids: Sequence[int], texts: Sequence[str]) -> None:
        self._counts.clear()
        self.conn.executemany(
            "INSERT INTO chunks_fts(rowid, body) VALUES (?, ?)",
            [(i, " ".join(index_tokens(t))) for i, t in zip(ids, texts, strict=True)],
        )

    def delete(self, chunks: Sequence[IndexedText]) -> None:
        """Remove chunks from the index (their text gives the tokens to take out)."""
        self._counts.clear()
        self.conn.executemany(
            "INSERT INTO chunks_fts(chunks_fts, rowid, body) VALUES ('delete', ?, ?)",
            [(c.id, " ".join(index_tokens(c.text))) for c in chunks],
        )

    def clear(self) -> None:
        self._counts.clear()
        self.conn.execute("INSERT INTO chunks_fts(chunks_fts) VALUES ('delete-all')")

    def row_count(self) -> int:
        """Rows in the FTS table, read from FTS5's own statistics record (the one ``bm25``
        uses: a varint row count leads the "averages" block, id 1 of ``chunks_fts_data``),
        so a query never counts the table."""
        row = self.conn.execute("SELECT block FROM chunks_fts_data WHERE id = 1").fetchone()
        if row is None or not row[0]:
            return 0
        return _varint(bytes(row[0]))

    def doc_counts(self, terms: Sequence[str]) -> dict[str, int]:
        """How many chunks hold each term (terms no chunk holds are left out)."""
        unknown = [t for t in dict.fromkeys(terms) if t not in self._counts]
        if unknown:
            if len(self._counts) > COUNTS_KEPT:
                self._counts.clear()
            marks = ",".join("?" * len(unknown))
            rows = self.conn.execute(
                f"SELECT term, doc FROM chunks_vocab WHERE term IN ({marks})", unknown
            )
            self._counts.update((t, 0) for t in unknown)
            self._counts.update((str(term), int(doc)) for term, doc in rows)
        return {t: n for t in terms if (n := self._counts[t])}

    def idfs(self, terms: Sequence[str]) -> dict[str, float]:
        total = self.row_count()
        if not terms or total == 0:
            return {}
        counts = self.doc_counts(terms)
        return {t: fts5_idf(total, counts[t]) for t in terms if t in counts}

    def search(self, query: str, limit: int) -> list[KeywordHit]:
        terms = query_terms(query)
        idfs = self.idfs(terms)
        present = [t for t in terms if t in idfs]
        # A common single Chinese character (in more than COMMON_CHAR_SHARE of the chunks)
        # says little and makes the query slow: drop it when other terms remain.
        rare = [t for t in present if not _common_char(t, idfs[t])]
        if rare and len(rare) < len(present):
            present = rare
            idfs = {t: idfs[t] for t in rare}
        if not present:
            return []
        if self.row_count() >= UNINFORMATIVE_MIN_ROWS and all(
            idfs[t] <= IDF_FLOOR for t in present
        ):
            return []
        match = " OR ".join('"' + t + '"' for t in present)
        rows = self.conn.execute(
            "SELECT rowid, bm25(chunks_fts) FROM chunks_fts WHERE chunks_fts MATCH ? "
            "ORDER BY bm25(chunks_fts) LIMIT ?",
            (match, limit),
        ).fetchall()
        weights = list(idfs.values())
        return [KeywordHit(int(r), -float(b), bm25_normalise(-float(b), weights)) for r, b in rows]
