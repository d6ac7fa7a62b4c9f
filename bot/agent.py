"""The model call: chat completions with function tools, through the ``openai`` package.

The model may call tools (``memory_search``, ``memory_get``) for up to ``max_steps``
rounds; a tool that fails answers ``{"error": ...}`` instead of breaking the reply. A
context-length error from the API becomes :class:`ContextOverflow` so the engine can save
the context, trim it and retry once.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import openai

from bot.errors import ChatModelUnavailable
from plugins.events import Tool

log = logging.getLogger(__name__)

_OVERFLOW_HINTS = (
    "context_length_exceeded",
    "maximum context length",
    "context length",
    "context window",
    "too many tokens",
    "prompt is too long",
)


class ContextOverflow(Exception):
    """The API said the conversation does not fit the model's context window."""


def is_context_overflow(exc: openai.APIStatusError) -> bool:
    if exc.status_code == 413:
        return True
    code = getattr(exc, "code", None) or ""
    text = f"{code} {exc.message}".lower()
    return any(hint in text for hint in _OVERFLOW_HINTS)


class ChatAgent:
    """Answers a list of chat messages, running tool calls in between."""

    def __init__(self, client: openai.OpenAI, model: str, *, max_steps: int = 6) -> None:
        self.client = client
        self.model = model
        self.max_steps = max_steps

    def answer(self, messages: list[dict[str, Any]], tools: list[Tool]) -> str:
        messages = list(messages)
        by_name = {tool.name: tool for tool in tools}
        for step in range(self.max_steps + 1):
            offer = tools if step < self.max_steps else []
            message = self._call(messages, offer)
            calls = message.tool_calls or []
            if not calls:
                return (message.content or "").strip()
            messages.append(message.model_dump(exclude_none=True))
            for call in calls:
                messages.append(
                    {
                        "role": "tool",
                        "tool_call_id": call.id,
                        "content": json.dumps(_run_tool(by_name, call), ensure_ascii=False),
                    }
                )
        return ""

    def _call(self, messages: list[dict[str, Any]], tools: list[Tool]) -> Any:
        kwargs: dict[str, Any] = {}
        if tools:
            kwargs["tools"] = [tool.schema for tool in tools]
        try:
            response = self.client.chat.completions.create(
                model=self.model,
                messages=messages,  # type: ignore[arg-type]
                **kwargs,
            )
        except openai.APIStatusError as exc:
            if is_context_overflow(exc):
                raise ContextOverflow(exc.message) from exc
            raise ChatModelUnavailable(f"the model API failed ({exc.status_code})") from exc
        except openai.APIError as exc:
            raise ChatModelUnavailable(f"the model API failed ({type(exc).__name__})") from exc
        if not response.choices:
            raise ChatModelUnavailable("the model returned no answer")
        return response.choices[0].message


def _run_tool(by_name: dict[str, Tool], call: Any) -> dict[str, Any]:
    fn: Any = getattr(call, "function", None)
    name = getattr(fn, "name", "")
    tool = by_name.get(name)
    if tool is None:
        return {"error": f"unknown tool {name!r}"}
    try:
        args = json.loads(fn.arguments or "{}")
        if not isinstance(args, dict):
            raise ValueError("arguments must be a JSON object")
    except ValueError as exc:
        return {"error": f"bad arguments: {exc}"}
    try:
        return tool.run(args)
    except Exception as exc:
        log.exception("tool %s failed", name)
        return {"error": str(exc).splitlines()[0] if str(exc) else type(exc).__name__}
