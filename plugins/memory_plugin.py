"""The memory plugin: feeds conversations into daily notes and memory into the prompt.

- ``ContextHandled``: MEMORY.md (provenance stripped, within ``memory_prompt_max_chars``)
  joins the system prompt; up to ``archive_hints`` archived items whose trigger words
  match the message go into a hidden context block; in a group, the speaker's card
  (``people/<slug>/card.md``) joins the prompt; the model gets ``memory_search`` and
  ``memory_get``. Every item the message is about, every hint, and every item a search
  returns or ``memory_get`` reads is a use in the usage ledger (:mod:`memory.usage`).
  Without a model it answers honestly and shows the memory hits instead.
- ``ContextTrimmed``: the turns are summarised into the scope's daily note.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any, ClassVar

from bot.scope_state import mark_changed
from memory.conflicts import PROMPT_NOTE
from memory.errors import MemoryEngineError
from memory.flush import flush_turns
from memory.memory_file import ArchivedItem, prompt_memory, read_archive, read_memory
from memory.recall_store import record_hits
from memory.search.ranking import DEFAULT_MIN_SCORE
from memory.transcript import Turn
from memory.usage import Use, record_uses, uses_in, uses_of_hits
from plugins.archive_hints import match_archive
from plugins.base import Plugin, on
from plugins.events import ChatContext, ContextHandled, ContextTrimmed, Tool
from plugins.people_text import speaker_card_block

log = logging.getLogger(__name__)


class MemoryPlugin(Plugin):
    name = "memory"
    description = "Daily notes from conversations; MEMORY.md, archive hints and tools in prompts"
    default_config: ClassVar[dict[str, Any]] = {
        "archive_hints": 3,
        "offline_hits": 3,
        "min_score": DEFAULT_MIN_SCORE,
        "tools": True,
    }

    @on(ContextHandled, priority=100)
    def add_memory(self, event: ContextHandled) -> None:
        ctx = event.context
        limit = self.services.config.memory_prompt_max_chars
        core = prompt_memory(ctx.root, limit) if limit else ""
        if core:
            note = f"\n\n{PROMPT_NOTE}" if "[open conflict " in core else ""
            event.system_blocks.append(f"Long-term memory of this chat (MEMORY.md):\n{core}{note}")
        card = speaker_card_block(self.services, ctx)
        if card:
            event.system_blocks.append(card)
        archived = read_archive(ctx.root)
        texts = [item.text for item in archived]
        hints = match_archive(texts, ctx.message.text, limit=int(self.config["archive_hints"]))
        self._record_prompt_uses(ctx, archived, hints)
        if hints:
            lines = "\n".join(f"- {h}" for h in hints)
            event.hidden_blocks.append(
                "Older memories that left MEMORY.md but match this message "
                f"(hidden from the user; use only if relevant):\n{lines}"
            )
        if self.services.model is None:
            ctx.reply = self._offline_reply(ctx)
            return
        if self.config["tools"]:
            event.tools.extend(self._tools(ctx))

    @staticmethod
    def _record_prompt_uses(
        ctx: ChatContext, archived: list[ArchivedItem], hints: list[str]
    ) -> None:
        """The core items the message is about, and the archive hints it got, were used."""
        try:
            items = read_memory(ctx.root).items
        except MemoryEngineError:
            items = []
        about = set(match_archive([i.text for i in items], ctx.message.text, limit=len(items)))
        uses = [Use.of(i, "core") for i in items if i.text in about]
        hinted = set(hints)
        uses += [Use.of(a, "archive") for a in archived if a.text in hinted]
        record_uses(ctx.root, uses, when=ctx.now, via="prompt")

    def _offline_reply(self, ctx: ChatContext) -> str:
        tr = ctx.lang
        offline = tr.t("offline.head")
        root, text, logged = ctx.root, ctx.message.text, ctx.logged
        try:
            limit = int(self.config["offline_hits"])
            hits = self.services.search.search(
                root, text, limit=limit + 1, min_score=float(self.config["min_score"])
            )
            hits = [h for h in hits if not _is_line(logged, h.path, h.start_line, h.end_line)]
            hits = hits[:limit]
            record_uses(root, uses_of_hits(root, hits), when=ctx.now, via="search")
        except (MemoryEngineError, OSError) as exc:  # a full disk, a damaged index: one line
            log.error("memory search failed: %s", exc)
            return f"{offline}\n{tr.t('offline.search_failed', error=exc)}"
        except Exception as exc:  # a defect: with its traceback
            log.exception("memory search failed")
            return f"{offline}\n{tr.t('offline.search_failed', error=exc)}"
        if not hits:
            return f"{offline}\n{tr.t('offline.no_hits')}"
        lines = [f"{offline}\n{tr.t('offline.hits')}"]
        for hit in hits:
            where = f"{hit.path}#L{hit.start_line}"
            snippet = " ".join(str(hit.snippet).split())[:200]
            lines.append(f"- [{hit.score:.2f}] {where}: {snippet}")
        return "\n".join(lines)

    def _tools(self, ctx: ChatContext) -> list[Tool]:
        from memory.search.tools import TOOL_SCHEMAS, memory_get

        root, logged = ctx.root, ctx.logged
        pool, clock = self.services.search, self.services.clock
        min_score = float(self.config["min_score"])

        def search(args: dict[str, Any]) -> dict[str, Any]:
            query = str(args.get("query", "")).strip()
            if not query:
                return {"error": "query is required"}
            limit = int(args.get("max_results") or 6)
            given = args.get("min_score")
            threshold = min_score if given is None else float(given)  # 0 is a valid choice
            found = pool.tool_search(root, query, limit + 1, threshold)
            hits = [
                h
                for h in found.get("results", [])
                if not _is_line(logged, h["path"], h["start_line"], h["end_line"])
            ][:limit]
            # What the model was shown is a recall (the dream weighs it) and, for an item
            # of MEMORY.md or the archive, a use (its tier depends on it).
            record_hits(root, query, hits, when=clock(), via="tool")
            record_uses(root, uses_of_hits(root, hits), when=ctx.now, via="search")
            return {**found, "results": hits}

        def get(args: dict[str, Any]) -> dict[str, Any]:
            got = dict(
                memory_get(
                    root,
                    str(args.get("path", "")),
                    int(args.get("start_line") or 1),
                    int(args.get("num_lines") or 40),
                )
            )
            if "error" not in got:
                uses = uses_in(root, got["path"], got["start_line"], got["end_line"])
                record_uses(root, uses, when=ctx.now, via="get")
            return got

        runners = {"memory_search": search, "memory_get": get}
        return [
            Tool(schema, runners[schema["function"]["name"]])
            for schema in TOOL_SCHEMAS
            if schema["function"]["name"] in runners
        ]

    @on(ContextTrimmed, priority=100)
    def keep(self, event: ContextTrimmed) -> None:
        turns = [
            Turn(
                "assistant" if t.role == "assistant" else "user",
                t.content,
                datetime.fromisoformat(t.time) if t.time else None,
                t.name,
            )
            for t in event.turns
        ]
        result = flush_turns(
            event.root,
            turns,
            event.reason,
            model=self.services.model,
            now=event.now,
            group=event.scope.is_group,
            redaction=self.services.config.redaction,
        )
        event.handled = True
        event.summary = list(result.bullets)
        if result.path is not None:
            mark_changed(event.root)


def _is_line(logged: str | None, path: str, start: int, end: int) -> bool:
    """Whether a hit is exactly the message being answered (its own session-log line: the
    model has it already, and it would answer every search with the question itself)."""
    return logged is not None and start == end and logged == f"{path}#L{start}"


PLUGIN = MemoryPlugin
