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
later lookups are served from a bounded memo.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

MEMO_LIMIT = 200_000  # entries kept from earlier lookups before the memo starts afresh
_MISSING = -1


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


class LazyFrequencies:
    """The ``FREQ`` mapping of a ``jieba.Tokenizer``, read from SQLite as needed."""

    def __init__(self, path: Path) -> None:
        self._conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        self._lock = threading.Lock()
        self._memo: dict[str, int] = {}
        self.total = int(self._conn.execute("SELECT n FROM total").fetchone()[0])

    def _fetch(self, words: list[str]) -> None:
        """Look ``words`` up (under the lock) and remember hits and misses alike."""
        if len(self._memo) > MEMO_LIMIT:
            self._memo.clear()
        for start in range(0, len(words), 900):
            part = words[start : start + 900]
            marks = ",".join("?" * len(part))
            sql = f"SELECT word, n FROM freq WHERE word IN ({marks})"
            found = dict(self._conn.execute(sql, part))
            for word in part:
                self._memo[word] = int(found.get(word, _MISSING))

    def _value(self, word: str) -> int:
        value = self._memo.get(word)
        if value is None:
            with self._lock:
                self._fetch([word])
                value = self._memo.get(word, _MISSING)
        return value

    def prefetch(self, text: str) -> None:
        """Read every entry jieba's DAG over ``text`` can ask for: all substrings whose
        shorter prefixes are in the dictionary (the prefix dictionary holds every prefix of
        every word), one query per length."""
        with self._lock:
            starts = list(range(len(text)))
            length = 1
            while starts:
                wanted = {text[k : k + length] for k in starts if k + length <= len(text)}
                self._fetch([w for w in wanted if w not in self._memo])
                starts = [
                    k
                    for k in starts
                    if k + length < len(text) and self._memo.get(text[k : k + length], 0) >= 0
                ]
                length += 1

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self._value(word) >= 0

    def __getitem__(self, word: str) -> int:
        value = self._value(word)
        if value < 0:
            raise KeyError(word)
        return value

    def get(self, word: str, default: int | None = None) -> int | None:
        value = self._value(word)
        return default if value < 0 else value

    def close(self) -> None:
        self._conn.close()
