"""A change told as the older statement's own thing turned round or ended.

Most new values name another value in the same words ("住在上海" / "住在北京"); these
name none. They say the very thing the older one says, its polarity turned, or say that
the older one's thing is over:

- **turned**: a predicate one statement negates and the other asserts, the newer saying it
  is so now ("用户不吃辣" / "在四川待久了，现在特别能吃辣"; "王芳喜欢吃甜食" / "最近控糖，
  甜食一口都不吃了"; "is allergic to nothing" / "turns out I'm allergic to peanuts now");
- **healed**: a condition the older names told as healed or no longer felt ("腰椎间盘突出"
  / "现在腰已经不疼了"; "a broken wrist in a cast" / "the wrist has fully healed");
- **quit**: a job the older holds told as quit, with no other thing quit ("works as a nurse
  at St Mary's" / "I quit the hospital, I'm a school nurse now");
- **closed**: a thing the older names told as closed, cancelled or not renewed ("banks
  with Barclays" / "closed the Barclays account"; "用的是电信宽带" / "电信到期没续").

Each needs what makes it the older's own thing, not a day's event or another's: the
predicate itself on both sides (its object too: "不吃辣" is not turned by "吃了一顿火锅，
辣得受不了"), a word of the older's in the healed or closed clause, a job slot in the
older; told as done (no question, nothing negated or only meant: "hasn't healed", "会辞
掉"); and no person around the subject the older does not name opening what is told ("my
sister stopped eating sweets", "表妹…现在特别能吃辣"). Pure functions over two texts; the
caller checks the subject, the order and that the newer is no plan. Written for issue 10,
round 25 (the change probe's "reversed" and "ended" pairs).
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory.dream.judge.core_words import core_words
from memory.dream.judge.kin import EN_OTHERS as _EN_OTHERS
from memory.dream.judge.kin import ZH_OTHERS as _ZH_OTHERS
from memory.dream.judge.kin import others_named
from memory.dream.judge.label import LABEL
from memory.dream.judge.single_slots import slot_values
from memory.search.stemming import stem
from memory.segment import STOPWORDS, content_words, has_cjk

_CJK = "\u4e00-\u9fff"
_CLAUSE = re.compile(r"[，,;；。!！?？]\s*|\s+(?:and|but|while)\s+")

# -- turned ------------------------------------------------------------------------------
# A Chinese negation and what it applies to: adverbs and modals between are skipped
# ("不太能吃辣", "一口都不吃了", "不再喜欢"), the predicate runs to the clause's end or a
# particle, four characters at most. Words opening with 不/没 that negate nothing
# ("不过", "差不多", "受不了") are no negation.
_ZH_NOT_NEGATION = re.compile(
    r"不过(?!敏)|不错|不少|不久|不同|不但|不仅|不管|不然|不如|不得|不断|不停|不住|不了|不行|不够"
    r"|差不多|没准|没事|没关系"
)
_ZH_NEGATION = re.compile(
    rf"(?P<yet>还|尚)?(?:不|没有?|未)(?P<a>(?:再|太|怎么|大|很|是|会|能|敢|想|爱|喜欢|经常|常)*)"
    rf"(?P<t>[{_CJK}]{{1,4}}?)(?=[了啦的呢吧啊过]|[^{_CJK}]|$)"
)
# A modal the negation governs ("不会游泳"): the other must say it too ("现在会游泳了", not
# "在学游泳").
_ZH_MODAL = re.compile(r"会|能|敢|想|爱|喜欢")
_ZH_NEGATOR = re.compile(r"[不没未]")
# The verbs a predicate opens with that say nothing of what it is about alone ("吃" of
# "不吃了", "like" of "doesn't like it"): such a predicate needs its object in both.
_ZH_LIGHT = re.compile(r"^(?:喜欢|爱|吃|喝|用|要|想|去|做|是|有|会|能|玩|看|听)")
_EN_NEGATION = re.compile(
    r"(?i)\b(?:not|never|no longer|nothing|none|no|without|anymore|any more)\b|n't\b"
)
_EN_LIGHT = frozenset(
    stem(w)
    for w in (
        "like likes love loves want wants eat eats drink drinks have has had get gets take "
        "takes use uses go goes do does make makes can be is are was were now really out "
        "turn turns turned anymore more longer much any"
    ).split()
)
_AUXILIARY = frozenset(
    stem(w)
    for w in (
        "be is are was were been do does did have has had can could will would really very "
        "much any more longer able now out turn turns turned anymore"
    ).split()
)
_ANY = re.compile("")
_CAN = re.compile(r"\bca(?:n't|nnot|n not)|\bcouldn't|\bunable\b")
_CAN_SAID = re.compile(r"(?i)\b(?:can|could|able)\b")
_HAVE = re.compile(r"^\s*(?:\w+\s+)?(?:have|has|own)\b")
_HAVE_SAID = re.compile(r"(?i)\b(?:has|have|had|got|owns?|bought)\b")
_BEFORE_NOTHING = frozenset("to of about with for".split())
_NAME = re.compile(r"\b[A-Z][a-z]+(?:'s)?\b")
_REPORTED = frozenset(stem(w) for w in "said says told mentioned reminded asked".split())
# A word that the newer says is so now, beside the turned predicate.
_STRONG_NOW = re.compile(
    r"现在|最近|如今|目前|已经|开始|后来|渐渐|慢慢|变得|不再|再也|这阵子|这段时间"
    r"|(?i:\b(?:now(?! that)|anymore|any more|no longer|these days|nowadays|lately|recently|since"
    r"|turns out|turned out|found out|started|stopped|became|become)\b)"
)
# ... or, after a negation, a clause-final 了: "不吃了" is a change of state ("吃辣了" may be
# one meal, unless what it ends was "not yet": "还没结婚" / "结婚了").
_NOW = re.compile(rf"{_STRONG_NOW.pattern}|了(?=[，,。！!]|$)")

# -- healed ------------------------------------------------------------------------------
_HEALED = re.compile(
    r"痊愈|康复|治好|治愈|好利索|彻底好了|全好了|已经好了|恢复了|出院了|拆了?(?:线|石膏)"
    r"|不(?:再)?(?:疼|痛|酸|痒|咳嗽?|发烧|过敏|失眠|头晕|复发)了"
    r"|(?i:\b(?:healed|recovered|cured|cleared up|all clear|in remission|off crutches"
    r"|discharged|pain[- ]free|no longer (?:hurts?|in pain|sick|ill)"
    r"|(?:doesn't|does not|don't|do not) hurt)\b"
    r"|\b(?:cast|stitches|brace|sling|plaster)\s+(?:is|are|was|were|came|has come|have come)"
    r" off\b)"
)

# -- quit --------------------------------------------------------------------------------
_QUIT = re.compile(
    r"辞职|离职|辞掉|辞了|不干了|被裁|被辞退|退休了"
    r"|(?i:\b(?:quit|resigned|handed in (?:my|his|her|their) notice|stepped down"
    r"|(?:has|have|had|just|finally|I|we) retired|retired from"
    r"|(?:was|were|got|been) (?:laid off|made redundant|fired|let go)"
    r"|left (?:my|his|her|their|the) (?:job|work|post|position|role)"
    r"|left (?:the )?[A-Z][\w'&.-]*)\b)"
)
_JOB_SLOTS = frozenset({"employer", "role"})
# What an English quit names when it names a job: the job, or the place one worked.
_QUIT_WHAT = re.compile(
    r"(?i)\b(?:quit|resigned from|left)\s+(?:(?:my|the|his|her|their|our|a)\s+)?"
    r"(?P<f>[A-Za-z][\w'&-]*)(?:\s+(?P<o>[A-Za-z][\w'&-]*))?"
)
_WORKPLACE = frozenset(
    stem(w)
    for w in (
        "job work position post role hospital company firm school shop store bank office "
        "restaurant cafe clinic agency factory practice surgery salon studio lab nursery hotel "
        "warehouse pharmacy council university college business"
    ).split()
)
_QUIT_WHEN = frozenset("last this yesterday today on in after because and so".split())
# What one quits that is no job ("quit smoking", "戒烟"): one's job holds.
_QUIT_OTHER = re.compile(
    r"(?i)\bquit (?:smoking|drinking|vaping|caffeine|sugar|the gym|gym|social media"
    r"|(?:my|his|her|their) (?:diet|course|class|band|team|club))\b"
)

# -- closed ------------------------------------------------------------------------------
# A thing one has or uses told as closed, cancelled or not renewed ("closed the Barclays
# account", "the gym membership was cancelled", "电信到期没续", "信用卡注销了"): the thing's
# words, as written, must be the older's.
_EN_CLOSED = re.compile(
    r"(?i)\b(?:closed|cancell?ed|terminated|shut down|deleted|did(?:n't| not) renew)\s+"
    r"(?:(?:my|our|the|his|her|their|[A-Z][a-z]+'s)\s+)?(?P<t>[A-Za-z][\w'&-]*(?:\s+[A-Za-z][\w'&-]*)?)"
    r"|\b(?P<p>[A-Za-z][\w'&-]*(?:\s+[A-Za-z][\w'&-]*)?)\s+(?:is|was|has been|got|were|are)\s+"
    r"(?:now\s+)?(?:closed|cancell?ed|terminated|shut down)\b"
)
_ZH_CLOSED = re.compile(
    rf"(?:把|将)?(?P<t>[{_CJK}A-Za-z0-9]{{2,8}}?)(?:已经|也|都)?"
    r"(?:注销了|销户了|退订了|停用了|关掉了|取消了|退掉了|停掉了|到期没续|没续费|没续约|没再续)"
)
_ZH_TELLER = re.compile(r"^(?:用户|我们|我|他们|他|她)?(?:提到|说|表示)?(?:的)?")

# What is meant, not done, right before a quit ("会辞掉", "is going to quit").
_MEANT = re.compile(
    r"(?:会|要|打算|准备|想|计划|考虑|将|可能|差点|差一点|几乎)\s*$"
    r"|(?i:\b(?:will|going to|plans? to|planning to|thinking of|thinking about|considering"
    r"|might|may|wants? to|wanted to|about to|nearly|almost|should|would|could|if)"
    r"(?:\s+\w+)?\s*$)"
)

_ASKED = re.compile(r"吗$|么$")
_EN_NOT_BEFORE = re.compile(r"(?i)(?:\bnot|n't|\bnever|\bno)(?:\s+\w+){0,2}\s*$")

# -- whose -------------------------------------------------------------------------------
# The people around a subject: :func:`relations.others_named`.


# A clause opening with someone or something other than its subject ("the kids eat pork
# now", "the gym now opens at 6", "Barclays closed the branch"): what it tells is theirs.
_EN_OPENER = re.compile(
    r"^(?i:(?:so|and|but|now|actually|apparently|(?:it )?turn(?:s|ed) out(?: that)?)\s+)*"
    r"(?P<w>(?i:the user|user|the|a|an|my|our|his|her|their|this|that|these|those|some|one"
    r"|they|it|you|someone|people|everyone|nobody)"
    r"|[A-Z][a-z]+)\b"
)
_SUBJECT_OPENERS = frozenset({"the user", "user"})
# A clause opening with its subject ("我…", "用户…", "I…", "the user…").
_SUBJECT_OPENS = re.compile(r"(?:我|用户|本人)|(?i:(?:I|I'm|I've|I'd|we|the user|user)\b)")
RELATIVE_OPENS = 6  # a relative named this near a clause's start opens it ("my sister…")
_DETERMINERS = frozenset("the a an my our his her their this that these those some one".split())
# A negation of "yet" ("还没过敏", "not yet"), said now: nothing has turned.
_NOT_YET = re.compile(r"还没|还不|尚未|还未|(?i:\bnot yet\b)")


def _body(text: str) -> str:
    """``text`` without its speaker's label."""
    return LABEL.sub("", text.strip(), count=1)


