"""``openai``: any OpenAI-compatible ``/embeddings`` endpoint via the ``openai`` client."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import openai

from memory.search.embeddings.base import EmbeddingError, normalise_rows

BATCH = 96


class OpenAIProvider:
    name = "openai"
    cosine_floor = 0.1
    cosine_ceiling = 0.7

    def __init__(
        self, model: str, api_key: str, base_url: str | None = None, timeout: float = 30.0
    ) -> None:
        if not api_key:
            raise EmbeddingError("the openai provider needs an API key (open_ai_api_key)")
        self.model = model
        self.key = f"openai:{model}"
        self._client = openai.OpenAI(
            api_key=api_key, base_url=base_url or None, timeout=timeout, max_retries=1
        )

    def _call(self, texts: list[str]) -> np.ndarray:
        try:
            response = self._client.embeddings.create(model=self.model, input=texts)
        except openai.OpenAIError as exc:
            raise EmbeddingError(f"openai embeddings failed: {type(exc).__name__}") from exc
        rows = sorted(response.data, key=lambda d: d.index)
        if len(rows) != len(texts):
            raise EmbeddingError("openai embeddings: wrong number of vectors returned")
        return normalise_rows(np.array([r.embedding for r in rows], dtype=np.float32))

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        parts = [self._call(list(texts[i : i + BATCH])) for i in range(0, len(texts), BATCH)]
        if not parts:
            return np.zeros((0, 1), dtype=np.float32)
        return np.vstack(parts)

    def embed_query(self, text: str) -> np.ndarray:
        return self._call([text])[0]

    def embed_queries(self, texts: Sequence[str], cores: int = 1) -> np.ndarray:
        return self._call(list(texts)) if texts else np.zeros((0, 1), dtype=np.float32)

    def idle_cores(self) -> int:
        return 0  # a request waits on the network: it runs beside the keyword side
