"""Names a line opens with that say whom it speaks to, or who said it, not whom it is about.

In a group a member's line may open by calling on another member before its news: "陈晨：
刘洋，我搬到渝中区了", "Omar: Priya, I moved to Hove", "Omar: Sam, Priya: I moved to Hove"
(worded "陈晨：刘洋，陈晨搬到…", "Omar: Priya, Omar moved…": the first person made the
speaker's name). The member called on is no subject: the news is whoever the next name is,
here the speaker. A summary's frame before a name ("刘洋说陈晨在银行上班", "用户说陈晨…",
kept by the wording when what follows opens with a person's name; dropped, "刘洋陈晨在银行上
班", when the wording did not take it for one) puts two names a frame apart or side by side,
the teller's and the told-of: the words are about the second.

Both are read only where a member's name follows: a name followed by anything else is the
line's subject as before ("Omar: Priya moved to Hove" is Priya's news, "陈晨：刘洋，你搬家
了？" asks about 刘洋).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from memory.segment import word_frequency
from memory.speaker import SURNAMES

# between a name called on and what follows it: a comma or a colon ("Priya, …", "刘洋，…"),
# in English a space too ("Priya I moved …")
# or a word to them that says nothing of them, a closed class: agreeing ("王芳说得对，…",
# "Priya's right, …"), knowing, "guess what"
_ZH_WORD_TO = (
    r"(?:说得对|说的对|说得没错|说的没错|也知道|知道的|你猜怎么着|你猜|你看|放心|别担心)?"
    r"[啊呀吧哈嘛]*"
)
_EN_WORD_TO = r"(?:'s right|'s correct| is right|,? you're right|,? guess what|,? you know what)?"
_ZH_SEPARATOR = re.compile(rf"{_ZH_WORD_TO}[，,、：:!！]\s*")
_EN_SEPARATOR = re.compile(rf"{_EN_WORD_TO}(?:[,:!.]\s*|\s+)")
# between a teller and the member told of, at the start of a line: as above but no colon
# (that is a speaker's label), and nothing at all in Chinese (a frame dropped)
# or the frame kept ("刘洋说陈晨…": a teller's words of someone else keep their 说)
_ZH_SIDE = re.compile(
    rf"(?:又|也)?(?:说|提到|表示|称)(?![得的])(?:了|过)?[，,：:]?\s*|{_ZH_WORD_TO}(?:[，,、!！]\s*)?"
)
_EN_SIDE = re.compile(rf"{_EN_WORD_TO}(?:[,!.]\s*|\s+|)")


def opening_name(text: str, names: Iterable[str], *, owning: bool = False) -> str:
    """The longest of ``names`` ``text`` opens with ("@" before it or not), a whole word in
    English (``owning``: or one owning what follows, "Priya's"); "" when none."""
    body = text[1:] if text.startswith("@") else text
    for name in sorted(names, key=len, reverse=True):
        if not body.startswith(name):
            continue
        after = body[len(name) : len(name) + 1]
        if not name.isascii() or not (after.isalnum() or (after in "'’" and not owning)):
            return text[: len(text) - len(body) + len(name)]
    return ""


def unaddressed(body: str, names: frozenset[str]) -> str:
    """``body`` (what a member's line says after its label) without the members it opens by
    calling on: each a member's name and a separator, or a word to them that says nothing of
    them (:data:`_ZH_SEPARATOR`, :data:`_EN_SEPARATOR`), with another member's name next
    ("刘洋，陈晨搬到…" -> "陈晨搬到…", "王芳说得对，陈晨早就…" -> "陈晨早就…"); ``body`` itself
    when it opens otherwise."""
    rest = body
    while True:
        name = opening_name(rest, names, owning=True)
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
    ("刘洋说陈晨在银行上班", "刘洋陈晨…" the frame dropped; "刘洋，陈晨搬到…", "Priya, Omar moved
    …", the first called on): the text from the second name; "" otherwise. A colon after the
    first is its speaker's label, not this."""
    teller = opening_name(text, [*names, *tellers], owning=True)
    if not teller:
        return ""
    after = text[len(teller) :]
    separator = _ZH_SIDE if not teller.isascii() else _EN_SIDE
    rest = after[separator.match(after).end() :]  # type: ignore[union-attr]
    other = opening_name(rest, names)
    if not other or other == teller or teller.startswith(other) or other.startswith(teller):
        return ""
    return rest


# What a summary may open with before whom it tells of: the day or time it was said ("今天"
# resolved to "2027-05-03", "On 2027-05-03", "晚上"), where ("群里", "In the group chat,"),
# whose account it is ("According to", "据"). A closed class, as the openers are.
_ZH_LEAD = re.compile(
    r"^(?:(?:19|20)\d{2}-\d{2}-\d{2}|(?:19|20)\d{2}年\d{1,2}月(?:\d{1,2}[日号])?|今天|昨天|前天|"
    r"今早|今晚|昨晚|早上|上午|中午|下午|晚上|刚才|刚刚|最近|后来|之后|(?:在)?群里|据)[，,、\s]*"
)
_EN_LEAD = re.compile(
    r"(?i)^(?:(?:on|by|since|in the week of)\s+(?:19|20)\d{2}-\d{2}-\d{2}|"
    r"(?:19|20)\d{2}-\d{2}-\d{2}|today|yesterday|tonight|this (?:morning|afternoon|evening|week)|"
    r"later(?: on)?|earlier|meanwhile|in the (?:group(?: chat)?|chat)|according to)[,:]?\s+"
)


def after_lead(text: str) -> str:
    """``text`` past the when, where and whose-account words it opens with (:data:`_ZH_LEAD`,
    :data:`_EN_LEAD`; "2027-05-03陈晨搬到…" -> "陈晨搬到…"), "" when it opens otherwise."""
    rest = text
    for _ in range(3):  # "今天在群里", "Later on, in the group chat,"
        lead = _ZH_LEAD.match(rest) or _EN_LEAD.match(rest)
        if lead is None or lead.end() == 0:
            break
        rest = rest[lead.end() :]
    return rest if rest is not text else ""


# A member named after another's relation ("Priya's friend Omar", "刘洋的表妹陈晨", "The
# user's colleague Omar"): the member, whoever's relation they also are.
_EN_APPOSED = re.compile(r"^(?:[Tt]he user|[A-Z][a-z]+(?: [A-Z][a-z]+)?)'s\s+(?:[a-z]+\s+){1,2}")
_ZH_OWNER = re.compile(r"^[\u4e00-\u9fff]{2,4}?的")


def apposed(text: str, names: frozenset[str]) -> str:
    """``text`` from the member it names after someone's relation ("Priya's friend Omar
    works …" -> "Omar works …"), "" when it names none so."""
    english = _EN_APPOSED.match(text)
    if english and opening_name(text[english.end() :], names):
        return text[english.end() :]
    owner = _ZH_OWNER.match(text)
    for width in (1, 2, 3) if owner else ():
        rest = text[owner.end() + width :]  # type: ignore[union-attr]
        if opening_name(rest, names):
            return rest
    return ""


# How a Chinese name is called familiarly: 老/小 before the family name, or a title or kin
# word after it ("老陈", "陈叔", "陈师傅", "陈医生"). A closed class. Each says, when it says
# it, whether its bearer is a man or a woman and young or old: "陈叔" is no "陈阿姨", "小陈"
# no "老陈".
_TITLES = {
    "叔叔": "m old",
    "叔": "m old",
    "伯伯": "m old",
    "伯": "m old",
    "大爷": "m old",
    "爷爷": "m old",
    "大哥": "m",
    "哥": "m",
    "阿姨": "f old",
    "姨": "f old",
    "婶": "f old",
    "奶奶": "f old",
    "大姐": "f",
    "姐": "f",
    "师傅": "",
    "医生": "",
    "大夫": "",
    "老师": "",
    "经理": "",
    "主任": "",
    "老板": "",
    "律师": "",
    "教练": "",
    "总": "",
}
_PREFIXES = {"老": "old", "小": "young"}
_SURNAME = f"[{''.join(sorted(SURNAMES))}]"
_TITLE = "|".join(sorted(_TITLES, key=len, reverse=True))
_FAMILIAR = re.compile(rf"^(?:[老小]{_SURNAME}(?![们])|{_SURNAME}(?:{_TITLE}))")


def familiar_form(text: str) -> str:
    """The familiar form of a Chinese name ``text`` opens with ("老陈在小区门口…" -> "老陈",
    "陈师傅的修车铺…" -> "陈师傅"), "" when none."""
    match = _FAMILIAR.match(text)
    return match.group(0) if match else ""


def traits(form: str) -> frozenset[str]:
    """What a familiar form or a name so shaped says of its bearer: "m"/"f", "old"/"young"
    ("陈叔": m, old; "小陈": young; "陈师傅": nothing)."""
    if form[:1] in _PREFIXES and len(form) == 2:
        return frozenset({_PREFIXES[form[0]]})
    return frozenset(_TITLES.get(form[1:], "").split())


def compatible(a: str, b: str) -> bool:
    """Whether two familiar forms (or names) of one family name may call one person: they
    say no opposite sex or age ("陈叔" / "陈师傅" may, "陈叔" / "陈阿姨" and "小陈" / "老陈"
    may not)."""
    ta, tb = traits(a), traits(b)
    return not ({"m", "f"} <= ta | tb or {"old", "young"} <= ta | tb)


def familiar_called(text: str, name: str) -> str:
    """The first familiar form of ``name``'s family name ``text`` writes ("老陈" in "老爸：老陈
    在县医院当保安" for 陈静), "" when none."""
    if not name or name[0] not in SURNAMES:
        return ""
    s = name[0]
    found = [(text.find(f), f) for f in (*(p + s for p in _PREFIXES), *(s + t for t in _TITLES))]
    return min((at, f) for at, f in found if at >= 0)[1] if any(a >= 0 for a, _ in found) else ""


# How a Chinese name is called by its given name's last character, a closed class: "芳姐",
# "阿芳", "芳芳" (and "小芳" of a name of two) for 王芳. Only a form no common word is.
_GIVEN_KIN = ("姐", "哥")
_GIVEN_COMMON = 50  # a form as frequent as this in the dictionary is a word ("伟哥")


def _given_forms(name: str) -> list[str]:
    """The familiar forms of ``name``'s given name (:data:`_GIVEN_KIN`)."""
    g = name[-1]
    if not "\u4e00" <= g <= "\u9fff":
        return []
    forms = [f"{g}{k}" for k in _GIVEN_KIN] + [f"阿{g}", f"{g}{g}"]
    if len(name) == 2:
        forms.append(f"小{g}")
    return [f for f in forms if word_frequency(f) < _GIVEN_COMMON]


@lru_cache(maxsize=1_024)
def familiar_names(names: frozenset[str]) -> dict[str, str]:
    """The familiar forms of the members' Chinese names ("老陈", "小陈", "陈哥", "陈叔",
    "陈师傅" for 陈晨; by the given name, "晨姐", "阿晨", "晨晨"), each the member it calls,
    when no other member may be called so and the form says nothing the member's own name
    denies (a member "陈阿姨" is no "陈叔")."""
    found: dict[str, list[str]] = {}
    for name in names:
        if 2 <= len(name) <= 3 and name[0] in SURNAMES:
            s = name[0]
            for form in (*(f"{p}{s}" for p in _PREFIXES), *(f"{s}{t}" for t in _TITLES)):
                found.setdefault(form, []).append(name)
            for form in _given_forms(name):
                found.setdefault(form, []).append(name)
    return {
        form: ns[0]
        for form, ns in found.items()
        if len(ns) == 1 and form not in names and compatible(form, ns[0])
    }


__all__ = [
    "after_lead",
    "apposed",
    "compatible",
    "familiar_called",
    "familiar_form",
    "familiar_names",
    "opening_name",
    "told_of",
    "traits",
    "unaddressed",
]