@lru_cache(maxsize=50_000)
def _clauses(text: str) -> tuple[str, ...]:
    """The clauses of ``text``, no question among them ("has it healed?", "辞职了吗")."""
    body = _body(text)
    out = []
    start = 0
    for m in [*_CLAUSE.finditer(body), None]:
        end = m.start() if m is not None else len(body)
        clause = body[start:end].strip()
        asked = m is not None and m.group(0).strip() in ("?", "？")
        if clause and not asked and not _ASKED.search(clause):
            out.append(clause)
        if m is not None:
            start = m.end()
    return tuple(out)


def _done(clause: str, at: int) -> bool:
    """Whether what ``clause`` tells from ``at`` on (a quit, a healing, a closing) is told
    as done: not negated ("hasn't healed", "没辞职", "还没好利索"), not meant or nearly
    done ("会辞掉", "nearly quit")."""
    before = clause[max(0, at - 24) : at]
    if _MEANT.search(before):
        return False
    if has_cjk(clause):
        return not _ZH_NEGATOR.search(before[-4:])
    return not _EN_NOT_BEFORE.search(before)


def _words(text: str, who: frozenset[str]) -> frozenset[str]:
    """Content words of ``text`` (stems), the subject's names and the marks of change or of
    a negation left out."""
    out = set()
    for w in core_words(text):
        if w in who or w in STOPWORDS or _NOW.fullmatch(w) or _ZH_NEGATOR.match(w):
            continue
        out.add(w)
    return frozenset(out)


