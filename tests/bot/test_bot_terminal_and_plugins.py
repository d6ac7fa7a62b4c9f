"""The terminal channel end to end, the plugin framework, and the pure helpers."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from bot_support import ZONE, BotFactory, owner, run_app

from bot.errors import StopPropagation
from bot.session import ChatTurn
from bot.tokens import estimate_tokens
from bot.trimming import hard_trim, turns_to_trim
from memory import clock
from plugins.archive_hints import match_archive
from plugins.base import Plugin, on
from plugins.events import MessageReceived, ReplyDecorated
from tests.fakes.openai_server import FakeOpenAI


def test_terminal_script_with_a_model(tmp_path: Path, llm: FakeOpenAI) -> None:
    llm.reply("Nice to meet you, Ada.")
    result = run_app(
        tmp_path,
        "I am Ada and I write compilers\n/memory status\n",
        open_ai_api_base=llm.url,
        open_ai_api_key="sk-term-secret-999",
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Nice to meet you, Ada."
    assert lines[1] == f"Memory of terminal:user:owner (terminal): {(tmp_path / 'ws').resolve()}"
    assert "sk-term-secret-999" not in result.stdout + result.stderr
    users = [m for m in llm.chat_requests()[0]["messages"] if m["role"] == "user"]
    assert users == [{"role": "user", "content": "I am Ada and I write compilers"}]


def test_terminal_dream_reports_before_exit(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    day = clock.now(ZONE).date().isoformat()  # the app's own clock (shifted in CI)
    (ws / "memory" / f"{day}.md").write_text(
        f"# Daily Memory: {day}\n\n## Daily Summary (23:55)\n- The user keeps bees\n"
    )
    result = run_app(
        tmp_path, "/memory dream 30\n", dream_engine="extractive", timezone="Asia/Shanghai"
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    assert out[0].startswith("Dream started over the last 30 days")
    assert out[1].startswith("Dream done (extractive): 1 item in MEMORY.md")
    assert "The user keeps bees" in (ws / "MEMORY.md").read_text()


class Shout(Plugin):
    name = "shout"

    @on(ReplyDecorated, priority=5)
    def upper(self, event: ReplyDecorated) -> None:
        event.reply = event.reply.upper()


class Broken(Plugin):
    name = "broken"

    @on(MessageReceived, priority=5000)
    def explode(self, event: MessageReceived) -> None:
        raise RuntimeError("kaboom")


class Gate(Plugin):
    name = "gate"

    @on(MessageReceived, priority=2000)
    def block(self, event: MessageReceived) -> None:
        if event.context.message.text == "secret handshake":
            event.context.reply = "gate says hi"
            raise StopPropagation


def test_plugins_priorities_stop_and_failures(
    make_bot: BotFactory, caplog: pytest.LogCaptureFixture
) -> None:
    bot, _ = make_bot()
    for plugin in (Shout, Broken, Gate):
        bot.plugins.register(plugin.name, plugin(bot.services, {}))
    with caplog.at_level(logging.ERROR):
        (reply,) = bot.handle(owner("/memory search nothing"))
    assert reply == "NO MEMORY MATCHES 'NOTHING'."
    assert "plugin broken failed on MessageReceived" in caplog.text
    assert "kaboom" in caplog.text  # the traceback is logged
    assert bot.handle(owner("secret handshake")) == ["GATE SAYS HI"]


def test_plugin_files_enable_configure_and_fail_softly(
    make_bot: BotFactory, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    plugin_dir = tmp_path / "plugins"
    plugin_dir.mkdir()
    (plugin_dir / "commands.yaml").write_text("enabled: false\n")
    (plugin_dir / "ghost.yaml").write_text("module: plugins.does_not_exist\n")
    (plugin_dir / "memory.yaml").write_text("config:\n  archive_hintz: 2\n")
    with caplog.at_level(logging.ERROR):
        bot, _ = make_bot(plugin_config_dir=str(plugin_dir))
    assert set(bot.plugins.plugins) == set()
    assert "archive_hintz" in bot.plugins.failed["memory"]
    assert "does_not_exist" in bot.plugins.failed["ghost"]
    assert "plugin ghost failed to load" in caplog.text
    # the bot still answers, honestly, without its plugins
    (reply,) = bot.handle(owner("/memory status"))
    assert reply.startswith("No model is configured")


def test_default_plugin_files_are_written_for_the_user(make_bot: BotFactory) -> None:
    bot, _ = make_bot()
    text = (bot.config.plugin_dir() / "memory.yaml").read_text()
    assert text.startswith("# memory: ")
    assert "archive_hints: 3" in text
    assert set(bot.plugins.plugins) == {"commands", "memory"}


def turn(role: str, text: str) -> ChatTurn:
    return ChatTurn(role, text)


def test_token_estimates_are_exact() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd") == 1
    assert estimate_tokens("abcde") == 2
    assert estimate_tokens("你好世界") == 4
    assert estimate_tokens("hi 你好") == 3  # 2 wide + ceil(3/4)


def test_trimming_counts_turns_and_tokens() -> None:
    window = [turn("user", "a"), turn("assistant", "b"), turn("user", "c"), turn("assistant", "d")]
    assert turns_to_trim(window, max_turns=2, max_tokens=10_000) == 0
    assert turns_to_trim(window, max_turns=1, max_tokens=10_000) == 2
    # each message is 1 + 4 tokens; 12 tokens keep the last two messages only
    assert turns_to_trim(window, max_turns=5, max_tokens=12, keep=1.0) == 2
    assert turns_to_trim(window, max_turns=5, max_tokens=1) == 3  # the newest always stays
    # over a limit, the window is cut to 3/4 of it: 12 -> 9 tokens keep one message
    assert turns_to_trim(window, max_turns=5, max_tokens=12) == 3
    assert hard_trim(window) == 2
    assert hard_trim([turn("user", "x")]) == 0


def test_trimming_works_in_batches() -> None:
    """With 8 turns allowed, a trim cuts to 6: the next trim is two messages away."""
    window = [turn("user" if i % 2 == 0 else "assistant", str(i)) for i in range(18)]
    assert turns_to_trim(window, max_turns=8, max_tokens=10_000) == 6  # 9 turns -> 6
    assert turns_to_trim(window[6:], max_turns=8, max_tokens=10_000) == 0


def test_archive_hints_match_trigger_words() -> None:
    items = [
        "The user used to live in Berlin near the river",
        "The user had a cat named Miso",
        "The user's old car was a red Volvo",
        "Berlin river cruise booked for the user",
    ]
    assert match_archive(items, "Do you remember my cat Miso?") == [items[1]]
    assert match_archive(items, "a river trip in Berlin?") == [items[3], items[0]]
    assert match_archive(items, "hello there") == []
    assert match_archive(items, "Berlin river", limit=0) == []
    assert str(ZONE) == "Asia/Shanghai"


def test_the_terminal_greets_a_person_not_a_script(tmp_path: Path) -> None:
    import io

    from channels.terminal import TerminalChannel

    class Echo:
        def handle(self, message: object) -> list[str]:
            return ["ok"]

    out = io.StringIO()
    english = {"LANG": "en_GB.UTF-8"}
    TerminalChannel(io.StringIO("hi\n"), out, greeting=True, environ=english).run(Echo())
    greeting, answer = out.getvalue().splitlines()
    assert answer == "ok" and "quits" in greeting and "/help" in greeting
    chinese = io.StringIO()
    TerminalChannel(
        io.StringIO("hi\n"), chinese, greeting=True, environ={"LANG": "zh_CN.UTF-8"}
    ).run(Echo())
    assert chinese.getvalue().startswith("CowDream 正在听。") and "/help" in chinese.getvalue()
    piped = io.StringIO()
    TerminalChannel(io.StringIO("hi\n"), piped).run(Echo())  # not a terminal: no greeting
    assert piped.getvalue().splitlines() == ["ok"]


def test_no_library_noise_at_info() -> None:
    """faiss's loader reports a missing AVX512 build as a ModuleNotFoundError at INFO; httpx
    logs each request: neither is for the user unless log_level is DEBUG."""
    import io

    from memory.log_setup import configure_logging

    out = io.StringIO()
    configure_logging("INFO", stream=out)
    try:
        logging.getLogger("faiss.loader").info("Could not load library with AVX512 support")
        logging.getLogger("httpx").info("HTTP Request: POST http://x/y")
        logging.getLogger("bot.builder").info("bot ready")
        assert out.getvalue().splitlines()[-1].endswith("INFO bot.builder: bot ready")
        assert "AVX512" not in out.getvalue() and "HTTP Request" not in out.getvalue()
        configure_logging("DEBUG", stream=out)
        logging.getLogger("faiss.loader").info("Loading faiss")
        assert "Loading faiss" in out.getvalue()
    finally:
        root = logging.getLogger()
        for handler in list(root.handlers):
            if getattr(handler, "stream", None) is out:
                root.removeHandler(handler)
