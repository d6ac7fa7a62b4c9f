"""Whether a judged pair retires the older statement: the last word, learned from scenarios.

The supersede pass asks of each (newer, older) pair of one subject whether the newer gives a
new value for the older's slot, and three judgements answer: the rules (:mod:`relations`,
:mod:`single_slots`), the learned slot model (:mod:`slotmodel`) and the English name swap
(:mod:`named`). Each was tuned alone; together they retire some durable facts and miss some
changes. This model reads what each of them said about a pair, beside a few facts about the
pair (the slot model's features, the two statements' kinds, whose they are, whether the
older packs several clauses or comes from the prior MEMORY.md), and gives the probability
that the older is an old value the newer replaces.

It is trained by ``python bench/train_change.py`` on the pairs the dream itself judges on the
dev scenarios (``bench/change_pairs.py`` labels them from the scenarios' labels: 1,352 pairs,
104 changes, 30 scenarios), its threshold chosen where right retirements less three times
the wrong ones peak with each scenario left out of training in turn (0.8: 68 of 104 changes
and 9 non-changes retired, against 71 and 15 by the ways found alone); the weights ship in
``changemodel.json``. Without the file, or without embeddings (no slot features), the ways
found decide alone.

Two features carry what two rules once decided beside it: ``end_told`` (the newer tells by
name the end of the partner or pet the older names: "Sam and I broke up", "Biscuit died")
and ``stage_moved`` (a partner's stage moved on: engaged, then married). No dev pair has
them; ``python bench/train_change.py --anchor <the file before> --freeze --steps 30000 --l2
0.001`` fitted their two weights alone (the others and the bias kept) on the dev pairs and
the pairs of the tuned-on probe rows and ``bench/data/judge/change_pairs_written.tsv``
(``bench/change_pairs.py --split probes``): 1,579 pairs, 281 changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from memory.dream.judge.logistic import Logistic, load

MODEL_PATH = Path(__file__).with_name("changemodel.json")
WAYS = ("rules", "loose", "learned", "named")
KINDS = ("identity", "plan", "event")

# Of the slot model's features (slotmodel.FEATURES), those read here, by index.
SLOT_FEATURES = (
    ("cosine", 0),
    ("anchors_shared", 1),
    ("grams_shared", 3),
    ("change_newer", 4),
    ("again_newer", 6),
    ("type_changed", 7),
    ("type_repeated", 8),
    ("value_swapped", 9),
    ("family_shared", 10),
    ("future_over_present", 11),
    ("negation_differs", 12),
)

FEATURES = (
    *(f"found_{way}" for way in WAYS),
    "found_none",
    "slot_probability",
    *(name for name, _ in SLOT_FEATURES),
    "same_kind",
    *(f"older_{kind}" for kind in KINDS),
    "newer_plan",
    "other_subject",
    "older_packed",
    "older_prior",
    "language_differs",
    "newer_ahead",
    "end_told",
    "stage_moved",
)


@dataclass(frozen=True)
class Pair:
    """What the judgements and the engine know of one (newer, older) pair."""

    how: str | None  # the way that found a change (one of WAYS), or None
    slot_probability: float
    slot_features: tuple[float, ...] | None  # slotmodel.pair_features, None without a cosine
    newer_kind: str
    older_kind: str
    subject: str
    older_packed: bool
    older_prior: bool
    language_differs: bool
    newer_ahead: bool = False  # the newer names a day still to come, the older does not
    end_told: bool = False  # the newer tells by name the end of a partner or pet the older names
    stage_moved: bool = False  # the newer gives a partner's stage the older gave another of


def pair_features(pair: Pair) -> tuple[float, ...]:
    """The features of ``pair``, in :data:`FEATURES` order."""
    slot = pair.slot_features
    return (
        *(float(pair.how == way) for way in WAYS),
        float(pair.how is None),
        pair.slot_probability,
        *((slot[i] if slot is not None else 0.0) for _, i in SLOT_FEATURES),
        float(pair.newer_kind == pair.older_kind),
        *(float(pair.older_kind == kind) for kind in KINDS),
        float(pair.newer_kind == "plan"),
        float(pair.subject != "user"),
        float(pair.older_packed),
        float(pair.older_prior),
        float(pair.language_differs),
        float(pair.newer_ahead),
        float(pair.end_told),
        float(pair.stage_moved),
    )


ChangeModel = Logistic  # the fitted weights, the bias and the threshold


@lru_cache(maxsize=1)
def model() -> ChangeModel | None:
    """The shipped model (None when the file is missing or names other features)."""
    return load(MODEL_PATH, FEATURES)


def retires(pair: Pair) -> bool:
    """Whether the newer of ``pair`` retires the older: the model's judgement when it ships
    and the pair has embeddings, else whether any way found a change."""
    fitted = model()
    if fitted is None or pair.slot_features is None:
        return pair.how is not None
    if pair.how is None and pair.newer_ahead:
        return False  # what lies ahead changes nothing now, unless a rule says it does
    return fitted.probability(pair_features(pair)) >= fitted.threshold


__all__ = ["FEATURES", "ChangeModel", "Pair", "model", "pair_features", "retires"]
