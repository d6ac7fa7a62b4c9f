"""The one place engines and phases are registered."""

from __future__ import annotations

from collections.abc import Callable

from memory.dream.context import Phase
from memory.dream.deep import DeepPhase
from memory.dream.extractive import ExtractiveEngine
from memory.dream.grounding import Similarity
from memory.dream.llm_engine import LLMEngine
from memory.dream.model import DreamEngine, DreamOptions
from memory.errors import UsageError
from memory.llm import ChatModel

EngineFactory = Callable[[ChatModel | None, Similarity | None], DreamEngine]


def _llm(model: ChatModel | None, similarity: Similarity | None) -> DreamEngine:
    if model is None:
        raise UsageError(
            "engine llm needs a model: set open_ai_api_key/open_ai_api_base in the config "
            "or OPENAI_API_KEY/OPENAI_BASE_URL"
        )
    return LLMEngine(model, similarity)


ENGINES: dict[str, EngineFactory] = {
    "extractive": lambda model, similarity: ExtractiveEngine(),
    "llm": _llm,
}
ENGINE_CHOICES = ("auto", *ENGINES)


def phases() -> list[Phase]:
    """The phases of a dream cycle, in order."""
    return [DeepPhase()]


def choose_engine(
    options: DreamOptions, model: ChatModel | None, similarity: Similarity | None
) -> DreamEngine:
    """``auto`` picks ``llm`` when a model is configured, else ``extractive``."""
    name = options.engine
    if name == "auto":
        name = "extractive" if model is None else "llm"
    factory = ENGINES.get(name)
    if factory is None:
        raise UsageError(f"unknown engine {options.engine!r}: use {', '.join(ENGINE_CHOICES)}")
    return factory(model, similarity)
