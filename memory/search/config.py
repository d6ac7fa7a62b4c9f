"""Search settings from the command line's ``--config`` file (CowAgent keys) and env.

Keys read: ``open_ai_api_key``, ``open_ai_api_base``, ``embedding_provider``
(auto|local|openai|none), ``embedding_model``. Without a key in the file, the ``openai``
package's own ``OPENAI_API_KEY``/``OPENAI_BASE_URL`` environment variables are used.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from memory.errors import UsageError
from memory.search.embeddings.registry import PROVIDERS
from memory.search.service import SearchSettings


def load_config(path: str | None) -> dict[str, Any]:
    if path is None:
        return {}
    try:
        data = json.loads(Path(path).read_text("utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot read config {path}: {exc.strerror}") from exc
    except ValueError as exc:
        raise UsageError(f"config {path} is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise UsageError(f"config {path} must hold a JSON object")
    return data


def settings_from(
    config: Mapping[str, Any],
    env: Mapping[str, str],
    *,
    provider: str | None = None,
    background: bool = False,
) -> SearchSettings:
    """Settings for one command; ``provider`` (a CLI flag) overrides the config file."""
    chosen = provider or str(config.get("embedding_provider") or "auto")
    if chosen not in PROVIDERS:
        raise UsageError(
            f"embedding_provider must be one of {', '.join(PROVIDERS)}, got {chosen!r}"
        )
    api_key = config.get("open_ai_api_key") or env.get("OPENAI_API_KEY") or None
    base_url = config.get("open_ai_api_base") or env.get("OPENAI_BASE_URL") or None
    model = str(config.get("embedding_model") or "text-embedding-3-small")
    return SearchSettings(
        provider=chosen,
        openai_model=model,
        api_key=str(api_key) if api_key else None,
        base_url=str(base_url) if base_url else None,
        background=background,
    )
