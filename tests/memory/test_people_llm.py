"""The model may word deductions and inductions; the verifier decides (over the fake
OpenAI-compatible server)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memory.dream import DreamOptions, run_dream
from memory.paths import MemoryRoot
from memory.people.directory import record_sighting
from memory.people.files import read_person
from memory.people.verify import check_deduction, check_induction
from tests.fakes.openai_server import FakeOpenAI, completion
from tests.memory.mem_support import at, note

LI = "telegram-42"


def test_the_verifier_keeps_deductions_and_inductions_apart(
    tmp_path: Path, llm: FakeOpenAI
) -> None:
    root = MemoryRoot(tmp_path)
    record_sighting(root, "telegram:42", "李四", at(29, 9))
    record_sighting(root, "telegram:7", "王芳", at(29, 9))
    note(root, at(29), "李四: 我家在南山区", "王芳: 李四下个月结婚", "李四: 我每周六去爬山")
    people_answer = completion(
        json.dumps(
            {
                "card": [
                    {"text": "李四住在南山区", "premises": ["o1"]},  # follows from o1
                    {"text": "李四住在北京朝阳区", "premises": ["o1"]},  # unsupported
                    {"text": "李四下个月结婚", "premises": []},  # no premises
                    {"text": "李四通常周末去爬山", "premises": ["o3"]},  # an induction
                    {"text": "李四下个月结婚", "premises": ["o9"]},  # an unknown premise
                ],
                "inductions": [
                    {"text": "李四通常每周六去爬山", "premises": ["o3"], "confidence": 0.5},
                    {"text": "李四喜欢游泳", "premises": ["o3"], "confidence": 0.5},  # unsupported
                    {"text": "李四每周六去爬山", "premises": ["o3"], "confidence": 1.5},
                ],
            },
            ensure_ascii=False,
        )
    )
    seen: list[str] = []

    def route(request: dict[str, Any]) -> Any:
        system = request["messages"][0]["content"]
        if system.startswith("You keep notes about one member"):
            seen.append(request["messages"][1]["content"])
            return people_answer
        return None  # the dream's own calls get the server's default answers

    llm.route = route
    model = llm.chat_model("m", "sk-test")
    report = run_dream(root, DreamOptions(engine="llm"), model=model, now=at(29, 23, 58))
    assert report.people is not None
    assert report.people["rejected"] == 6  # 4 card lines, 2 inductions
    li = read_person(root, LI, "李四")
    card = [c.text for c in li.card]
    assert "李四住在南山区" in card
    assert not any("北京" in c or "通常" in c for c in card)
    worded = next(c for c in li.card if c.text == "李四住在南山区")
    assert worded.premises == ("o1",) and [str(r) for r in worded.refs] == [
        "memory/2026-11-29.md#L4"
    ]
    inductions = [e for e in li.observations if e.kind == "induction"]
    assert [(e.text, e.confidence, e.premises) for e in inductions] == [
        ("李四通常每周六去爬山", 0.5, ("o3",))
    ]
    # what the model saw was the ledger, by id
    assert len(seen) == 1 and "o1: 李四: 我家在南山区" in seen[0]


def test_check_functions_name_the_reason(tmp_path: Path) -> None:
    from memory.people.files import Entry
    from memory.provenance import SourceRef

    ref = SourceRef("memory/2026-11-29.md", 4, 4)
    ledger = {
        "o1": Entry("o1", "Ann: I live in Berlin", (ref,)),
        "i1": Entry("i1", "Ann: I usually cycle", (ref,), kind="induction", confidence=0.3),
    }
    assert check_deduction("Ann lives in Berlin", ["o1"], ledger, ["Ann"]).ok
    assert "induction" in check_deduction("Ann tends to live in Berlin", ["o1"], ledger, []).reason
    assert "premises" in check_deduction("Ann lives in Berlin", [], ledger, []).reason
    assert "rest on" in check_deduction("Ann cycles", ["i1"], ledger, ["Ann"]).reason
    assert "support" in check_deduction("Ann works at Siemens", ["o1"], ledger, ["Ann"]).reason
    assert "doubt" in check_deduction("Ann maybe lives in Berlin", ["o1"], ledger, []).reason
    assert check_induction("Ann usually lives in Berlin", ["o1"], 0.4, ledger, ["Ann"]).ok
    assert not check_induction("Ann usually lives in Berlin", ["o1"], "high", ledger, []).ok
