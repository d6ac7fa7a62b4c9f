"""The dream as a pipeline of phases: one registry, engines behind one contract, the cap
applied once by the deep phase, and an interrupted dream writing nothing."""

from __future__ import annotations

import threading

import pytest
from mem_support import NOW, at, generated, note, tree

from memory.dream import DreamOptions, run_dream
from memory.dream.context import DreamInterrupted
from memory.dream.deep import admit
from memory.dream.inputs import gather
from memory.dream.model import DreamEngine
from memory.dream.registry import ENGINE_CHOICES, choose_engine
from memory.errors import UsageError
from memory.paths import MemoryRoot
from tests.fakes.openai_server import FakeOpenAI

FACTS = [
    "用户喜欢美式咖啡",
    "The user's sister Maria lives in Lisbon",
    "用户计划春天去日本京都旅行",
    "The user is allergic to peanuts",
]


def engines(llm: FakeOpenAI) -> list[DreamEngine]:
    model = llm.chat_model("m", "sk-test")
    llm.json_reply(
        {
            "memory": [
                {"text": f, "sources": [f"memory/2026-11-29.md#L{4 + n}"]}
                for n, f in enumerate(FACTS)
            ]
        }
    )
    return [
        choose_engine(DreamOptions(engine="extractive"), None, None),
        choose_engine(DreamOptions(engine="llm"), model, None),
    ]


def test_registry_names_every_engine_once() -> None:
    assert ENGINE_CHOICES == ("auto", "extractive", "llm")
    assert choose_engine(DreamOptions(engine="auto"), None, None).name == "extractive"
    with pytest.raises(UsageError, match="needs a model"):
        choose_engine(DreamOptions(engine="llm"), None, None)


def test_every_engine_proposes_uncapped_and_the_deep_phase_caps(
    root: MemoryRoot, llm: FakeOpenAI
) -> None:
    note(root, at(29), *FACTS)
    for engine in engines(llm):
        inputs = gather(root, NOW.date(), DreamOptions(days=1, max_items=2))
        proposal = engine.propose(inputs)
        assert sorted(i.text for i in proposal.keep) == sorted(FACTS), engine.name
        admitted = admit(inputs, proposal, list(proposal.keep))
        assert len(admitted.keep) == 2, engine.name
        overflow = [item.text for item, reason in admitted.archive if reason == "overflow"]
        assert len(overflow) == 2 and not set(overflow) & {i.text for i in admitted.keep}


def test_a_dream_asked_to_stop_writes_nothing(root: MemoryRoot) -> None:
    note(root, at(29), *FACTS)
    before = tree(root.path)
    before["memory/.dreams/root.lock"] = b""  # the lock is taken, nothing else is touched
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(DreamInterrupted):
        run_dream(root, DreamOptions(engine="extractive"), model=None, now=NOW, cancel=cancel)
    assert tree(root.path) == before
    report = run_dream(root, DreamOptions(engine="extractive"), model=None, now=NOW)
    assert report.status == "done"
    assert len(generated(root.memory_md)) == 4
