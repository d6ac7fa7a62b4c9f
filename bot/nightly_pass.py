"""The nightly pass: flush every chat's new conversation, then queue the dreams it needs.

Each chat's decision (run, or skip and why) is recorded with the trigger decisions."""

from __future__ import annotations

from datetime import datetime

from bot.config import BotConfig
from bot.conversations import Conversations
from bot.dream_worker import DreamJob, DreamWorker
from bot.messages import Scope
from bot.scope_state import dreaming_enabled, read_state
from bot.scopes import ScopeDirectory
from bot.trigger_watch import TriggerWatch
from bot.triggers import nightly
from memory.dream.upkeep import due_today
from memory.paths import MemoryRoot


class NightlyPass:
    """``run`` of the nightly job: returns the dream jobs it queued."""

    def __init__(
        self,
        config: BotConfig,
        scopes: ScopeDirectory,
        conversations: Conversations,
        dreams: DreamWorker,
        triggers: TriggerWatch,
    ) -> None:
        self.config = config
        self.scopes = scopes
        self.conversations = conversations
        self.dreams = dreams
        self.triggers = triggers

    def _upkeep(self, root: MemoryRoot, now: datetime) -> bool:
        """Whether the core needs a dream though no note changed (an item turned cold or
        hot, MEMORY.md is over its budget)."""
        budget = self.config.memory_token_budget
        return bool(due_today(root, self.config.tiers, budget, now.date()))

    def __call__(self, now: datetime) -> list[DreamJob]:
        roots: dict[str, tuple[Scope, MemoryRoot]] = {}
        for entry in self.scopes.entries():
            scope = self.scopes.scope_from_key(entry.key)
            if scope is None:
                continue
            root = self.conversations.flush(scope, now)
            roots.setdefault(str(root.path), (scope, root))
        jobs = []
        for scope, root in roots.values():
            decision = nightly()
            if not dreaming_enabled(root, self.config.dreaming_enabled):
                decision = nightly("off")
            elif not read_state(root).changed and not self._upkeep(root, now):
                decision = nightly("unchanged")
            else:
                job = DreamJob.configured(self.config, scope, root, origin="nightly")
                if self.dreams.submit(job):
                    jobs.append(job)
                else:
                    decision = nightly("busy")
            self.triggers.record(root, decision, now)
        return jobs
