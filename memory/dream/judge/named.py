"""Another named value for the same slot, told in English: a name swapped beside a shared word.

"Our coach is Dan Reilly" and later "Marta Silva is our coach now"; "Gus teaches maths at
Oakridge High" and later "Gus has taken a job at Hillcrest Academy, head of maths"; "track
sessions are at Westfield Park" and later "track moves to the Riverside Stadium". No value's
type shows these changes (no number, no date), and the words they share are few, so the
learned slot judgement is unsure of them; their structure is plain: each names a value (a
run of capitalised words) the other does not, the names share no word, the two share a word
of what the slot is (``coach``, ``maths``, ``track``) beyond the names and the subject, and
the newer says that something changed ("now", "moves", "taken"), not that it holds
("still"). English only: Chinese writes no capitals (its changes name themselves with a
change verb, :func:`memory.dream.judge.relations.replaces`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory.dream.judge import slotmodel
from memory.dream.judge.dates import CALENDAR_WORDS
from memory.dream.judge.relations import Said, whose
from memory.dream.judge.slots import anchors
from memory.search.stemming import stem
from memory.segment import has_cjk

_LABEL = re.compile(r"^[^:：\s]{1,16}(?: [A-Z][a-z]+)?: ")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_SENTENCE = re.compile(r"(?:^|[.!?;:]\s+)")
# Capitalised words that name no value: days, months, the first person, titles.
_NOT_NAMES = CALENDAR_WORDS | frozenset("i i'm i've i'll i'd mr mrs ms dr the user user's".split())
_CALENDAR = frozenset(CALENDAR_WORDS | {stem(w) for w in CALENDAR_WORDS})
NAMED_COSINE = 0.85  # statements of one subject at least this alike may hold one slot
_STOPS = frozenset(".,;:!?()，。")
_JOINERS = frozenset({"of", "the", "de", "van", "von", "and", "&"})


@lru_cache(maxsize=50_000)
def names(text: str) -> frozenset[str]:
    """The named values of ``text``: runs of capitalised words ("Dan Reilly", "Riverside
    Stadium"), lower-cased, without a speaker's label, days and months. A capitalised word
    opening a sentence names something only when a capitalised word follows it ("Marta
    Silva is…", not "Track sessions are…")."""
    body = _LABEL.sub("", text, count=1)
    starts = {m.end() for m in _SENTENCE.finditer(body)}
    words = list(_WORD.finditer(body))
    out: set[str] = set()
    run: list[str] = []

    def close() -> None:
        while run and run[-1].lower() in _JOINERS:
            run.pop()
        if run:
            out.add(" ".join(run).lower())
        run.clear()

    for i, match in enumerate(words):
        word = match.group(0)
        bare = re.sub(r"['’]s$", "", word)
        capital = word[:1].isupper() and bare.lower() not in _NOT_NAMES
        if capital and match.start() in starts and not run:
            after = words[i + 1].group(0) if i + 1 < len(words) else ""
            capital = after[:1].isupper() and after.lower() not in _NOT_NAMES
        if capital:
            run.append(bare)
            if bare != word or body[match.end() : match.end() + 1] in _STOPS:
                close()  # "Dan's": a possessive ends the name, as punctuation does
        elif run and word.lower() in _JOINERS:
            run.append(word.lower())
        else:
            close()
    close()
    return frozenset(out)


def _words_of(values: frozenset[str]) -> frozenset[str]:
    return frozenset(stem(w) for value in values for w in value.split())


def swapped_name(
    newer: str, older: str, who: frozenset[str], *, changed: bool, holds: bool
) -> bool:
    """Whether ``newer`` names another value for the slot ``older`` named (see above).
    ``who``: the subject's words (no value, no slot word); ``changed``/``holds``: whether
    ``newer`` says that something changed, or that the value holds ("still")."""
    if not changed or holds or has_cjk(newer) or has_cjk(older):
        return False
    new_names, old_names = names(newer) - who, names(older) - who
    if not new_names or not old_names:
        return False
    new_words, old_words = _words_of(new_names) - who, _words_of(old_names) - who
    if not new_words or not old_words or new_words & old_words:
        return False  # a name both give: the same value, or two of one slot
    named = new_words | old_words | who | _CALENDAR  # a month both name is no slot
    return bool((anchors(newer) & anchors(older)) - named)


def replaces_name(newer: Said, older: Said, cosine: float | None) -> bool:
    """Whether ``newer`` names another value for ``older``'s slot (:func:`swapped_name`):
    one subject, embeddings at least :data:`NAMED_COSINE` alike, a value ``older`` lacks
    (:func:`slotmodel.could_replace`); never for an identity line, never a plan over a
    present fact ("Our coach is Dan Reilly" -> "Marta Silva is our coach now")."""
    if newer.subject != older.subject or older.kind == "identity" or cosine is None:
        return False
    if newer.future and not older.future and older.kind != "plan":
        return False  # a plan does not change the present
    if cosine < NAMED_COSINE:
        return False
    who = whose(newer, older)
    # the names first: most pairs fail there at once (Chinese, or no change said)
    return swapped_name(
        newer.text,
        older.text,
        who,
        changed=slotmodel.says_change(newer.text),
        holds=slotmodel.says_again(newer.text),
    ) and slotmodel.could_replace(newer.text, older.text, who)


__all__ = ["NAMED_COSINE", "names", "replaces_name", "swapped_name"]
