"""The languages the bot speaks: one catalogue file per language, a translator per reply.

A catalogue is ``bot/locales/<code>.json``; adding a language is adding one file::

    {"language": {"name": "English", "plural": "one_other", "script": "Latin",
                  "months": ["Jan", ...], "date": "{day} {mon}", "date_year": "{day} {mon} {year}",
                  "time": "{hour}:{minute}", "datetime": "{date}, {time}", "separator": ", "},
     "messages": {"commands.refused": "Sorry, ...",
                  "count.item": {"one": "{n} item", "other": "{n} items"}}}

A message is text with ``{name}`` placeholders, or, for a count, one text per plural
category of the language's rule (``{n}`` is the count). The web console gets the same
catalogue (``GET /api/i18n``) and formats with the same patterns, so the bot and the
console say a date the same way: ``12月1日 23:57`` / ``1 Dec, 23:57``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

LOCALES = Path(__file__).parent / "locales"
FALLBACK = "en"  # the language every other catalogue is checked against

# Plural rules by name: which category a count falls in. A language whose counts follow
# another rule adds it here (CLDR names its categories zero/one/two/few/many/other).
PLURAL_RULES: dict[str, Callable[[int], str]] = {
    "one_other": lambda n: "one" if n == 1 else "other",  # English, German, ...
    "one_upto_1": lambda n: "one" if n in (0, 1) else "other",  # French
    "other": lambda n: "other",  # Chinese, Japanese, Korean: no plural forms
}
PLURAL_CATEGORIES: dict[str, tuple[str, ...]] = {
    "one_other": ("one", "other"),
    "one_upto_1": ("one", "other"),
    "other": ("other",),
}
FORMAT_KEYS = ("date", "date_year", "time", "datetime", "separator", "quote")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")

Message = str | dict[str, str]


class CatalogueError(ValueError):
    """A catalogue file that cannot be used (named in the message)."""


def fill(template: str, params: Mapping[str, object]) -> str:
    """``template`` with each ``{name}`` replaced by ``params[name]`` (nothing else is
    interpreted: no format specs, no attribute access)."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in params:
            raise KeyError(f"message placeholder {{{name}}} has no value")
        return str(params[name])

    return _PLACEHOLDER.sub(value, template)


def placeholders(message: Message) -> set[str]:
    texts = message.values() if isinstance(message, dict) else [message]
    return {name for text in texts for name in _PLACEHOLDER.findall(text)}


@dataclass(frozen=True)
class Catalogue:
    """One language's file: its name, how it counts and writes dates, and its messages."""

    code: str
    name: str
    plural: str
    script: str
    words: tuple[str, ...]  # common words, to tell apart languages of one script
    months: tuple[str, ...]
    formats: Mapping[str, str]
    messages: Mapping[str, Message]

    @classmethod
    def load(cls, path: Path) -> Catalogue:
        where = path.name
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            meta, messages = data["language"], data["messages"]
            plural = str(meta["plural"])
            if plural not in PLURAL_RULES:
                raise CatalogueError(f"{where}: unknown plural rule {plural!r}")
            months = tuple(str(m) for m in meta.get("months", ()))
            if months and len(months) != 12:
                raise CatalogueError(f"{where}: 'months' must name 12 months")
            formats = {key: str(meta[key]) for key in FORMAT_KEYS}
        except (OSError, ValueError, KeyError, TypeError) as exc:
            if isinstance(exc, CatalogueError):
                raise
            raise CatalogueError(f"{where}: not a usable catalogue ({exc!r})") from None
        checked: dict[str, Message] = {}
        for key, message in messages.items():
            if isinstance(message, dict):
                missing = set(PLURAL_CATEGORIES[plural]) - set(message)
                if missing:
                    raise CatalogueError(f"{where}: {key} lacks plural forms {sorted(missing)}")
                checked[key] = {str(k): str(v) for k, v in message.items()}
            elif isinstance(message, str):
                checked[key] = message
            else:
                raise CatalogueError(f"{where}: {key} is neither text nor plural forms")
        return cls(
            path.stem,
            str(meta["name"]),
            plural,
            str(meta.get("script", "Latin")),
            tuple(str(w).lower() for w in meta.get("words", ())),
            months,
            formats,
            checked,
        )

    def to_dict(self) -> dict[str, Any]:
        """What the web console needs to speak this language."""
        return {
            "code": self.code,
            "name": self.name,
            "plural": self.plural,
            "months": list(self.months),
            "formats": dict(self.formats),
            "messages": dict(self.messages),
        }


