"""The Dreams view's timeline: read from the dreams' event log, nothing recomputed."""

from __future__ import annotations

import json
from pathlib import Path

from bot.console_timeline import DreamPoint, point, read_timeline, timeline_dict
from memory.paths import MemoryRoot

DONE = {
    "event": "dream",
    "time": "2026-11-30T23:55:00+08:00",
    "status": "done",
    "engine": "extractive",
    "items": 12,
    "added": 3,
    "merged": 1,
    "superseded": 2,
    "archived": 1,
    "rejected": 4,
    "tokens": 310,
}


def test_a_dream_event_is_one_point_with_its_counts() -> None:
    assert point(DONE) == DreamPoint(
        "2026-11-30T23:55:00+08:00", "dream", "done", "extractive", 12, 3, 1, 2, 1, 4, 310
    )
    old = {k: v for k, v in DONE.items() if k != "tokens"}  # before tokens were recorded
    assert point(old) is not None and point(old).tokens is None  # type: ignore[union-attr]
    assert point({**DONE, "event": "promote"}).kind == "promote"  # type: ignore[union-attr]
    failed = point({"event": "dream", "time": "2026-12-01T01:00:00+08:00", "status": "failed"})
    assert failed is not None and (failed.items, failed.added, failed.tokens) == (0, 0, None)


def test_what_is_not_a_dream_that_did_something_is_left_out() -> None:
    assert point({**DONE, "status": "skipped"}) is None
    assert point({**DONE, "event": "trigger"}) is None
    assert point({**DONE, "time": 5}) is None
    assert point(["not", "an", "event"]) is None
    bad = point({**DONE, "added": -3, "merged": True, "items": "12"})
    assert bad is not None and (bad.added, bad.merged, bad.items) == (0, 0, 0)


def test_the_log_is_read_oldest_first_past_torn_lines(tmp_path: Path) -> None:
    root = MemoryRoot(tmp_path)
    assert read_timeline(root) == []
    root.state_dir.mkdir(parents=True)
    lines = [
        json.dumps({**DONE, "time": "2026-11-28T23:55:00+08:00", "items": 5}),
        "{torn",
        json.dumps({**DONE, "status": "skipped"}),
        "",
        json.dumps(DONE),
        '{"event": "dream", "time": "2026-12-01',  # a torn last line
    ]
    (root.state_dir / "events.jsonl").write_text("\n".join(lines), encoding="utf-8")
    assert [p.items for p in read_timeline(root)] == [5, 12]
    assert [p.items for p in read_timeline(root, limit=1)] == [12]
    shown = timeline_dict(root, 2000)
    assert shown["budget"] == 2000 and shown["dreams"][1]["tokens"] == 310


def test_the_keys_the_console_builds_from_names_exist_in_every_language() -> None:
    """``t(`console.phase_${key}`)`` and the like, which the literal scan cannot see."""
    from bot.i18n import Languages

    built = [f"console.phase_{p}" for p in ("light", "rem", "deep")]
    built += [f"console.n_{c}" for c in ("candidates", "staged", "themes", "truths")]
    built += [f"console.n_{c}" for c in ("ranked", "promoted")]
    built += [f"console.tl_{c}" for c in ("added", "merged", "superseded", "archived")]
    built += ["console.tl_rejected", "console.src_keyword", "console.src_vector"]
    built += ["console.src_both", "result.status.done", "result.status.failed"]
    built += ["result.status.skipped"]
    for code, catalogue in Languages().catalogues.items():
        assert [key for key in built if key not in catalogue.messages] == [], code