def _others_open(clause: str, who: frozenset[str], *, names_only: bool = False) -> bool:
    """Whether an English ``clause`` opens with another than its subject (:data:`_EN_OPENER`;
    the subject's own name or "the user" is the subject); ``names_only``: by a name alone
    ("Tom's knee has healed", not "the wrist has healed")."""
    m = _EN_OPENER.match(clause)
    if m is None:
        return False
    word = m["w"].lower()
    if names_only and (word in _DETERMINERS or not m["w"][:1].isupper()):
        return False
    return word not in _SUBJECT_OPENERS and stem(word) not in who


def _affirms_zh(text: str, term: str, modals: tuple[str, ...] = ()) -> bool:
    """Whether the clause ``text`` says ``term`` as its predicate: no negation in the three
    characters before it, no 的 after it ("跑步的人" names people), and not opening the
    clause as its topic ("驾照考试改规则了" says nothing of having one) unless it ends there
    ("结婚了"); each of ``modals`` said in the four characters before it."""
    for m in re.finditer(re.escape(term), text):
        before = text[max(0, m.start() - 4) : m.start()]
        if _ZH_NEGATOR.search(before[-3:]) or not all(x in before for x in modals):
            continue
        after = text[m.end() :]
        if after.startswith("的"):
            continue
        if m.start() == 0 and re.match(rf"[{_CJK}]", after) and not after.startswith("了"):
            continue
        return True
    return False


