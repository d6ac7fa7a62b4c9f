"""Whom the clauses of one subject's statement are about, when it names them first.

The user says things about the user, and about others by name: "Bess is 11 now" (the dog),
"Owen is 8 and Rhys is 5" (the grandsons), "咪咪三岁了", "小宝五岁了，大宝八岁". Such a
line, said in the user's words ("The user: Bess is 11 now", "用户：咪咪三岁了"), keeps the
user as its subject (:func:`relations.subject_of`), so two of them share a subject and a
slot (an age) and one would give the other a new value. :func:`holders` reads whom each
clause opens with, and :func:`other_beings` tells two statements apart whose clauses are
about different beings: neither gives the other a new value, whatever slot they share.

A holder is ``user`` (a clause opening with I, my, the user, 我, 用户), a relation
(``mother``: "Mum is 86", "妈妈83岁了"), or a name: an English capitalised word opening a
clause before a verb ("Bess is", "Owen turned", "Ivy's") that the chat also writes inside a
sentence, where only a name is capitalised ("a border collie called Bess": :func:`names_in`;
"Rent is 950 now" opens with a capital and names no one), or a Chinese word of two to four
characters opening a clause before an age ("咪咪三岁了", "小宝今年5岁"). A clause opening
otherwise ("A statin at night", "体重78公斤") names no holder and tells nothing apart.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

from memory.dream.judge.dates import CALENDAR_WORDS
from memory.dream.judge.kin import EN_REL as _EN_REL
from memory.dream.judge.kin import REL_OF
from memory.dream.judge.kin import ZH_REL as _ZH_REL
from memory.dream.judge.relations import _EN_CAP, _NO_NAME
from memory.search.stemming import stem
from memory.speaker import SURNAMES

# a speaker's label, or a summary's report of what the user said
_LABEL = re.compile(
    r"^(?:用户|The user|the user|User|[^:：\s]{1,12})(?:：|: )"
    r"|^(?:用户(?:提到|说|表示)[，,：:]?|(?i:the user (?:said|mentioned)(?: that)?,?\s))"
)
_CLAUSE = re.compile(r"[，,；;。.!！?？]\s*|\s+(?:and|but|while)\s+|和|而")
# what follows a name opening a clause about its bearer ("Bess is", "Owen turned", "Ivy's")
_VERB = (
    r"(?:'s\b|\s+(?:is|was|has|had|turned|turns|just|now|will|got|gets|weighs|started|"
    r"starts)\b)"
)
# One's animal by its kind, opening a clause ("my dog is 3", "用户家的猫五岁了"), each word
# as its kind (a dog whatever its breed): two kinds are two beings.
_PET_KIND = {
    **dict.fromkeys("狗 犬 柴犬 柯基 金毛 泰迪 哈士奇 狗狗 dog puppy".split(), "dog"),
    **dict.fromkeys("猫 橘猫 布偶 猫咪 cat kitten".split(), "cat"),
    **dict.fromkeys("兔子 兔 rabbit bunny".split(), "rabbit"),
    **dict.fromkeys("乌龟 龟 tortoise turtle".split(), "tortoise"),
    **dict.fromkeys("鹦鹉 鸟 parrot budgie bird".split(), "bird"),
    **dict.fromkeys("仓鼠 hamster".split(), "hamster"),
    **dict.fromkeys("鱼 fish".split(), "fish"),
    "horse": "horse",
}
_ZH_PETS = "|".join(sorted((w for w in _PET_KIND if not w.isascii()), key=len, reverse=True))
_EN_PETS = "|".join(sorted((w for w in _PET_KIND if w.isascii()), key=len, reverse=True))
_PET = re.compile(
    rf"^(?:我们|我|用户|本人)?(?:家)?的?(?P<zh>{_ZH_PETS})"
    rf"|^(?i:my|our|(?:the )?user's)\s+(?:\w+\s+)?(?P<en>(?i:{_EN_PETS}))\b"
)
_EN_USER = re.compile(r"(?i)^(?:I\b|I'm\b|I've\b|my\b|our\b|the user\b|user\b)")
_EN_RELATION = re.compile(
    rf"^(?:(?i:my|our|(?:the )?user's)\s+(?:\w+\s+)?(?P<rel>(?i:{_EN_REL}))\b"
    rf"|(?P<cap>{_EN_CAP}){_VERB})"
)
_EN_NAME = re.compile(rf"^(?P<name>[A-Z][a-z]+){_VERB}")
_ZH_RELATION = re.compile(rf"^(?:我们|我|用户)?的?(?P<rel>{_ZH_REL})")
_ZH_USER = re.compile(r"^(?:我|用户|本人)")
_ZH_NUMERAL = "0-9零一二两三四五六七八九十百"
_ZH_WHEN = "今年|现在|已经|都|也|才|快|刚|虚|满|明年|去年|马上|下个月|下月"
_ZH_NAME = re.compile(
    rf"^(?!{_ZH_WHEN})(?P<name>(?:(?![{_ZH_NUMERAL}])[\u4e00-\u9fff]){{2,4}}?)(?:{_ZH_WHEN})*"
    rf"[{_ZH_NUMERAL}]+(?:周)?岁"
)
# a capitalised word inside a sentence, not after its speaker's label: a name
_INSIDE = re.compile(r"(?<=[^\s.!?:：])\s+(?P<name>[A-Z][a-z]+)\b")


def names_in(texts: Iterable[str]) -> frozenset[str]:
    """The capitalised words ``texts`` write inside a sentence ("The user has a border
    collie called Bess": Bess), the English names :func:`holders` knows."""
    found: set[str] = set()
    for text in texts:
        body = _LABEL.sub("", text.strip(), count=1)
        found.update(m.group("name") for m in _INSIDE.finditer(body))
    return frozenset(w for w in found if w.lower() not in _NO_NAME)


@lru_cache(maxsize=50_000)
def holders(text: str, names: frozenset[str] = frozenset()) -> frozenset[str]:
    """Whom ``text``'s clauses open with (see the module's docstring), ``names`` the
    English names the chat writes; empty when none."""
    body = _LABEL.sub("", text.strip(), count=1)
    found: set[str] = set()
    for clause in _CLAUSE.split(body):
        holder = _holder(clause.strip(), names)
        if holder:
            found.add(holder)
    return frozenset(found)


def _holder(clause: str, names: frozenset[str]) -> str:
    if not clause:
        return ""
    relation = _EN_RELATION.match(clause) or _ZH_RELATION.match(clause)
    if relation:
        return REL_OF[(relation.group("rel") or relation.group("cap")).lower()]
    if _EN_USER.match(clause) or _ZH_USER.match(clause):
        return "user"
    english = _EN_NAME.match(clause)
    if english:
        return english.group("name") if english.group("name") in names else ""
    chinese = _ZH_NAME.match(clause)
    return chinese.group("name") if chinese else ""


def other_beings(newer: str, older: str, names: frozenset[str] = frozenset()) -> bool:
    """Whether the two statements' clauses are about different beings: both name whom
    they open with and no one in common ("Owen is 8 and Rhys is 5" / "Bess is 11 now")."""
    a, b = holders(newer, names), holders(older, names)
    return bool(a) and bool(b) and not a & b


@lru_cache(maxsize=50_000)
def pets(text: str) -> frozenset[str]:
    """The kinds of animal ``text``'s clauses open with as one's own ("用户家的狗三岁了":
    dog)."""
    body = _LABEL.sub("", text.strip(), count=1)
    found = set()
    for clause in _CLAUSE.split(body):
        match = _PET.match(clause.strip())
        if match:
            found.add(_PET_KIND[(match.group("zh") or match.group("en")).lower()])
    return frozenset(found)


# An animal named anywhere: a Chinese kind of two characters or more ("柴犬", "橘猫"), one
# character only after a measure word or keeping ("一只猫", "养了条狗": not "鱼竿", "热狗")
_ZH_LONG = "|".join(w for w in _ZH_PETS.split("|") if len(w) > 1)
_ZH_ONE = "".join(w for w in _ZH_PETS.split("|") if len(w) == 1)
_ANIMAL = re.compile(rf"{_ZH_LONG}|(?:只|条|养了?|家的)[{_ZH_ONE}]|(?i:\b(?:{_EN_PETS})s?\b)")


def animal_named(text: str) -> bool:
    """Whether ``text`` names an animal by its kind anywhere ("我养了一只柴犬叫豆包，三岁了"):
    a number it gives may be the animal's."""
    return _ANIMAL.search(text) is not None


def other_pets(newer: str, older: str) -> bool:
    """Whether both statements open a clause with one's animal and no kind is in both
    ("用户家的猫叫咪咪，五岁了" / "用户家的狗三岁了"): two animals' values, never one slot."""
    a, b = pets(newer), pets(older)
    return bool(a) and bool(b) and not a & b


# Someone named, opening what a line says, before what only a person does ("Tom moved to
# Swansea", "Jake's moving out", "Priya works at Bean Scene", "小李搬到渝中区了"): the words
# tell of that one. English: a capitalised word before a verb of a person's own life with
# what makes it one (a move to a place, not "Meeting moved to Friday"; "is", "has" are
# anyone's: "Rent is 950 now" names no one); Chinese: a familiar name, 小 or 老 and a family
# name ("小李", "老王").
_CALENDAR = "|".join(sorted((w.capitalize() for w in CALENDAR_WORDS), key=len, reverse=True))
_DOING = (
    r"(?:'s|\s+is|\s+has|\s+just|\s+finally|\s+also)?\s+(?:"
    rf"(?:moved|moves|moving)\s+(?:to\s+(?!(?:{_CALENDAR})\b)(?:the\s+)?[A-Z]|into|in\b|out\b|"
    r"back\b|away\b|house\b|abroad\b)"
    r"|(?:lives|lived|living)\s+(?:in|at|with|near)\b|(?:works|worked|working)\s+(?:at|as|for)\b"
    r"|(?:quit|left|leaving)\s+(?:his|her|their|the\s+job|the\s+company|work|school|uni)\b"
    r"|(?:got\s+)?(?:married|engaged)\b|retired\b|graduated\b)"
)
_EN_DOER = re.compile(rf"^(?P<name>[A-Z][a-z]+){_DOING}")
_ZH_DOER = re.compile(rf"^(?P<name>[小老][{''.join(sorted(SURNAMES))}])(?=[\u4e00-\u9fff])")
# a full Chinese name opening a statement of where its bearer lives or works, or a move
# ("苏晴住在徐汇", "李明明在深圳上班", "王磊搬到杭州了"): the English "Tom lives in" in Chinese;
# a time word opening it ("周末搬到…", "明年搬去…") is no name
_ZH_NAMED_DOER = re.compile(
    r"^(?!周末|周[一二三四五六日天]|[明后今去前][天年早晚]|年[底初中]|月[底初中]|全家|下[周月个])"
    rf"(?P<name>[{''.join(sorted(SURNAMES))}][\u4e00-\u9fff]{{1,2}}?)"
    r"(?=(?:也|还|现在|已经|一直)?(?:住在|搬到|搬去|搬回|在[\u4e00-\u9fff]{2,8}?(?:工作|上班)))"
)
_NOT_DOER = frozenset(w.lower() for w in (*REL_OF, *CALENDAR_WORDS)) | _NO_NAME | {"user"}
# an adverb opening a sentence ("Finally moved out", "Apparently left"), by its ending or one
# of the few short ones: no name
_ADVERB = re.compile(
    r"(?i)^(?:\w+(?:al|ent|ant|ate|ous|ful|ite|ive|less|ed)ly|sadly|luckily|happily|"
    r"suddenly|honestly|clearly|quickly|only|early|soon|still|already|anyway|then)$"
)
_WORD = re.compile(r"[A-Za-z]+")


def doer(text: str) -> str:
    """Whom ``text`` (after its speaker's label, or a summary's "The user said") opens with
    as doing something (:data:`_DOING`, a familiar Chinese name), else ""."""
    body = _LABEL.sub("", text.strip(), count=1)
    english = _EN_DOER.match(body)
    name = english.group("name") if english else ""
    if name and name.lower() not in _NOT_DOER and not _ADVERB.match(name):
        return name
    chinese = _ZH_DOER.match(body) or _ZH_NAMED_DOER.match(body)
    return chinese.group("name") if chinese else ""


def someone_else(
    newer: str, older: str, subject: str, aliases: Mapping[str, str] | None = None
) -> bool:
    """Whether one of the two statements, both read as ``subject``'s, tells what someone
    else did (:func:`doer`), someone the other does not name ("Mia: Tom moved to Swansea" /
    "Mia lives in Cardiff"): the news is that one's, no new value of the subject's. A name
    the chat gave the subject (``aliases``: "Joan" for ``user/mother``) is the subject."""
    own = {w.lower() for w in _WORD.findall(subject)}
    for one, other in ((newer, older), (older, newer)):
        name = doer(one)
        if not name or name.lower() in own or name == subject or name[1:] == subject[:1]:
            continue  # the subject by name, or (小陈 of 陈晨) perhaps
        if aliases and aliases.get(name) == subject:
            continue
        words = {stem(w.lower()) for w in _WORD.findall(other)}
        if stem(name.lower()) not in words and (name.isascii() or name not in other):
            return True
    return False


__all__ = ["doer", "holders", "names_in", "other_beings", "other_pets", "pets", "someone_else"]
