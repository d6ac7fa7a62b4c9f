"""jieba's prefix dictionary, read on demand from SQLite instead of loaded whole.

``jieba.initialize()`` loads about 500,000 words and prefixes into a dict (0.6-1.0 s and
~100 MB per process) before it can cut a single sentence. Segmentation only ever asks
``word in FREQ``, ``FREQ[word]`` and ``FREQ.get(word)``, so :class:`LazyFrequencies` answers
those from an SQLite copy of the same dictionary, built once per jieba version in the
user's cache folder (``$XDG_CACHE_HOME/cowdream``, else ``~/.cache/cowdream``, else the
temporary folder) and written atomically. Answers are identical to jieba's, so segmentation
is too; only the start-up and the memory change.

:meth:`LazyFrequencies.prefetch` reads every dictionary entry a run of text can touch in a
few queries (one per word length, following the prefix property jieba's DAG relies on);
what was read stays, up to ``MEMO_LIMIT`` entries.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

MEMO_LIMIT = 200_000  # entries kept from earlier lookups before the memo starts afresh


def cache_dirs() -> Iterator[Path]:
    """Candidate folders for the dictionary copy, best first."""
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        yield Path(xdg) / "cowdream"
    with contextlib.suppress(RuntimeError):
        yield Path.home() / ".cache" / "cowdream"
    yield Path(tempfile.gettempdir()) / "cowdream"


def _dictionary_file() -> Path:
    import jieba

    return Path(jieba.__file__).with_name("dict.txt")


def _build(source: Path, target: Path) -> None:
    """Write the prefix dictionary of ``source`` (jieba's format) to ``target`` atomically."""
    import jieba

    with open(source, "rb") as handle:
        frequencies, total = jieba.Tokenizer.gen_pfdict(handle)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    try:
        conn = sqlite3.connect(tmp)
        try:
            conn.execute("PRAGMA journal_mode=OFF")
            conn.execute(
                "CREATE TABLE freq (word TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID"
            )
            conn.execute("CREATE TABLE total (n INTEGER NOT NULL)")
            conn.executemany("INSERT INTO freq VALUES (?, ?)", sorted(frequencies.items()))
            conn.execute("INSERT INTO total VALUES (?)", (total,))
            conn.commit()
        finally:
            conn.close()
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def dictionary_path() -> Path | None:
    """The SQLite copy of jieba's dictionary, built when missing; ``None`` if no folder
    can hold it (the caller then loads jieba's dictionary the usual way)."""
    import jieba

    source = _dictionary_file()
    stat = source.stat()
    name = f"jieba-{jieba.__version__}-{stat.st_size}-{stat.st_mtime_ns}.sqlite"
    for folder in cache_dirs():
        target = folder / name
        if target.is_file():
            return target
        try:
            _build(source, target)
        except OSError:
            continue
        return target
    return None


class LazyFrequencies(dict[str, int]):
    """The ``FREQ`` mapping of a ``jieba.Tokenizer``: a plain dict holding the entries
    :meth:`prefetch` read, so jieba's own lookups run at dict speed.

    Correct by the prefix property: after ``prefetch(text)`` every dictionary entry that is
    a substring of ``text`` reachable through its prefixes is present, and any substring
    that is absent has a prefix that is not in the dictionary, so it is not in it either:
    ``in``, ``[]`` and ``get`` give jieba exactly the whole dictionary's answers for
    ``text``. Callers run ``prefetch`` and the cut under one lock (:mod:`memory.segment`).
    """

    def __init__(self, path: Path) -> None:
        super().__init__()
        self._conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        self._absent: set[str] = set()
        self.total = int(self._conn.execute("SELECT n FROM total").fetchone()[0])

    def _fetch(self, words: list[str]) -> None:
        for start in range(0, len(words), 900):
            part = words[start : start + 900]
            marks = ",".join("?" * len(part))
            sql = f"SELECT word, n FROM freq WHERE word IN ({marks})"
            found = dict(self._conn.execute(sql, part))
            self.update(found)
            self._absent.update(w for w in part if w not in found)

    def prefetch(self, text: str) -> None:
        """Read every entry jieba's DAG over ``text`` can reach, one query per length."""
        if len(self) + len(self._absent) > MEMO_LIMIT:
            self.clear()
            self._absent.clear()
        active = list(range(len(text)))
        length = 1
        while active:
            pieces = [text[k : k + length] for k in active]
            unknown = {p for p in pieces if p not in self and p not in self._absent}
            if unknown:
                self._fetch(sorted(unknown))
            active = [
                k
                for k, p in zip(active, pieces, strict=True)
                if p in self and k + length < len(text)
            ]
            length += 1

    def close(self) -> None:
        self._conn.close()
