"""The bot's typed configuration: ``config.json`` validated once at start-up.

Key names follow CowAgent where the concept is the same. Unknown keys are an error that
names the key and suggests the closest known one; secrets are ``SecretStr`` so they never
appear in a repr, a log line or an error message.

Environment overrides: ``COW_<KEY>`` (upper case) replaces ``<key>``. Strings are taken
as they are; lists, numbers and booleans are parsed as JSON (never ``eval``).
"""

from __future__ import annotations

import contextlib
import difflib
import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    StrictBool,
    ValidationError,
    field_validator,
    model_validator,
)

from bot.errors import ConfigError
from bot.i18n import available_languages
from memory.config_file import parse_json_object
from memory.dream.model import MAX_DAYS, MIN_DAYS, EngineName
from memory.dream.scoring import Thresholds
from memory.dream.tiers import TierSettings
from memory.errors import UsageError
from memory.people.limits import (
    DEFAULT_MAX_ENTRIES,
    DEFAULT_MAX_ENTRY_CHARS,
    MAX_ENTRIES,
    MAX_ENTRY_CHARS,
    MIN_ENTRIES,
    MIN_ENTRY_CHARS,
    PeopleLimits,
    PeoplePolicy,
)
from memory.redact import Redaction

ENV_PREFIX = "COW_"


def machine_timezone() -> str:
    """The machine's IANA time-zone name (``TZ``, ``/etc/timezone``, ``/etc/localtime``)."""
    candidates = [os.environ.get("TZ", "").lstrip(":")]
    with contextlib.suppress(OSError):
        candidates.append(Path("/etc/timezone").read_text(encoding="utf-8").strip())
    try:
        target = os.readlink("/etc/localtime")
        if "zoneinfo/" in target:
            candidates.append(target.split("zoneinfo/", 1)[1])
    except OSError:
        pass
    for name in candidates:
        if not name:
            continue
        try:
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            continue
        return name
    return "UTC"


