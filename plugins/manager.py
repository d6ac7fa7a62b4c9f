"""Loads plugins from their YAML files and dispatches events to them.

Each plugin has ``<plugin dir>/<name>.yaml`` (written with the defaults on first start):

    enabled: true        # false skips the plugin
    priority: 0          # added to every handler's priority (higher runs first)
    module: plugins.x    # only for plugins that are not built in
    config: {...}        # the plugin's own settings, merged over its defaults

A plugin that fails to load, or raises while handling an event, is logged with its
traceback; the bot keeps running and the other plugins still see the event.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from bot.errors import PluginError, StopPropagation
from memory.atomic import atomic_write_text
from memory.errors import MemoryEngineError
from plugins.base import Plugin
from plugins.events import Event

if TYPE_CHECKING:
    from bot.services import BotServices

log = logging.getLogger(__name__)

BUILTIN_PLUGINS: dict[str, str] = {
    "commands": "plugins.commands",
    "memory": "plugins.memory_plugin",
}
_FILE_KEYS = {"enabled", "priority", "module", "config"}


@dataclass(frozen=True)
class _Registration:
    plugin: str
    priority: int
    call: Callable[[Event], None]


class PluginManager:
    """The loaded plugins and their handlers, sorted by priority."""

    def __init__(self, plugin_dir: Path) -> None:
        self.plugin_dir = plugin_dir
        self.plugins: dict[str, Plugin] = {}
        self.failed: dict[str, str] = {}
        self._handlers: dict[type[Event], list[_Registration]] = {}

    # loading -----------------------------------------------------------------------

    def load_all(self, services: BotServices) -> None:
        """Load every built-in plugin and every plugin with a YAML file, given ``services``."""
        self.plugin_dir.mkdir(parents=True, exist_ok=True)
        names = dict(BUILTIN_PLUGINS)
        for path in sorted(self.plugin_dir.glob("*.yaml")):
            names.setdefault(path.stem, "")
        for name, module in names.items():
            try:
                self._load(name, module, services)
            except Exception as exc:
                self.failed[name] = str(exc)
                log.exception("plugin %s failed to load; the bot runs without it", name)

    def _settings(self, name: str, module: str) -> dict[str, Any]:
        path = self.plugin_dir / f"{name}.yaml"
        if not path.exists():
            if not module:
                raise PluginError(f"{path}: missing")
            plugin_cls = _import_plugin(module)
            atomic_write_text(path, _default_yaml(plugin_cls))
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as exc:
            raise PluginError(f"{path}: invalid YAML: {exc}") from None
        if not isinstance(data, dict):
            raise PluginError(f"{path}: expected a mapping at the top level")
        unknown = set(data) - _FILE_KEYS
        if unknown:
            raise PluginError(f"{path}: unknown key(s) {sorted(unknown)}")
        return data

    def _load(self, name: str, module: str, services: BotServices) -> None:
        settings = self._settings(name, module)
        if not settings.get("enabled", True):
            log.info("plugin %s is disabled", name)
            return
        module = settings.get("module") or module
        if not module:
            raise PluginError(f"plugin {name}: no module given")
        plugin_cls = _import_plugin(module)
        config = dict(plugin_cls.default_config)
        extra = settings.get("config") or {}
        if not isinstance(extra, dict):
            raise PluginError(f"plugin {name}: 'config' must be a mapping")
        unknown = set(extra) - set(config)
        if unknown:
            raise PluginError(f"plugin {name}: unknown config key(s) {sorted(unknown)}")
        config.update(extra)
        plugin = plugin_cls(services, config)
        self.register(name, plugin, int(settings.get("priority", 0)))

    def register(self, name: str, plugin: Plugin, priority: int = 0) -> None:
        """Add an instantiated plugin (tests and embedders may call this directly)."""
        self.plugins[name] = plugin
        for attr, event_type, handler_priority in plugin.handler_specs():
            reg = _Registration(
                name, handler_priority + plugin.priority + priority, getattr(plugin, attr)
            )
            handlers = self._handlers.setdefault(event_type, [])
            handlers.append(reg)
            handlers.sort(key=lambda r: -r.priority)
        log.info("plugin %s loaded", name)

    # dispatch ----------------------------------------------------------------------

    def emit(self, event: Event) -> Event:
        """Run every handler for ``event`` until one raises :class:`StopPropagation`."""
        for reg in self._handlers.get(type(event), []):
            try:
                reg.call(event)
            except StopPropagation:
                break
            except (MemoryEngineError, OSError) as exc:  # a full disk, a model down: one line
                event.errors.append(f"{reg.plugin}: {exc}")
                log.error("plugin %s failed on %s: %s", reg.plugin, type(event).__name__, exc)
            except Exception as exc:  # a defect: with its traceback
                event.errors.append(f"{reg.plugin}: {exc}")
                log.exception("plugin %s failed on %s", reg.plugin, type(event).__name__)
        return event

    def close(self) -> None:
        for name, plugin in self.plugins.items():
            try:
                plugin.close()
            except Exception:
                log.exception("plugin %s failed to close", name)


def _import_plugin(module: str) -> type[Plugin]:
    mod = importlib.import_module(module)
    plugin_cls = getattr(mod, "PLUGIN", None)
    if not (isinstance(plugin_cls, type) and issubclass(plugin_cls, Plugin)):
        raise PluginError(f"module {module} has no PLUGIN class")
    return plugin_cls


def _default_yaml(plugin_cls: type[Plugin]) -> str:
    header = f"# {plugin_cls.name}: {plugin_cls.description}\n# Edit and restart the bot.\n"
    body = {"enabled": True, "priority": 0, "config": dict(plugin_cls.default_config)}
    return header + yaml.safe_dump(body, allow_unicode=True, sort_keys=False)
