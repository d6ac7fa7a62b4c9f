"""The one place engines and phases are registered."""

from __future__ import annotations

from collections.abc import Callable

from memory.dream.context import DreamContext, Phase
from memory.dream.deep import DeepPhase
from memory.dream.evidence import DailyNotes, EvidenceSource
from memory.dream.extractive import ExtractiveEngine
from memory.dream.grounding import Similarity
from memory.dream.light import LightPhase
from memory.dream.llm_engine import LLMEngine
from memory.dream.model import DreamEngine, DreamOptions
from memory.dream.rem import Reflect, RemPhase
from memory.dream.session_source import session_source
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


def evidence_sources(ctx: DreamContext) -> list[EvidenceSource]:
    """What the light phase reads: the window's daily notes, and the session logs of the
    same window from their cursors on (with the lines live candidates cite)."""
    return [DailyNotes(ctx.inputs.notes), session_source(ctx)]


def phases() -> list[Phase]:
    """The phases of a dream cycle, in order: light, REM, deep, then the model's wording
    of the REM reflections (asked after the engine's own question)."""
    return [LightPhase(evidence_sources), RemPhase(), DeepPhase(), Reflect()]


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
