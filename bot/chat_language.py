"""The language each chat is answered in (``language`` in config.json).

With a fixed language (``zh``, ``en``) every chat gets it. With ``auto`` (the default) a
chat is answered in the language its people write in, remembered per chat so a bare
``/memory status`` answers in that chat's language. For one message, in order:

1. the message's own words (a plain message, not a command), remembered;
2. the language the sender chose explicitly (the console's switch), remembered;
3. the chat's remembered language;
4. the words after a command (``/memory search 咖啡``), remembered;
5. the language the chat's memory is written in (MEMORY.md, the newest note);
6. English.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime
from pathlib import Path

from bot.i18n import FALLBACK, Languages, Translator
from bot.language_detect import Candidate, detect_language
from bot.messages import IncomingMessage
from bot.scope_state import ScopeState, read_state, update_state
from memory.paths import MemoryRoot

log = logging.getLogger(__name__)

STATE_KEY = "language"
SAMPLE_CHARS = 2000  # of MEMORY.md and of the newest note, to tell the memory's language
_COMMENT = re.compile(r"<!--.*?-->", re.S)


class ChatLanguages:
    """Resolves and remembers each chat's language."""

    def __init__(self, setting: str, languages: Languages | None = None) -> None:
        self.languages = languages or Languages()
        self.setting = setting  # "auto" or a catalogue's code (checked by the config)
        self.candidates = [
            Candidate(c.code, c.script, c.words) for c in self.languages.catalogues.values()
        ]

    def detect(self, text: str) -> str | None:
        return detect_language(text, self.candidates)

    def fixed(self) -> str | None:
        """The configured language, or None for ``auto``."""
        return None if self.setting == "auto" else self.setting

    def for_message(self, message: IncomingMessage, root: MemoryRoot, now: datetime) -> Translator:
        """The translator for the replies to ``message`` (and remember what it showed)."""
        return self.languages.translator(self.resolve(message, root), now)

    def for_root(self, root: MemoryRoot, now: datetime | None = None) -> Translator:
        """The translator for a message to the chat of ``root`` nobody asked for (a report)."""
        code = self.fixed() or self.remembered(root) or self.memory_language(root) or FALLBACK
        return self.languages.translator(code, now)

    def resolve(self, message: IncomingMessage, root: MemoryRoot) -> str:
        fixed = self.fixed()
        if fixed:
            return fixed
        text = message.text.strip()
        command = text.startswith("/")
        said = None if command else self.detect(text)
        chosen = self.languages.supported(message.language)
        remembered = self.remembered(root)
        code = said or chosen or remembered
        if code is None and command:
            code = self.detect(_arguments(text))
        if code and code != remembered:
            self.remember(root, code)
        return code or self.memory_language(root) or FALLBACK

    def remembered(self, root: MemoryRoot) -> str | None:
        value = read_state(root).extra.get(STATE_KEY)
        return self.languages.supported(value) if isinstance(value, str) else None

    def remember(self, root: MemoryRoot, code: str) -> None:
        def change(state: ScopeState) -> None:
            state.extra[STATE_KEY] = code

        try:
            update_state(root, change)
        except OSError as exc:  # the reply still goes out in the right language
            log.warning("could not remember the language of %s: %s", root.path, exc)

    def memory_language(self, root: MemoryRoot) -> str | None:
        """The language MEMORY.md and the newest daily note are written in, if any."""
        sample = _head(root.memory_md)
        dates = root.note_dates()
        if dates:
            sample += "\n" + _head(root.daily_note(dates[-1]))
        return self.detect(sample)


def _arguments(command: str) -> str:
    """What follows ``/memory search`` or ``/dreaming``: a command's own words."""
    words = command.split(maxsplit=2)
    if len(words) >= 2 and words[0].lower() in {"/memory", "/dreaming"}:
        return words[2] if len(words) == 3 else ""
    return " ".join(words[1:])


def _head(path: Path) -> str:
    """The start of a memory file without its headings and provenance comments (the
    English section names of a Chinese note say nothing of its language)."""
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            text = handle.read(SAMPLE_CHARS)
    except OSError:
        return ""
    text = _COMMENT.sub(" ", text)
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
