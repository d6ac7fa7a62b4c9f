"""The bot's languages: complete catalogues, local dates and counts, detection, per chat."""

from __future__ import annotations

import re
import threading
from datetime import date, datetime
from pathlib import Path

import pytest
from bot_support import ZONE, BotFactory, group, owner, private

from bot.config import BotConfig
from bot.dream_worker import STOPPED
from bot.engine_messages import PATTERNS, engine_text
from bot.errors import ConfigError
from bot.i18n import (
    FALLBACK,
    LOCALES,
    PLURAL_CATEGORIES,
    Catalogue,
    CatalogueError,
    Languages,
    placeholders,
)
from bot.language_detect import Candidate, detect_language, script_units
from bot.messages import WEB_SCOPE
from memory.errors import MemoryEngineError

REPO = Path(__file__).resolve().parents[2]
LANGUAGES = Languages()
NOW = datetime(2026, 12, 1, 23, 57, tzinfo=ZONE)


def test_every_key_is_in_every_catalogue_with_the_same_placeholders() -> None:
    english = LANGUAGES.catalogues[FALLBACK]
    assert set(LANGUAGES.codes) >= {"en", "zh"}
    for code, catalogue in LANGUAGES.catalogues.items():
        assert set(catalogue.messages) == set(english.messages), code
        for key, message in catalogue.messages.items():
            assert placeholders(message) == placeholders(english.messages[key]), (code, key)
            if isinstance(message, dict):
                assert set(message) == set(PLURAL_CATEGORIES[catalogue.plural]), (code, key)
                assert isinstance(english.messages[key], dict), key


def used_keys() -> set[str]:
    """Every message key named literally in the code and the console (t("..."))."""
    keys: set[str] = set()
    sources = [*REPO.glob("bot/**/*.py"), *REPO.glob("plugins/*.py"), *REPO.glob("channels/**/*")]
    for path in sources:
        if path.suffix in {".py", ".js", ".html"}:
            text = path.read_text(encoding="utf-8")
            keys |= set(re.findall(r"\bt\(\s*\"([a-z_]+(?:\.[a-z_]+)+)\"", text))
            keys |= set(re.findall(r"data-i18n(?:-\w+)?=\"([a-z_]+(?:\.[a-z_]+)+)\"", text))
    return keys


def test_every_key_the_code_uses_exists() -> None:
    keys = used_keys()
    assert len(keys) > 50  # the scan finds the code's keys
    assert keys - set(LANGUAGES.catalogues[FALLBACK].messages) == set()


def test_dates_times_and_counts_the_local_way() -> None:
    en, zh = LANGUAGES.translator("en", NOW), LANGUAGES.translator("zh", NOW)
    assert en.datetime(NOW) == "1 Dec, 23:57"
    assert zh.datetime(NOW) == "12月1日 23:57"
    assert en.datetime("2026-12-01T23:57:10+08:00") == "1 Dec, 23:57"
    assert en.date("2025-03-09") == "9 Mar 2025"  # another year shows its year
    assert zh.date(date(2025, 3, 9)) == "2025年3月9日"
    assert zh.time("2026-12-01T08:05:00+08:00") == "08:05"
    assert en.datetime("not a time") == "not a time"  # shown as it is, never an error
    assert [en.t("count.item", n=n) for n in (0, 1, 2)] == ["0 items", "1 item", "2 items"]
    assert [zh.t("count.item", n=n) for n in (0, 1, 2)] == ["0 条", "1 条", "2 条"]
    assert en.quote("jasmine tea") == "'jasmine tea'" and zh.quote("茉莉花茶") == "“茉莉花茶”"
    assert zh.join(["新增 1", "合并 2"]) == "新增 1，合并 2"
    assert en.t("dream.started", days=en.t("count.day", n=1)) == (
        "Dream started over the last 1 day of notes; I will report when done."
    )
    assert LANGUAGES.from_header("fr-FR,zh-CN;q=0.8,en;q=0.5") == "zh"
    assert LANGUAGES.supported("zh_TW.UTF-8") == "zh" and LANGUAGES.supported("fr") is None


