"""When a chat dreams besides the nightly time: the idle and pressure triggers (pure).

- **pressure**: MEMORY.md holds more estimated tokens than its budget, and it changed
  since the last dream left it (a dream that could not bring it under the budget is not
  asked again for the same file);
- **idle**: the chat has been quiet for ``idle_minutes``, its last dream is at least
  ``min_hours`` old, and at least ``min_new_bytes`` of new material (notes and session
  log) arrived since.

A manual dream (``/memory dream``, the console's Run dream) bypasses every gate. Every
decision names its trigger and, for a skip, the gate that stopped it and why.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

Trigger = Literal["idle", "pressure", "nightly", "manual"]
Gate = Literal["off", "busy", "pressure", "idle", "min_hours", "volume", "nightly", "manual"]


@dataclass(frozen=True)
class TriggerSettings:
    idle_minutes: int = 30  # 0 turns the idle trigger off
    min_hours: float = 24.0
    min_new_bytes: int = 8 * 1024
    token_budget: int = 2000


@dataclass(frozen=True)
class ChatActivity:
    """What the gates look at, for one memory root."""

    enabled: bool = True
    busy: bool = False  # a dream is queued or running
    last_turn: datetime | None = None
    last_dream: datetime | None = None  # the last dream that ran or was skipped
    new_bytes: int = 0  # notes and session log written since the last dream
    tokens: int = 0  # MEMORY.md's estimate, as the prompt gets it
    memory_changed: bool = True  # MEMORY.md differs from what the last dream left


@dataclass(frozen=True)
class Decision:
    run: bool
    trigger: Trigger
    gate: Gate
    reason: str

    @property
    def key(self) -> tuple[bool, str, str]:
        """What makes two decisions the same (their wording may differ in the numbers)."""
        return (self.run, self.trigger, self.gate)

    def to_event(self, when: datetime) -> dict[str, object]:
        return {
            "event": "trigger",
            "time": when.isoformat(timespec="seconds"),
            "decision": "run" if self.run else "skip",
            "trigger": self.trigger,
            "gate": self.gate,
            "reason": self.reason,
        }


def kib(size: int) -> str:
    """``8192`` -> ``"8 KiB"``, ``2150`` -> ``"2.1 KiB"``."""
    value = size / 1024
    return f"{value:.0f} KiB" if value == int(value) or value >= 100 else f"{value:.1f} KiB"


def _hours(hours: float) -> str:
    return f"{hours:.0f} h" if hours == int(hours) else f"{hours:.1f} h"


def _quiet(minutes: float) -> str:
    return f"{minutes:.0f} min" if minutes < 120 else _hours(round(minutes / 60, 1))


def manual() -> Decision:
    return Decision(True, "manual", "manual", "asked for by an admin: every gate is bypassed")


NightlyOutcome = Literal["nightly", "off", "unchanged", "busy"]
_NIGHTLY: dict[NightlyOutcome, tuple[Gate, str]] = {
    "nightly": ("nightly", "the nightly time"),
    "off": ("off", "dreaming is off for this chat"),
    "unchanged": ("nightly", "no new notes since the last dream"),
    "busy": ("busy", "a dream is already running"),
}


def nightly(outcome: NightlyOutcome = "nightly") -> Decision:
    """The nightly pass's decision for a chat: it runs, or why not."""
    gate, reason = _NIGHTLY[outcome]
    return Decision(outcome == "nightly", "nightly", gate, reason)


def decide(now: datetime, chat: ChatActivity, settings: TriggerSettings) -> Decision:
    """Whether ``chat`` should dream now (pressure first, then idle), and why (not)."""
    if not chat.enabled:
        return Decision(False, "idle", "off", "dreaming is off for this chat")
    if chat.busy:
        return Decision(False, "idle", "busy", "a dream is already queued or running")
    over = chat.tokens > settings.token_budget
    if over and chat.memory_changed:
        return Decision(
            True,
            "pressure",
            "pressure",
            f"MEMORY.md holds about {chat.tokens} tokens, over its budget of "
            f"{settings.token_budget}",
        )
    if settings.idle_minutes <= 0:
        return Decision(False, "idle", "idle", "the idle trigger is off (dream_idle_minutes 0)")
    if chat.last_turn is None:
        return Decision(False, "idle", "idle", "nothing was said in this chat yet")
    quiet = (now - chat.last_turn).total_seconds() / 60
    if quiet < settings.idle_minutes:
        return Decision(
            False,
            "idle",
            "idle",
            f"the chat was active {quiet:.0f} min ago; it needs {settings.idle_minutes} "
            "quiet minutes",
        )
    if chat.last_dream is not None:
        since = (now - chat.last_dream).total_seconds() / 3600
        if since < settings.min_hours:
            return Decision(
                False,
                "idle",
                "min_hours",
                f"the last dream was {_hours(round(since, 1))} ago; at least "
                f"{_hours(settings.min_hours)} must pass",
            )
    if chat.new_bytes < settings.min_new_bytes:
        return Decision(
            False,
            "idle",
            "volume",
            f"only {kib(chat.new_bytes)} of new notes and conversation since the last dream; "
            f"it needs {kib(settings.min_new_bytes)}",
        )
    return Decision(
        True,
        "idle",
        "idle",
        f"quiet for {_quiet(quiet)} with {kib(chat.new_bytes)} of new material",
    )
