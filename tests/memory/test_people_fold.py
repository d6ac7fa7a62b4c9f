"""The people pass over real notes: attribution, inductions, open conflicts, corrections,
limits, rebuild, and the dream running it."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.daily_notes import parse_note
from memory.dream import DreamOptions, run_dream
from memory.paths import MemoryRoot
from memory.people.directory import record_sighting
from memory.people.files import parse_entries, read_person
from memory.people.limits import PeopleLimits
from memory.people.phase import rebuild, refresh_people
from tests.memory.mem_support import Crash, at, crash_at, note

LI, WANG = "telegram-42", "telegram-7"


def group_root(tmp_path: Path) -> MemoryRoot:
    root = MemoryRoot(tmp_path)
    record_sighting(root, "telegram:42", "李四", at(28, 9))
    record_sighting(root, "telegram:7", "王芳", at(28, 9))
    record_sighting(root, None, "路人", at(28, 9))
    return root


def lines(root: MemoryRoot, *days: int) -> list:  # type: ignore[type-arg]
    return [line for d in days for line in parse_note(root, at(d).date())]


def test_observations_are_attributed_and_carded(tmp_path: Path) -> None:
    root = group_root(tmp_path)
    note(
        root,
        at(28),
        "李四: 我家在南山区",
        "王芳: 李四下个月结婚",
        "王芳: 好的",  # chatter
        "李四: 我周末通常去爬山",  # an induction
        "路人: 李四是我表哥",  # a speaker without a lasting id may still tell us something
        "王芳: 今天开会的会议室改到三楼了",  # about nobody
    )
    report = refresh_people(root, lines(root, 28), "2026-11-28", PeopleLimits())
    assert report is not None and report.people == 1
    li = read_person(root, LI, "李四")
    ledger = {e.text: e for e in li.observations}
    assert set(ledger) == {
        "李四: 我家在南山区",
        "王芳: 李四下个月结婚",
        "李四: 我周末通常去爬山",
        "路人: 李四是我表哥",
    }
    told = ledger["王芳: 李四下个月结婚"]
    assert told.by == WANG and [str(r) for r in told.refs] == ["memory/2026-11-28.md#L5"]
    pattern = ledger["李四: 我周末通常去爬山"]
    assert pattern.kind == "induction" and pattern.confidence == 0.4
    card = {c.text for c in li.card}
    assert card == {"李四: 我家在南山区", "王芳: 李四下个月结婚", "路人: 李四是我表哥"}
    assert all(c.premises and c.refs for c in li.card)
    card_text = (root.path / "people" / LI / "card.md").read_text(encoding="utf-8")
    assert "通常" not in card_text
    # 王芳 spoke only of others: nothing is written about her
    assert not (root.path / "people" / WANG).exists()
    # idempotent: the same lines again change nothing
    again = refresh_people(root, lines(root, 28), "2026-11-28", PeopleLimits())
    assert again is not None and again.people == 0


def test_conflicts_stay_open_and_self_corrections_update(tmp_path: Path) -> None:
    root = group_root(tmp_path)
    note(root, at(28), "李四: 我家在南山区")
    refresh_people(root, lines(root, 28), "2026-11-28", PeopleLimits())
    note(root, at(29), "王芳: 李四住在福田")
    report = refresh_people(root, lines(root, 28, 29), "2026-11-29", PeopleLimits())
    assert report is not None and report.counts.opened == 1
    card_file = root.path / "people" / LI / "card.md"
    text = card_file.read_text(encoding="utf-8")
    assert "  - 王芳: 李四住在福田 <!-- src: memory/2026-11-29.md#L4;" in text
    assert "status: open" in text
    (line,) = read_person(root, LI, "李四").card
    assert line.text == "李四: 我家在南山区" and line.conflicts[0].status == "open"
    note(root, at(30), "李四: 我搬到宝安了")
    report = refresh_people(root, lines(root, 28, 29, 30), "2026-11-30", PeopleLimits())
    assert report is not None and report.counts.corrected == 1
    li = read_person(root, LI, "李四")
    assert [c.text for c in li.card] == ["李四: 我搬到宝安了"]
    assert {a.text: a.reason.split()[0] for a in li.archive} == {
        "李四: 我家在南山区": "corrected",
        "王芳: 李四住在福田": "settled",
    }
    # the ledger keeps everything that was said
    assert len(li.observations) == 3


def test_limits_archive_the_least_used(tmp_path: Path) -> None:
    root = group_root(tmp_path)
    facts = ["我养了一只猫", "我在腾讯工作", "我会弹吉他", "我喜欢吃辣", "我有两个孩子"]
    note(root, at(28), *(f"李四: {f}" for f in facts), "李四: 我会弹吉他，弹了十年" + "很久" * 120)
    limits = PeopleLimits(max_entries=3, max_entry_chars=40)
    refresh_people(root, lines(root, 28), "2026-11-28", limits)
    li = read_person(root, LI, "李四")
    assert len(li.observations) <= 3 and len(li.card) <= 3
    assert all(len(e.text) <= 40 for e in (*li.observations, *li.card))
    archived = [a for a in li.archive if a.reason.startswith("over the limit")]
    assert archived and all(a.refs for a in archived)


def test_rebuild_regenerates_only_on_request(tmp_path: Path) -> None:
    root = group_root(tmp_path)
    note(root, at(28), "李四: 我家在南山区", "王芳: 李四下个月结婚")
    refresh_people(root, lines(root, 28), "2026-11-28", PeopleLimits())
    card_file = root.path / "people" / LI / "card.md"
    card_file.write_text(card_file.read_text(encoding="utf-8").replace("南山区", "南山"), "utf-8")
    counts = rebuild(root, LI, "2026-11-29", PeopleLimits(), model=None)
    assert counts.carded == 2
    li = read_person(root, LI, "李四")
    assert {c.text for c in li.card} == {"李四: 我家在南山区", "王芳: 李四下个月结婚"}
    assert {a.reason for a in li.archive} == {"rebuilt"}


def test_the_dream_runs_the_people_pass(tmp_path: Path) -> None:
    root = group_root(tmp_path)
    note(root, at(29), "李四: 我家在南山区", "王芳: 李四下个月结婚")
    report = run_dream(root, DreamOptions(engine="extractive"), model=None, now=at(29, 23, 58))
    assert report.people is not None and report.people["carded"] == 2
    assert "people" in report.to_dict()
    off = run_dream(
        root,
        DreamOptions(engine="extractive", force=True, people=None),
        model=None,
        now=at(29, 23, 59),
    )
    assert off.people is None and "people" not in off.to_dict()
    (hand,) = parse_entries("# x\n- hand written line\n")
    assert hand.by_hand and hand.render() == "- hand written line"


def test_hand_written_lines_are_kept(tmp_path: Path) -> None:
    root = group_root(tmp_path)
    note(root, at(28), "李四: 我家在南山区")
    refresh_people(root, lines(root, 28), "2026-11-28", PeopleLimits(max_entries=1))
    card_file = root.path / "people" / LI / "card.md"
    card_file.write_text(card_file.read_text("utf-8") + "- 李四是素食者\n", encoding="utf-8")
    note(root, at(29), "李四: 我养了一只猫", "李四: 我会弹吉他")
    refresh_people(root, lines(root, 28, 29), "2026-11-29", PeopleLimits(max_entries=1))
    assert "\n- 李四是素食者\n" in card_file.read_text("utf-8")
    rebuild(root, LI, "2026-11-30", PeopleLimits(), model=None)
    assert "\n- 李四是素食者\n" in card_file.read_text("utf-8")


def test_a_malformed_person_file_is_left_alone(tmp_path: Path) -> None:
    root = group_root(tmp_path)
    card_file = root.path / "people" / LI / "card.md"
    card_file.parent.mkdir(parents=True)
    broken = "# 李四\n- x <!-- src: memory/2026-11-28.md#L4; id: c1; seen: many -->\n"
    card_file.write_text(broken, encoding="utf-8")
    note(root, at(28), "李四: 我家在南山区")
    report = refresh_people(root, lines(root, 28), "2026-11-28", PeopleLimits())
    assert report is not None and report.unreadable == [LI]
    assert card_file.read_text("utf-8") == broken
    assert not (card_file.parent / "observations.md").exists()


@pytest.mark.parametrize("point", ["staged", "committed"])
def test_a_crash_leaves_the_old_or_the_new_files(tmp_path: Path, point: str) -> None:
    from memory.transaction import recover

    root = group_root(tmp_path)
    note(root, at(28), "李四: 我家在南山区", "王芳: 李四下个月结婚")
    with pytest.raises(Crash):
        refresh_people(root, lines(root, 28), "2026-11-28", PeopleLimits(), fault=crash_at(point))
    recover(root)
    li = read_person(root, LI, "李四")
    if point == "staged":
        assert li.card == [] and li.observations == []
    else:
        assert len(li.card) == 2 and len(li.observations) == 2
