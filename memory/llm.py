"""The chat model boundary: one small protocol and its OpenAI-compatible implementation."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Protocol

from memory.errors import ContextOverflow, ModelError

_OVERFLOW_HINTS = (
    "context_length_exceeded",
    "maximum context length",
    "context length",
    "context window",
    "too many tokens",
    "prompt is too long",
)


@dataclass(frozen=True)
class ToolCall:
    """One function call the model asked for; ``arguments`` is the raw JSON text."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class ModelReply:
    """The assistant's turn: text, or tool calls to run before it answers."""

    content: str
    tool_calls: tuple[ToolCall, ...] = ()

    def as_message(self) -> dict[str, Any]:
        """The turn as a chat message, to send back with the tools' results."""
        message: dict[str, Any] = {"role": "assistant", "content": self.content or None}
        if self.tool_calls:
            message["tool_calls"] = [
                {
                    "id": c.id,
                    "type": "function",
                    "function": {"name": c.name, "arguments": c.arguments},
                }
                for c in self.tool_calls
            ]
        return message


class ChatModel(Protocol):
    """The one chat-model boundary: the dream, the flush and the bot all talk to this."""

    model: str

    def complete(self, messages: list[dict[str, Any]], *, json_object: bool = False) -> str:
        """Return the assistant's text; raise :class:`ModelError` on any failure."""
        ...

    def chat(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> ModelReply:
        """One assistant turn that may call ``tools`` (OpenAI function schemas).

        Raises :class:`ContextOverflow` when the conversation does not fit, else
        :class:`ModelError` on any failure."""
        ...


@dataclass(frozen=True)
class LLMSettings:
    """Where the model lives. ``api_key`` is a secret: never log it."""

    model: str
    api_key: str | None = None
    base_url: str | None = None
    timeout: float = 60.0

    def __repr__(self) -> str:  # keep the key out of logs and tracebacks
        return f"LLMSettings(model={self.model!r}, base_url={self.base_url!r})"


class OpenAIChatModel:
    """A chat model behind any OpenAI-compatible ``/chat/completions`` endpoint."""

    def __init__(self, settings: LLMSettings) -> None:
        # Imported here: ``openai`` costs ~0.6 s and ~28 MB at start-up, which the
        # extractive dream and the rule-based flush never need.
        import openai

        self.settings = settings
        self.model = settings.model
        self._client = openai.OpenAI(
            api_key=settings.api_key or "not-needed",
            base_url=settings.base_url or None,
            timeout=settings.timeout,
            max_retries=1,
        )

    def close(self) -> None:
        """Close the client's connections (a long-lived bot never needs to; a command
        and each test that made one does)."""
        self._client.close()

    def complete(self, messages: list[dict[str, Any]], *, json_object: bool = False) -> str:
        kwargs: dict[str, Any] = {"temperature": 0}
        if json_object:
            kwargs["response_format"] = {"type": "json_object"}
        content = self._create(messages, kwargs).content
        if content is None:
            raise ModelError("model returned an empty message")
        return str(content)

    def chat(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> ModelReply:
        message = self._create(messages, {"tools": tools} if tools else {})
        calls = tuple(
            ToolCall(c.id, c.function.name, c.function.arguments or "{}")
            for c in (message.tool_calls or [])
            if getattr(c, "function", None) is not None
        )
        return ModelReply((message.content or "").strip(), calls)

    def _create(self, messages: list[dict[str, Any]], kwargs: dict[str, Any]) -> Any:
        """The first choice's message; every failure mapped by :func:`model_error`."""
        try:
            response = self._client.chat.completions.create(
                model=self.model,
                messages=messages,  # type: ignore[arg-type]
                **kwargs,
            )
        except Exception as exc:  # openai.APIError and transport errors alike
            raise model_error(exc) from exc
        if not response.choices:
            raise ModelError("model returned no choices")
        return response.choices[0].message


def model_error(exc: BaseException) -> ModelError:
    """The one mapping of an ``openai`` (or transport) failure to the engine's errors."""
    import openai

    if isinstance(exc, openai.APIStatusError):
        code = getattr(exc, "code", None) or ""
        text = f"{code} {exc.message}".lower()
        if exc.status_code == 413 or any(hint in text for hint in _OVERFLOW_HINTS):
            return ContextOverflow(f"the conversation does not fit the model: {_short(exc)}")
    return ModelError(f"model call failed: {type(exc).__name__}: {_short(exc)}")


def _short(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return text[:200]


DEFAULT_MODEL = "gpt-4o-mini"


def settings_from(
    config: dict[str, Any] | None, env: dict[str, str] | None = None
) -> LLMSettings | None:
    """LLM settings from CowAgent config keys, else the ``openai`` package's env variables.

    Returns None when no model is configured (no API key and no base URL anywhere).
    """
    config = config or {}
    env = dict(os.environ) if env is None else env
    key = config.get("open_ai_api_key") or env.get("OPENAI_API_KEY")
    base = config.get("open_ai_api_base") or env.get("OPENAI_BASE_URL")
    if not key and not base:
        return None
    model = config.get("model") or env.get("OPENAI_MODEL") or DEFAULT_MODEL
    return LLMSettings(model=str(model), api_key=key or None, base_url=base or None)
