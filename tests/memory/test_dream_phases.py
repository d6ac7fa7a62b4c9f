"""The phases' guarantees: REM themes, truths and verified reflections; bad stores are
rebuilt or reported, never fatal; the recall store is part of the input hash; a crash at
any write point leaves the old or the new state; a dream stops promptly when asked."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from mem_support import NOW, Crash, at, copy_root, crash_at, note, read, tree

from memory.dream import DreamOptions, run_dream
from memory.dream.context import DreamInterrupted
from memory.dream.short_term import load_short_term
from memory.paths import MemoryRoot
from memory.recall_store import read_recalls, record_hits, store_path
from memory.transaction import recover
from tests.fakes.openai_server import FakeOpenAI, Scripted, completion

EXTRACTIVE = DreamOptions(days=3, engine="extractive")
FABRICATED = "用户养了一只叫旺财的金毛犬"


def seed(root: MemoryRoot) -> None:
    note(root, at(27), "用户喜欢美式咖啡", "用户每周六去爬山")
    note(root, at(28), "用户喜欢美式咖啡，不加糖", "用户周六爬山时带着相机")
    note(root, at(29), "用户还是喜欢美式咖啡", "用户的女儿叫小雨")


def hit(path: str, line: int) -> dict:
    return {"path": path, "start_line": line, "end_line": line, "score": 0.7}


def test_rem_finds_themes_and_truths_and_records_signals(root: MemoryRoot) -> None:
    seed(root)
    record_hits(root, "爬山", [hit("memory/2026-11-27.md", 5)], when=at(28, 9), via="tool")
    report = run_dream(root, EXTRACTIVE, model=None, now=NOW)
    assert report.phases.rem["truths"] >= 1 and report.phases.rem["themes"] >= 1
    rem = read(root.phase_report("rem", NOW.date())) or ""
    assert "用户喜欢美式咖啡" in rem  # said on three days: a possible lasting truth
    assert "爬山" in rem and "memory/2026-11-27.md#L5" in rem  # a theme, with its evidence
    store = load_short_term(root)
    assert sum(c.rem_hits for c in store.candidates.values()) >= 2
    assert all(c.light_hits == 1 for c in store.candidates.values())


def test_reflections_are_verified_and_fabricated_ones_rejected(
    root: MemoryRoot, llm: FakeOpenAI
) -> None:
    seed(root)

    def answer(request: dict) -> Scripted | None:
        system = request["messages"][0]["content"]
        if system.startswith("You are the REM phase"):
            body = {
                "reflections": [
                    {
                        "text": "用户一直喜欢美式咖啡",
                        "sources": ["memory/2026-11-27.md#L4", "memory/2026-11-29.md#L4"],
                    },
                    {"text": FABRICATED, "sources": ["memory/2026-11-28.md#L4"]},
                    {"text": "用户喜欢拿铁", "sources": ["memory/2026-11-28.md#L99"]},
                ]
            }
        else:
            body = {
                "memory": [
                    {"text": "用户喜欢美式咖啡，不加糖", "sources": ["memory/2026-11-28.md#L4"]}
                ],
                "diary": "ok",
            }
        return completion(json.dumps(body, ensure_ascii=False))

    llm.route = answer
    model = llm.chat_model("m", "sk-test")
    report = run_dream(root, DreamOptions(days=3, engine="llm"), model=model, now=NOW)
    assert report.status == "done", report.reason
    rem = read(root.phase_report("rem", NOW.date())) or ""
    assert "用户一直喜欢美式咖啡" in rem
    assert "rejected 2" in rem or "拒绝 2" in rem
    for content in tree(root.path).values():
        assert FABRICATED.encode() not in content  # never written, anywhere


def test_a_corrupt_short_term_store_is_set_aside_and_rebuilt(root: MemoryRoot) -> None:
    seed(root)
    assert run_dream(root, EXTRACTIVE, model=None, now=at(29, 12)).status == "done"
    (root.state_dir / "short-term.json").write_text('{"candidates": [{"key": 1', encoding="utf-8")
    report = run_dream(
        root,
        EXTRACTIVE,
        model=None,
        now=NOW,
    )
    assert report.status == "done"
    assert "short-term store" in report.diary
    assert list(root.state_dir.glob("short-term.json.bad-*"))
    assert load_short_term(root).candidates and not load_short_term(root).problem


def test_unreadable_recalls_are_reported_and_repaired(root: MemoryRoot) -> None:
    seed(root)
    record_hits(root, "咖啡", [hit("memory/2026-11-27.md", 4)], when=at(28, 9), via="tool")
    with open(store_path(root), "ab") as handle:
        handle.write(b"\x00\xff not json\n")
    report = run_dream(root, EXTRACTIVE, model=None, now=NOW)
    assert report.status == "done"
    light = read(root.phase_report("light", NOW.date())) or ""
    assert "1 unreadable line(s)" in light
    read_back = read_recalls(root)
    assert read_back.bad_lines == 0 and len(read_back.recalls) == 1


def test_the_recall_store_is_part_of_the_input_hash(root: MemoryRoot) -> None:
    seed(root)
    assert run_dream(root, EXTRACTIVE, model=None, now=NOW).status == "done"
    assert run_dream(root, EXTRACTIVE, model=None, now=NOW).status == "skipped"
    record_hits(root, "女儿", [hit("memory/2026-11-29.md", 5)], when=NOW, via="tool")
    assert run_dream(root, EXTRACTIVE, model=None, now=NOW).status == "done"
    assert run_dream(root, EXTRACTIVE, model=None, now=NOW).status == "skipped"


def watched(root: MemoryRoot) -> dict[str, bytes]:
    """Every file a dream cycle writes (the memory, the stores, reports, diary, state)."""
    return {
        k: v
        for k, v in tree(root.path).items()
        if not k.endswith(".lock") and "/history/" not in k and "events.jsonl" not in k
    }


def test_a_crash_at_any_write_point_leaves_old_or_new(root: MemoryRoot, tmp_path: Path) -> None:
    seed(root)
    record_hits(root, "爬山", [hit("memory/2026-11-27.md", 5)], when=at(28, 9), via="tool")
    assert run_dream(root, EXTRACTIVE, model=None, now=at(28, 23)).status == "done"
    note(root, at(29, 23, 56), "用户改喝拿铁了")
    reference = copy_root(root, tmp_path / "reference")
    points: list[str] = []
    assert (
        run_dream(reference, EXTRACTIVE, model=None, now=NOW, fault=points.append).status == "done"
    )
    moved = {p for p in points if p.startswith("moved ")}
    assert {
        "moved memory/.dreams/short-term.json",
        "moved memory/dreaming/light/2026-11-29.md",
        "moved memory/dreaming/deep/2026-11-29.md",
    } <= moved
    old, new = watched(root), watched(reference)
    for number, point in enumerate(points):
        copy = copy_root(root, tmp_path / f"crash{number}")
        with pytest.raises(Crash):
            run_dream(copy, EXTRACTIVE, model=None, now=NOW, fault=crash_at(point))
        recover(copy)
        state = watched(copy)
        assert state == (old if point == "staged" else new), point


@pytest.mark.parametrize("where", ["light", "engine"])
def test_a_dream_asked_to_stop_mid_phase_stops_and_writes_nothing(
    root: MemoryRoot, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    for day in (27, 28, 29):
        note(root, at(day), *[f"用户的第{n}个爱好是收集第{n * day}号邮票" for n in range(300)])
    before = tree(root.path)
    cancel = threading.Event()
    if where == "light":  # the stop request arrives while light merges restatements
        from memory.dream.judge import relations

        real = relations.same_fact

        def same_fact(*args: object, **kwargs: object) -> bool:
            cancel.set()
            return real(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(relations, "same_fact", same_fact)
    else:  # ... or while the engine looks for superseded statements
        from memory.dream.extractive import ExtractiveEngine

        real_supersede = ExtractiveEngine._supersede

        def supersede(self: ExtractiveEngine, clusters: list) -> list:  # type: ignore[type-arg]
            cancel.set()
            return real_supersede(self, clusters)

        monkeypatch.setattr(ExtractiveEngine, "_supersede", supersede)
    with pytest.raises(DreamInterrupted):
        run_dream(root, EXTRACTIVE, model=None, now=NOW, cancel=cancel)
    after = tree(root.path)
    after.pop("memory/.dreams/root.lock", None)
    assert after == before


def test_recalls_recorded_while_a_dream_runs_are_kept(root: MemoryRoot) -> None:
    seed(root)
    stop = threading.Event()
    written = []

    def recall() -> None:
        n = 0
        while not stop.is_set() or n < 50:
            written.append(
                record_hits(root, f"q{n}", [hit("memory/2026-11-28.md", 4)], when=NOW, via="tool")
            )
            n += 1

    thread = threading.Thread(target=recall)
    thread.start()
    for hour in range(3):
        run_dream(
            root,
            EXTRACTIVE,
            model=None,
            now=at(29, 20 + hour),
        )
    stop.set()
    thread.join(30)
    assert len(read_recalls(root).recalls) == sum(written) >= 50


def _history(root: MemoryRoot) -> Path:
    folder = root.notes_dir / "history"
    folder.mkdir(exist_ok=True)
    (folder / "2026-10-03.md").write_text(
        "# Daily Memory: 2026-10-03\n\n## Daily Summary (23:55)\n- 用户那时住在杭州\n",
        encoding="utf-8",
    )
    return folder


def _crash_points(run, root: MemoryRoot, tmp_path: Path, name: str):  # type: ignore[no-untyped-def]
    """Every fault point of ``run(root, fault)``, each crashed on a copy: old or new."""
    reference = copy_root(root, tmp_path / f"{name}-reference")
    points: list[str] = []
    run(reference, points.append)
    assert points[:2] == ["staged", "committed"]
    old, new = watched(root), watched(reference)
    assert old != new
    for number, point in enumerate(points):
        copy = copy_root(root, tmp_path / f"{name}{number}")
        with pytest.raises(Crash):
            run(copy, crash_at(point))
        recover(copy)
        assert watched(copy) == (old if point == "staged" else new), (name, point)


def test_backfill_rollbacks_and_promote_apply_are_crash_safe(
    root: MemoryRoot, tmp_path: Path
) -> None:
    from memory.dream.backfill import backfill, rollback, rollback_short_term
    from memory.dream.preview import apply_promotions

    seed(root)
    folder = _history(root)
    for day, query in ((27, "咖啡"), (28, "美式"), (29, "喝什么咖啡")):
        record_hits(root, query, [hit("memory/2026-11-27.md", 4)], when=at(day, 9), via="tool")

    def fill(r: MemoryRoot, fault):  # type: ignore[no-untyped-def]
        backfill(r, r.notes_dir / folder.name, NOW, stage_short_term=True, fault=fault)

    def promote(r: MemoryRoot, fault):  # type: ignore[no-untyped-def]
        done = apply_promotions(
            r, EXTRACTIVE, NOW, model=None, limit=10, include_promoted=False, fault=fault
        )
        assert done.applied == 1

    _crash_points(promote, root, tmp_path, "promote")
    _crash_points(fill, root, tmp_path, "backfill")
    fill(root, None)
    _crash_points(lambda r, fault: rollback(r, fault), root, tmp_path, "rollback")
    _crash_points(lambda r, fault: rollback_short_term(r, fault), root, tmp_path, "rollback-short")


def test_light_leaves_out_and_merges_what_the_engine_does(root: MemoryRoot) -> None:
    """The light phase and the extractive engine share their judgement of the lines."""
    from memory.dream.registry import choose_engine, phases
    from memory.dream.runner import open_context

    note(
        root,
        at(28),
        "你好",
        "好的，谢谢",
        "用户喜欢美式咖啡",
        "The user's sister Maria lives in Lisbon",
    )
    note(
        root,
        at(29),
        "哈哈",
        "用户喜欢美式咖啡",
        "用户还是喜欢美式咖啡",
        "今天天气真好",
        "ok thanks!",
    )
    ctx = open_context(root, EXTRACTIVE, NOW, choose_engine(EXTRACTIVE, None, None))
    phases()[0].run(ctx)  # light
    light = ctx.state.light
    assert light is not None
    proposal = ctx.engine.propose(ctx.inputs)
    assert light.dropped == proposal.dropped == 5
    # one candidate for the coffee, as the engine makes one item of it, citing the same lines
    coffee = [c for c in light.candidates if "美式咖啡" in c.text]
    items = [i for i in proposal.keep if "美式咖啡" in i.text]
    assert len(coffee) == len(items) == 1 and coffee[0].refs == items[0].sources


def test_a_hit_on_two_lines_counts_for_the_line_its_query_names(root: MemoryRoot) -> None:
    note(root, at(28), "用户的护照放在书房蓝色文件夹里", "用户喜欢美式咖啡")
    record_hits(
        root,
        "护照在哪",
        [{"path": "memory/2026-11-28.md", "start_line": 4, "end_line": 5, "score": 0.8}],
        when=at(29, 9),
        via="tool",
    )
    report = run_dream(root, EXTRACTIVE, model=None, now=NOW)
    assert report.status == "done"
    store = load_short_term(root)
    counts = {c.text: c.recall_count for c in store.candidates.values()}
    assert counts == {"用户的护照放在书房蓝色文件夹里": 2, "用户喜欢美式咖啡": 1}
