"""Word segmentation for Chinese and English text, shared by search and grounding.

jieba splits Chinese; ASCII words, identifiers and numbers are kept whole (``API_KEY``,
``ECONNREFUSED``, ``v2.3``) so exact strings still match. Tokens are lower-cased. Chinese is
read as Simplified Mandarin (:func:`memory.plain_chinese.plain`: Traditional characters and
Cantonese words), so "用戶" and "用户", "而家" and "现在" are the same token.
"""

from __future__ import annotations

import importlib.util
import logging
import re
import sys
import threading
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from memory.plain_chinese import plain

_init_lock = threading.Lock()
_cut_lock = threading.Lock()
_tokenizer: Any = None  # a jieba.Tokenizer, made on first use (jieba is imported lazily)
_lazy: Any = None  # its LazyFrequencies, when the SQLite dictionary could be used

# An ASCII "word": letters, digits and the joiners that occur inside identifiers.
_ASCII_WORD = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9_.\-:/@]*[A-Za-z0-9])?")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_SPLIT = re.compile(r"([A-Za-z0-9](?:[A-Za-z0-9_.\-:/@]*[A-Za-z0-9])?)")

STOPWORDS: frozenset[str] = frozenset(
    """
    的 了 和 是 在 我 你 他 她 它 们 这 那 也 就 都 而 及 与 着 或 一个 没有 我们 你们 他们
    吗 呢 吧 啊 呀 哦 嗯 么 把 被 让 给 对 从 到 为 以 之 于 上 下 中 又 还 很 太 要 会 能
    the a an and or of to in on at for with by from is are was were be been being it its
    this that these those i you he she we they me my your his her our their them as but
    if so not no do does did have has had will would can could should may might just
    about into than then there here what which who whom how when where why all any
    """.split()
)


def segmenter_id() -> str:
    """Names the segmentation in force (jieba's code and dictionary, by size), without
    importing jieba: an index records it, and a change rebuilds the index."""
    spec = importlib.util.find_spec("jieba")
    if spec is None or spec.origin is None:
        return "no-jieba"
    package = Path(spec.origin).parent
    sizes = [(package / name).stat().st_size for name in ("__init__.py", "dict.txt")]
    return "jieba-" + "-".join(str(size) for size in sizes)


def _import_jieba() -> Any:
    """``import jieba`` without ``pkg_resources``: jieba only uses it to open its own data
    files and falls back to plain ``open`` without it, while importing it costs a CLI
    process 0.1-0.3 s. Where something else already imported it, nothing changes."""
    blocked = "pkg_resources" not in sys.modules
    if blocked:
        sys.modules["pkg_resources"] = None  # type: ignore[assignment]
    try:
        import jieba
    finally:
        if blocked:
            del sys.modules["pkg_resources"]
    return jieba


def _ensure_jieba() -> Any:
    """The tokenizer, ready: jieba's own dictionary read on demand from its SQLite copy
    (:mod:`memory.jieba_dict`), or loaded whole where no cache folder can hold the copy."""
    global _tokenizer, _lazy
    if _tokenizer is not None:
        return _tokenizer
    with _init_lock:
        if _tokenizer is None:
            jieba = _import_jieba()
            from memory.jieba_dict import LazyFrequencies, dictionary_path

            jieba.setLogLevel(logging.WARNING)
            path = dictionary_path()
            if path is None:
                jieba.initialize()
                _tokenizer = jieba.dt
            else:
                tokenizer = jieba.Tokenizer()
                _lazy = LazyFrequencies(path)
                tokenizer.FREQ, tokenizer.total = _lazy, _lazy.total
                tokenizer.initialized = True
                _tokenizer = tokenizer
    return _tokenizer


RUN_CACHE = 50_000  # Chinese runs whose cut is kept (a run recurs across lines and texts)
_runs: dict[tuple[str, bool], tuple[str, ...]] = {}


