"""The keyword index: FTS5's BM25 exactly, a bounded read per query, and incremental
updates that leave what a rebuild would."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import write

from memory.paths import MemoryRoot
from memory.search import keyword_index
from memory.search.keyword_index import KeywordIndex, index_tokens
from memory.search.postings import decode, join
from memory.search.service import MemorySearch, SearchSettings
from memory.search.store import connect

WORDS = (
    "上海 出差 静安区 咖啡 美式 不加糖 女儿 钢琴 周三 下午 会议 预算 项目 报告 "
    "tomatoes garden watering deploy server ECONNREFUSED api_key v2.3 meeting budget"
).split()


@dataclass(frozen=True)
class Text:
    id: int
    text: str


def corpus(n: int, seed: int) -> list[Text]:
    """Chunks of varied length repeating a small vocabulary (terms in many chunks, some
    several times in one)."""
    rng = random.Random(seed)
    return [
        Text(i, "- " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 14))))
        for i in range(1, n + 1)
    ]


QUERIES = ["上海出差", "美式咖啡 不加糖", "女儿的钢琴课", "deploy server ECONNREFUSED", "budget"]


def fts5_hits(texts: list[Text], query: str, limit: int) -> list[tuple[int, float]]:
    """What the FTS5 table this index replaced returned: its bm25() over the same tokens,
    best first (ties by id)."""
    conn = sqlite3.connect(":memory:")
    conn.execute(
        "CREATE VIRTUAL TABLE f USING fts5(body, content = '', "
        "tokenize = \"unicode61 remove_diacritics 0 tokenchars '_.-:/@'\")"
    )
    conn.executemany(
        "INSERT INTO f(rowid, body) VALUES (?, ?)",
        [(t.id, " ".join(index_tokens(t.text))) for t in texts],
    )
    terms = index_of(texts).scored_terms(query)  # the same terms, FTS5's scores
    match = " OR ".join(f'"{t}"' for t in terms)
    rows = conn.execute("SELECT rowid, bm25(f) FROM f WHERE f MATCH ?", (match,)).fetchall()
    return sorted(((int(r), -float(b)) for r, b in rows), key=lambda h: (-h[1], h[0]))[:limit]


def index_of(texts: list[Text]) -> KeywordIndex:
    index = KeywordIndex(sqlite3.connect(":memory:"))
    index.add([t.id for t in texts], [t.text for t in texts])
    return index


def hits(index: KeywordIndex, query: str, limit: int = 40) -> list[tuple[int, float]]:
    return [(h.chunk_id, h.raw) for h in index.search(query, limit)]


def test_scores_are_exactly_fts5s_bm25() -> None:
    texts = corpus(300, seed=1)
    index = index_of(texts)
    for query in QUERIES:
        assert hits(index, query) == fts5_hits(texts, query, 40), query
    assert index.row_count() == 300
    assert index.doc_counts(["上海", "nowhere"]) == {
        "上海": sum("上海" in index_tokens(t.text) for t in texts)
    }


def lists(index: KeywordIndex) -> dict[str, list[tuple[int, int, int]]]:
    """Every term's postings (chunk id, the chunk's length, the term's count there),
    segments joined, after checking the segments' invariants."""
    by_term: dict[str, list] = {}
    for term, last, n, data in index.conn.execute(
        "SELECT term, last, n, data FROM keyword_postings ORDER BY term, last"
    ):
        part = decode(last, n, data)
        assert 0 < n <= keyword_index.SEGMENT and part.ids[-1] == last
        by_term.setdefault(term, []).append(part)
    out = {}
    for term, parts in by_term.items():
        joined = join(parts)
        assert (joined.ids[1:] > joined.ids[:-1]).all(), term  # segments do not overlap
        lengths = index._lengths.get(joined.ids)
        columns = (joined.ids.tolist(), lengths.tolist(), joined.counts.tolist())
        out[term] = list(zip(*columns, strict=True))
    return out


@pytest.mark.parametrize(("segment", "small"), [(3, 1), (8, 2), (4096, 256)])
def test_incremental_updates_leave_what_a_rebuild_would(
    monkeypatch: pytest.MonkeyPatch, segment: int, small: int
) -> None:
    monkeypatch.setattr(keyword_index, "SEGMENT", segment)
    monkeypatch.setattr(keyword_index, "SMALL", small)
    monkeypatch.setattr(keyword_index, "ADD_BATCH", 7)
    rng = random.Random(2)
    pool = corpus(400, seed=3)
    live: dict[int, Text] = {}
    index = KeywordIndex(sqlite3.connect(":memory:"))
    next_id = 1
    for _ in range(30):
        gone = rng.sample(sorted(live), min(len(live), rng.randint(0, 12)))
        index.delete([live.pop(i) for i in gone])
        added = []
        for _ in range(rng.randint(0, 15)):  # new ids only grow, as the store's do
            added.append(Text(next_id, rng.choice(pool).text))
            next_id += 1
        index.add([t.id for t in added], [t.text for t in added])
        live.update((t.id, t) for t in added)
    late = [Text(i, rng.choice(pool).text) for i in (3, 5, 8) if i not in live]
    index.add([t.id for t in late], [t.text for t in late])  # an older id merges the list
    live.update((t.id, t) for t in late)
    rebuilt = index_of(sorted(live.values(), key=lambda t: t.id))
    assert lists(index) == lists(rebuilt)
    assert index.totals() == rebuilt.totals()
    for query in QUERIES:
        assert hits(index, query) == hits(rebuilt, query)
        assert hits(index, query) == fts5_hits(list(live.values()), query, 40)


