"""Query decomposition: the things a question names side by side, each as its own query.

"老赵和小何谁的年纪大？" names two people and asks one thing of both; one query finds the
lines about whichever the ranking favours, and the answer needs both. :func:`facets` splits
a question at its conjunctions (和 与 跟 同 还是 或者 或 以及 及 、, and, or, vs) into parts
that each hold a content word; every part but the last names a thing, and the last names
a thing followed by what is asked (the predicate). Each facet query is its part plus that
predicate: "老赵谁的年纪大", "小何谁的年纪大". A question without such a conjunction has no
facets. Pure text processing; the search service runs the facet queries (each with its own
keyword side and, by default, the whole question's vector hits: ``SearchSettings.facet_vectors``)
and :func:`memory.search.ranking.cover_facets` merges their best hits into the result.
"""

from __future__ import annotations

import re

from memory.search.keyword_index import is_question_word
from memory.segment import STOPWORDS, tokens, word_spans

CONJUNCTIONS = frozenset("和 与 跟 同 还是 或者 或 以及 及 、 and or vs vs. versus".split())
_TRAILING = re.compile(r"^[\s,，、;；:：]+|[\s,，、;；:：?？!！。.]+$")
MAX_FACETS = 4


def _has_content(text: str) -> bool:
    return any(t not in STOPWORDS and not is_question_word(t) for t in tokens(text))


def _pieces(query: str) -> list[str]:
    """``query`` cut at its conjunction tokens (the conjunctions dropped). Without jieba's
    guessing of unknown words, which would glue a name to its conjunction (赵和小何)."""
    out, start = [], 0
    for word, begin, end in word_spans(query, hmm=False):
        if word.strip().lower() in CONJUNCTIONS:
            out.append(query[start:begin])
            start = end
    out.append(query[start:])
    return [_TRAILING.sub("", p) for p in out]


def _split_head(part: str) -> tuple[str, str]:
    """The last part's leading thing and the rest (the predicate): "小何谁的年纪大" ->
    ("小何", "谁的年纪大")."""
    for word, _, end in word_spans(part):
        if _has_content(word):
            return part[:end], part[end:].strip()
    return part, ""


def facets(query: str) -> list[str]:
    """One query per thing the question names, or ``[]`` when it names one thing."""
    pieces = _pieces(query)
    if len(pieces) < 2 or len(pieces) > MAX_FACETS:
        return []
    if not all(_has_content(p) for p in pieces):
        return []  # "我和老赵一起...": a part without content is no thing of its own
    head, predicate = _split_head(pieces[-1])
    named = [*pieces[:-1], head]
    return [f"{thing}{' ' if predicate and thing.isascii() else ''}{predicate}" for thing in named]
