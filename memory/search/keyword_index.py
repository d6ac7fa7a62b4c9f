"""Keyword search: BM25 over jieba-segmented text, from posting lists kept in SQLite.

Text is segmented in Python (``memory.segment.tokens(..., for_search=True)``: jieba's
``cut_for_search`` for Chinese, whole ASCII identifiers plus their parts, lower-cased) and
each token is a term. Queries go through the same segmentation (plus a light English
stemmer, :mod:`memory.search.stemming`), so ``API_KEY``, ``ECONNREFUSED`` or ``v2.3``
match exactly.

Each term's postings (chunk id, the chunk's token count, the term's occurrences) are
packed into segments (:mod:`memory.search.postings`), and a query reads the segments of
its terms in one statement and scores them with numpy: FTS5's ``bm25()`` exactly, which
this index replaced (FTS5 scored every row holding a query term through a per-row lookup
of its size, about 2 us a row: 25-30 ms at 100k chunks for terms in 4,000-11,000 of them;
here a posting costs a few nanoseconds). The chunk and token totals BM25 needs are kept in
``keyword_stats``; how many chunks hold a term is the sum of its segments' sizes.

Each chunk's content words (:func:`memory.segment.content_words`, the words the ranker's
diversity pass compares) are stored beside, in ``chunk_words``, when the chunk is indexed:
a search reads the few it ranks instead of segmenting their text again (about 0.1 ms of
jieba a chunk). An index made before the table existed gets it empty; a chunk without its
row is segmented at search time (the same words), and each sync fills in at most
``FILL_STEP`` of the missing rows (:meth:`KeywordIndex.fill_words`).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from memory.search.chunk_lengths import ChunkLengths
from memory.search.postings import (
    SEGMENT,
    Floats,
    Ints,
    Postings,
    best,
    bm25_weights,
    decode,
    group,
    join,
    segment_rows,
)
from memory.search.ranking import IDF_FLOOR, bm25_normalise, fts5_idf
from memory.search.stemming import stem
from memory.segment import STOPWORDS, content_words, tokens

TOKENIZER_VERSION = "jieba-search-stem-2-plain/postings-2"
_CJK_CHAR = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
COMMON_CHAR_IDF = 3.0  # fts5_idf of a term in about 5 % of the chunks
# From this many chunks on, a query whose every term is in at least half of them gets no
# keyword hits: BM25 gives such terms no weight (FTS5's idf is floored to nothing), so
# scoring them ranks nothing, and it reads the postings of most of the index.
UNINFORMATIVE_MIN_ROWS = 1000
COUNTS_KEPT = 4096  # terms whose chunk counts are remembered between changes


def _common_char(term: str, idf: float) -> bool:
    return len(term) == 1 and _CJK_CHAR.match(term) is not None and idf < COMMON_CHAR_IDF


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


def stored_words(text: str) -> str | None:
    """What ``chunk_words`` holds for a chunk of ``text`` (``None``: a NULL)."""
    words = sorted(set(content_words(text)))
    if any(not w or WORDS_SEP in w for w in words):
        return None
    return WORDS_SEP.join(words)


def parse_words(stored: str) -> frozenset[str]:
    """The content words a ``chunk_words`` row holds."""
    return frozenset(stored.split(WORDS_SEP)) if stored else frozenset()


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


_TABLES = (
    "CREATE TABLE IF NOT EXISTS keyword_postings(term TEXT NOT NULL, last INTEGER NOT NULL, "
    "n INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (term, last)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS keyword_stats(id INTEGER PRIMARY KEY CHECK (id = 0), "
    "chunks INTEGER NOT NULL, tokens INTEGER NOT NULL)",
)
# a chunk's distinct content words, sorted, joined by spaces (NULL: segment its text at
# search time; for words holding a space or an empty word, which segmentation never gives)
_WORDS = "CREATE TABLE IF NOT EXISTS chunk_words(id INTEGER PRIMARY KEY, words TEXT)"
WORDS_SEP = " "
FILL_STEP = 4096  # missing rows of ``chunk_words`` a sync fills in, at most
_EARLIER = ("chunks_vocab", "chunks_fts")  # the FTS5 tables of earlier versions
ADD_BATCH = 4096  # chunks tokenised before their postings are written
SMALL = 256  # a last segment this small takes new postings in (see ``_append``)


class KeywordIndex:
    """Posting lists keyed by term, sharing the store's connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        names = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master")}
        fresh = "keyword_postings" not in names or "keyword_stats" not in names
        for earlier in _EARLIER:
            if earlier in names:
                conn.execute(f"DROP TABLE {earlier}")
        self._lengths = ChunkLengths(conn)
        if fresh:
            for sql in _TABLES:
                conn.execute(sql)
        if "chunk_words" not in names:
            conn.execute(_WORDS)
        self._words_filled = False  # every chunk has its ``chunk_words`` row (seen by a fill)
        # A CREATE TABLE commits at once, so a process killed right after it left no row
        # of totals; nothing was indexed yet, so the totals are zero.
        if conn.execute("SELECT 1 FROM keyword_stats WHERE id = 0").fetchone() is None:
            conn.execute("INSERT INTO keyword_stats VALUES (0, 0, 0)")
            conn.commit()
        # How many chunks hold a term, and the totals, as last read; forgotten on every
        # change (here, or in another process: see ``changed``).
        self._counts: dict[str, int] = {}
        self._totals: tuple[int, int] | None = None

    def changed(self) -> None:
        """Forget what was read of the index: it changed (here, or in another process)."""
        self._counts.clear()
        self._totals = None
        self._lengths.forget()

    # writing

    def add(self, ids: Sequence[int], texts: Sequence[str]) -> None:
        """Index chunks (new ids; any order)."""
        self.changed()
        pairs = list(zip(ids, texts, strict=True))
        for begin in range(0, len(pairs), ADD_BATCH):
            batch = pairs[begin : begin + ADD_BATCH]
            words = [index_tokens(text) for _, text in batch]
            chunk_ids = [i for i, _ in batch]
            self._append(group(chunk_ids, words))
            self._lengths.put(
                np.asarray(chunk_ids, np.int64), np.asarray([len(w) for w in words], np.int64)
            )
            self._add_totals(len(batch), sum(len(w) for w in words))
            self.conn.executemany(
                "INSERT OR REPLACE INTO chunk_words VALUES (?, ?)",
                [(i, stored_words(text)) for i, text in batch],
            )

    def delete(self, chunks: Sequence[IndexedText]) -> None:
        """Remove chunks from the index (their text gives the terms to take them out of)."""
        self.changed()
        if not chunks:
            return
        gone: dict[str, list[int]] = {}
        total = 0
        for chunk in chunks:
            words = index_tokens(chunk.text)
            total += len(words)
            for term in dict.fromkeys(words):
                gone.setdefault(term, []).append(chunk.id)
        for term, chunk_ids in gone.items():
            self._remove(term, np.unique(np.asarray(chunk_ids, np.int64)))
        self._add_totals(-len(chunks), -total)
        self.conn.executemany("DELETE FROM chunk_words WHERE id = ?", [(c.id,) for c in chunks])

    def clear(self) -> None:
        self.changed()
        self.conn.execute("DELETE FROM keyword_postings")
        self.conn.execute("DELETE FROM chunk_words")
        self._lengths.clear()
        self.conn.execute("UPDATE keyword_stats SET chunks = 0, tokens = 0")

    def _add_totals(self, chunks: int, tokens: int) -> None:
        self.conn.execute(
            "UPDATE keyword_stats SET chunks = chunks + ?, tokens = tokens + ?", (chunks, tokens)
        )

    def _write(self, term: str, part: Postings) -> None:
        self.conn.executemany(
            "INSERT INTO keyword_postings VALUES (?, ?, ?, ?)", segment_rows(term, part, SEGMENT)
        )

    def _drop(self, term: str, last: int) -> None:
        self.conn.execute("DELETE FROM keyword_postings WHERE term = ? AND last = ?", (term, last))

    def _tails(self, terms: list[str]) -> dict[str, tuple[int, int]]:
        """Each term's last segment (``(last, n)``), for the terms that have one."""
        out: dict[str, tuple[int, int]] = {}
        for begin in range(0, len(terms), 500):
            part = terms[begin : begin + 500]
            marks = ",".join("?" * len(part))
            # SQLite's bare columns beside MAX() come from the row holding the maximum
            rows = self.conn.execute(
                f"SELECT term, MAX(last), n FROM keyword_postings WHERE term IN ({marks}) "
                "GROUP BY term",
                part,
            )
            out.update((str(t), (int(last), int(n))) for t, last, n in rows)
        return out

    def _segment(self, term: str, last: int, n: int) -> Postings:
        row = self.conn.execute(
            "SELECT data FROM keyword_postings WHERE term = ? AND last = ?", (term, last)
        ).fetchone()
        return decode(last, n, row[0])

    def _append(self, lists: dict[str, Postings]) -> None:
        """Add postings to their terms (chunk ids only grow, so new ones go at the end; an
        older id merges the term's whole list). New postings join the last segment while
        it is small (under ``SMALL``) or they are a sizeable part of it; otherwise they
        start a segment of their own, and the last one, once grown past ``SMALL``, is
        merged into the one before while both fit: an appended line rewrites small
        segments, a long list still has few."""
        tails = self._tails(list(lists))
        dropped: list[tuple[str, int]] = []
        rows: list[tuple[str, int, int, bytes]] = []
        for term, new in lists.items():
            tail = tails.get(term)
            if tail is None:
                rows.extend(segment_rows(term, new, SEGMENT))
            elif int(new.ids[0]) <= tail[0]:
                parts = self._segments(term)
                self.conn.execute("DELETE FROM keyword_postings WHERE term = ?", (term,))
                rows.extend(segment_rows(term, join([*parts, new]), SEGMENT))
            elif tail[1] < SMALL or (tail[1] < SEGMENT and len(new) * 8 >= tail[1]):
                dropped.append((term, tail[0]))
                rows.extend(segment_rows(term, join([self._segment(term, *tail), new]), SEGMENT))
            else:
                before = self.conn.execute(
                    "SELECT last, n, data FROM keyword_postings WHERE term = ? AND last < ? "
                    "ORDER BY last DESC LIMIT 1",
                    (term, tail[0]),
                ).fetchone()
                if before is not None and int(before[1]) + tail[1] <= SEGMENT:
                    dropped += [(term, int(before[0])), (term, tail[0])]
                    earlier = decode(int(before[0]), int(before[1]), before[2])
                    both = join([earlier, self._segment(term, *tail)])
                    rows.extend(segment_rows(term, both, SEGMENT))
                rows.extend(segment_rows(term, new, SEGMENT))
        self.conn.executemany("DELETE FROM keyword_postings WHERE term = ? AND last = ?", dropped)
        self.conn.executemany("INSERT INTO keyword_postings VALUES (?, ?, ?, ?)", rows)

    def _segments(self, term: str) -> list[Postings]:
        rows = self.conn.execute(
            "SELECT last, n, data FROM keyword_postings WHERE term = ? ORDER BY last", (term,)
        )
        return [decode(int(last), int(n), data) for last, n, data in rows]

    def _remove(self, term: str, chunk_ids: Ints) -> None:
        """Take chunks out of a term's segments: only the segments holding them are read;
        a segment left small is merged into the next one."""
        rows = self.conn.execute(
            "SELECT last, n, data FROM keyword_postings WHERE term = ? AND last >= ? ORDER BY last",
            (term, int(chunk_ids[0])),
        )
        changed: list[tuple[int, Postings]] = []
        for last, n, data in rows:
            part = decode(int(last), int(n), data)
            if bool(np.isin(part.ids, chunk_ids).any()):
                changed.append((int(last), part.without(chunk_ids)))
            if int(last) >= int(chunk_ids[-1]):
                break
        for last, rest in reversed(changed):  # a following segment is already rewritten
            self._drop(term, last)
            if not len(rest):
                continue
            if len(rest) < SEGMENT // 4:
                following = self.conn.execute(
                    "SELECT last, n, data FROM keyword_postings WHERE term = ? AND last > ? "
                    "ORDER BY last LIMIT 1",
                    (term, last),
                ).fetchone()
                if following is not None and len(rest) + int(following[1]) <= SEGMENT:
                    self._drop(term, int(following[0]))
                    rest = join([rest, decode(int(following[0]), int(following[1]), following[2])])
            self._write(term, rest)

    def fill_words(self, most: int | None = None) -> int:
        """Store the content words of up to ``most`` indexed chunks that have none (an index
        made before ``chunk_words`` existed); the rows written. Reads the store's ``chunks``
        table; once a fill finds none missing, later ones return at once."""
        if self._words_filled:
            return 0
        most = FILL_STEP if most is None else most
        rows = self.conn.execute(
            "SELECT id, text FROM chunks WHERE id NOT IN (SELECT id FROM chunk_words) LIMIT ?",
            (most,),
        ).fetchall()
        self.conn.executemany(
            "INSERT INTO chunk_words VALUES (?, ?)",
            [(int(i), stored_words(str(text))) for i, text in rows],
        )
        self._words_filled = len(rows) < most
        return len(rows)

    # reading

    def words(self, ids: Sequence[int]) -> dict[int, frozenset[str]]:
        """The stored content words of these chunks (those without a row, or with a NULL,
        are left out: the caller segments their text)."""
        wanted = list(dict.fromkeys(ids))
        out: dict[int, frozenset[str]] = {}
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            marks = ",".join("?" * len(part))
            for chunk_id, stored in self.conn.execute(
                f"SELECT id, words FROM chunk_words WHERE id IN ({marks})", part
            ):
                if stored is not None:
                    out[int(chunk_id)] = parse_words(str(stored))
        return out

    def totals(self) -> tuple[int, int]:
        """Chunks indexed and the tokens they hold (what BM25's average length needs)."""
        if self._totals is None:
            row = self.conn.execute(
                "SELECT chunks, tokens FROM keyword_stats WHERE id = 0"
            ).fetchone()
            self._totals = (int(row[0]), int(row[1])) if row else (0, 0)
        return self._totals

    def row_count(self) -> int:
        """Chunks in the index (kept, never counted)."""
        return self.totals()[0]

    def doc_counts(self, terms: Sequence[str]) -> dict[str, int]:
        """How many chunks hold each term (terms no chunk holds are left out): the sum of
        its segments' sizes."""
        unknown = [t for t in dict.fromkeys(terms) if t not in self._counts]
        if unknown:
            if len(self._counts) > COUNTS_KEPT:
                self._counts.clear()
            marks = ",".join("?" * len(unknown))
            rows = self.conn.execute(
                f"SELECT term, SUM(n) FROM keyword_postings WHERE term IN ({marks}) GROUP BY term",
                unknown,
            )
            self._counts.update((t, 0) for t in unknown)
            self._counts.update((str(term), int(n)) for term, n in rows)
        return {t: n for t in terms if (n := self._counts[t])}

    def idfs(self, terms: Sequence[str]) -> dict[str, float]:
        total = self.row_count()
        if not terms or total == 0:
            return {}
        counts = self.doc_counts(terms)
        return {t: fts5_idf(total, counts[t]) for t in terms if t in counts}

    def scored_terms(self, query: str) -> dict[str, float]:
        """The query terms a search scores, with their idf (empty: nothing to score)."""
        idfs = self.idfs(query_terms(query))
        # A common single Chinese character (in more than COMMON_CHAR_SHARE of the chunks)
        # says little and makes the query slow: drop it when other terms remain.
        rare = {t: idf for t, idf in idfs.items() if not _common_char(t, idf)}
        if rare and len(rare) < len(idfs):
            idfs = rare
        if self.row_count() >= UNINFORMATIVE_MIN_ROWS and all(
            idf <= IDF_FLOOR for idf in idfs.values()
        ):
            return {}
        return idfs

    def search(self, query: str, limit: int) -> list[KeywordHit]:
        idfs = self.scored_terms(query)
        if not idfs or limit <= 0:
            return []
        ids, raw = self._scores(list(idfs), idfs)
        weights = list(idfs.values())
        return [
            KeywordHit(int(i), float(r), bm25_normalise(float(r), weights))
            for i, r in zip(*best(ids, raw, limit), strict=True)
        ]

    def _scores(self, terms: list[str], idfs: dict[str, float]) -> tuple[Ints, Floats]:
        """Every chunk holding a term, with its BM25 score (FTS5's, term by term in query
        order): one statement reads the terms' segments, one the lengths of their chunks."""
        marks = ",".join("?" * len(terms))
        parts: dict[str, list[Postings]] = {t: [] for t in terms}
        for term, last, n, data in self.conn.execute(
            f"SELECT term, last, n, data FROM keyword_postings WHERE term IN ({marks})", terms
        ):
            parts[str(term)].append(decode(int(last), int(n), data))
        chunks, tokens = self.totals()
        terms = [t for t in terms if parts[t]]
        if not terms:
            return np.zeros(0, np.int64), np.zeros(0, np.float64)
        lists = [join(parts[t]) for t in terms]
        ids, where = np.unique(np.concatenate([p.ids for p in lists]), return_inverse=True)
        term_idfs = np.repeat([idfs[t] for t in terms], [len(p) for p in lists])
        counts = np.concatenate([p.counts for p in lists])
        lengths = self._lengths.get(ids.astype(np.int64))[where]
        weights = bm25_weights(term_idfs, counts, lengths, tokens / chunks)
        scores = np.bincount(where, weights=weights).astype(np.float64)
        return ids.astype(np.int64), scores
