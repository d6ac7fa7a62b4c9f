"""Names a line opens with that say whom it speaks to, or who said it, not whom it is about.

In a group a member's line may open by calling on another member before its news: "陈晨：
刘洋，我搬到渝中区了", "Omar: Priya, I moved to Hove", "Omar: Sam, Priya: I moved to Hove"
(worded "陈晨：刘洋，陈晨搬到…", "Omar: Priya, Omar moved…": the first person made the
speaker's name). The member called on is no subject: the news is whoever the next name is,
here the speaker. A summary's frame dropped by the wording ("刘洋说陈晨在银行上班" and
"用户说陈晨在银行上班" worded "刘洋陈晨在银行上班", "用户陈晨在银行上班") leaves two names side
by side, the teller's and the told-of: the words are about the second.

Both are read only where a member's name follows: a name followed by anything else is the
line's subject as before ("Omar: Priya moved to Hove" is Priya's news, "陈晨：刘洋，你搬家
了？" asks about 刘洋).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# between a name called on and what follows it: a comma or a colon ("Priya, …", "刘洋，…"),
# in English a space too ("Priya I moved …")
_ZH_SEPARATOR = re.compile(r"[，,、：:!！]\s*")
_EN_SEPARATOR = re.compile(r"[,:!]\s*|\s+")
# between a teller and the member told of, at the start of a line: as above but no colon
# (that is a speaker's label), and nothing at all in Chinese (a frame dropped)
_ZH_SIDE = re.compile(r"(?:[，,、!！]\s*)?")
_EN_SIDE = re.compile(r"[,!]\s*|\s+|")


def opening_name(text: str, names: Iterable[str]) -> str:
    """The longest of ``names`` ``text`` opens with ("@" before it or not), a whole word in
    English; "" when none."""
    body = text[1:] if text.startswith("@") else text
    for name in sorted(names, key=len, reverse=True):
        if not body.startswith(name):
            continue
        after = body[len(name) : len(name) + 1]
        if not name.isascii() or not (after.isalnum() or after in "'’"):
            return text[: len(text) - len(body) + len(name)]
    return ""


def unaddressed(body: str, names: frozenset[str]) -> str:
    """``body`` (what a member's line says after its label) without the members it opens by
    calling on: each a member's name and a separator (:data:`_ZH_SEPARATOR`,
    :data:`_EN_SEPARATOR`) with another member's name next ("刘洋，陈晨搬到…" -> "陈晨搬到…");
    ``body`` itself when it opens otherwise."""
    rest = body
    while True:
        name = opening_name(rest, names)
        if not name:
            return rest
        after = rest[len(name) :]
        separator = (_EN_SEPARATOR if name.isascii() else _ZH_SEPARATOR).match(after)
        if separator is None:
            return rest
        following = after[separator.end() :]
        if not opening_name(following, names) or following.startswith(name.lstrip("@")):
            return rest
        rest = following


def told_of(text: str, names: frozenset[str], tellers: Iterable[str] = ("用户",)) -> str:
    """What a line says of the member its second name is, when it opens with two names side
    by side or a comma apart, a teller (a member, or one of ``tellers``) and a member
    ("刘洋陈晨在银行上班", the frame between them dropped; "刘洋，陈晨搬到…", "Priya, Omar moved
    …", the first called on): the text from the second name; "" otherwise. A colon after the
    first is its speaker's label, not this."""
    teller = opening_name(text, [*names, *tellers])
    if not teller:
        return ""
    after = text[len(teller) :]
    separator = _ZH_SIDE if not teller.isascii() else _EN_SIDE
    rest = after[separator.match(after).end() :]  # type: ignore[union-attr]
    other = opening_name(rest, names)
    if not other or other == teller or teller.startswith(other) or other.startswith(teller):
        return ""
    return rest


__all__ = ["opening_name", "told_of", "unaddressed"]