class BotConfig(BaseModel):
    """Every key of ``config.json``; README.md lists what each one does."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True, frozen=True)

    # channel
    channel_type: Literal["terminal", "web", "telegram", "wechat"] = "terminal"
    # model (any OpenAI-compatible chat-completions API)
    model: str = "gpt-4o-mini"
    open_ai_api_key: SecretStr | None = None
    open_ai_api_base: str | None = None
    request_timeout: float = Field(default=60.0, gt=0)
    character_desc: str = (
        "You are CowDream, a helpful assistant with a long-term memory. "
        "Answer in the user's language."
    )
    # agent and sessions
    agent_workspace: str = "~/cow"
    agent_max_context_turns: int = Field(default=20, ge=2)
    agent_max_context_tokens: int = Field(default=50000, ge=200)
    agent_max_steps: int = Field(default=6, ge=1, le=20)
    memory_prompt_max_chars: int = Field(default=4000, ge=0)
    timezone: str = Field(default_factory=machine_timezone)
    language: str = "auto"  # what the bot says: "auto" (each chat's own) or a catalogue's code
    # plugins
    plugin_config_dir: str | None = None
    # dreaming and the nightly job
    dreaming_enabled: StrictBool = True
    dream_days: int = Field(default=3, ge=MIN_DAYS, le=MAX_DAYS)
    dream_max_items: int = Field(default=30, ge=1, le=200)
    dream_engine: EngineName = "auto"
    # the deep phase's promotion thresholds (memory/dream/scoring.py)
    dream_min_score: float = Field(default=0.8, ge=0.0, le=1.2)
    dream_min_recall_count: int = Field(default=3, ge=1)
    dream_min_unique_queries: int = Field(default=3, ge=1)
    nightly_time: str = "23:55"
    nightly_spread_minutes: int = Field(default=4, ge=0, le=30)
    nightly_reports: StrictBool = True  # nightly dream results go to the chat's admins
    # people knowledge (group members' cards and observations)
    people_enabled: PeoplePolicy | StrictBool = "groups"
    people_max_entries: int = Field(default=DEFAULT_MAX_ENTRIES, ge=MIN_ENTRIES, le=MAX_ENTRIES)
    people_max_entry_chars: int = Field(
        default=DEFAULT_MAX_ENTRY_CHARS, ge=MIN_ENTRY_CHARS, le=MAX_ENTRY_CHARS
    )
    dream_idle_minutes: int = Field(default=30, ge=0, le=24 * 60)  # 0: no idle trigger
    dream_min_hours_between: float = Field(default=24.0, ge=0, le=24 * 30)
    dream_min_new_kib: int = Field(default=8, ge=0, le=1024 * 1024)
    memory_token_budget: int = Field(default=2000, ge=100, le=100_000)
    dream_cold_days: int = Field(default=30, ge=1, le=3650)  # unused this long: archived
    dream_hot_uses: int = Field(default=3, ge=0, le=1000)  # used this often: back (0: never)
    dream_hot_days: int = Field(default=14, ge=1, le=365)
    # search
    embedding_provider: Literal["auto", "local", "openai", "none"] = "auto"
    embedding_model: str | None = None
    memory_search_sessions: StrictBool = True  # search finds the chat's session log too
    memory_search_answerable: StrictBool = False  # no hits unless they likely answer it
    # web console
    web_host: str = "127.0.0.1"
    web_port: int = Field(default=9899, ge=1, le=65535)
    web_password: SecretStr | None = None
    # telegram
    telegram_token: SecretStr | None = None
    telegram_proxy: str | None = None
    telegram_api_base: str = "https://api.telegram.org/bot"
    # wechat and CowAgent chat rules
    hot_reload: StrictBool = False
    single_chat_prefix: list[str] = Field(default_factory=lambda: ["bot", "@bot"])
    single_chat_reply_prefix: str = "[bot] "
    group_chat_prefix: list[str] = Field(default_factory=lambda: ["@bot"])
    group_name_white_list: list[str] = Field(default_factory=list)
    group_at_off: StrictBool = False
    # permissions
    admin_users: list[str] = Field(default_factory=list)
    # privacy: secrets, cards and identity numbers are always redacted; phone numbers too
    redact_phone_numbers: StrictBool = False
    # logging
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    @field_validator("timezone", mode="before")
    @classmethod
    def _machine_zone_when_unset(cls, value: Any) -> Any:
        return machine_timezone() if value is None or value == "" else value

    @property
    def thresholds(self) -> Thresholds:
        return Thresholds(
            self.dream_min_score, self.dream_min_recall_count, self.dream_min_unique_queries
        )

    @field_validator("agent_workspace")
    @classmethod
    def _not_empty(cls, value: str) -> str:
        if not value.strip():
            raise ValueError(
                "must not be empty (it would be the current folder); leave it out for ~/cow"
            )
        return value

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown IANA time zone {value!r}") from exc
        return value

    @field_validator("language")
    @classmethod
    def _known_language(cls, value: str) -> str:
        codes = available_languages()
        if value not in ("auto", *codes):
            raise ValueError(f"unknown language {value!r}: use auto, {', '.join(codes)}")
        return value

    @field_validator("nightly_time")
    @classmethod
    def _clock_time(cls, value: str) -> str:
        match = re.fullmatch(r"([01]\d|2[0-3]):([0-5]\d)", value)
        if not match:
            raise ValueError(f"expected HH:MM (24 h), got {value!r}")
        return value

    @field_validator("web_password", "open_ai_api_key", "telegram_token")
    @classmethod
    def _empty_secret_is_unset(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().strip():
            return None
        return value

    @field_validator("open_ai_api_base", "telegram_proxy", "embedding_model")
    @classmethod
    def _empty_is_unset(cls, value: str | None) -> str | None:
        return value if value and value.strip() else None

    @model_validator(mode="after")
    def _llm_dream_needs_a_model(self) -> BotConfig:
        if self.dream_engine == "llm" and not self.has_model:
            raise ValueError(
                "dream_engine 'llm' needs a model: set open_ai_api_key or open_ai_api_base "
                "(or use 'auto')"
            )
        return self

    # derived views -------------------------------------------------------------------

    @property
    def people_limits(self) -> PeopleLimits:
        return PeopleLimits(self.people_max_entries, self.people_max_entry_chars)

    @property
    def tiers(self) -> TierSettings:
        return TierSettings(self.dream_cold_days, self.dream_hot_uses, self.dream_hot_days)

    @property
    def workspace(self) -> Path:
        return Path(self.agent_workspace).expanduser().resolve()

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @property
    def has_model(self) -> bool:
        """A chat model is configured (an API key or a custom API base)."""
        return bool(self.model) and (
            self.open_ai_api_key is not None or self.open_ai_api_base is not None
        )

    @property
    def redaction(self) -> Redaction:
        return Redaction(phone_numbers=self.redact_phone_numbers)

    def plugin_dir(self) -> Path:
        if self.plugin_config_dir:
            return Path(self.plugin_config_dir).expanduser().resolve()
        return self.workspace / "plugins"

    def api_key(self) -> str | None:
        return self.open_ai_api_key.get_secret_value() if self.open_ai_api_key else None

    def secrets(self) -> list[str]:
        """Every configured secret value: logs scrub these wherever they appear."""
        keys = (self.open_ai_api_key, self.telegram_token, self.web_password)
        return [k.get_secret_value() for k in keys if k is not None]


def _suggest(key: str) -> str:
    close = difflib.get_close_matches(key, list(BotConfig.model_fields), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _describe(error: ValidationError, source: str) -> str:
    first = error.errors()[0]
    key = ".".join(str(p) for p in first["loc"]) or "(top level)"
    if first["type"] == "extra_forbidden":
        return f"{source}: unknown config key {key!r}{_suggest(key)}"
    message = first["msg"].removeprefix("Value error, ")
    if not first["loc"]:  # a rule across keys
        return f"{source}: {message}"
    if first["type"] in {"string_type", "int_parsing", "bool_parsing", "bool_type", "list_type"}:
        value = first.get("input")
        shown = "***" if "password" in key or "key" in key or "token" in key else repr(value)
        return f"{source}: bad value for {key!r}: {message} (got {shown})"
    return f"{source}: bad value for {key!r}: {message}"


def env_overrides(environ: Mapping[str, str]) -> dict[str, Any]:
    """Config values from ``COW_<KEY>`` variables, parsed without ``eval``."""
    out: dict[str, Any] = {}
    fields = BotConfig.model_fields
    for name, raw in environ.items():
        if not name.startswith(ENV_PREFIX):
            continue
        key = name[len(ENV_PREFIX) :].lower()
        if key not in fields:
            raise ConfigError(f"environment: unknown config key {name!r}{_suggest(key)}")
        annotation = str(fields[key].annotation)
        if annotation in {"<class 'str'>", "str | None"} or "SecretStr" in annotation:
            out[key] = raw
            continue
        if "Literal" in annotation:
            out[key] = raw
            continue
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"environment: {name} is not valid JSON: {exc.msg}") from None
    return out


def load_config(path: Path | None, environ: Mapping[str, str] | None = None) -> BotConfig:
    """Read and validate ``path`` (or the embedded defaults), then apply ``COW_*`` overrides.

    Raises :class:`ConfigError` with one line naming the file (or the variable) and the key.
    """
    data: dict[str, Any] = {}
    source = "defaults"
    if path is not None:
        source = str(path)
        try:
            data = parse_json_object(Path(path).read_bytes(), source)
        except FileNotFoundError:
            raise ConfigError(f"{source}: no such config file") from None
        except OSError as exc:
            raise ConfigError(f"{source}: cannot be read ({exc.strerror})") from None
        except UsageError as exc:
            raise ConfigError(str(exc)) from None
    env = env_overrides(os.environ if environ is None else environ)
    data.update(env)
    try:
        return BotConfig(**data)
    except ValidationError as exc:
        key = next(iter(exc.errors()[0]["loc"]), None)
        if key in env:  # blame the variable, not the file that did not set it
            source = f"environment variable {ENV_PREFIX}{str(key).upper()}"
        raise ConfigError(_describe(exc, source)) from None
