"""What happens when a dream finishes: its result is recorded and reported.

A dream asked for in a chat (``/memory dream``, the console's Run dream) is reported to
that chat. A nightly dream (and one the idle or pressure trigger started) is reported to
the chat's admins (with ``nightly_reports`` on): a private chat's own user, the owner for
the owner's memory, and for a group the configured ``admin_users`` of its platform the bot
already talks to privately. Either way the result is logged, so no dream ends unseen.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.chat_language import ChatLanguages
from bot.config import BotConfig
from bot.dream_worker import DreamOutcome, format_report
from bot.material import memory_digest
from bot.messages import Scope
from bot.scope_state import clear_changed, record_dream
from bot.scopes import ScopeDirectory
from memory.paths import MemoryRoot

log = logging.getLogger(__name__)

Send = Callable[[Scope, str], None]
Changed = Callable[[MemoryRoot], None]
KINDS = ("nightly", "idle", "pressure")  # dreams nobody asked for in the chat: report.<kind>


class DreamReporter:
    """``on_done`` of the dream worker."""

    def __init__(
        self,
        config: BotConfig,
        scopes: ScopeDirectory,
        send: Send,
        languages: ChatLanguages,
        changed: Changed | None = None,
    ) -> None:
        self.config = config
        self.scopes = scopes
        self.send = send
        self.languages = languages
        self.changed = changed  # told of a root whose MEMORY.md a dream rewrote

    def __call__(self, outcome: DreamOutcome) -> None:
        job, report = outcome.job, outcome.report
        record_dream(
            job.root,
            report,
            outcome.finished,
            material=outcome.material,
            memory_digest=memory_digest(job.root),
        )
        if report.status in {"done", "skipped"}:
            clear_changed(job.root, outcome.changes_seen)
        if report.status == "done" and self.changed is not None:
            try:
                self.changed(job.root)
            except Exception:  # the search index catches up on its next search anyway
                log.exception("refreshing the search index of %s failed", job.scope.key)
        level = logging.WARNING if report.status == "failed" else logging.INFO
        log.log(
            level, "%s dream for %s: %s %s", job.origin, job.scope.key, report.status, report.reason
        )
        if job.origin == "command":
            tr = self.languages.for_root(job.root, outcome.finished)
            self._send(job.scope, format_report(report, tr))
            return
        if not self.config.nightly_reports or report.status == "skipped":
            return
        title = job.scope.title or job.scope.key
        kind = job.origin if job.origin in KINDS else "nightly"
        for admin in self.recipients(job.scope):
            # Each admin hears it in the language of the chat it reaches them in.
            tr = self.languages.for_root(self.scopes.root_for(admin), outcome.finished)
            text = format_report(report, tr)
            if admin == job.scope:
                self._send(admin, tr.t(f"report.{kind}", text=text))
            else:
                self._send(admin, tr.t(f"report.{kind}_of", title=title, text=text))

    def recipients(self, scope: Scope) -> list[Scope]:
        """Who hears of a nightly dream of ``scope``."""
        if not scope.is_group:
            return [scope]
        known = {e.key for e in self.scopes.entries()}
        out = []
        for user in self.config.admin_users:
            platform, _, user_id = user.rpartition(":")
            if platform not in ("", scope.platform):
                continue
            private = Scope(scope.platform, user_id, False)
            if private.key in known:
                out.append(private)
        return out

    def _send(self, scope: Scope, text: str) -> None:
        try:
            self.send(scope, text)
        except Exception:  # a closed chat must not stop the dream worker
            log.exception("could not send the dream report to %s", scope.key)
