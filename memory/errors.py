"""The memory engine's exceptions.

    MemoryEngineError            base of every failure the engine reports
    ├── UsageError               bad arguments or input from the caller (CLI exit 2)
    ├── PathOutsideRoot          a path that escapes the memory root
    ├── MalformedFile            a markdown or state file the engine cannot parse
    ├── ModelError               the chat model failed or answered out of contract
    │   └── ContextOverflow      the conversation does not fit the model's context window
    ├── DreamRefused             a dream result that would lose items it cannot account for
    ├── Busy                     another process holds the root's lock
    └── StorageError             the disk refused a write (full, read-only); nothing torn

Each carries a one-line message fit to show a user; tracebacks go to the log.
"""

from __future__ import annotations


class MemoryEngineError(Exception):
    """Base class of every error the memory engine raises on purpose."""


class UsageError(MemoryEngineError):
    """The caller passed a bad argument; nothing was changed."""


class PathOutsideRoot(UsageError):
    """A path resolves outside the memory root."""


class MalformedFile(MemoryEngineError):
    """A file under the root cannot be parsed."""


class ModelError(MemoryEngineError):
    """The chat model failed, timed out or broke the JSON contract."""


class ContextOverflow(ModelError):
    """The API said the conversation does not fit the model's context window."""


class DreamRefused(MemoryEngineError):
    """A dream result would drop prior items it cannot account for."""


class Busy(MemoryEngineError):
    """Another process or thread holds this root's lock."""


class StorageError(MemoryEngineError):
    """A write failed at the operating system (disk full, read-only, no permission);
    what was half written has been taken back."""

    @classmethod
    def of(cls, exc: OSError, what: str) -> StorageError:
        reason = exc.strerror or type(exc).__name__
        return cls(f"cannot write {what}: {reason}; nothing was changed")
