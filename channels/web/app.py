"""The web console's HTTP API and static page (FastAPI; no build step).

Everything is the owner's: the console chats as the owner and shows the workspace's
memory. With ``web_password`` set every request needs HTTP Basic auth (any user name).
"""

from __future__ import annotations

import math
import secrets
import threading
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any, Literal

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.security import HTTPBasic, HTTPBasicCredentials
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, field_validator
from starlette.middleware.trustedhost import TrustedHostMiddleware

from bot.chat_language import ChatLanguages
from bot.console import ChatEntry, ConsoleTurn, ConsoleView
from bot.engine_messages import engine_text
from bot.i18n import FALLBACK, Translator
from bot.messages import WEB_SCOPE, IncomingMessage
from channels.web.throttle import LoginThrottle
from memory.dream.model import MAX_DAYS, MIN_DAYS
from memory.errors import MemoryEngineError
from memory.textfile import clean_text
from plugins.status_text import resolution_text

STATIC = Path(__file__).parent / "static"
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")


class ChatIn(BaseModel):
    text: str = Field(min_length=1, max_length=20000)
    language: str | None = Field(default=None, max_length=35)  # the console's chosen language

    @field_validator("text", mode="before")
    @classmethod
    def _storable(cls, value: Any) -> Any:  # a lone surrogate is replaced, not a 4xx
        return clean_text(value) if isinstance(value, str) else value


class DreamIn(BaseModel):
    days: int | None = None  # checked by the /memory dream command itself (1..30)
    language: str | None = Field(default=None, max_length=35)


class ResolveIn(BaseModel):
    id: str = Field(min_length=1, max_length=20)  # "c1" (or "1")
    action: Literal["keep", "drop", "both"]
    side: int | None = None  # the side to keep or drop (1-based); none for "both"


# The page runs its own scripts only: no inline script, no other origin, no plug-ins, no
# frames; whatever a memory file holds is shown as text and could not run even if it
# reached the page as markup.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


