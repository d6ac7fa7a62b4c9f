"""config.json validation, environment overrides and the app's start-up errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import BotConfig, env_overrides, load_config
from bot.errors import ConfigError

REPO = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_template_is_valid_and_offline() -> None:
    config = load_config(REPO / "config.json.template", environ={})
    assert config.channel_type == "terminal"
    assert not config.has_model  # empty key means no model
    assert set(json.loads((REPO / "config.json.template").read_text())) == set(
        BotConfig.model_fields
    )


def test_unknown_key_is_named_with_a_suggestion(tmp_path: Path) -> None:
    path = write(tmp_path, {"agent_max_context_turn": 5})
    with pytest.raises(ConfigError) as err:
        load_config(path, environ={})
    assert str(err.value) == (
        f"{path}: unknown config key 'agent_max_context_turn' "
        "(did you mean 'agent_max_context_turns'?)"
    )


def test_bad_value_names_the_key_and_hides_secrets(tmp_path: Path) -> None:
    path = write(tmp_path, {"web_port": "eighty", "open_ai_api_key": "sk-live-verysecret"})
    with pytest.raises(ConfigError) as err:
        load_config(path, environ={})
    assert "'web_port'" in str(err.value)
    assert "verysecret" not in str(err.value)
    config = load_config(write(tmp_path, {"open_ai_api_key": "sk-live-verysecret"}), environ={})
    assert "verysecret" not in repr(config) and "verysecret" not in str(config.model_dump())


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"timezone": "Mars/Olympus"}, "timezone"),
        ({"nightly_time": "25:00"}, "nightly_time"),
        ({"dream_days": 31}, "dream_days"),
        ({"channel_type": "irc"}, "channel_type"),
        ({"admin_users": "alice"}, "admin_users"),
    ],
)
def test_each_bad_value_is_rejected(tmp_path: Path, data: dict[str, object], key: str) -> None:
    with pytest.raises(ConfigError, match=f"'{key}'"):
        load_config(write(tmp_path, data), environ={})


def test_environment_overrides_are_parsed_not_evaluated(tmp_path: Path) -> None:
    env = {
        "COW_ADMIN_USERS": '["telegram:42", "7"]',
        "COW_AGENT_MAX_CONTEXT_TURNS": "8",
        "COW_MODEL": "__import__('os').system('echo pwned')",
        "COW_DREAMING_ENABLED": "false",
    }
    config = load_config(write(tmp_path, {"model": "x"}), environ=env)
    assert config.admin_users == ["telegram:42", "7"]
    assert config.agent_max_context_turns == 8
    assert config.model == "__import__('os').system('echo pwned')"
    assert config.dreaming_enabled is False
    with pytest.raises(ConfigError, match=r"COW_WEB_PORTT.*did you mean 'web_port'"):
        env_overrides({"COW_WEB_PORTT": "1"})
    with pytest.raises(ConfigError, match="COW_ADMIN_USERS is not valid JSON"):
        env_overrides({"COW_ADMIN_USERS": "[alice"})


def test_bad_json_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text('{"model": "x",}')
    with pytest.raises(ConfigError, match=r"invalid JSON at line 1"):
        load_config(path, environ={})


def test_app_refuses_a_bad_config_with_exit_2(tmp_path: Path) -> None:
    path = write(tmp_path, {"chanel_type": "web", "agent_workspace": str(tmp_path / "ws")})
    result = subprocess.run(
        [sys.executable, str(REPO / "app.py"), "--config", str(path)],
        input="",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"error: {path}: unknown config key 'chanel_type' (did you mean 'channel_type'?)"
    ]
    assert not (tmp_path / "ws").exists()


def test_settings_the_command_line_would_refuse_are_refused_at_start(tmp_path: Path) -> None:
    llm_without_model = tmp_path / "a.json"
    llm_without_model.write_text('{"dream_engine": "llm"}', encoding="utf-8")
    with pytest.raises(ConfigError, match="dream_engine 'llm' needs a model"):
        load_config(llm_without_model, environ={})
    loose_bool = tmp_path / "b.json"
    loose_bool.write_text('{"dreaming_enabled": "yes"}', encoding="utf-8")
    with pytest.raises(ConfigError, match="dreaming_enabled"):
        load_config(loose_bool, environ={})
