"""Old values the dream never kept as items, retired all the same.

A note line can give a value and never become an item: the classifier read it as chatter
("so I was 33 until this morning haha", "老板说工资涨到一万五"). When a newer statement the
dream keeps gives the same subject's same slot a new value, that old line goes to the
archive as ``superseded``, citing itself, with the item that replaced it: the archive tells
what the value was, and a later dream (which skips lines archived as superseded) does not
bring it back. The pair is judged exactly as two items are (the engine's judgement is
passed in); a pair the notes leave undecided (a doubt, another speaker) stays as it is.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import timedelta
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar

from memory.chatter import is_question, is_transient
from memory.dream.contradiction import Side, doubts, verdict
from memory.dream.judge import single_slots
from memory.dream.judge.core_words import core_words
from memory.dream.judge.relations import is_future, one_day, other_thing_changed, subject_words
from memory.dream.judge.reversal import others_named
from memory.dream.judge.slots import GOAL, typed_values
from memory.dream.judge.told_change import changed_to, clear_change
from memory.dream.similarity import features
from memory.provenance import ref_lines

if TYPE_CHECKING:
    from memory.dream.extractive import Cluster, Statement

WORTH_JUDGING = 0.9  # a left-out line likelier chatter than this holds no value to retire
NEWS_WORTH = 0.8  # ... nor, likelier chatter than this, a new value to keep unless plain news
NEWS_SURE = 0.95  # ... and likelier chatter than this, none at all: the classifier is sure
OWN_WORD = 3  # a word more kept statements say than this names no one thing of them
COMMON_KEY = 300  # a key this many clusters share says nothing (as the supersede pass)

# Whether the first statement gives the second's slot a new value (the engine's judgement)
Changes = Callable[["Statement", "Statement"], bool]
# Which rule finds the first statement a new value for the second's slot (None: none does)
Ways = Callable[["Statement", "Statement"], "str | None"]
# The rules that find a new value in a slot holding one (one's employer, home, job) and
# those that find a turn of what one does or can, another of the same kind, an age: a
# change they find is news however chatty the line reads (:func:`_news_of_change`)
SLOT_WAYS = frozenset({"joined", "slot", "ended", "gone"})
TURN_WAYS = frozenset({"reversal", "sibling", "age"})


@lru_cache(maxsize=50_000)
def slot_keys(text: str, subject: str) -> tuple[tuple[str, str], ...]:
    """What two statements must share to hold one slot: a content word, a topic family or
    a single-valued slot (the supersede pass's keys; made once a wording: both passes and
    both indexes here read the same heads)."""
    keys = [(subject, "word:" + w) for w in sorted(core_words(text))]
    keys += [(subject, "family:" + f) for f in sorted(features(text).families)]
    keys += [(subject, "slot:" + s) for s in sorted(single_slots.slots(text))]
    # one's weight, in whatever unit and words ("体重150斤" / "称了一下，72公斤了")
    keys += [(subject, "measure:" + m) for m in sorted(_MEASURED_OF_ONE & set(typed_values(text)))]
    return tuple(keys)


# The quantities a number of one subject measures one thing of (its weight), whatever words
# tell it: money, lengths and counts measure many things of one person.
_MEASURED_OF_ONE = frozenset({"num:mass"})


T = TypeVar("T")


def _sharing(index: dict[tuple[str, str], list[T]], st: Statement) -> list[T]:
    """What ``index`` holds under a key of ``st`` no more than :data:`COMMON_KEY` share,
    each once, in the order first found."""
    found: dict[int, T] = {}
    for key in slot_keys(st.text, st.subject):
        if len(index.get(key, ())) <= COMMON_KEY:
            for thing in index.get(key, ()):
                found.setdefault(id(thing), thing)
    return list(found.values())


def _told_gone(statements: list[Statement], st: Statement) -> list[Statement]:
    """The statements naming what ``st`` tells as gone, perhaps by no word a key holds: a
    partner or a pet by name ("和小王分手了": "小王是用户的男朋友", whatever subject it was read
    as), a thing by its kind ("旧车卖了": "开一辆大众朗逸"). The rules judge whose it is."""
    if not single_slots.tells_gone(st.text):
        return []
    who = subject_words(st.subject)
    return [o for o in statements if single_slots.disposed(st.text, o.text, who)]


def _index(things: list[T], head: Callable[[T], Statement]) -> dict[tuple[str, str], list[T]]:
    """``things`` by the keys of their statements (``head``: a thing's statement)."""
    index: dict[tuple[str, str], list[T]] = defaultdict(list)
    for thing in things:
        st = head(thing)
        for key in slot_keys(st.text, st.subject):
            index[key].append(thing)
    return index


def _speakers(st: Statement) -> frozenset[str]:
    """Who said ``st`` (none known for a prior item or a private chat)."""
    return frozenset({st.speaker}) if st.speaker else frozenset()


def _undecided(newer: Cluster, old: Statement) -> bool:
    """Whether the notes leave open which holds (:func:`contradiction.verdict`): the newer
    one doubts, or another speaker says it without a word of a change. Said the same day,
    the later line wins: the older one is no item to keep beside it as a conflict."""
    side = newer.side()
    before = Side(old.text, min(old.day, side.day - timedelta(days=1)), _speakers(old))
    return verdict(side, before) == "open"


def left_out_olds(
    left_out: list[Statement], kept: list[Cluster], changes: Changes
) -> list[tuple[Statement, Cluster]]:
    """Each statement of ``left_out`` (note lines the dream did not keep) that a newer
    cluster of ``kept`` replaces (``changes(head, old)``: the engine's pair judgement), with
    the newest such cluster; a line any cluster cites is not left out, and each line is
    retired once."""
    cited = {line for c in kept for line in ref_lines(c.refs)}
    index = _index(kept, lambda cluster: cluster.head)
    out: list[tuple[Statement, Cluster]] = []
    done: set[tuple[str, int]] = set()
    for st in left_out:
        lines = ref_lines(st.refs)
        if st.prior is not None or st.chatter >= WORTH_JUDGING or lines & (cited | done):
            continue
        newer = sorted(
            (c for c in _sharing(index, st) if c.latest > (st.day, st.order)),
            key=lambda c: c.latest,
            reverse=True,
        )
        for cluster in newer:
            if not changes(cluster.head, st):
                continue
            if _undecided(cluster, st):
                continue
            out.append((st, cluster))
            done |= lines
            break
    return out


# A question asked inside a line, with no question mark: one of two ways ("会不会更便宜"),
# "wondering whether/if"
_ASKS = re.compile(
    r"(会不会|是不是|要不要|能不能|可不可以|该不该|好不好|行不行|有没有|"
    r"算不算)|(?i:\b(?:wonder(?:s|ed|ing)?|not sure|unsure) (?:whether|if)\b)"
)


def _told_plainly(st: Statement) -> bool:
    """Whether ``st`` tells a state as it now is: no question ("要不要换台MacBook Pro？", "用户
    问搬到昌平会不会更便宜": :func:`chatter.is_transient`, :data:`_ASKS`), no doubt, no plan
    ("rating will tank"), nothing of one day only ("电脑今天有点卡") unless it says a
    change."""
    text = st.text
    if is_question(text) or is_transient(text) or _ASKS.search(text) or doubts(text):
        return False
    if st.kind == "plan" or is_future(text):
        return False
    return clear_change(text) or not one_day(text)


def _names_its_thing(new: Statement, old: Statement, spread: Counter[str]) -> bool:
    """Whether ``new`` names what ``old`` tells of by a word of its own ("联想小新", "雅思"):
    a content word both say beyond their subject's name, no number or single character,
    no topic's word (a topic family's: "work", "手机") and rare: no more than
    :data:`OWN_WORD` kept statements say it (``spread``: how many say each word)."""
    who = subject_words(new.subject) | subject_words(old.subject)
    shared = core_words(new.text) & core_words(old.text)
    return any(
        w not in who
        and len(w) > 1
        and not any(ch.isdigit() for ch in w)
        and not features(w).families
        and spread[w] <= OWN_WORD
        for w in shared
    )


_NAME = re.compile(r"(?<![A-Za-z0-9'])(?=[A-Za-z0-9]*[A-Z])[A-Za-z][A-Za-z0-9]*")  # capitalised


def _named(text: str) -> frozenset[str]:
    """The words ``text`` writes with a capital, but the first of a sentence (capitalised
    as any word there is): "got a Skoda Fabia now", "ditched Virgin, BT now"."""
    out: set[str] = set()
    for sentence in re.split(r"[;；。!！?？:：]|\.(?:\s|$)", text):
        found = [m.group(0) for m in _NAME.finditer(sentence)]
        out.update(w.lower() for w in found if not sentence.lstrip().startswith(w))
    return frozenset(out)


def _gives_new_value(new: Statement, old: Statement) -> bool:
    """Whether ``new`` names a value ``old`` does not: another value of a type both give
    ("7分" / "6分"), or a name ``old`` never writes ("新买了一台MacBook Pro")."""
    mine, theirs = typed_values(new.text), typed_values(old.text)
    if any(mine[t] - theirs[t] for t in set(mine) & set(theirs) - {"date"}):
        return True
    who = subject_words(new.subject) | {w.lower() for w in subject_words(old.subject)}
    return bool(_named(new.text) - _named(old.text) - core_words(old.text) - who)


def _news_of_change(new: Statement, old: Statement, way: str) -> bool:
    """Whether the rule that found ``new`` a change of ``old`` (``way``) tells it whatever
    the line's chatter: told of no one day (an event of the moment: "今天把沙发搬到阳台了"),
    no other thing than ``old``'s moved (:func:`other_thing_changed`), no one ``old`` does
    not name (:func:`reversal.others_named`: "表姐订婚了"), and a new value of a
    slot holding one value: found by a slot's rule (:data:`SLOT_WAYS`: "Sam and I broke
    up" after "dating Sam"), or named by a change where both statements fill such a slot
    (:func:`single_slots.slots`: "终于搬到良渚了哈哈" after "住在杭州西湖区"; never "手机壳
    换成蓝色的了" after "手机是iPhone 12"); or a turn of what one does or can, another of
    the same kind or an age (:data:`TURN_WAYS`)."""
    if one_day(new.text) or other_thing_changed(new.said(), old.said()):
        return False
    who = subject_words(new.subject) | subject_words(old.subject)
    if others_named(new.text) - others_named(old.text) - who:
        return False  # someone else's news ("表姐订婚了", "my sister moved to York")
    if way in SLOT_WAYS or way in TURN_WAYS:
        return True
    if not single_slots.slots(new.text) & single_slots.slots(old.text):
        return False
    return bool(changed_to(new.text) - core_words(old.text) - who)


def left_out_news(
    left_out: list[Statement], kept: list[Statement], changes: Ways
) -> list[Statement]:
    """The statements of ``left_out`` (note lines read as chatter) that give a kept
    statement's slot a new value (``changes(new, old)``: which of the engine's rules finds
    it, when its pair judgement retires the older too; "用户：唉 房租涨到4100了" after
    "房租每个月3800"): no chatter, since a value changed; kept, they retire the old value as
    any item does. Only for an older statement said before, never a doubt or another
    speaker's word against it, and only told plainly (:func:`_told_plainly`). A line the
    classifier finds likelier chatter than :data:`NEWS_WORTH` is news when the rule that
    found it tells a change by itself (:func:`_news_of_change`: "终于搬到良渚了哈哈"), or,
    below :data:`NEWS_SURE`, when it names the older's own thing (:func:`_names_its_thing`)
    and a new value for it (:func:`_gives_new_value`): "用户提到联想小新坏了，新买了一台
    MacBook Pro" after "用户的电脑是一台联想小新", never "电脑今天有点卡". An older left out
    too, that held a value (below :data:`WORTH_JUDGING`), is changed only by a rule's news
    ("哈哈我脱单了！" after "用户单身"); the older then goes to the archive by
    :func:`left_out_olds`."""
    # a left-out line that held a value (:data:`WORTH_JUDGING`) is an older too: news of a
    # change is news whether or not its older was read as chatter ("用户单身" / "我脱单了")
    held = [st for st in left_out if st.prior is None and st.chatter < WORTH_JUDGING]
    index = _index(kept + held, lambda st: st)
    unkept = {id(st) for st in held}
    spread = Counter(w for st in kept for w in core_words(st.text))
    out: list[Statement] = []
    for st in left_out:
        if st.prior is not None or not _told_plainly(st):
            continue  # no news: a question, a plan, what held one day ("今天称了78公斤")
        plain = st.chatter >= NEWS_WORTH  # only news a rule tells, or of the older's thing
        band = st.chatter < NEWS_SURE
        if not band and one_day(st.text):
            continue  # only a rule's news (:func:`_news_of_change`), never of one day
        side = Side(st.text, st.day, _speakers(st))
        aimed = GOAL.search(st.text) is not None  # once a line, not once a pair
        for older in _sharing(index, st) + _told_gone(kept + held, st):
            if older is st or (older.day, older.order) >= (st.day, st.order):
                continue
            if aimed and not GOAL.search(older.text):
                continue  # a value aimed for ("争取7分") leaves the one held
            way = changes(st, older)
            if way is None:
                continue
            if (plain or id(older) in unkept) and not _news_of_change(st, older, way):
                if id(older) in unkept or not band:
                    continue  # of an older read as chatter, or sure chatter: a rule's news only
                if not (_names_its_thing(st, older, spread) and _gives_new_value(st, older)):
                    continue
            if verdict(side, Side(older.text, older.day, _speakers(older))) == "open":
                continue
            out.append(st)
            break
    return out


__all__ = ["WORTH_JUDGING", "left_out_news", "left_out_olds", "slot_keys"]
