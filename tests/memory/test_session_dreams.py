"""The session log in a dream cycle: light stages what was said, counts each line once."""

from __future__ import annotations

from datetime import datetime, timedelta

from mem_support import at

from memory import session_log
from memory.dream import DreamOptions, run_dream
from memory.dream.session_source import load_cursors
from memory.dream.short_term import Candidate, load_short_term
from memory.forget import apply_forget, plan_forget
from memory.paths import MemoryRoot

OPTIONS = DreamOptions(days=3, engine="extractive")


def say(root: MemoryRoot, when: datetime, content: str, role: str = "user") -> None:
    session_log.append(root, when, [session_log.encode(when, role, content)])


def candidates(root: MemoryRoot) -> list[Candidate]:
    return sorted(load_short_term(root).candidates.values(), key=lambda c: c.key)


def about(root: MemoryRoot, words: str) -> list[Candidate]:
    return [c for c in candidates(root) if words in c.text]


def test_light_stages_what_users_said_and_a_second_dream_counts_nothing_twice(
    root: MemoryRoot,
) -> None:
    first = at(29, 9)
    say(root, first, "My sister Amelie moved to Grenoble last spring")
    say(root, first, "Grenoble is lovely in spring", role="assistant")
    say(root, first, "I play the cello in a community orchestra")
    report = run_dream(root, OPTIONS, model=None, now=at(29, 12))
    assert report.status == "done", report.reason  # a session log alone is material
    (amelie,) = about(root, "Amelie")
    assert [str(r) for r in amelie.refs] == ["sessions/2026-11-29.jsonl#L1"]
    assert about(root, "lovely") == []  # the assistant's words are not evidence
    assert load_cursors(root)["sessions/2026-11-29.jsonl"].lines == 3

    later = at(29, 18)
    say(root, later, "My sister Amelie moved to Grenoble last spring, near the river")
    assert run_dream(root, OPTIONS, model=None, now=later).status == "done"
    (amelie,) = about(root, "Amelie")  # the restatement joins the staged candidate
    assert [str(r) for r in amelie.refs] == [
        "sessions/2026-11-29.jsonl#L1",
        "sessions/2026-11-29.jsonl#L4",
    ]
    assert amelie.recall_count == 2  # two lines, each counted once
    (cello,) = about(root, "cello")
    assert cello.recall_count == 1

    again = run_dream(
        root, DreamOptions(days=3, engine="extractive", force=True), model=None, now=later
    )
    assert again.status == "done"
    assert [c.recall_count for c in about(root, "Amelie")] == [2]
    assert [c.recall_count for c in about(root, "cello")] == [1]


def test_a_log_rewritten_by_forget_is_read_again_without_doubling(root: MemoryRoot) -> None:
    when = at(29, 9)
    say(root, when, "The surprise party for Zora is on Friday")
    say(root, when, "I play the cello in a community orchestra")
    run_dream(root, OPTIONS, model=None, now=at(29, 10))
    assert len(about(root, "cello")) == 1 and len(about(root, "Zora")) == 1
    apply_forget(root, plan_forget(root, "Zora"))
    report = run_dream(root, OPTIONS, model=None, now=at(29, 11))
    assert report.status == "done", report.reason
    assert [c.recall_count for c in about(root, "cello")] == [1]
    assert about(root, "Zora") == []  # forget scrubs its candidate too


def test_an_unchanged_log_is_an_unchanged_input(root: MemoryRoot) -> None:
    say(root, at(29, 9), "I play the cello in a community orchestra")
    assert run_dream(root, OPTIONS, model=None, now=at(29, 10)).status == "done"
    skipped = run_dream(root, OPTIONS, model=None, now=at(29, 11))
    assert skipped.status == "skipped" and "unchanged" in skipped.reason
    say(root, at(29, 12), "I also sing in the choir on Tuesdays")
    assert run_dream(root, OPTIONS, model=None, now=at(29, 13)).status == "done"
    outside = run_dream(root, OPTIONS, model=None, now=at(29, 13) + timedelta(days=5))
    assert outside.reason == "no daily notes in the last 3 day(s)"
