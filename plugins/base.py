"""What a plugin is: a class with metadata, a config dict and ``@on(Event)`` handlers.

A plugin module exposes ``PLUGIN`` (a :class:`Plugin` subclass)::

    class Echo(Plugin):
        name = "echo"
        description = "Repeats what it is told."

        @on(MessageReceived, priority=10)
        def echo(self, event: MessageReceived) -> None:
            event.context.reply = event.context.message.text
            raise StopPropagation

    PLUGIN = Echo
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from plugins.events import Event

if TYPE_CHECKING:
    from bot.services import BotServices

E = TypeVar("E", bound=Event)
Handler = Callable[[Any, E], None]

_MARK = "__plugin_handler__"


def on(event_type: type[E], *, priority: int = 0) -> Callable[[Handler[E]], Handler[E]]:
    """Register a method for ``event_type``; higher ``priority`` runs first."""

    def mark(func: Handler[E]) -> Handler[E]:
        setattr(func, _MARK, (event_type, priority))
        return func

    return mark


class Plugin:
    """Base class of plugins. Subclasses set ``name`` and decorate handlers with ``@on``."""

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    priority: ClassVar[int] = 0  # added to each handler's own priority
    default_config: ClassVar[dict[str, Any]] = {}

    def __init__(self, services: BotServices, config: dict[str, Any]) -> None:
        self.services = services
        self.config = config

    def close(self) -> None:
        """Release what the plugin holds; called once at shutdown."""

    @classmethod
    def handler_specs(cls) -> list[tuple[str, type[Event], int]]:
        """(method name, event type, priority) for every ``@on`` method."""
        specs = []
        for attr in dir(cls):
            mark = getattr(getattr(cls, attr, None), _MARK, None)
            if mark is not None:
                specs.append((attr, mark[0], mark[1]))
        return specs
