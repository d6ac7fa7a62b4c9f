"""One person per stable id: renames, shared display names, nickname-only speakers."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from memory.paths import MemoryRoot
from memory.people.directory import (
    Directory,
    clean_name,
    index_path,
    load_directory,
    person_slug,
    record_sighting,
)

WHEN = datetime(2026, 11, 29, 14, 0, tzinfo=ZoneInfo("Asia/Shanghai"))
LATER = datetime(2026, 12, 3, 9, 0, tzinfo=ZoneInfo("Asia/Shanghai"))


def test_slugs_are_distinct_and_readable() -> None:
    ids = ["telegram:42", "telegram:-42", "wechat:zhang_san", "wechat:张三", "owner", "a-b:1"]
    slugs = [person_slug(i) for i in ids]
    assert len(set(slugs)) == len(ids)
    assert person_slug("telegram:42") == "telegram-42"
    assert person_slug("wechat:张三") == "wechat-张三"
    assert person_slug("wechat:../../etc") == "wechat-%2E.%2F..%2Fetc"
    assert not any(s.startswith(".") or "/" in s for s in slugs)


def test_a_rename_keeps_the_person_and_every_label(tmp_path: Path) -> None:
    root = MemoryRoot(tmp_path)
    assert record_sighting(root, "telegram:42", "李四", WHEN) == "李四"
    assert record_sighting(root, "telegram:42", "Li Si", LATER) == "Li Si"
    directory = load_directory(root)
    assert len(directory.people) == 1
    person = directory.by_id("telegram:42")
    assert person is not None
    assert person.name == "Li Si" and person.all_labels() == {"李四", "Li Si"}
    assert (person.first_seen, person.last_seen) == ("2026-11-29", "2026-12-03")
    assert directory.owner_of("李四") is person  # old note lines still point at them


def test_two_people_with_one_name_stay_two(tmp_path: Path) -> None:
    root = MemoryRoot(tmp_path)
    assert record_sighting(root, "telegram:1", "张三", WHEN) == "张三"
    assert record_sighting(root, "telegram:2", "张三", WHEN) == "张三2"
    assert record_sighting(root, "telegram:1", "张三", LATER) == "张三"
    directory = load_directory(root)
    assert [p.id for p in directory.find("张三")] == ["telegram:1"]
    assert [p.id for p in directory.find("张三2")] == ["telegram:2"]
    # the first one renames away and a third person takes the name: no label is reused
    record_sighting(root, "telegram:1", "Zhang", LATER)
    assert record_sighting(root, "telegram:3", "张三", LATER) == "张三3"


def test_a_nickname_without_an_id_gets_a_label_but_no_person(tmp_path: Path) -> None:
    root = MemoryRoot(tmp_path)
    assert record_sighting(root, "wechat:wx_li", "李四", WHEN) == "李四"
    # someone copies the nickname: their lines are never taken for 李四's
    assert record_sighting(root, None, "李四", WHEN) == "李四2"
    assert record_sighting(root, None, "李四", LATER) == "李四2"
    directory = load_directory(root)
    assert list(directory.people) == ["wechat-wx_li"]
    assert directory.owner_of("李四2") is None


def test_names_are_cleaned_for_note_lines() -> None:
    assert clean_name("  Ann: <b>x</b>\n") == "Ann b x /b"
    assert clean_name("###") == "member"
    assert len(clean_name("x" * 100)) == 32


def test_a_broken_index_is_set_aside(tmp_path: Path) -> None:
    root = MemoryRoot(tmp_path)
    index_path(root).parent.mkdir(parents=True)
    index_path(root).write_text("{not json", encoding="utf-8")
    assert load_directory(root).people == {}
    assert index_path(root).with_name("index.json.bad").exists()
    assert record_sighting(root, "telegram:9", "Ann", WHEN) == "Ann"


def test_forget_keeps_the_labels_claimed() -> None:
    directory = Directory()
    directory.sight("telegram:5", "Ann", WHEN)
    assert directory.remove("telegram-5") is not None
    label, _ = directory.sight("telegram:6", "Ann", WHEN)
    assert label == "Ann2"
