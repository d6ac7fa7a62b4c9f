"""A derived cache file of the dream's: numpy arrays in one ``.npz``, under a key.

The key names what the arrays were derived with (a model, the code); a file under another
key, or one that cannot be read (logged), is no cache at all. A write goes to a temporary file
beside the cache and replaces it in one step, so a reader sees the old file or the new.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)
Stamp = tuple[int, int]


def stamp(path: Path) -> Stamp | None:
    """The file's modification time and size now (None: no file)."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


def read(path: Path, key: str, names: tuple[str, ...]) -> dict[str, np.ndarray] | None:
    """The arrays ``names`` of the file at ``path``, or None: no file, another key, or a
    file that cannot be read (logged: it is ignored, and the next save replaces it)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if str(data["key"]) != key:
                return None
            return {name: data[name] for name in names}
    except FileNotFoundError:
        return None
    except (OSError, KeyError, ValueError, EOFError) as exc:
        log.warning("ignored the dream's cache %s (unreadable: %s)", path, exc)
        return None


def write(path: Path, key: str, arrays: dict[str, np.ndarray]) -> None:
    """Replace the file at ``path`` with ``arrays`` under ``key``; an :class:`OSError`
    leaves the old file as it was and no temporary file behind."""
    buffer = io.BytesIO()
    np.savez(buffer, key=np.array(key), **arrays)  # type: ignore[arg-type]
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(buffer.getvalue())
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise
