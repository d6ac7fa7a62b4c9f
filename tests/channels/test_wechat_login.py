"""Login supervision: failed and lost WeChat logins are reported and retried with back-off."""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

import pytest
from tg_support import RecordingBot
from wechat_support import FakeWebWeChat, deliver, logged_in_core, raw_text

from bot.config import BotConfig
from channels.wechat import WeChatChannel
from channels.wechat_login import LoginBackoff, LoginFailed, LoginLoop


class Script:
    """Injected login/serve/wait/clock for LoginLoop; stops after ``max_waits`` waits."""

    def __init__(self, logins: list[BaseException | None], session_seconds: float = 1.0) -> None:
        self.logins = list(logins)
        self.session_seconds = session_seconds
        self.now = 0.0
        self.waits: list[float] = []
        self.stop = threading.Event()
        self.served = 0

    def login(self) -> None:
        outcome = self.logins.pop(0) if self.logins else None
        if outcome is not None:
            raise outcome

    def serve(self) -> None:
        self.served += 1
        self.now += self.session_seconds

    def wait(self, seconds: float) -> bool:
        self.waits.append(seconds)
        self.now += seconds
        if len(self.waits) >= 6:
            self.stop.set()
        return self.stop.is_set()

    def loop(self, backoff: LoginBackoff) -> LoginLoop:
        return LoginLoop(
            self.login,
            self.serve,
            stop=self.stop,
            backoff=backoff,
            wait=self.wait,
            clock=lambda: self.now,
        )


def test_failed_logins_back_off_then_serve(caplog: pytest.LogCaptureFixture) -> None:
    script = Script([LoginFailed("the QR code was not confirmed"), SystemExit(), None])
    loop = script.loop(LoginBackoff(base_delay=5, max_delay=600, stable_after=300))
    with caplog.at_level(logging.ERROR, logger="channels.wechat_login"):
        loop.run()
    assert script.waits[:2] == [5, 10]
    assert loop.logins >= 1
    messages = [r.getMessage() for r in caplog.records]
    assert messages[0] == (
        "WeChat login failed: the QR code was not confirmed; trying again in 5 s"
    )
    assert (
        messages[1] == "WeChat login failed: cannot reach the WeChat servers; trying again in 10 s"
    )


def test_a_login_lost_at_once_again_and_again_does_not_spin(
    caplog: pytest.LogCaptureFixture,
) -> None:
    script = Script([], session_seconds=1.0)
    loop = script.loop(LoginBackoff(base_delay=5, max_delay=60, stable_after=300))
    with caplog.at_level(logging.WARNING, logger="channels.wechat_login"):
        loop.run()
    assert script.waits == [5, 10, 20, 40, 60, 60]
    assert script.served == 6
    assert "WeChat login lost after 1 s" in caplog.records[0].getMessage()


def test_a_long_session_resets_the_back_off() -> None:
    script = Script([LoginFailed("x"), LoginFailed("y")], session_seconds=1000.0)
    script.loop(LoginBackoff(base_delay=5, max_delay=600, stable_after=300)).run()
    assert script.waits == [5, 10, 5, 5, 5, 5]


def test_back_off_is_capped() -> None:
    backoff = LoginBackoff(base_delay=5, max_delay=600)
    assert [backoff.delay(n) for n in (1, 2, 3, 8, 20)] == [5, 10, 20, 600, 600]


def test_channel_logs_in_again_after_losing_the_login(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    web = FakeWebWeChat()
    core = logged_in_core(web)
    core.alive = False
    logins: list[float] = []

    def login() -> None:  # stands in for the QR-code login a person completes
        logins.append(time.monotonic())
        core.alive = True

    config = BotConfig(
        channel_type="wechat", agent_workspace=str(tmp_path), single_chat_prefix=["bot"]
    )
    channel = WeChatChannel(
        config,
        client=core,
        login=login,
        backoff=LoginBackoff(base_delay=0.05, max_delay=0.2, stable_after=60),
    )
    bot = RecordingBot()
    thread = threading.Thread(target=channel.run, args=(bot,), daemon=True)
    try:
        with caplog.at_level(logging.WARNING, logger="channels.wechat_login"):
            thread.start()
            deadline = time.monotonic() + 5
            while not logins and time.monotonic() < deadline:
                time.sleep(0.01)
            core.alive = False  # what itchat does when the phone logs the session out
            while len(logins) < 2 and time.monotonic() < deadline:
                time.sleep(0.01)
            deliver(core, raw_text("@alice01", "bot are you back?"))
            channel.stop()
            thread.join(timeout=5)
    finally:
        web.close()
    assert not thread.is_alive()
    assert len(logins) == 2
    assert any("WeChat login lost" in r.getMessage() for r in caplog.records)
    assert [m.text for m in bot.messages] == ["are you back?"]
