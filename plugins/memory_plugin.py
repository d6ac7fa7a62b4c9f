"""The memory plugin: feeds conversations into daily notes and memory into the prompt.

- ``ContextHandled``: MEMORY.md (provenance stripped, within ``memory_prompt_max_chars``)
  joins the system prompt; up to ``archive_hints`` archived items whose trigger words
  match the message go into a hidden context block; in a group, the speaker's card
  (``people/<slug>/card.md``) joins the prompt; the model gets ``memory_search`` and
  ``memory_get``. Without a model it answers honestly and shows the memory hits instead.
- ``ContextTrimmed``: the turns are summarised into the scope's daily note.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any, ClassVar

from bot.scope_state import mark_changed
from memory.flush import flush_turns
from memory.memory_file import prompt_memory, read_archive
from memory.paths import MemoryRoot
from memory.recall_store import record_hits
from memory.search.ranking import DEFAULT_MIN_SCORE
from memory.transcript import Turn
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
            event.system_blocks.append(f"Long-term memory of this chat (MEMORY.md):\n{core}")
        card = speaker_card_block(self.services, ctx)
        if card:
            event.system_blocks.append(card)
        archived = [item.text for item in read_archive(ctx.root)]
        hints = match_archive(archived, ctx.message.text, limit=int(self.config["archive_hints"]))
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
            event.tools.extend(self._tools(ctx.root))

    def _offline_reply(self, ctx: ChatContext) -> str:
        tr = ctx.lang
        offline = tr.t("offline.head")
        try:
            hits = self.services.search.search(
                ctx.root,
                ctx.message.text,
                limit=int(self.config["offline_hits"]),
                min_score=float(self.config["min_score"]),
            )
        except Exception as exc:
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

    def _tools(self, root: MemoryRoot) -> list[Tool]:
        from memory.search.tools import TOOL_SCHEMAS, memory_get

        pool, clock = self.services.search, self.services.clock
        min_score = float(self.config["min_score"])

        def search(args: dict[str, Any]) -> dict[str, Any]:
            query = str(args.get("query", "")).strip()
            if not query:
                return {"error": "query is required"}
            limit = int(args.get("max_results") or 6)
            given = args.get("min_score")
            threshold = min_score if given is None else float(given)  # 0 is a valid choice
            result = pool.tool_search(root, query, limit, threshold)
            # What the model was shown is a recall: the dream's deep phase weighs it.
            record_hits(root, query, result.get("results", []), when=clock(), via="tool")
            return result

        def get(args: dict[str, Any]) -> dict[str, Any]:
            return dict(
                memory_get(
                    root,
                    str(args.get("path", "")),
                    int(args.get("start_line") or 1),
                    int(args.get("num_lines") or 40),
                )
            )

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


PLUGIN = MemoryPlugin
