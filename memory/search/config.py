"""Search settings from the command line's config (``--config`` or ./config.json) and env.

Keys read: ``open_ai_api_key``, ``open_ai_api_base``, ``embedding_provider``
(auto|local|openai|none), ``embedding_model``, ``memory_search_answerable`` (the
answerability gate, :mod:`memory.search.answerable`). Without a key in the file, the ``openai``
package's own ``OPENAI_API_KEY``/``OPENAI_BASE_URL`` environment variables are used.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memory.errors import UsageError
from memory.search.embeddings.registry import PROVIDERS
from memory.search.service import SearchSettings


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
    gate = config.get("memory_search_answerable", False)
    if not isinstance(gate, bool):
        raise UsageError(f"memory_search_answerable must be true or false, got {gate!r}")
    return SearchSettings(
        provider=chosen,
        openai_model=model,
        api_key=str(api_key) if api_key else None,
        base_url=str(base_url) if base_url else None,
        background=background,
        timezone=str(config["timezone"]) if config.get("timezone") else None,
        answerable=gate,
    )
