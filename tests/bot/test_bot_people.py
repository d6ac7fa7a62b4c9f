"""People knowledge in the bot: speakers by stable id, cards in the prompt, commands."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from bot.config import load_config
from bot.errors import ConfigError
from bot.people import person_id
from memory.people.directory import load_directory
from memory.people.limits import PeopleLimits
from tests.bot.bot_support import ZONE, BotFactory, base_config, group, owner, private
from tests.fakes.clock import FakeClock


def test_person_ids_are_stable_ids_never_bare_nicknames() -> None:
    assert person_id(group("telegram", "-5", "42", "hi", name="Ann")) == "telegram:42"
    assert person_id(group("wechat", "g", "wx_ann", "hi", name="Ann")) == "wechat:wx_ann"
    assert person_id(group("wechat", "g", "nick:Ann", "hi", name="Ann")) is None
    assert person_id(owner("hi")) == "owner"


def test_group_speakers_get_labels_by_id(make_bot: BotFactory, clock: FakeClock) -> None:
    bot, _ = make_bot()
    chat = "-77"
    bot.handle(group("telegram", chat, "1", "I live in Nanshan", addressed=False, name="Zhang"))
    bot.handle(group("telegram", chat, "2", "I live in Futian", addressed=False, name="Zhang"))
    bot.handle(group("telegram", chat, "1", "My cat is Mochi", addressed=False, name="Zhang Wei"))
    clock.now = datetime(2026, 11, 29, 23, 56, tzinfo=ZONE)
    bot.services.nightly.run(clock())
    assert bot.services.dreams.wait_idle(60)
    root = bot.services.scopes.root_for(group("telegram", chat, "1", "x").scope)
    note = (root.notes_dir / "2026-11-29.md").read_text(encoding="utf-8")
    assert "- Zhang: I live in Nanshan" in note
    assert "- Zhang2: I live in Futian" in note
    assert "- Zhang Wei: My cat is Mochi" in note
    directory = load_directory(root)
    assert sorted(p.id for p in directory.people.values()) == ["telegram:1", "telegram:2"]
    first = directory.by_id("telegram:1")
    assert first is not None and first.all_labels() == {"Zhang", "Zhang Wei"}
    index = json.loads((root.path / "people" / "index.json").read_text(encoding="utf-8"))
    assert set(index["people"]) == {"telegram-1", "telegram-2"}


def test_private_chats_keep_no_people_by_default(make_bot: BotFactory) -> None:
    bot, _ = make_bot()
    message = private("telegram", "42", "I live in Nanshan")
    bot.handle(message)
    assert not (bot.services.scopes.root_for(message.scope).path / "people").exists()


def test_people_off_keeps_display_names(make_bot: BotFactory) -> None:
    bot, _ = make_bot(people_enabled="off")
    message = group("telegram", "-8", "1", "hello there", addressed=False, name="Zhang")
    bot.handle(message)
    assert not (bot.services.scopes.root_for(message.scope).path / "people").exists()


def test_people_keys_are_validated(tmp_path: Path) -> None:
    config = base_config(tmp_path)
    assert (config.people_enabled, config.people_limits) == ("groups", PeopleLimits(40, 200))
    for key, bad in (
        ("people_enabled", "sometimes"),
        ("people_max_entries", 0),
        ("people_max_entry_chars", 5),
        ("people_max_entrys", 3),
    ):
        path = tmp_path / "config.json"
        path.write_text(json.dumps({key: bad}), encoding="utf-8")
        with pytest.raises(ConfigError, match=key.rstrip("s")):
            load_config(path, environ={})
    assert base_config(tmp_path, people_enabled=False).people_enabled is False


def test_people_commands_and_memory_get(make_bot: BotFactory, clock: FakeClock) -> None:
    from memory.dream import DreamOptions, run_dream
    from memory.search.tools import memory_get

    bot, _ = make_bot()
    chat = "-31"
    (none,) = bot.handle(group("telegram", chat, "1", "/memory people"))
    assert none == "Nobody in this chat has a card yet."
    bot.handle(group("telegram", chat, "1", "I live in Nanshan", addressed=False, name="Zhang"))
    bot.handle(group("telegram", chat, "2", "Zhang plays the cello", addressed=False, name="Lin"))
    scope = group("telegram", chat, "1", "x").scope
    bot.services.conversations.flush(scope, clock())
    root = bot.services.scopes.root_for(scope)
    run_dream(root, DreamOptions(engine="extractive"), model=None, now=clock())
    (listing,) = bot.handle(group("telegram", chat, "1", "/memory people"))
    assert listing.splitlines() == [
        "People of this chat (2):",
        "- Lin: 0 card lines",
        "- Zhang: 2 card lines",
    ]
    (card,) = bot.handle(group("telegram", chat, "2", "/memory people zhang"))
    assert card.splitlines()[0] == "Card of Zhang (telegram:1); each line cites its sources:"
    assert "- Lin: Zhang plays the cello [memory/2026-11-29.md#L" in card
    (unknown,) = bot.handle(group("telegram", chat, "2", "/memory people Zed"))
    assert unknown == "Nobody in this chat is called 'Zed'."
    (usage,) = bot.handle(group("telegram", chat, "2", "/memory people rebuild"))
    assert usage.startswith("Usage: /memory people")
    (private_reply,) = bot.handle(private("telegram", "9", "/memory people"))
    assert private_reply == "This chat keeps no people knowledge (people_enabled)."
    # the model may read a card, never a ledger
    got = memory_get(root, "people/telegram-1/card.md")
    assert "I live in Nanshan" in got["text"] and "src:" not in got["text"]
    assert "error" in memory_get(root, "people/telegram-1/observations.md")
    assert "error" in memory_get(root, "people/index.json")


def test_people_all_keeps_a_card_in_private_chats(make_bot: BotFactory, clock: FakeClock) -> None:
    from memory.dream import DreamOptions, run_dream

    bot, _ = make_bot(people_enabled="all")
    message = private("telegram", "42", "I live in Nanshan", name="Ann")
    bot.handle(message)
    bot.services.conversations.flush(message.scope, clock())
    root = bot.services.scopes.root_for(message.scope)
    run_dream(root, DreamOptions(engine="extractive"), model=None, now=clock())
    (card,) = bot.handle(private("telegram", "42", "/memory people Ann", name="Ann"))
    assert "User: I live in Nanshan [memory/2026-11-29.md#L" in card


def test_session_lines_are_observations_before_any_flush(
    make_bot: BotFactory, clock: FakeClock
) -> None:
    from memory.dream import DreamOptions, run_dream
    from memory.people.files import read_person

    bot, _ = make_bot()
    bot.handle(group("telegram", "-12", "1", "I live in Nanshan", addressed=False, name="Zhang"))
    root = bot.services.scopes.root_for(group("telegram", "-12", "1", "x").scope)
    run_dream(root, DreamOptions(engine="extractive"), model=None, now=clock())
    (line,) = read_person(root, "telegram-1", "Zhang").card
    assert line.text == "Zhang: I live in Nanshan"
    assert [str(r) for r in line.refs] == ["sessions/2026-11-29.jsonl#L1"]
    # the nightly flush writes the same statement into the note: one occasion, two sources
    clock.now = datetime(2026, 11, 29, 23, 56, tzinfo=ZONE)
    bot.services.nightly.run(clock())
    assert bot.services.dreams.wait_idle(60)
    (line,) = read_person(root, "telegram-1", "Zhang").card
    assert {r.path for r in line.refs} == {"sessions/2026-11-29.jsonl", "memory/2026-11-29.md"}
    assert line.seen == 1


def test_a_dream_report_says_what_changed_on_the_cards() -> None:
    from bot.dream_worker import format_report
    from bot.i18n import Languages
    from memory.dream.model import DreamReport

    tr = Languages().translator("en")
    report = DreamReport("done", engine="extractive", items=1)
    report.people = {"carded": 2, "opened": 1, "corrected": 0, "inductions": 1}
    assert format_report(report, tr).splitlines()[1] == (
        "People: 2 new card lines, 1 open conflict, 1 pattern in the ledgers."
    )
    report.people = {"carded": 0}
    assert "People" not in format_report(report, tr)


def test_a_person_can_be_forgotten_whole(make_bot: BotFactory, clock: FakeClock) -> None:
    from memory.dream import DreamOptions, run_dream

    bot, _ = make_bot()
    chat = "-44"
    bot.handle(group("telegram", chat, "1", "I live in Nanshan", addressed=False, name="Zhang"))
    bot.handle(group("telegram", chat, "2", "I play the cello", addressed=False, name="Lin"))
    root = bot.services.scopes.root_for(group("telegram", chat, "1", "x").scope)
    run_dream(root, DreamOptions(engine="extractive"), model=None, now=clock())
    assert (root.path / "people" / "telegram-1" / "card.md").is_file()
    (refused,) = bot.handle(group("telegram", chat, "2", "/memory people forget Zhang"))
    assert refused.startswith("Sorry")
    (plan,) = bot.handle(
        group("telegram", chat, "9", "/memory people forget Zhang", chat_admin=True)
    )
    assert "Zhang (2 lines)" in plan and "/memory people forget Zhang confirm" in plan
    assert (root.path / "people" / "telegram-1").is_dir()  # nothing changed yet
    (done,) = bot.handle(
        group("telegram", chat, "9", "/memory people forget Zhang confirm", chat_admin=True)
    )
    assert done.startswith("Zhang is forgotten here")
    assert not (root.path / "people" / "telegram-1").exists()
    index = (root.path / "people" / "index.json").read_text(encoding="utf-8")
    assert "Zhang" not in index and "telegram:1" not in index
    assert (root.path / "people" / "telegram-2" / "card.md").is_file()  # Lin is untouched
    # the next dream does not bring the card back from the notes; a return starts afresh
    run_dream(root, DreamOptions(engine="extractive", force=True), model=None, now=clock())
    assert not (root.path / "people" / "telegram-1").exists()
    bot.handle(group("telegram", chat, "1", "hello again all", addressed=False, name="Zhang"))
    person = load_directory(root).by_id("telegram:1")
    assert person is not None and person.label == "Zhang2"