def test_deleting_everything_leaves_nothing() -> None:
    texts = corpus(50, seed=4)
    index = index_of(texts)
    index.delete(texts)
    assert index.conn.execute("SELECT COUNT(*) FROM keyword_postings").fetchone() == (0,)
    assert index.totals() == (0, 0) and index.search("上海", 10) == []


class Trace:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn, self.steps = conn, 0
        self.statements: list[str] = []

    def __enter__(self) -> Trace:
        self.conn.set_trace_callback(self.statements.append)
        self.conn.set_progress_handler(self._step, 1)
        return self

    def _step(self) -> int:
        self.steps += 1
        return 0

    def __exit__(self, *exc: object) -> None:
        self.conn.set_trace_callback(None)
        self.conn.set_progress_handler(None, 1)


def test_a_query_reads_only_its_terms_segments(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(keyword_index, "SEGMENT", 8)
    matching = [Text(i, f"- 上海出差 第{i}次 budget") for i in range(1, 41)]  # 5 segments
    counts = []
    for unrelated in (10, 2000):
        texts = matching + [
            Text(100 + i, f"- gardening note {i} tomatoes watering") for i in range(unrelated)
        ]
        index = index_of(texts)
        index.search("上海 budget", 10)  # the counts are remembered
        index._lengths.forget()  # the lengths are read again (as after a change)
        with Trace(index.conn) as trace:
            found = index.search("上海 budget", 10)
        assert [h.chunk_id for h in found] == list(range(1, 11))
        assert trace.statements == [
            "SELECT term, last, n, data FROM keyword_postings WHERE term IN ('上海','budget')",
            "SELECT block, data FROM keyword_lengths WHERE block IN (0)",
        ]
        counts.append(trace.steps)
        with Trace(index.conn) as trace:
            again = index.search("上海 budget", 10)
        assert again == found  # the block read is kept: the postings only
        assert trace.statements == [
            "SELECT term, last, n, data FROM keyword_postings WHERE term IN ('上海','budget')"
        ]
    assert counts[0] == counts[1]  # 10 segments (2 terms x 5), 1 block, whatever else


def test_lengths_kept_in_memory_follow_a_change_of_the_index() -> None:
    texts = [Text(1, "- 上海出差 budget"), Text(2, "- gardening budget tomatoes")]
    index = index_of(texts)
    index.search("budget", 10)  # block 0 is read and kept
    added = Text(3, "- a much longer line about the budget and nothing else in particular")
    index.add([added.id], [added.text])  # a new chunk of the same block
    after = hits(index, "budget")
    assert 3 in dict(after)
    assert after == hits(index_of([*texts, added]), "budget")  # its length, not a kept 0


def test_an_old_fts5_index_is_replaced_and_rebuilt(tmp_path: Path) -> None:
    base = tmp_path / "r"
    write(base, "memory/2026-11-28.md", "- 用户下周三要去上海出差\n")
    root = MemoryRoot.at(base)
    svc = MemorySearch(root, SearchSettings(provider="none"))
    svc.sync()
    svc.close()
    conn = connect(root.index_dir / "search.sqlite").conn  # as an earlier version left it
    conn.execute("CREATE VIRTUAL TABLE chunks_fts USING fts5(body, content = '')")
    conn.execute("DROP TABLE keyword_postings")
    conn.execute("UPDATE meta SET value = 'earlier' WHERE key = 'signature'")
    conn.commit()
    conn.close()
    again = MemorySearch(root, SearchSettings(provider="none"))
    [hit] = again.search("上海出差", min_score=0.0)
    assert hit.path == "memory/2026-11-28.md"
    conn = again._state.store.conn  # type: ignore[union-attr]
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert "chunks_fts" not in names and "keyword_postings" in names
    again.close()


def test_tables_left_without_their_totals_by_a_kill_still_index(tmp_path: Path) -> None:
    # CREATE TABLE commits at once: a process killed before the totals' row was written
    # left the tables without it, and every later search found nothing
    path = tmp_path / "k.sqlite"
    conn = sqlite3.connect(path)
    KeywordIndex(conn)
    conn.execute("DELETE FROM keyword_stats")
    conn.commit()
    conn.close()
    texts = corpus(50, seed=3)
    again = KeywordIndex(sqlite3.connect(path))
    again.add([t.id for t in texts], [t.text for t in texts])
    query = next(w for w in index_tokens(texts[0].text) if w.isalnum())
    assert hits(again, query) and hits(again, query) == hits(index_of(texts), query)
