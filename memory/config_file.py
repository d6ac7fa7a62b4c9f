"""The config file the command line shares with the bot: ``--config FILE``, else
``./config.json`` (as ``python app.py`` reads it), then ``COW_<KEY>`` overrides.

The engine reads only the keys it needs (``agent_workspace``, ``timezone``, ``model``,
``open_ai_api_key``, ``open_ai_api_base``, ``embedding_*``, ``dream_*``), so the same
file drives the bot and ``python -m memory`` with the same defaults.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from memory.errors import UsageError

DEFAULT_FILE = Path("config.json")
ENV_PREFIX = "COW_"


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise UsageError(f"duplicate config key {key!r} (each key may appear once)")
        seen[key] = value
    return seen


def parse_json_object(raw: bytes, source: str) -> dict[str, Any]:
    """A config file's bytes as a JSON object, strictly: UTF-8 (a byte order mark is
    allowed), valid JSON, not absurdly nested, every key once. One-line errors that
    start with ``source``."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{source}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"{source}: not valid JSON (invalid JSON at line {exc.lineno}: {exc.msg})"
        ) from None
    except RecursionError:
        raise UsageError(f"{source}: JSON nested too deeply to be a config file") from None
    except UsageError as exc:
        raise UsageError(f"{source}: {exc}") from None
    if not isinstance(data, dict):
        raise UsageError(f"{source}: the top level must be a JSON object")
    return data


def read_config_file(path: Path) -> dict[str, Any]:
    """Read a JSON config file (CowAgent keys); a clear :class:`UsageError` if unusable."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError as exc:
        raise UsageError(f"config file not found: {path}") from exc
    except OSError as exc:
        raise UsageError(f"config file {path} cannot be read: {exc.strerror}") from exc
    return parse_json_object(raw, f"config file {path}")


def env_values(environ: Mapping[str, str]) -> dict[str, Any]:
    """``COW_<KEY>`` variables as config keys: JSON where it parses, else the string."""
    out: dict[str, Any] = {}
    for name, raw in environ.items():
        if not name.startswith(ENV_PREFIX) or name == ENV_PREFIX:
            continue
        try:
            value: Any = json.loads(raw)
        except ValueError:
            value = raw
        out[name[len(ENV_PREFIX) :].lower()] = value if not isinstance(value, str) else raw
    return out


def load_config(
    path: str | Path | None, environ: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """``path`` (or ``./config.json`` when it exists) with the environment's overrides."""
    if path is not None:
        data = read_config_file(Path(path))
    elif DEFAULT_FILE.is_file():
        data = read_config_file(DEFAULT_FILE)
    else:
        data = {}
    data.update(env_values(os.environ if environ is None else environ))
    return data


def text(config: Mapping[str, Any], key: str) -> str | None:
    """A string key's value; None when unset or empty."""
    value = config.get(key)
    return str(value) if value not in (None, "") else None
