"""Retirement without a value's type: an English name swapped beside a word both share
(``judge/named.py``), and a number counted per month that is no measured thing of its own."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest

from memory.dream.extractive import Cluster, ExtractiveEngine, Statement
from memory.dream.judge.named import names, swapped_name
from memory.dream.judge.relations import Said, replaces


def test_names_are_runs_of_capitals_not_days_labels_or_sentence_openers() -> None:
    assert names("Priti: our vet is Dr Alan Moss, on Fridays") == {"alan moss"}
    assert names("Jonas Berg is our treasurer now") == {"jonas berg"}
    assert names("Choir practice is at St Peter's Hall") == {"st peter", "hall"}
    assert names("Pottery moved to the Old Mill. Now it runs at night") == {"old mill"}
    assert names("The Name of the Wind is next") == {"name of the wind"}
    assert names("用户在网易上班") == frozenset()


@pytest.mark.parametrize(
    ("newer", "older", "swapped"),
    [
        # a role, a workplace, a place: the slot's word shared, the names disjoint
        ("Jonas Berg is our treasurer now", "Our treasurer is Ines Carvalho", True),
        ("Theo has joined Northgate Primary to teach art", "Theo teaches art at Elm Park", True),
        ("Choir now rehearses at the Corn Exchange", "Choir rehearses at St Peter's Hall", True),
        # the same name again, nothing changed said, a value held, no shared slot word
        ("Ines Carvalho is our treasurer now", "Our treasurer is Ines Carvalho", False),
        ("Jonas Berg is our treasurer", "Our treasurer is Ines Carvalho", False),
        ("Jonas Berg is still our treasurer", "Our treasurer is Ines Carvalho", False),
        ("Ines has moved to Lisbon", "Our treasurer is Ines Carvalho", False),
        ("Jonas Berg now runs the raffle", "Our treasurer is Ines Carvalho", False),
    ],
)
def test_a_name_swapped_beside_a_shared_word(newer: str, older: str, swapped: bool) -> None:
    from memory.dream.judge import slotmodel

    changed, holds = slotmodel.says_change(newer), slotmodel.says_again(newer)
    assert swapped_name(newer, older, frozenset(), changed=changed, holds=holds) is swapped


def test_the_engine_retires_a_swapped_name_for_one_subject_only() -> None:
    old = Said("Priti: Our vet is Dr Alan Moss, he's lovely", "Priti", "fact")
    new = Said("Priti: Alan retired, so Dr Kate Lund is our vet now", "Priti", "fact")
    assert ExtractiveEngine._named_change(new, old, 0.86)
    assert ExtractiveEngine._judge_change(new, old, 0.86) is not None
    assert not ExtractiveEngine._named_change(new, old, 0.8)  # too far apart
    assert not ExtractiveEngine._named_change(new, old, None)  # no embeddings
    other = Said("Priti: Alan retired, so Dr Kate Lund is our vet now", "Omar", "fact")
    assert not ExtractiveEngine._named_change(other, old, 0.9)
    plan = Said("Priti: Dr Kate Lund will be our vet from March", "Priti", "plan", future=True)
    assert not ExtractiveEngine._named_change(plan, old, 0.9)  # a plan keeps the present


def test_a_number_per_month_is_no_measured_thing_of_its_own() -> None:
    rent = Said("用户：房租每个月 4500，每月 5 号交", "user", "fact")
    mortgage = Said("用户每月房贷 6800 元，还剩 22 年", "user", "fact")
    assert not replaces(mortgage, rent)
    swim = Said("用户每周游泳 3 次", "user", "fact")
    assert not replaces(Said("用户每周加班 2 天", "user", "fact"), swim)
    # the same measured thing still takes a new number
    assert replaces(Said("用户每月房租涨到 4800", "user", "fact"), rent)
    assert replaces(Said("用户每周游泳 4 次了", "user", "fact"), swim)


def _cluster(text: str, subject: str, day: int, vector: list[float]) -> Cluster:
    st = Statement(text, (), date(2027, 2, day), day, subject=subject)
    st.vector = np.array(vector, dtype=np.float32) / np.linalg.norm(vector)
    cluster = Cluster()
    cluster.add(st)
    return cluster


def test_the_supersede_pass_retires_a_swapped_name_and_keeps_other_people_s() -> None:
    coach = _cluster("Gus: Our coach is Dan Reilly, he's brilliant", "Gus", 9, [1.0, 0.0, 0.0])
    rhea = _cluster("Rhea: Our coach is Dan Reilly", "Rhea", 9, [1.0, 0.0, 0.0])
    new = _cluster(
        "Gus: Dan's moving to London, so Marta Silva is our coach now",
        "Gus",
        11,
        [0.88, 0.475, 0.0],
    )
    engine = ExtractiveEngine(embeddings=False)
    assert engine._judge_change(new.head.said(), coach.head.said(), 0.88) == "named"
    retired = engine._supersede([coach, rhea, new])
    assert retired == [coach] and coach.superseded_by is new
    assert rhea.superseded_by is None  # another member's line: never across subjects
