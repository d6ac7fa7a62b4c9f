"""The conversation's model loop: chat turns with function tools, through :class:`ChatModel`.

The model may call tools (``memory_search``, ``memory_get``) for up to ``max_steps``
rounds; a tool that fails answers ``{"error": ...}`` instead of breaking the reply. A
context-length error surfaces as :class:`memory.errors.ContextOverflow` so the engine can
save the context, trim it and retry once; any other failure as ``ModelError``.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from memory.llm import ChatModel, ToolCall
from plugins.events import Tool

log = logging.getLogger(__name__)


class ChatAgent:
    """Answers a list of chat messages, running tool calls in between."""

    def __init__(self, model: ChatModel, *, max_steps: int = 6) -> None:
        self.model = model
        self.max_steps = max_steps

    def answer(self, messages: list[dict[str, Any]], tools: list[Tool]) -> str:
        messages = list(messages)
        by_name = {tool.name: tool for tool in tools}
        for step in range(self.max_steps + 1):
            offer = [tool.schema for tool in tools] if step < self.max_steps else []
            reply = self.model.chat(messages, offer)
            if not reply.tool_calls:
                return reply.content
            messages.append(reply.as_message())
            for call in reply.tool_calls:
                result = _run_tool(by_name, call)
                messages.append(
                    {
                        "role": "tool",
                        "tool_call_id": call.id,
                        "content": json.dumps(result, ensure_ascii=False),
                    }
                )
        return ""


def _run_tool(by_name: dict[str, Tool], call: ToolCall) -> dict[str, Any]:
    tool = by_name.get(call.name)
    if tool is None:
        return {"error": f"unknown tool {call.name!r}"}
    try:
        args = json.loads(call.arguments or "{}")
        if not isinstance(args, dict):
            raise ValueError("arguments must be a JSON object")
    except ValueError as exc:
        return {"error": f"bad arguments: {exc}"}
    try:
        return tool.run(args)
    except Exception as exc:
        log.exception("tool %s failed", call.name)
        return {"error": str(exc).splitlines()[0] if str(exc) else type(exc).__name__}