def _negated_zh(clause: str) -> list[tuple[str, tuple[str, ...], bool]]:
    """The predicates a Chinese ``clause`` negates ("吃辣" of "不吃辣", "吃" of "一口都不吃
    了"), each with the modals the negation governs and whether it says "not yet" (还没)."""
    return [
        (m["t"], tuple(_ZH_MODAL.findall(m["a"])), bool(m["yet"]))
        for m in _ZH_NEGATION.finditer(_ZH_NOT_NEGATION.sub("", clause))
        if m["t"]
    ]


def _turned_zh(negated: str, other: str, who: frozenset[str], *, yet_only: bool = False) -> bool:
    """A predicate the clause ``negated`` negates that the clause ``other`` asserts, with
    what it is about (``yet_only``: only a "not yet" one)."""
    for term, modals, yet in _negated_zh(negated):
        if yet_only and not yet:
            continue
        if not _affirms_zh(_ZH_NOT_NEGATION.sub("", other), term, modals):
            continue
        if _ZH_LIGHT.sub("", term):
            return True  # "吃辣": the verb and what it is about
        # "甜食一口都不吃了": the verb alone, its object said elsewhere in the clause
        shared = _words(negated, who) & _words(other, who)
        if any(len(w) > 1 and term not in w for w in shared):
            return True
    return False


def _heads_en(clause: str, who: frozenset[str]) -> list[tuple[frozenset[str], re.Pattern[str]]]:
    """What each negation of an English ``clause`` applies to, all of which the other must
    say: the first two words after it that say something (a verb too: "eat" and "fish" of
    "doesn't eat fish"; no auxiliary, name or function word), or the word before "to
    nothing" ("allergic" of "is allergic to nothing"); with what the other must say of
    them, as the negation did: "can't swim" needs "can swim", "doesn't have a car" "has a
    car" ("car insurance" is no car had)."""
    out: list[tuple[frozenset[str], re.Pattern[str]]] = []
    for m in _EN_NEGATION.finditer(clause):
        neg = m.group(0).lower()
        if neg in ("anymore", "any more"):
            continue
        if neg in ("nothing", "none"):
            before = re.findall(r"[A-Za-z][\w'-]*", clause[: m.start()])
            before = [w for w in before if w.lower() not in _BEFORE_NOTHING]
            heads = _words_en(before[-1], who, verbs=True)[-1:] if before else []
            need = _ANY
        else:
            heads = _words_en(clause[m.end() :], who, verbs=True)[:2]
            near = clause[max(0, m.start() - 6) : m.end() + 12].lower()
            need = _ANY
            if _CAN.search(near):
                need = _CAN_SAID
            elif _HAVE.search(clause[m.end() : m.end() + 12].lower()):
                need = _HAVE_SAID
        if heads:
            out.append((frozenset(heads), need))
    return out


