"""The deep phase's upkeep of the core: cold items out, hot entries back, the budget."""

from __future__ import annotations

from datetime import datetime, timedelta

from mem_support import at, generated, note, read

from memory.dream import DreamOptions, run_dream
from memory.dream.budget import memory_tokens
from memory.dream.model import DreamReport
from memory.dream.tiers import TierSettings
from memory.dream.upkeep import due_today
from memory.history import undo
from memory.memory_file import read_archive, read_memory
from memory.paths import MemoryRoot
from memory.recall_store import record_hits
from memory.usage import record_uses, uses_in

TIERS = TierSettings(cold_days=7, hot_uses=3, hot_days=7)
OPTIONS = DreamOptions(days=3, engine="extractive", tiers=TIERS)
FIRST = at(27, 23, 58)


def dream(root: MemoryRoot, when: datetime, options: DreamOptions = OPTIONS) -> DreamReport:
    return run_dream(root, options, model=None, now=when)


def core(root: MemoryRoot) -> list[str]:
    return [i.text for i in read_memory(root).items]


def item_line(root: MemoryRoot, words: str) -> int:
    return next(i.line for i in read_memory(root).items if words in i.text)


def seeded(root: MemoryRoot) -> MemoryRoot:
    note(root, at(27), "The user keeps bees on the roof", "The user's sister Maria lives in Lisbon")
    root.memory_md.write_text("# MEMORY\n\n- Always answer in French\n", encoding="utf-8")
    report = dream(root, FIRST)
    assert report.status == "done"
    return root


def test_an_unused_item_is_demoted_after_the_configured_time_and_undo_brings_it_back(
    root: MemoryRoot,
) -> None:
    seeded(root)
    used = uses_in(root, "MEMORY.md", item_line(root, "bees"), item_line(root, "bees"))
    record_uses(root, used, when=FIRST + timedelta(days=5), via="search")
    assert dream(root, FIRST + timedelta(days=6)).status == "skipped"  # nothing due yet
    later = FIRST + timedelta(days=8)
    assert due_today(root, TIERS, 2000, later.date()) == [
        "cold: The user's sister Maria lives in Lisbon"
    ]
    report = dream(root, later)  # no notes in the window: the move alone is reason enough
    assert report.status == "done", report.reason
    assert core(root) == ["Always answer in French", "The user keeps bees on the roof"]
    (entry,) = read_archive(root)
    assert (entry.text, entry.reason) == ("The user's sister Maria lives in Lisbon", "cold")
    diary = read(root.diary(later.date())) or ""
    assert (
        "cold: “The user's sister Maria lives in Lisbon” (no use, recall or mention for 8 "
        "days, since 2026-11-27)" in diary
    )
    assert undo(root, now=later).startswith("undone")
    assert "Maria" in (read(root.memory_md) or "") and read_archive(root) == []


def test_a_recalled_or_restated_item_stays_and_a_hand_written_one_is_never_demoted(
    root: MemoryRoot,
) -> None:
    seeded(root)
    line = item_line(root, "Maria")
    record_hits(
        root,
        "where does Maria live",
        [{"path": "MEMORY.md", "start_line": line, "end_line": line, "score": 0.8}],
        when=FIRST + timedelta(days=4),
        via="tool",
    )
    note(root, FIRST + timedelta(days=8), "The user keeps bees on the roof")  # restated
    report = dream(root, FIRST + timedelta(days=9, hours=-1))
    assert report.status == "done"
    assert sorted(core(root)) == sorted(
        ["Always answer in French", "The user keeps bees on the roof",
         "The user's sister Maria lives in Lisbon"]
    )  # fmt: skip
    much_later = FIRST + timedelta(days=60)
    dream(root, much_later)
    assert core(root) == ["Always answer in French"]  # what a person wrote stays


def test_a_heavily_used_archive_entry_returns_to_the_core(root: MemoryRoot) -> None:
    seeded(root)
    dream(root, FIRST + timedelta(days=8))  # both items cold: archived
    assert {a.text for a in read_archive(root)} == {
        "The user keeps bees on the roof",
        "The user's sister Maria lives in Lisbon",
    }
    lisbon = next(a for a in read_archive(root) if "Maria" in a.text)
    for day in (9, 10, 11):
        uses = uses_in(root, "memory/archive.md", lisbon.line, lisbon.line)
        record_uses(root, uses, when=FIRST + timedelta(days=day), via="prompt")
    when = FIRST + timedelta(days=12)
    assert due_today(root, TIERS, 2000, when.date()) == [
        "hot: The user's sister Maria lives in Lisbon"
    ]
    report = dream(root, when)
    assert report.returned == 1 and report.added == 0
    assert core(root) == ["Always answer in French", "The user's sister Maria lives in Lisbon"]
    ((_, sources, _),) = generated(root.memory_md)
    assert [str(s) for s in sources] == ["memory/2026-11-27.md#L5"]
    diary = read(root.diary(when.date())) or ""
    assert "Back from the archive: 1" in diary
    assert "“The user's sister Maria lives in Lisbon” (used 3 times in the last 7 days)" in diary
    assert dream(root, when).status == "skipped"  # no second return of the same entry
    assert undo(root, now=when).startswith("undone")
    assert core(root) == ["Always answer in French"]


def test_over_the_budget_a_dream_brings_memory_under_80_percent_and_says_what_moved(
    root: MemoryRoot,
) -> None:
    facts = [
        "The user keeps bees on the roof of the garage",
        "The user's sister Maria lives in Lisbon with two cats",
        "The user plays the cello in a community orchestra",
        "The user is allergic to peanuts and carries an epipen",
        "The user's daughter Ana plays chess at the club",
        "The user works as a nurse at the city hospital",
        "The user prefers green tea without sugar in the morning",
        "The user drives an old blue Volvo estate car",
        "The user's favourite author is Ursula Le Guin",
        "The user runs ten kilometres every Sunday morning",
    ]
    for n, fact in enumerate(facts):
        note(root, at(27, 10, n), fact)
    options = DreamOptions(days=3, engine="extractive", tiers=TIERS, token_budget=100)
    report = dream(root, FIRST, options)
    assert report.status == "done"
    text = read(root.memory_md) or ""
    assert memory_tokens(text) == report.tokens <= 80
    kept, archived = core(root), [a for a in read_archive(root) if a.reason == "budget"]
    assert len(kept) + len(archived) == len(facts)  # moved, never deleted
    assert {a.text for a in archived} | set(kept) == set(facts)
    diary = read(root.diary(FIRST.date())) or ""
    moved = f"{len(archived)} moved to the archive, 0 tightened; now about {report.tokens}"
    assert moved in diary