def _cut_runs(runs: list[str], *, for_search: bool) -> list[tuple[str, ...]]:
    """jieba's words for each Chinese run. jieba cuts a run on its own, so a run's cut is
    kept and a run seen before (in another line, or the same words in a reworded one) is not
    cut again; the runs not seen are read from the dictionary in one prefetch."""
    with _cut_lock:
        missing = [run for run in dict.fromkeys(runs) if (run, for_search) not in _runs]
        if missing:
            tokenizer = _ensure_jieba()
            if len(_runs) + len(missing) > RUN_CACHE:
                _runs.clear()
            if _lazy is not None:  # the entries a cut reads stay until it is done
                _lazy.prefetch("\n".join(missing))  # a newline joins no word
            for run in missing:
                words = tokenizer.lcut_for_search(run) if for_search else tokenizer.lcut(run)
                _runs[(run, for_search)] = tuple(w for w in words if w.strip())
        return [_runs[(run, for_search)] for run in runs]


def warm(texts: Iterable[str]) -> None:
    """Cut, in one pass, the Chinese runs of ``texts`` not cut yet: one dictionary prefetch
    for all of them instead of one per text (the dream tokenizes thousands of lines, each
    on first use). Only a speed-up: every cut is the one :func:`tokens` would make."""
    runs = [run for text in texts for run in _CJK.findall(plain(text))]
    if runs:
        _cut_runs(runs[-RUN_CACHE:], for_search=False)


def _cjk_words(run: str, *, for_search: bool) -> list[str]:
    return list(_cut_runs([run], for_search=for_search)[0])


def word_spans(text: str, *, hmm: bool = True) -> list[tuple[str, int, int]]:
    """jieba's ``tokenize`` of ``text``: each word with its start and end offsets, through
    the same on-demand dictionary as :func:`tokens` (``jieba.tokenize`` itself would load
    jieba's whole default dictionary: 0.6-1.0 s and about 100 MB in a fresh process)."""
    tokenizer = _ensure_jieba()
    if _lazy is None:
        return list(tokenizer.tokenize(text, HMM=hmm))
    with _cut_lock:
        _lazy.prefetch(text)
        return list(tokenizer.tokenize(text, HMM=hmm))


def word_frequency(word: str) -> int:
    """How often jieba's dictionary counts ``word``, 0 when it is no word of it (a common
    word when high: "高血压", "小学"; a name seldom is one)."""
    tokenizer = _ensure_jieba()
    with _cut_lock:
        if _lazy is not None:
            _lazy.prefetch(word)
        return int(tokenizer.FREQ.get(word) or 0)


@lru_cache(maxsize=8192)
def _tokens(text: str, for_search: bool) -> tuple[str, ...]:
    pieces: list[str | list[str]] = []  # an ASCII word, or the Chinese runs between words
    for piece in _SPLIT.split(plain(text)):
        if not piece:
            continue
        if _ASCII_WORD.fullmatch(piece):
            pieces.append(piece)
        else:
            pieces.append(_CJK.findall(piece))
    runs = [run for piece in pieces if isinstance(piece, list) for run in piece]
    cuts = iter(_cut_runs(runs, for_search=for_search)) if runs else iter(())
    out: list[str] = []
    for piece in pieces:
        if isinstance(piece, list):
            for _ in piece:
                out.extend(next(cuts))
            continue
        word = piece.lower()
        out.append(word)
        if for_search and any(c in word for c in "_.-:/@"):
            out.extend(p for p in re.split(r"[_.\-:/@]+", word) if p)
    return tuple(out)


def tokens(text: str, *, for_search: bool = False) -> list[str]:
    """All word tokens of ``text``, in order, lower-cased, punctuation dropped.

    ``for_search`` uses jieba's search mode (``cut_for_search``: overlapping sub-words)
    and also splits compound identifiers into their parts.
    """
    return list(_tokens(text, for_search))


def content_words(text: str, *, for_search: bool = False) -> list[str]:
    """``tokens`` without stopwords and single Latin letters."""
    return list(_content_words(text, for_search))


@lru_cache(maxsize=8192)
def _content_words(text: str, for_search: bool) -> tuple[str, ...]:
    return tuple(
        t
        for t in _tokens(text, for_search)
        if t not in STOPWORDS and not (len(t) == 1 and t.isascii() and t.isalpha())
    )


def has_cjk(text: str) -> bool:
    """True when ``text`` contains Chinese characters."""
    return _CJK.search(text) is not None
