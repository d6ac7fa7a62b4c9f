"""The nightly pass: flush every chat's new conversation, then queue the dreams it needs."""

from __future__ import annotations

from datetime import datetime

from bot.config import BotConfig
from bot.conversations import Conversations
from bot.dream_worker import DreamJob, DreamWorker
from bot.messages import Scope
from bot.scope_state import dreaming_enabled, read_state
from bot.scopes import ScopeDirectory
from memory.paths import MemoryRoot


class NightlyPass:
    """``run`` of the nightly job: returns the dream jobs it queued."""

    def __init__(
        self,
        config: BotConfig,
        scopes: ScopeDirectory,
        conversations: Conversations,
        dreams: DreamWorker,
    ) -> None:
        self.config = config
        self.scopes = scopes
        self.conversations = conversations
        self.dreams = dreams

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
            if not read_state(root).changed:
                continue
            if not dreaming_enabled(root, self.config.dreaming_enabled):
                continue
            job = DreamJob.configured(self.config, scope, root, origin="nightly")
            if self.dreams.submit(job):
                jobs.append(job)
        return jobs
