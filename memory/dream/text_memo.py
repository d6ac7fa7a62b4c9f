"""Per-text judgements of the dream, kept per memory root across dreams.

A nightly dream reads nearly the same wordings as the night before, and judges each one
from scratch in a fresh process: its content words (jieba), its dates resolved against the
note's day, its core words with the dates taken out, its typed values, its change cues.
Each of those is a pure function of its arguments (a text, a day), so a function marked
:func:`persisted` (under its ``lru_cache``) keeps its results in
``memory/.dreams/texts.npz`` while a dream runs (:func:`using`), and the next dream
computes them only for its new wordings.

The file is derived data, like the embedding and verdict caches beside it: it is valid for
one version of the code (the verdict cache's :func:`~memory.dream.verdicts.code_key`,
every file of the ``memory`` package: any change to a judgement starts an empty memo), a
missing, foreign or unreadable file is ignored (an unreadable one logged) and rebuilt, and
failing to write it changes nothing else. Unlike those two it holds words of the notes
(the values are words and reworded lines; the keys are digests), so ``forget`` deletes it
with the search index, and an entry no dream asked for while the file was written
:data:`KEEP_DREAMS` times goes. A value of a type the codec does not know is not kept.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import json
import logging
import threading
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any, TypeVar

log = logging.getLogger(__name__)

FILE = "texts.npz"
KEEP_DREAMS = 14  # an entry not asked for in this many writes of the file is dropped
F = TypeVar("F", bound=Callable[..., Any])


class Unkept(TypeError):
    """A value of a type the codec does not write (it is computed, not kept)."""


def encode(value: Any) -> Any:
    """``value`` as JSON data, its type tagged so :func:`decode` gives an equal value."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, tuple):
        return {"t": [encode(v) for v in value]}
    if isinstance(value, frozenset):
        if all(isinstance(v, str) for v in value):
            return {"f": sorted(value)}
        return {"f": sorted((encode(v) for v in value), key=repr)}
    if isinstance(value, dict):
        return {"d": [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, date):
        return {"D": value.isoformat()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = [encode(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init]
        return {"c": [type(value).__qualname__, fields]}
    raise Unkept(type(value).__name__)


def decode(data: Any, cls: type | None = None) -> Any:
    """The value :func:`encode` wrote (``cls``: the dataclass its dataclass values are of;
    a value that is none of these raises :class:`ValueError`)."""
    if not isinstance(data, dict):
        if isinstance(data, list):
            raise ValueError("a bare list")
        return data
    (tag, body), *_ = data.items()
    if tag == "t":
        return tuple(decode(v, cls) for v in body)
    if tag == "f":
        return frozenset(decode(v, cls) for v in body)
    if tag == "d":
        return {decode(k, cls): decode(v, cls) for k, v in body}
    if tag == "D":
        return date.fromisoformat(body)
    if tag == "c" and cls is not None and body[0] == cls.__qualname__:
        return cls(*(decode(v, cls) for v in body[1]))
    raise ValueError(f"not a value of the memo's: {tag!r}")


def entry_key(name: str, args: tuple[Any, ...]) -> str:
    """The digest an entry is kept under: the function's name and its arguments (texts
    and days as they are, each after its length; anything else as JSON)."""
    parts = [name]
    for arg in args:
        if isinstance(arg, str):
            parts.append(f"s{len(arg)}:{arg}")
        elif isinstance(arg, date):
            parts.append(f"D{arg.isoformat()}")
        else:
            parts.append("j" + json.dumps(encode(arg), ensure_ascii=False))
    return hashlib.blake2b("\x1e".join(parts).encode(), digest_size=8).hexdigest()


class TextMemo:
    """Results of :func:`persisted` functions for one root: ``get``/``put`` by digest.

    The file holds three arrays: the digests, the generation each entry was last asked in,
    and the entries' JSON texts joined by NUL (which JSON never writes), so reading it
    parses no value until a dream asks for it."""

    def __init__(self, path: Path, key: str) -> None:
        self.path = path
        self.key = key
        self.entries: dict[str, list[Any]] = {}  # digest -> [generation, JSON text]
        self.generation = 0  # saves so far (an entry's generation: when last asked)
        self.hits = self.misses = 0
        self._dirty = False
        self.loaded: tuple[int, int] | None = None
        self._load()

    def _load(self) -> None:
        from memory.dream import keyed_npz

        self.loaded = keyed_npz.stamp(self.path)
        names = ("generation", "digests", "asked", "values")
        data = keyed_npz.read(self.path, self.key, names)
        if data is None:
            return
        try:
            generation = int(data["generation"])
            digests, asked = data["digests"].tolist(), data["asked"].tolist()
            values = data["values"].tobytes().decode("utf-8").split("\0") if digests else []
            if not len(digests) == len(asked) == len(values):
                raise ValueError("arrays of different lengths")
        except (ValueError, TypeError, UnicodeDecodeError) as exc:
            log.warning("ignored the dream's text memo %s (unreadable: %s)", self.path, exc)
            return
        self.generation = generation
        self.entries = {
            format(d, "016x"): [g, v] for d, g, v in zip(digests, asked, values, strict=True)
        }

    def get(self, digest: str) -> tuple[bool, str]:
        """(found, the value's JSON text). An entry found is marked asked for, at most every
        half of :data:`KEEP_DREAMS` writes (a night that finds everything writes nothing)."""
        entry = self.entries.get(digest)
        if entry is None:
            self.misses += 1
            return False, ""
        self.hits += 1
        if entry[0] <= self.generation - KEEP_DREAMS // 2:
            entry[0] = self.generation
            self._dirty = True
        return True, entry[1]

    def put(self, digest: str, encoded: Any) -> None:
        """Keep ``encoded`` (:func:`encode`'s JSON data) under ``digest``."""
        text = json.dumps(encoded, ensure_ascii=False, separators=(",", ":"))
        self.entries[digest] = [self.generation, text]
        self._dirty = True

    def save(self) -> None:
        """Write the entries asked for in the last :data:`KEEP_DREAMS` writes; a failed
        write is logged and leaves the old file as it was."""
        import numpy as np

        from memory.dream import keyed_npz

        if not self._dirty:
            return
        oldest = self.generation - KEEP_DREAMS + 1
        kept = {d: e for d, e in self.entries.items() if e[0] >= oldest}
        self.entries = kept
        self.generation += 1
        arrays: dict[str, np.ndarray] = {
            "generation": np.array(self.generation, dtype=np.int64),
            "digests": np.array([int(d, 16) for d in kept], dtype=np.uint64),
            "asked": np.array([e[0] for e in kept.values()], dtype=np.int64),
            "values": np.frombuffer(
                "\0".join(e[1] for e in kept.values()).encode("utf-8"), dtype=np.uint8
            ),
        }
        try:
            keyed_npz.write(self.path, self.key, arrays)
        except OSError as exc:
            log.warning("could not save the dream's text memo %s: %s", self.path, exc)
            return
        self._dirty = False
        self.loaded = keyed_npz.stamp(self.path)


_active = threading.local()  # the memo of the dream running in this thread, if any
_lock = threading.Lock()
_open: dict[Path, TextMemo] = {}
KEEP_OPEN = 4


def open_memo(state_dir: Path) -> TextMemo | None:
    """The root's memo (kept open while its file is as this process left it); None where
    the dream keeps no derived caches (``COWDREAM_DREAM_EMBEDDINGS=off``)."""
    from memory.dream import keyed_npz
    from memory.dream.embed_cache import enabled
    from memory.dream.verdicts import code_key  # the judgement's modules import this one

    if not enabled():
        return None
    path = state_dir / FILE
    with _lock:
        memo = _open.pop(path, None)
        if memo is None or keyed_npz.stamp(path) != memo.loaded:
            memo = TextMemo(path, code_key())
        _open[path] = memo
        while len(_open) > KEEP_OPEN:
            del _open[next(iter(_open))]
    return memo


@contextlib.contextmanager
def using(state_dir: Path, *, save: bool = True) -> Iterator[TextMemo | None]:
    """Within: the :func:`persisted` functions this thread calls use the root's memo;
    after: it is saved (unless ``save`` is off: a dry run writes nothing)."""
    memo = open_memo(state_dir)
    previous = getattr(_active, "memo", None)
    _active.memo = memo
    try:
        yield memo
    finally:
        _active.memo = previous
        if memo is not None and save:
            memo.save()


def persisted(name: str, cls: type | None = None) -> Callable[[F], F]:
    """Keep ``fn``'s results in the active memo (under its ``lru_cache``: asked once per
    process and arguments). ``cls``: the dataclass ``fn`` returns, if it returns one."""

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def remembered(*args: Any) -> Any:
            memo: TextMemo | None = getattr(_active, "memo", None)
            if memo is None:
                return fn(*args)
            try:
                digest = entry_key(name, args)
            except Unkept:
                return fn(*args)
            found, text = memo.get(digest)
            if found:
                with contextlib.suppress(ValueError, TypeError, KeyError, IndexError):
                    return decode(json.loads(text), cls)
            value = fn(*args)
            with contextlib.suppress(Unkept):
                memo.put(digest, encode(value))
            return value

        return remembered  # type: ignore[return-value]

    return wrap


__all__ = ["FILE", "KEEP_DREAMS", "TextMemo", "decode", "encode", "open_memo", "persisted"]