def test_a_broken_catalogue_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "xx.json"
    bad.write_text('{"language": {"name": "X", "plural": "dual"}, "messages": {}}')
    with pytest.raises(CatalogueError, match=r"xx\.json: unknown plural rule 'dual'"):
        Catalogue.load(bad)
    text = (LOCALES / "en.json").read_text(encoding="utf-8").replace('"one": "{n} item",', "")
    (tmp_path / "en.json").write_text(text, encoding="utf-8")
    with pytest.raises(CatalogueError, match=r"en\.json: count\.item lacks plural forms \['one'\]"):
        Catalogue.load(tmp_path / "en.json")


CANDIDATES = [Candidate("en", "Latin", ("the", "and")), Candidate("zh", "Han")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我下周三要去上海出差", "zh"),
        ("好", "zh"),  # one Chinese character says Chinese
        ("ok 好的", "zh"),
        ("帮我查一下 python 的用法", "zh"),
        ("I love 北京", "en"),  # two English words outweigh two characters
        ("please keep answers short", "en"),
        ("ok", None),  # one Latin word says nothing
        ("12:30 👍", None),
        ("/memory status", None),  # a command's own words are no language
        ("https://example.com/docs memory/2026-11-29.md#L3", None),
        ("@Bob 明天见", "zh"),
    ],
)
def test_detection(text: str, expected: str | None) -> None:
    assert detect_language(text, CANDIDATES) == expected


def test_script_units_and_same_script_languages() -> None:
    assert script_units("I love 北京") == {"Latin": 2.0, "Han": 2 / 1.5}
    french = [*CANDIDATES, Candidate("fr", "Latin", ("le", "et", "je"))]
    assert detect_language("je voudrais le thé et le café", french) == "fr"
    assert detect_language("the tea and the coffee", french) == "en"
    assert detect_language("Bonjour Marie", french) is None  # no common word: no guess


def test_the_language_key_is_checked(tmp_path: Path) -> None:
    assert BotConfig().language == "auto"
    with pytest.raises(ValueError, match="unknown language 'fr': use auto, en, zh"):
        BotConfig(language="fr")
    from bot.config import load_config

    with pytest.raises(ConfigError, match="COW_LANGUAGE: bad value for 'language'"):
        load_config(None, environ={"COW_LANGUAGE": "klingon"})


def test_each_chat_is_answered_in_its_own_language(make_bot: BotFactory) -> None:
    bot, _ = make_bot()
    (reply,) = bot.handle(private("telegram", "1", "我下周三要去上海出差"))
    assert reply.startswith("还没有配置模型")
    (status,) = bot.handle(private("telegram", "1", "/memory status"))  # remembered
    assert "MEMORY.md：0 条；归档：0 条" in status and "夜间做梦：开启" in status
    (other,) = bot.handle(private("telegram", "2", "/memory status"))  # another chat: English
    assert "MEMORY.md: 0 items; archive: 0 items" in other
    (usage,) = bot.handle(group("telegram", "-3", "4", "/memory bogus"))
    assert usage.startswith("Usage: /memory dream [N]")
    bot.handle(group("telegram", "-3", "4", "大家周六一起爬黄山吧"))
    (usage,) = bot.handle(group("telegram", "-3", "5", "/memory bogus"))
    assert usage.startswith("用法：/memory dream [N]")
    (found,) = bot.handle(private("telegram", "9", "/memory search 咖啡"))  # first words
    assert found == "记忆里没有与 “咖啡” 相符的内容。"
    (switched,) = bot.handle(private("telegram", "1", "please answer in English from now on"))
    assert switched.startswith("No model is configured")
    assert bot.handle(private("telegram", "1", "/dreaming off"))[0] == (
        "Nightly dreaming is now off for this chat."
    )


def test_the_consoles_choice_and_a_fixed_language(make_bot: BotFactory) -> None:
    from dataclasses import replace

    bot, _ = make_bot()
    chosen = replace(owner("/dreaming status"), scope=WEB_SCOPE, language="zh-CN")
    assert bot.handle(chosen)[0].startswith("夜间做梦：开启")
    fixed, _ = make_bot(language="zh")
    assert fixed.handle(private("telegram", "1", "hello there, how are you"))[0].startswith(
        "还没有配置模型"
    )
    assert fixed.handle(private("telegram", "1", "/help"))[0].startswith("命令（标 * 的")