async def locked_down(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    response = await call_next(request)
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


class Outbox:
    """Messages the bot sends unprompted (dream reports), numbered for polling."""

    def __init__(self) -> None:
        self._items: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def put(self, text: str) -> None:
        with self._lock:
            self._items.append({"id": len(self._items) + 1, "text": text})

    def after(self, last: int) -> list[dict[str, Any]]:
        with self._lock:
            return [m for m in self._items if m["id"] > last]


def create_app(
    handle: Callable[[IncomingMessage], list[str]],
    views: Callable[[str | None], ConsoleView],
    chats: Callable[[], list[ChatEntry]],
    history: Callable[[], list[ConsoleTurn]],
    outbox: Outbox,
    password: str | None,
    throttle: LoginThrottle | None = None,
    languages: ChatLanguages | None = None,
) -> FastAPI:
    """The console. ``views(None)`` shows the owner's memory, ``views(key)`` another chat's
    (read only: chatting and running a dream stay the owner's). Errors are worded in the
    language the request asks for (``Accept-Language``; the console sends its own)."""
    basic = HTTPBasic(auto_error=False)

    brake = throttle or LoginThrottle()
    speech = languages or ChatLanguages("auto")

    def words(request: Request) -> Translator:
        asked = speech.languages.from_header(request.headers.get("accept-language"))
        return speech.languages.translator(speech.fixed() or asked)

    def auth(
        request: Request,
        credentials: HTTPBasicCredentials | None = Depends(basic),  # noqa: B008
    ) -> None:
        if password is None:
            return
        tr = words(request)
        challenge = {"WWW-Authenticate": "Basic"}
        if credentials is None:  # the browser has not asked for the password yet
            raise HTTPException(401, tr.t("web.password_required"), challenge)
        client = request.client.host if request.client else "?"
        wait = math.ceil(brake.wait_for(client))
        if wait > 0:
            raise HTTPException(429, tr.t("web.too_many", seconds=wait), {"Retry-After": str(wait)})
        if not secrets.compare_digest(credentials.password.encode(), password.encode()):
            brake.failed(client)
            raise HTTPException(401, tr.t("web.password_required"), challenge)
        brake.succeeded(client)

    app = FastAPI(title="CowDream console", docs_url=None, redoc_url=None, openapi_url=None)
    app.middleware("http")(locked_down)
    if password is None:
        # Without a password the console is for this machine only: refuse other Host names,
        # so a web page cannot reach it through DNS rebinding.
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(LOOPBACK_HOSTS))
    guarded = [Depends(auth)]

    def safely(fn: Callable[[], Any]) -> Any:
        try:
            return fn()
        except MemoryEngineError as exc:  # worded in the asker's language by bad_input
            raise HTTPException(400, str(exc)) from None

    @app.get("/", dependencies=guarded)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.post("/api/chat", dependencies=guarded)
    def chat(body: ChatIn) -> dict[str, Any]:
        text = body.text.strip()
        message = IncomingMessage(WEB_SCOPE, "owner", "owner", text, language=body.language)
        return {"replies": handle(message)}

    @app.get("/api/i18n", dependencies=guarded)
    def i18n(request: Request, lang: str | None = None) -> dict[str, Any]:
        """The console's words: the languages there are, the one to start in (the
        configured one, else the owner's chat's, else the browser's) and a catalogue."""
        tongues = speech.languages
        start = (
            speech.fixed()
            or speech.remembered(views(None).root)
            or tongues.from_header(request.headers.get("accept-language"))
            or FALLBACK
        )
        code = tongues.supported(lang) or start
        return {
            "languages": [{"code": c.code, "name": c.name} for c in tongues.catalogues.values()],
            "default": start,
            "catalogue": tongues.catalogues[code].to_dict(),
            "today": views(None).today(),  # the bot's clock: a date of another year shows it
        }

    @app.get("/api/messages", dependencies=guarded)
    def messages(after: int = 0) -> dict[str, Any]:
        return {"messages": outbox.after(after)}

    @app.get("/api/chats", dependencies=guarded)
    def chat_list() -> dict[str, Any]:
        return {"chats": [asdict(chat) for chat in chats()]}

    @app.get("/api/memory", dependencies=guarded)
    def memory(chat: str | None = None) -> dict[str, Any]:
        return {"items": safely(lambda: views(chat).memory_items())}

    @app.get("/api/people", dependencies=guarded)
    def people(chat: str | None = None, name: str | None = None) -> dict[str, Any]:
        if name is not None:
            return dict(safely(lambda: views(chat).person(name)))
        return dict(safely(lambda: views(chat).people()))

    @app.get("/api/source", dependencies=guarded)
    def source(ref: str, chat: str | None = None) -> dict[str, Any]:
        return dict(safely(lambda: views(chat).source(ref)))

    @app.get("/api/notes", dependencies=guarded)
    def notes(chat: str | None = None) -> dict[str, Any]:
        return {"dates": safely(lambda: views(chat).note_dates())}

    @app.get("/api/notes/{day}", dependencies=guarded)
    def note(day: str, chat: str | None = None) -> dict[str, Any]:
        return {"date": day, "text": safely(lambda: views(chat).note(day))}

    @app.get("/api/archive", dependencies=guarded)
    def archive(chat: str | None = None) -> dict[str, Any]:
        return {"items": safely(lambda: views(chat).archive())}

    @app.get("/api/diary", dependencies=guarded)
    def diary(chat: str | None = None) -> dict[str, Any]:
        return {"entries": safely(lambda: views(chat).diary())}

    @app.get("/api/dreaming", dependencies=guarded)
    def dreaming(chat: str | None = None) -> dict[str, Any]:
        return dict(safely(lambda: views(chat).dreaming()))

    @app.get("/api/dreams", dependencies=guarded)
    def dreams(chat: str | None = None) -> dict[str, Any]:
        return dict(safely(lambda: views(chat).dreams()))

    @app.post("/api/dreams/backfill/remove", dependencies=guarded)
    def remove_backfill() -> dict[str, Any]:
        # The owner's memory only: another chat's memory is read-only here.
        return dict(safely(lambda: views(None).remove_backfill_staged()))

    @app.get("/api/conflicts", dependencies=guarded)
    def conflicts(chat: str | None = None) -> dict[str, Any]:
        return {"conflicts": safely(lambda: views(chat).conflicts())}

    @app.post("/api/conflicts/resolve", dependencies=guarded)
    def resolve(body: ResolveIn, request: Request) -> dict[str, Any]:
        # The owner's memory only: another chat's memory is read-only here.
        view = views(None)
        now = view.services.clock()
        done = safely(lambda: view.resolve(body.id, body.action, body.side, now))
        return {
            "id": done.id,
            "action": done.action,
            "kept": [i.text for i in done.kept],
            "dropped": [i.text for i in done.dropped],
            "still_open": done.still_open,
            "message": resolution_text(done, words(request)),
            "conflicts": view.conflicts(),
        }

    @app.post("/api/dream", dependencies=guarded)
    def dream(body: DreamIn, request: Request) -> dict[str, Any]:
        if body.days is not None and not MIN_DAYS <= body.days <= MAX_DAYS:
            raise HTTPException(400, words(request).t("web.days_range", min=MIN_DAYS, max=MAX_DAYS))
        text = "/memory dream" + (f" {body.days}" if body.days is not None else "")
        message = IncomingMessage(WEB_SCOPE, "owner", "owner", text, language=body.language)
        return {"replies": handle(message)}

    @app.get("/api/history", dependencies=guarded)
    def conversation() -> dict[str, Any]:
        return {"turns": [{"role": t.role, "text": t.text, "time": t.time} for t in history()]}

    @app.get("/api/index", dependencies=guarded)
    def index_state(chat: str | None = None) -> dict[str, Any]:
        return dict(safely(lambda: views(chat).index()))

    @app.get("/api/search", dependencies=guarded)
    def search(q: str, limit: int = 8, chat: str | None = None) -> dict[str, Any]:
        hits = safely(lambda: views(chat).search(q, max(1, min(limit, 50))))
        return {"query": q, "hits": hits}

    @app.exception_handler(ValueError)
    def bad_value(request: Request, exc: ValueError) -> Any:
        raise HTTPException(400, str(exc))

    @app.exception_handler(HTTPException)
    def bad_input(request: Request, exc: HTTPException) -> JSONResponse:
        detail = exc.detail
        if exc.status_code == 400 and isinstance(detail, str):
            detail = engine_text(words(request), detail)  # the engine's words, translated
        return JSONResponse({"detail": detail}, exc.status_code, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        # One readable line ("days: Input should be a valid integer"), never a list of dicts.
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p not in ("body", "query"))
        message = str(first.get("msg", "invalid request"))
        return JSONResponse({"detail": f"{where}: {message}" if where else message}, 422)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