def _words_en(text: str, who: frozenset[str], *, verbs: bool = False) -> list[str]:
    """The content words of English ``text`` in order (stems; no name, auxiliary or word of
    report; ``verbs``: the light verbs kept, "eat" of "eats fish")."""
    out = []
    skip = _AUXILIARY if verbs else _EN_LIGHT
    for raw in re.findall(r"[A-Za-z][\w'-]*", text):
        if raw[:1].isupper() and raw != "I":
            continue  # a name
        for w in _words(raw.lower(), who):
            if w not in skip and w not in _REPORTED:
                out.append(_plural(w))
    return out


def _plural(word: str) -> str:
    """``word`` without a plural or third-person "s" the stemmer leaves ("eats")."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _turned_en(negated: str, other: str, who: frozenset[str]) -> bool:
    """What the clause ``negated`` negates, the clause ``other`` says, unnegated."""
    if _EN_NEGATION.search(other):
        return False
    said = set(_words_en(other, who, verbs=True))
    return any(heads <= said and need.search(other) for heads, need in _heads_en(negated, who))


def turned(newer: str, older: str, who: frozenset[str] = frozenset()) -> bool:
    """Whether a clause of ``newer`` turns the polarity of a predicate a clause of ``older``
    states, and says it holds now (see the module's docstring)."""
    if has_cjk(newer) != has_cjk(older):
        return False
    zh = has_cjk(newer)
    for new in _clauses(newer):
        if not _NOW.search(new) or (not zh and _others_open(new, who)):
            continue
        for old in _clauses(older):
            if zh:
                if not _NOT_YET.search(new) and _turned_zh(new, old, who):
                    return True
                # a plain assertion said now needs a word of now, or a "not yet" it ends
                if _turned_zh(old, new, who, yet_only=not _STRONG_NOW.search(new)):
                    return True
            elif _turned_en(new, old, who) or _turned_en(old, new, who):
                return True
    return False


def healed(newer: str, older: str, who: frozenset[str] = frozenset()) -> bool:
    """Whether ``newer`` tells as healed a condition ``older`` names: a word of the clause
    telling it (a character of a Chinese one: "腰" of "腰椎间盘突出") is the older's."""
    if has_cjk(newer) != has_cjk(older) or _HEALED.search(older):
        return False
    old_body = _body(older)
    old_words = _words(older, who)
    for clause in _clauses(newer):
        m = _HEALED.search(clause)
        if m is None or not _done(clause, m.start()):
            continue
        if has_cjk(clause):
            before = _HEALED.sub("", clause)
            thing = [w for w in _words(before, who) if not _ZH_LIGHT.fullmatch(w)]
            if any(ch in old_body for w in thing for ch in w if "\u4e00" <= ch <= "\u9fff"):
                return True
        elif (_words(clause, who) - _EN_LIGHT) & old_words and not _others_open(
            clause, who, names_only=True
        ):
            return True
    return False


def quit_job(newer: str, older: str, who: frozenset[str] = frozenset()) -> bool:
    """Whether a clause of ``newer`` tells of its subject quitting a job (done, not meant:
    "会辞掉", "will quit") and ``older`` of holding one."""
    if _QUIT.search(older) or not _JOB_SLOTS & set(slot_values(older)):
        return False
    for clause in _clauses(newer):
        m = _QUIT.search(clause)
        if m is None or _QUIT_OTHER.search(clause) or _others_open(clause, who):
            continue
        if not _quits_job(clause, older, who):
            continue
        if _done(clause, m.start()):
            return True
    return False


def _quits_job(clause: str, older: str, who: frozenset[str]) -> bool:
    """Whether what ``clause`` quits is a job: named as one, or a place of work, a name, a
    word of ``older`` ("quit the hospital", "quit Arup", "quit last week"), never another
    thing ("quit my evening class"); Chinese: 辞掉 what ``older`` names or 工作."""
    if has_cjk(clause):
        m = re.search(rf"辞掉(?:了)?(?P<o>[{_CJK}]{{2,8}})", clause)
        return (
            m is None
            or "工作" in m["o"]
            or any(m["o"][i : i + 2] in older for i in range(len(m["o"]) - 1))
        )
    m = _QUIT_WHAT.search(clause)
    if m is None:
        return True  # "resigned", "quit." : nothing else named
    first = m["f"]
    if first.lower() in _QUIT_WHEN or first[:1].isupper():
        return True  # "quit last month", "quit Arup"
    mine = _words(older, who)
    return any(
        stem(w.lower()) in _WORKPLACE or _plural(stem(w.lower())) in mine
        for w in (first, m["o"] or "")
        if w
    )


def closed(newer: str, older: str, who: frozenset[str] = frozenset()) -> bool:
    """Whether ``newer`` tells as closed, cancelled or not renewed a thing ``older`` names
    (what it is, its last word: "信用卡" of "招行信用卡", "Barclays" of "the Barclays
    account" as the older writes it)."""
    if has_cjk(newer) != has_cjk(older):
        return False
    old_words = _words(older, who)
    for clause in _clauses(newer):
        if has_cjk(clause):
            for m in _ZH_CLOSED.finditer(clause):
                if not _done(clause, m.start()):
                    continue
                thing = _ZH_TELLER.sub("", m["t"])
                words = [w for w in content_words(thing) if w not in who]
                if words and len(words[-1]) > 1 and words[-1] in older:
                    return True
            continue
        for m in _EN_CLOSED.finditer(clause):
            if not _done(clause, m.start()):
                continue
            if m["t"] and _others_open(clause, who):
                continue  # "Barclays closed the branch": another closed it
            thing = m["t"] or m["p"] or ""
            if set(_words_en(thing, who)) & old_words:
                return True
            if m["t"] and _names_in(thing) & _names_in(older):
                return True  # "closed the Barclays account" after "banks with Barclays"
    return False


def _names_in(text: str) -> frozenset[str]:
    return frozenset(w.lower() for w in _NAME.findall(text))


def _own(newer: str, older: str) -> str:
    """The clauses of ``newer`` that name no relative of its subject (my sister, 同事, 我爸)
    the older does not: what those tell may be the relative's ("同事辞职了"), what the others
    tell is the subject's ("辞职了，现在在家带孩子": the first). A clause opening with such a
    relative lends it to those after it that name no subject of their own ("表妹在四川待久
    了，现在特别能吃辣": both the cousin's)."""
    low = older.lower()
    kept = []
    lent = False  # the clauses so far are about a relative opening one
    for clause in _clauses(newer):
        found = [*_EN_OTHERS.finditer(clause), *_ZH_OTHERS.finditer(clause)]
        named = [m for m in found if _bare(m.group(0)) not in low]
        if named:
            lent = any(m.start() <= RELATIVE_OPENS for m in named)
            continue
        if lent and not _SUBJECT_OPENS.match(clause):
            continue
        lent = False
        kept.append(clause)
    return ("，" if has_cjk(newer) else ", ").join(kept)


def _bare(word: str) -> str:
    """A relation word as the older would write it ("sister" of "sister's")."""
    return re.sub(r"(?:'s|s)$", "", word.lower()) if word.isascii() else word


def reverses(newer: str, older: str, who: frozenset[str] = frozenset()) -> bool:
    """Whether ``newer`` tells ``older``'s own thing turned or ended (:func:`turned`,
    :func:`healed`, :func:`quit_job`, :func:`closed`), of no one else; ``who``: the subject's
    words."""
    newer = _own(newer, older)
    return bool(newer) and (
        turned(newer, older, who)
        or healed(newer, older, who)
        or quit_job(newer, older, who)
        or closed(newer, older, who)
    )


__all__ = ["closed", "healed", "others_named", "quit_job", "reverses", "turned"]
