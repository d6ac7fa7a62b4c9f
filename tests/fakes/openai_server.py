"""An OpenAI-compatible chat-completions server on 127.0.0.1 with scripted answers.

Use it wherever a test needs a model without the network::

    with FakeOpenAI() as llm:
        llm.reply("Hello!")                                 # next answer: plain text
        llm.tool_call("memory_search", {"query": "tea"})    # next answer: a tool call
        llm.overflow()                                      # next answer: context too long
        llm.error(500, "boom")                              # next answer: an API error
        client = openai.OpenAI(api_key="test", base_url=llm.url)
        ...
        llm.requests        # every request body received, in order (parsed JSON)

JSON-mode requests (``response_format: json_object``, as the memory engine's summaries and
dreams send) draw from their own queue, scripted with ``json_reply(obj)``, so they never
eat the answers scripted for the conversation. Answers are used in the order scripted.
When a queue is empty, ``fallback(request)`` decides (by default ``{"bullets": []}`` for
JSON-mode requests and ``"ok"`` otherwise). ``route`` (optional) is consulted before the
queues and may answer a request itself (return a :class:`Scripted`) or pass (None).
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from memory import clock
from memory.llm import LLMSettings, OpenAIChatModel
from tests.fakes.http import JsonHandler, LocalServer

Request = dict[str, Any]


@dataclass(frozen=True)
class Scripted:
    """One HTTP answer: status and JSON body."""

    status: int
    body: dict[str, Any]


def completion(
    content: str | None, *, tool_calls: list[dict[str, Any]] | None = None, model: str = "fake"
) -> Scripted:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return Scripted(
        200,
        {
            "id": f"chatcmpl-{time.monotonic_ns()}",
            "object": "chat.completion",
            "created": int(clock.now().timestamp()),
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if tool_calls else "stop",
                }
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        },
    )


def api_error(status: int, message: str, *, code: str | None = None) -> Scripted:
    return Scripted(
        status,
        {
            "error": {
                "message": message,
                "type": "invalid_request_error",
                "param": None,
                "code": code,
            }
        },
    )


def default_fallback(request: Request) -> Scripted:
    if (request.get("response_format") or {}).get("type") == "json_object":
        return completion(json.dumps({"bullets": []}))
    return completion("ok")


@dataclass
class FakeOpenAI:
    """The server; ``url`` is the ``base_url`` for an ``openai.OpenAI`` client."""

    fallback: Callable[[Request], Scripted] = default_fallback
    route: Callable[[Request], Scripted | None] | None = None
    requests: list[Request] = field(default_factory=list)
    _queue: deque[Scripted] = field(default_factory=deque)
    _json_queue: deque[Scripted] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: LocalServer | None = None
    _models: list[OpenAIChatModel] = field(default_factory=list)

    # scripting ---------------------------------------------------------------------

    def script(self, *answers: Scripted) -> FakeOpenAI:
        with self._lock:
            self._queue.extend(answers)
        return self

    def json_reply(self, obj: Any) -> FakeOpenAI:
        """Script the next JSON-mode answer."""
        with self._lock:
            self._json_queue.append(completion(json.dumps(obj, ensure_ascii=False)))
        return self

    def reply(self, text: str) -> FakeOpenAI:
        return self.script(completion(text))

    def tool_call(self, name: str, arguments: dict[str, Any], call_id: str = "") -> FakeOpenAI:
        call = {
            "id": call_id or f"call_{len(self._queue)}_{time.monotonic_ns()}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)},
        }
        return self.script(completion(None, tool_calls=[call]))

    def overflow(self) -> FakeOpenAI:
        return self.script(
            api_error(
                400,
                "This model's maximum context length is 8192 tokens. However, your messages "
                "resulted in 9000 tokens. Please reduce the length of the messages.",
                code="context_length_exceeded",
            )
        )

    def error(self, status: int, message: str) -> FakeOpenAI:
        return self.script(api_error(status, message, code="server_error"))

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._queue)

    def chat_requests(self) -> list[Request]:
        """The requests that were not JSON-mode: the conversation calls."""
        return [r for r in self.requests if "response_format" not in r]

    # serving -----------------------------------------------------------------------

    def _answer(self, request: Request) -> Scripted:
        with self._lock:
            self.requests.append(request)
        if self.route is not None:
            routed = self.route(request)
            if routed is not None:
                return routed
        json_mode = (request.get("response_format") or {}).get("type") == "json_object"
        with self._lock:
            queue = self._json_queue if json_mode else self._queue
            if queue:
                return queue.popleft()
        return self.fallback(request)

    @property
    def url(self) -> str:
        assert self._server is not None, "server not started"
        return f"{self._server.url}/v1"

    def start(self) -> FakeOpenAI:
        fake = self

        class Handler(JsonHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(api_error(404, f"no route {self.path}"))
                    return
                try:
                    request = json.loads(raw or b"{}")
                except json.JSONDecodeError:
                    self._send(api_error(400, "body is not JSON"))
                    return
                self._send(fake._answer(request))

            def _send(self, answer: Scripted) -> None:
                self.send_json(answer.status, answer.body)

        self._server = LocalServer(Handler).start()
        return self

    def chat_model(self, model: str = "m", api_key: str = "sk-test") -> OpenAIChatModel:
        """A real client of this server, closed with it (an unclosed client's socket
        would warn in whichever later test the garbage collector happens to run)."""
        made = OpenAIChatModel(LLMSettings(model=model, api_key=api_key, base_url=self.url))
        self._models.append(made)
        return made

    def close(self) -> None:
        for made in self._models:
            made.close()
        self._models.clear()
        if self._server is not None:
            self._server.close()
            self._server = None

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
