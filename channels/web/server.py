"""The web channel: serves the console with uvicorn until stopped."""

from __future__ import annotations

import ipaddress
import logging
import socket
import threading

import uvicorn

from bot.chat_language import ChatLanguages
from bot.config import BotConfig
from bot.errors import ConfigError
from bot.messages import Scope
from channels.base import BotHandler, Channel, ConsoleBot
from channels.web.app import Outbox, create_app
from channels.web.throttle import LoginThrottle

log = logging.getLogger(__name__)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class WebChannel(Channel):
    """The console on ``web_host:web_port``; a password is required off loopback."""

    name = "web"

    def __init__(
        self, config: BotConfig, *, port: int | None = None, throttle: LoginThrottle | None = None
    ) -> None:
        self.throttle = throttle  # the password's brute-force brake (a default one if None)
        self.host = config.web_host
        self.port = config.web_port if port is None else port
        secret = config.web_password
        self.password = secret.get_secret_value() if secret else None
        if not is_loopback(self.host) and self.password is None:
            raise ConfigError(
                f"web_host {self.host!r} is reachable from other machines: set web_password"
            )
        self.outbox = Outbox()
        self.languages = ChatLanguages(config.language)
        self.server: uvicorn.Server | None = None
        self.started = threading.Event()

    def run(self, bot: BotHandler) -> None:
        if not isinstance(bot, ConsoleBot):
            raise TypeError("the web console needs a bot that offers console views")
        app = create_app(
            bot.handle,
            bot.console_view,
            bot.console_chats,
            bot.console_history,
            self.outbox,
            self.password,
            self.throttle,
            self.languages,
        )
        config = uvicorn.Config(
            app,
            host=self.host,
            port=self.port,
            log_level="warning",
            access_log=False,
            log_config=None,  # uvicorn logs through the bot's scrubbing handler
        )
        sock = self._bind()
        self.server = uvicorn.Server(config)
        log.info("web console on http://%s:%d/", self.host, sock.getsockname()[1])
        watcher = threading.Thread(target=self._watch_started, daemon=True)
        watcher.start()
        try:
            self.server.run(sockets=[sock])
        finally:
            sock.close()

    def _bind(self) -> socket.socket:
        """The listening socket, bound here so a busy port is one clear error."""
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.port))
        except OSError as exc:
            sock.close()
            raise ConfigError(
                f"web console: cannot listen on {self.host}:{self.port} "
                f"({exc.strerror or exc}); set web_port to a free port"
            ) from None
        sock.listen(128)
        return sock

    def _watch_started(self) -> None:
        while self.server is not None and not self.server.should_exit:
            if self.server.started:
                self.started.set()
                return
            threading.Event().wait(0.05)

    @property
    def bound_port(self) -> int:
        """The port actually bound (useful with port 0)."""
        assert self.server is not None and self.server.servers
        sock = self.server.servers[0].sockets[0]
        return int(sock.getsockname()[1])

    def send(self, scope: Scope, text: str) -> None:
        self.outbox.put(text)

    def stop(self) -> None:
        if self.server is not None:
            self.server.should_exit = True