def load_catalogues(folder: Path = LOCALES) -> dict[str, Catalogue]:
    """Every catalogue in ``folder`` by language code, the fallback first."""
    found = {p.stem: Catalogue.load(p) for p in sorted(folder.glob("*.json"))}
    if FALLBACK not in found:
        raise CatalogueError(f"no {FALLBACK}.json in {folder}")
    return {FALLBACK: found.pop(FALLBACK), **found}


def available_languages(folder: Path = LOCALES) -> list[str]:
    """The language codes there are catalogues for (without reading them)."""
    return sorted(p.stem for p in folder.glob("*.json"))


def _as_datetime(value: datetime | date | str) -> datetime | date | None:
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value) if "T" in value else date.fromisoformat(value)
        except ValueError:
            return None
    return value


class Translator:
    """Messages and dates in one language, falling back to English for a missing key.

    ``now`` decides whether a date shows its year (only when it is not this year's)."""

    def __init__(
        self, catalogue: Catalogue, fallback: Catalogue, now: datetime | None = None
    ) -> None:
        self.catalogue = catalogue
        self.fallback = fallback
        self.now = now

    @property
    def code(self) -> str:
        return self.catalogue.code

    def has(self, key: str, /) -> bool:
        return key in self.catalogue.messages or key in self.fallback.messages

    def t(self, key: str, /, **params: object) -> str:
        """The message ``key``; a count's message takes its form from ``n``."""
        message = self.catalogue.messages.get(key)
        rule = self.catalogue.plural
        if message is None:
            message, rule = self.fallback.messages[key], self.fallback.plural
        if isinstance(message, dict):
            count = params.get("n")
            if not isinstance(count, int):
                raise KeyError(f"message {key} needs a count n")
            message = message.get(PLURAL_RULES[rule](count)) or message["other"]
        return fill(message, params)

    def join(self, parts: list[str]) -> str:
        return self.catalogue.formats["separator"].join(parts)

    def quote(self, text: str, limit: int = 60) -> str:
        """``text`` quoted back: one line, at most ``limit`` characters (``{text}``, or its
        Python ``{repr}``, in the language's quotation marks)."""
        flat = " ".join(text.split())
        flat = flat if len(flat) <= limit else flat[: limit - 1] + "…"
        return fill(self.catalogue.formats["quote"], {"text": flat, "repr": repr(flat)})

    def date(self, value: datetime | date | str) -> str:
        """A day the local way (``12月1日``, ``1 Dec``; with the year when not this year's)."""
        day = _as_datetime(value)
        if day is None:
            return str(value)
        months = self.catalogue.months
        params = {
            "year": day.year,
            "month": day.month,
            "mon": months[day.month - 1] if months else day.month,
            "day": day.day,
        }
        this_year = self.now is None or self.now.year == day.year
        return fill(self.catalogue.formats["date" if this_year else "date_year"], params)

    def time(self, value: datetime | str) -> str:
        moment = _as_datetime(value)
        if not isinstance(moment, datetime):
            return str(value)
        params = {"hour": f"{moment.hour:02d}", "minute": f"{moment.minute:02d}"}
        return fill(self.catalogue.formats["time"], params)

    def datetime(self, value: datetime | str) -> str:
        """A moment the local way: ``12月1日 23:57``, ``1 Dec, 23:57``."""
        moment = _as_datetime(value)
        if not isinstance(moment, datetime):
            return str(value)
        formats = self.catalogue.formats
        return fill(formats["datetime"], {"date": self.date(moment), "time": self.time(moment)})


class Languages:
    """The catalogues, loaded once; hands out translators."""

    def __init__(self, catalogues: Mapping[str, Catalogue] | None = None) -> None:
        self.catalogues = dict(catalogues or load_catalogues())

    @property
    def codes(self) -> list[str]:
        return list(self.catalogues)

    def supported(self, code: str | None) -> str | None:
        """``code`` (``zh-CN``, ``zh_TW.UTF-8``, ``en``) as a catalogue's code, or None."""
        if not code:
            return None
        base = re.split(r"[-_.]", code.strip().lower(), maxsplit=1)[0]
        return base if base in self.catalogues else None

    def translator(self, code: str | None, now: datetime | None = None) -> Translator:
        chosen = self.catalogues.get(self.supported(code) or FALLBACK)
        assert chosen is not None
        return Translator(chosen, self.catalogues[FALLBACK], now)

    def from_header(self, header: str | None) -> str | None:
        """The first supported language of an ``Accept-Language`` header."""
        for part in (header or "").split(","):
            code = self.supported(part.split(";")[0])
            if code:
                return code
        return None