def test_a_chat_without_words_yet_speaks_its_memorys_language(make_bot: BotFactory) -> None:
    bot, _ = make_bot()
    root = bot.services.scopes.root_for(private("telegram", "8", "x").scope)
    root.notes_dir.mkdir(parents=True, exist_ok=True)
    (root.notes_dir / "2026-11-29.md").write_text(
        "# Daily Memory: 2026-11-29\n\n## Daily Summary (23:55)\n- 用户喜欢茉莉花茶\n"
    )
    assert bot.handle(private("telegram", "8", "/dreaming status"))[0].startswith("夜间做梦")


def engine_messages(bot_factory: BotFactory) -> dict[str, str]:
    """Each message of the engine the bot translates, produced by the real engine."""
    from memory.dream import DreamOptions, run_dream
    from memory.dream.state import root_lock
    from memory.forget import plan_forget
    from memory.history import undo
    from memory.resolve import resolve

    bot, _ = bot_factory()
    root = bot.services.scopes.root_for(owner("x").scope)
    out: dict[str, str] = {}

    def error(call: object) -> str:
        assert callable(call)
        with pytest.raises(MemoryEngineError) as caught:
            call()
        return str(caught.value)

    out["nothing_to_undo"] = error(lambda: undo(root, now=NOW))
    out["no_notes"] = run_dream(root, DreamOptions(days=2), model=None, now=NOW).reason
    root.notes_dir.mkdir(parents=True, exist_ok=True)
    (root.notes_dir / "2026-12-01.md").write_text(
        "# Daily Memory: 2026-12-01\n\n## Daily Summary (23:55)\n- The user keeps bees\n"
    )
    run_dream(root, DreamOptions(days=2, engine="extractive"), model=None, now=NOW)
    again = run_dream(root, DreamOptions(days=2, engine="extractive"), model=None, now=NOW)
    out["unchanged"] = again.reason
    out["undone"] = undo(root, now=NOW)
    out["forget_short"] = error(lambda: plan_forget(root, "a"))
    stop = threading.Event()
    stop.set()
    options = DreamOptions(days=2, engine="extractive", force=True)
    out["interrupted"] = error(lambda: run_dream(root, options, model=None, now=NOW, cancel=stop))
    out["bot_stopped"] = STOPPED  # the worker's reason for a dream dropped at shutdown
    view = bot.console_view(None)
    out["empty_query"] = error(lambda: view.search("  "))
    out["no_note"] = error(lambda: view.note("2026-01-01"))
    out["not_a_date"] = error(lambda: view.note("yesterday"))
    out["not_memory_file"] = error(lambda: view.source("memory/2020-01-01.md#L1"))
    out["not_a_ref"] = error(lambda: view.source("MEMORY.md"))
    out["no_chat"] = error(lambda: bot.console_view("telegram:user:404"))
    out["no_conflicts"] = error(lambda: resolve(root, "c1", "keep", 1, now=NOW))
    root.memory_md.write_text(
        "# MEMORY\n\n"
        "- The user lives in Berlin <!-- src: memory/2026-12-01.md#L4; conflict: c1 -->\n"
        "- The user lives in Munich <!-- src: memory/2026-12-01.md#L4; conflict: c1 -->\n",
        encoding="utf-8",
    )
    out["no_such_conflict"] = error(lambda: resolve(root, "c7", "keep", 1, now=NOW))
    out["conflict_sides"] = error(lambda: resolve(root, "c1", "keep", 3, now=NOW))
    out["resolve_usage"] = error(lambda: resolve(root, "c1", "pick", 1, now=NOW))
    with root_lock(root):  # as while a dream runs
        out["busy"] = error(lambda: undo(root, now=NOW))
    return out


def test_the_engines_messages_are_said_in_the_chats_language(make_bot: BotFactory) -> None:
    produced = engine_messages(make_bot)
    assert set(produced) == set(PATTERNS)  # every pattern is produced by the real engine
    en, zh = LANGUAGES.translator("en", NOW), LANGUAGES.translator("zh", NOW)
    for key, message in produced.items():
        assert PATTERNS[key].fullmatch(message.strip()), (key, message)
        chinese = engine_text(zh, message)
        assert chinese != message and re.search(r"[\u4e00-\u9fff]", chinese), (key, chinese)
        assert engine_text(en, message).split()[0] == message.split()[0], key
    assert engine_text(
        zh,
        "undone: MEMORY.md and the archive are back to before the dream of "
        "2026-12-01T23:57:00+08:00",
    ) == ("已撤销：MEMORY.md 和归档已恢复到 12月1日 23:57 那次做梦之前")
    assert engine_text(zh, "something the engine says") == "something the engine says"
