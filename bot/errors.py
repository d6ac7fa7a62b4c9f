"""The bot's exceptions, apart from the memory engine's.

    BotError                     base of every failure the bot reports on purpose
    ├── ConfigError              config.json or an environment override is invalid
    ├── PluginError              a plugin failed to load or to handle an event
    ├── ScopeConflict            two chats would share one memory folder
    └── WorkspaceBusy            another bot already runs on this workspace

    StopPropagation              control flow, not a failure: a plugin handled the event

Model failures are the memory engine's ``ModelError`` (one chat-model boundary).
Each carries a one-line message fit to show a user; tracebacks go to the log.
"""


class BotError(Exception):
    """Base class of the bot's own errors."""


class ConfigError(BotError):
    """The configuration is invalid; the message names the key."""


class PluginError(BotError):
    """A plugin could not be loaded or configured."""


class ScopeConflict(BotError):
    """A chat's memory folder already belongs to another chat; nothing is shared."""


class WorkspaceBusy(BotError):
    """Another bot process holds the workspace lock."""


class StopPropagation(Exception):
    """Raised by a plugin handler to stop lower-priority handlers from seeing an event."""
