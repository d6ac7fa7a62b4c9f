"""Slots a subject holds one value of at a time, and the value a statement gives each.

Where someone lives, whom they work for, what their job is, how old they are: a newer
statement about the same subject that gives another value of one of these slots replaces
the older, whether or not it says that something changed ("王磊在大疆做硬件工程师" and
later "王磊在小鹏做硬件测试"; "用户现在租在西湖区" and later "现在住滨江区这边";
"Mum is 86" and later "Mum's 87 today"). A slot is found by the construction that fills it
(住在 X, 在 X 上班, lives in X, works at X, X 岁, is 87), its value is the words after it up
to the end of the clause; two values are another value when they share no word (Chinese by
character pairs: 上海 and 上海浦东 share one, so "住在上海浦东" restates "住在上海").

Pure functions over one text; :func:`swapped` judges a pair (the caller checks the subject,
the order and that the newer is no plan).
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory.dream.judge.numerals import EN_NUMERAL, ZH_NUMERAL, number
from memory.dream.text_memo import persisted
from memory.search.stemming import stem
from memory.segment import STOPWORDS, content_words, has_cjk

_CJK = "\u4e00-\u9fff"
_ZH_VALUE = rf"(?P<v>[{_CJK}A-Za-z0-9·]{{2,14}})"
_EN_END = "with|and|as|since|for|from|until|but|so|because|near|where|which|who|now|again|too"
_EN_VALUE = rf"(?P<v>(?:the\s+)?[A-Za-z][\w'&.-]*(?:\s+(?!(?:{_EN_END})\b)[\w'&.-]+){{0,3}})"
_EN_OTHER_VALUE = _EN_VALUE.replace("?P<v>", "?P<w>")  # a value of a pattern's second way
# Job words: what a role ends with (后端工程师, 实习生), what 做/当 names as work.
_ZH_JOBS = (
    "工程师|实习生|老师|教师|医生|护士|经理|设计师|开发|测试|销售|会计|律师|分析师|研究员|"
    "助理|主管|总监|程序员|架构师|产品经理|运营|编辑|记者|司机|厨师|店员|客服|顾问|教授|讲师|"
    "博士后|公务员|工人|技术员|翻译|骑手|快递员|外卖员|保安|保姆|保洁|收银员|服务员|导游|警察|消防员|"
    "飞行员|乘务员|理发师|美容师|主播|兽医|药剂师|电工|木匠"
)
_EN_JOBS = (
    "engineer|developer|designer|teacher|nurse|doctor|manager|analyst|intern|accountant|"
    "lawyer|consultant|researcher|scientist|architect|editor|writer|journalist|chef|driver|"
    "tutor|lecturer|professor|assistant|director|officer|technician|pharmacist|librarian|"
    "programmer|administrator|coordinator|specialist|therapist|dentist|surgeon|paramedic|"
    "barista|cashier|waiter|waitress|receptionist|cleaner|carer|mechanic|electrician|"
    "plumber|clerk|baker|cook|porter|midwife|pharmacist|vet|student|tester|supervisor|courier|"
    "pilot|firefighter|nanny|housekeeper|instructor|auditor|banker|economist|postman|guard"
)
# What a bare Chinese age follows: the clause's start, its subject, or an adverb of it
# ("用户七十四了", "一下就三十了"), never a verb ("降到68了" gives a measure)
_ZH_AGE_AFTER = r"(?:^|(?<=[\s，,。:：！!？?；;])|(?<=已经|用户)|(?<=[就才刚都满也快]))"
# A day an age is reached on ("Mum's 87 on 2026-12-02", "is 40 on Friday", "turns 9 on
# 3 May"): a date, a weekday or a day of a month, so "is 10 on the list" gives no age.
_EN_DAY = (
    r"(?:\d{4}-\d{2}-\d{2}|(?:mon|tues|wednes|thurs|fri|satur|sun)day"
    r"|\d{1,2}(?:st|nd|rd|th)?\s+[A-Z][a-z]+|[A-Z][a-z]+\s+\d{1,2}(?:st|nd|rd|th)?\b)"
)
_PATTERNS: dict[str, tuple[re.Pattern[str], ...]] = {
    "home": (
        re.compile(
            rf"(?:住在|住(?![到了得过着院进惯])|租在|租住在|家在|搬到了?|搬去了?|搬进了?|新家(?:地址)?(?:是|在))(?![0-9一二三四五六七八九十])"
            rf"{_ZH_VALUE}"
        ),
        re.compile(
            r"(?i)\b(?:lives?|living|resides?|residing)\s+"
            r"(?:(?:alone|on (?:my|his|her|their) own|by (?:him|her|them)sel(?:f|ves))\s+)?"
            rf"(?:in|at)\s+{_EN_VALUE}"
        ),
        re.compile(rf"(?i)\b(?:moved|relocated)\s+(?:in)?to\s+{_EN_VALUE}"),
        re.compile(rf"(?i)\b(?:based|settled)\s+in\s+{_EN_VALUE}"),
        # the address or the home one has, told by where it is ("new address is in Leeds",
        # "our new place in Galway")
        re.compile(
            rf"(?i)\b(?:address|(?:new|our|my)\s+(?:place|flat|house|home|apartment))"
            rf"\s+(?:is\s+(?:now\s+)?)?in\s+{_EN_VALUE}"
        ),
    ),
    "employer": (
        re.compile(
            rf"在(?P<v>[{_CJK}A-Za-z0-9]{{2,10}}?)(?:工作|上班|任职|实习|做(?=[{_CJK}]{{0,8}}?(?:{_ZH_JOBS}))|当(?=[{_CJK}]{{0,6}}?(?:{_ZH_JOBS})))"
        ),
        re.compile(rf"(?:入职|跳槽到|跳槽去了?|加入了?)(?P<v>[{_CJK}A-Za-z0-9]{{2,10}})"),
        # a workplace told as one of its kind ("在一家银行做柜员"), or where one is now after
        # a change of job ("跳槽了，现在在保险公司做理赔")
        re.compile(rf"在一家(?P<v>[{_CJK}A-Za-z0-9]{{2,8}}?)(?:做|当|上班|工作)"),
        re.compile(
            rf"(?:跳槽|换工作|辞职|离职)了?[，,]?\s*现在在(?P<v>[{_CJK}A-Za-z0-9]{{2,10}}?)"
            r"(?:做|当|上班|工作)"
        ),
        # the employer one goes to on one's first day ("去华泰证券入职了", "到公司报到")
        re.compile(rf"(?:去|到)(?P<v>[{_CJK}A-Za-z0-9]{{2,10}}?)(?:入职|报到)"),
        # a job one quits or leaves names the employer of the slot too ("会辞掉幼儿园的
        # 工作", "quit her job at Boots"): the next employer named is another value
        re.compile(rf"(?:辞掉了?|辞去了?|离开了?)(?P<v>[{_CJK}A-Za-z0-9]{{2,10}}?)的(?:工作|职位)"),
        re.compile(
            rf"(?i)\b(?:quit|quits|quitting|left|leaving)\s+(?:(?:his|her|my|their|the)\s+)?job\s+(?:at|with)\s+{_EN_VALUE}"
        ),
        # "找到工作了，在天河一家早教中心": the job found is where one works
        re.compile(rf"找到(?:了)?(?:新)?工作(?:了)?[，,]?\s*在(?P<v>[{_CJK}A-Za-z0-9]{{2,10}})"),
        re.compile(rf"(?i)\bworks?\s+(?:at|for)\s+{_EN_VALUE}"),
        re.compile(rf"(?i)\b(?:job|role|position)\s+(?:at|with)\s+{_EN_VALUE}"),
        # the job named with where it is done ("a designer at Fold", "nurse at St James's")
        re.compile(rf"(?i)\b(?:{_EN_JOBS})s?\s+(?:at|for|with)\s+{_EN_VALUE}"),
        re.compile(rf"(?i)\b(?:employed\s+(?:by|at)|joined)\s+{_EN_VALUE}"),
    ),
    "role": (
        re.compile(
            rf"(?:是|当|做|升为|升任|转为)(?:一名|一个|一位)?(?P<v>[{_CJK}]{{0,6}}?(?:{_ZH_JOBS}))"
        ),
        re.compile(
            rf"(?i)\b(?:is|works? as|working as|became|promoted to|hired as|job as)\s+(?:an?\s+)?"
            rf"(?P<v>(?:[a-z-]+\s+){{0,2}}(?:{_EN_JOBS}))\b"
        ),
    ),
    # the shift one works: one at a time ("works nights", "on day shifts", "上夜班")
    "shift": (
        re.compile(r"(?:上|值|倒|改成|换成|调成|调到|改上|换到|转)(?P<v>[夜白早晚中])班(?![机车])"),
        re.compile(
            r"(?i)\b(?:works?|working|on)\s+(?:the\s+)?(?P<v>nights|days|lates|earlies)\b(?!\s+(?:off|a|per)\b)"
            r"|\b(?:on|works?|working|doing)\s+(?:the\s+)?(?P<w>night|day|late|early)[\s-]shifts?\b"
        ),
    ),
    # the team one supports ("supports Arsenal", "a Celtic fan", "支持湖人队", "勇士队的球迷")
    "team": (
        re.compile(
            r"\b(?i:supports?|supporting|a fan of)\s+(?:the\s+)?"
            r"(?P<v>[A-Z][\w'&.-]*(?:\s+[A-Z][\w'&.-]*){0,2})"
            r"|\b(?i:an?)\s+(?P<w>[A-Z][\w'&.-]*(?:\s+[A-Z][\w'&.-]*)?)\s+(?i:fan|supporter)\b"
        ),
        re.compile(
            rf"(?:支持|喜欢|追|粉)(?P<v>[{_CJK}A-Za-z]{{2,6}}?)(?:队|俱乐部)"
            rf"|是(?P<w>[{_CJK}A-Za-z]{{2,6}}?)(?:队|俱乐部)的(?:球迷|粉丝|铁粉)"
        ),
    ),
    # where one stands with a partner ("is engaged to Daniel", "got married", "单身", "离婚了"):
    # one stage at a time (its value as the stage's word, :data:`_STAGES`)
    "stage": (
        re.compile(
            r"(?i)\b(?:is|am|'m|are|'re|was|got|just|recently|now|happily|started)\s+"
            r"(?:now\s+|happily\s+|just\s+|recently\s+)?"
            r"(?P<v>single|engaged|married|divorced|separated|dating)\b"
        ),
        re.compile(r"(?P<v>单身|谈恋爱|脱单|订婚|结婚(?![纪照典请宴酒])|已婚|离婚)"),
    ),
    # the car one drives ("那辆大众", "开一辆卡罗拉", "新车提了，比亚迪汉", "drives a Golf")
    "car": (
        re.compile(
            rf"(?:(?<![第一两二三])(?:那|这)辆|开(?:的是)?(?:一)?辆|新车(?:提了|到了)?(?:是|[，,：:])\s*(?:是?一辆)?)"
            rf"(?!车)(?P<v>[{_CJK}A-Za-z0-9·]{{2,8}})"
        ),
        re.compile(
            r"\b(?i:drives?|driving)\s+(?i:an?|the|his|her|my|their)\s+(?!car\b)"
            r"(?P<v>[A-Z][\w-]*(?:\s+[A-Z0-9][\w-]*)?)"
            r"|\b(?i:new car)\b[,:]?\s*(?i:is\s+)?(?i:an?\s+)?"
            r"(?P<w>[A-Z][\w-]*(?:\s+[A-Z0-9][\w-]*)?)"
        ),
    ),
    # the school one studies at ("在华南理工读软件工程", "转学到实验小学", "studies at UCL")
    "school": (
        re.compile(
            rf"在(?P<v>[{_CJK}A-Za-z]{{2,10}}?)(?:读书|上学|念书|读(?:大|研|博|高|初|硕)|上(?:大学|高中|初中|小学|幼儿园)"
            rf"|读(?=[{_CJK}]{{2,8}}?(?:专业|系)))"
        ),
        re.compile(rf"转学(?:到|去)了?(?P<v>[{_CJK}A-Za-z]{{2,10}})"),
        # a school one moved to or got into, with what one studies there ("转到交大读博了",
        # "考上了浙大读计算机")
        re.compile(
            rf"(?:转到|转去|考上了?|考进了?|考到)(?P<v>[{_CJK}A-Za-z]{{2,10}}?)"
            r"(?:读书|上学|念书|读(?:大|研|博|高|初|硕)|读(?=[\u4e00-\u9fff]{2,8}?(?:专业|系)))"
        ),
        # a school named by its kind ("在蓝天幼儿园", "现在去彩虹幼儿园", "在实验小学读一年级"),
        # or one moved to ("转到实验小学了")
        re.compile(
            rf"(?:(?<!现)在|去|转到|转去|转进|转入)(?P<v>[{_CJK}A-Za-z]{{2,8}}?(?:幼儿园|小学|中学|初中|高中))"
            r"(?=上学|读书|念书|上|读|了|[，,。.；;！!]|$)"
        ),
        re.compile(
            rf"(?i)\b(?:studies|studying|study|enrolled)\s+(?:[a-z]+\s+){{0,2}}at\s+{_EN_VALUE}"
        ),
        # a school moved to, named bare ("transferred to Durham", "switched schools, she's
        # at Oakfield now")
        re.compile(
            rf"(?i)\b(?:transferred|transferring|transfers)\s+(?:(?:uni|university|college|school)s?\s+)?"
            rf"to\s+(?!(?:a|an|the|my|his|her|their|our)\s+(?:new\s+)?(?:office|team|branch|department|role|job|site)\b){_EN_VALUE}"
            rf"|\b(?:switched|changed|moved)\s+schools?\b[^.;]*?\b(?:at|to)\s+{_EN_OTHER_VALUE}"
        ),
        re.compile(
            r"\b(?i:goes|go|going|moved|moves|transferred)\s+(?i:to)\s+"
            r"(?P<v>(?:[A-Z][\w'-]*\s+){1,3}(?i:School|Primary|Academy|College|High|University))\b"
        ),
    ),
    # the year or grade of school one is in ("上三年级", "升了小四", "读初一", "in Year 4",
    # "moved up to 5th grade"): one at a time, its value the year counted from the first
    # year of primary school (:func:`_grade`)
    "grade": (
        re.compile(
            r"(?:上|读|念|在读|升|升到|升上|升了|进入|到)了?"
            r"(?P<v>(?:小学)?[一二三四五六1-6]年级|小[一二三四五六]|初[一二三]|高[一二三]|初中[一二三]年级"
            r"|高中[一二三]年级|大[一二三四]|研[一二三])(?![0-9一二三四五六七八九十])"
        ),
        re.compile(
            r"(?i)\b(?:in|into|to|starts?|started|starting|entered|entering)\s+"
            r"(?P<v>(?:year|grade|form|p|primary|y)\s*\d{1,2}|\d{1,2}(?:st|nd|rd|th)\s+grade)\b"
        ),
    ),
    # what one studies ("studies chemistry", "now study pharmacy", "专业是会计"): one at a time
    "course": (
        re.compile(
            r"(?i)\b(?:studies|studying|study|majoring in|majors in|major is)\s+"
            r"(?!(?:at|for|in|with|on|from|after|before|every|hard|late|abroad|together|online"
            r"|a|an|the|my|his|her|their|our|some|more|most|all|it|this|that)\b)"
            r"(?P<v>[A-Za-z][\w-]*)"
        ),
        re.compile(rf"专业是(?P<v>[{_CJK}]{{2,8}}?)(?=[，,。.；;！!]|$|专业)"),
    ),
    # a rank on a ladder ("blue belt", "星耀二", "上王者了"): one at a time
    "rank": (
        re.compile(
            r"(?i)\b(?P<v>white|yellow|orange|green|blue|purple|brown|red|black)[\s-]belt\b"
        ),
        re.compile(
            r"(?P<v>青铜|白银|黄金|铂金|钻石|星耀|大师|宗师)[一二三四五1-5]"
            r"|(?:上|到|打到|升到|冲到|掉到)了?(?P<w>青铜|白银|黄金|铂金|钻石|星耀|王者|大师|宗师)"
        ),
    ),
    "age": (
        re.compile(rf"(?P<v>\d{{1,3}}|{ZH_NUMERAL})\s*(?:周岁|岁)"),
        # a bare number with 了 that ends its clause, said of someone ("七十四了", "一下就
        # 三十了"): no verb before it ("降到68了" is a measure), no measure word after it
        re.compile(
            rf"{_ZH_AGE_AFTER}(?P<v>\d{{1,3}}|{ZH_NUMERAL})\s*了(?=\s*(?:[，,。.;；!！?？~～]|$))"
        ),
        # an age in a year, as the date resolver writes "今年29": "29（2027年）"
        re.compile(
            rf"{_ZH_AGE_AFTER}(?P<v>\d{{1,3}}|{ZH_NUMERAL})\s*(?:周岁|岁)?(?:半|多)?了?"
            r"（(?:19|20)\d{2}年）"
        ),
        re.compile(
            r"(?i)(?:(?<!\bit)(?<!that)(?<!what)(?<!here)(?<!there)'s|'m|\bis|\bam|\bim|\bwas"
            rf"|\bturned|\bturns|\bturning)\s+(?P<v>\d{{1,3}}|{EN_NUMERAL})"
            r"(?=\s*(?:$|[,.;!?)]|\b(?:today|now|this year|years? old|and|until)\b"
            rf"|\s*\bon\s+{_EN_DAY}))"
        ),
        # the birthday that makes one N ("Joan's 87th birthday is on 2 December")
        re.compile(r"(?i)\b(?P<v>\d{1,3})(?:st|nd|rd|th)\s+birthday\b"),
        re.compile(rf"(?i)\b(?P<v>\d{{1,3}}|{EN_NUMERAL})[\s-]+years?[\s-]+old\b"),
        re.compile(rf"(?i)\baged\s+(?P<v>\d{{1,3}}|{EN_NUMERAL})\b"),
    ),
}
# Whom or what a role or thing one has one of is ("our landlord is Quinn Lettings", "班主任是
# 王老师", "new GP is Dr Shah"): a slot of its own per noun, its value the name after it.
_EN_HELD = (
    "landlord|landlady|boss|manager|supervisor|teacher|tutor|coach|trainer|doctor|gp|dentist|"
    "consultant|therapist|vet|partner|husband|wife|boyfriend|girlfriend|fianc[ée]e?|agent|"
    "advisor|adviser|mentor|car|phone|venue"
)
_ZH_HELD = (
    "房东|老板|领导|主管|班主任|导师|教练|主治医生|家庭医生|男朋友|女朋友|老公|老婆|对象|中介"
)
_HOLDER = (
    re.compile(
        rf"\b(?i:my|his|her|their|our|the|new|current|[a-z]+'s)\s+(?i:new\s+|current\s+)?"
        rf"(?P<k>(?i:{_EN_HELD}))(?:'s name)?\s+(?i:is|are)\s+(?i:now\s+|called\s+)?(?i:an?\s+)?"
        r"(?P<v>[A-Z][\w'&.-]*(?:\s+(?:&\s+)?[A-Z][\w'&.-]*){0,3})"
    ),
    re.compile(
        rf"(?P<k>{_ZH_HELD})(?:现在|如今)?(?:是|叫|换成了?|换成|变成了?)"
        rf"(?P<v>[{_CJK}A-Za-z·]{{2,6}}?)(?=[，,。.！!？?；;\s]|$|了|的)"
    ),
)
# A stage with a partner as one word whatever its language ("已婚" and "结婚" are one).
_STAGES = {
    "单身": "single",
    "谈恋爱": "dating",
    "脱单": "dating",
    "订婚": "engaged",
    "结婚": "married",
    "已婚": "married",
    "离婚": "divorced",
    "separated": "divorced",
}
# Titles a name is told with ("Dr Shah", "王老师"): no word of the name.
_TITLE = re.compile(
    r"(?i)\b(?:dr|mr|mrs|ms|miss|prof)\b\.?\s*|老师|医生|大夫|主任|教练|先生|女士|阿姨$"
)
# A search one is on, and its end ("到广州再找" → "找到工作了", "looking for a flat" → "found
# a flat"): whether one is still looking is a slot of its own, its values looking and found.
_LOOKING = re.compile(
    r"(?:在|再|还在|正在|重新|继续|开始)找(?P<o>工作|房子|房|对象)?(?!到)"
    r"|(?i:\b(?:looking|searching|hunting)\s+for\s+(?:a\s+)?(?:new\s+)?(?P<e>job|work|flat|house|place|room)\b"
    r"|\b(?P<h>job|flat|house)[\s-]?hunting\b)"
)
_FOUND = re.compile(
    r"(?<![没未])找到(?:了)?(?:新)?(?:的)?(?P<o>工作|房子|房|对象)?"
    r"|(?i:\b(?:found|got|landed)\s+(?:a\s+|the\s+)?(?:new\s+)?(?P<e>job|flat|house|place|room)\b)"
)
_SEARCHED = {"工作": "job", "work": "job", "job": "job", "对象": "partner"}


def _search(text: str) -> tuple[str, str] | None:
    """Whether ``text`` tells of a search still on ("looking") or ended ("found"), and for
    what ("job", "home", "partner"; "" when it says not)."""
    found = _FOUND.search(text)
    match, state = (found, "found") if found else (_LOOKING.search(text), "looking")
    if match is None:
        return None
    what = match["o"] or match["e"] or match.groupdict().get("h") or ""
    return state, _SEARCHED.get(what.lower(), "home" if what else "")


# The kind a school's name ends with, no word of which school.
_SCHOOL_KIND = re.compile(
    r"(?:小学|中学|大学|幼儿园|学校|学院|(?i:\s+(?:primary|high|school|academy|college|university))+)$"
)
# A second one of the slot's kind, no new value of it ("又买了第二辆车", "got a second car").
_ANOTHER = {
    "car": re.compile(
        r"(?i)第二辆|两辆|又买了?一?辆|\b(?:another|second|other|two|both)\s+cars?\b"
    ),
    # a thing moved, not one's home ("把公司搬到了福田"; "把家搬到…" is the home)
    "home": re.compile(rf"把(?![全一]?家)[{_CJK}A-Za-z]{{1,6}}?搬"),
}
# Slots whose value often shares its clause with where it is done ("works nights at St
# James's"): such an older clause also tells an employer no shift changes, so it is not
# retired whole for another shift.
_WITH_PLACE = frozenset({"shift"})
_PLACE = re.compile(rf"(?:\b(?:at|for|in)\s+(?:the\s+)?[A-Z]|在[{_CJK}A-Za-z]{{2,}})")
_CLAUSE_END = re.compile(r"[,.;!?，。；！？]")
OLDEST = 120  # an age above this is no age ("等了200了")
# A group one joins as a member beside one's work (a club, a team of a sport, a choir, a
# reading group): "joined" names no employer then.
_MEMBERSHIP = re.compile(
    r"(?:(?<!团)队|社|俱乐部|协会|小组|合唱团|乐团|乐队|读书会|兴趣班|志愿者|群)$"
    r"|(?i:\b(?:club|team|society|choir|band|league|group|gym|committee|association|"
    r"orchestra|crew)s?$)"
)
# What names the kind of place or employer, not which ("the Shanghai office", "一家幼儿园").
_HEADS = frozenset(
    "the a an office company firm city town area flat house home apartment place team "
    "这边 那边 附近 一家 一个 公司 现在 目前 today tonight yesterday now recently".split()
)
_ZH_FILLER = re.compile(r"(?:这边|那边|附近|那里|这里|了|的)+$")
# Where one comes from ("老家在衡阳", "籍贯湖南", "born in Leeds"): a value for life, no home
# held now ("先回老家再找" goes there, and tells none).
ORIGIN = re.compile(
    r"(?:老家|家乡|祖籍)(?:在|是)|籍贯|出生(?:在|于)|(?:是|来自)[\u4e00-\u9fff]{2,4}人(?![员士])"
    r"|(?i:\bhometown\b|\bborn in\b|\bgrew up in\b|\boriginally from\b)"
)
# What a statement tells as over ("以前在纺织厂当会计", "used to work at Boots"): a value held
# before, no value held now, so it replaces none.
FORMER = re.compile(
    r"(?i)以前|从前|曾经|过去(?:是|在|做|当)|退休前|\bused to\b|\bformerly\b|\bpreviously\b|"
    r"\bback then\b|\bin the past\b|\bonce (?:was|worked|lived)\b|"
    # a time of one's life gone by ("小时候", "年轻的时候", "as a kid", "back in college")
    r"小时候|年轻(?:的)?时候?|上学(?:的)?时候|读书(?:的)?时候|上大学(?:的)?时候|当年|"
    r"\bas a (?:kid|child|teenager|student)\b|\bwhen I was (?:young|little|a kid|a child|"
    r"at school|in (?:school|college|uni|university))\b|\bback in (?:school|college|uni)\b"
)


@lru_cache(maxsize=50_000)
@persisted("single_slots.slot_values")  # some fifty patterns a text: kept across dreams
def slot_values(text: str) -> dict[str, frozenset[str]]:
    """The single-valued slots ``text`` fills and each one's value (as word tokens; Chinese
    as character pairs), the first value of each slot it names."""
    out: dict[str, frozenset[str]] = {}
    for slot, patterns in _PATTERNS.items():
        for pattern in patterns:
            match = pattern.search(text)
            if match:
                found = match["v"] or match.groupdict().get("w") or ""
                if slot == "employer" and _MEMBERSHIP.search(found.strip()):
                    continue  # "加入了公司的篮球队", "joined a climbing club": no employer
                if slot == "school":
                    found = _SCHOOL_KIND.sub("", found)  # 实验小学 / 育才小学 share only 小学
                if slot == "stage":
                    found = _STAGES.get(found.lower(), found.lower())
                if slot == "age":
                    value = _age(found)
                elif slot == "grade":
                    value = _grade(found)
                else:
                    value = _tokens(found)
                if value:
                    out[slot] = value
                    break
    search = _search(text)
    if search is not None:
        out["search"] = frozenset({search[0]})
    for pattern in _HOLDER:
        for match in pattern.finditer(text):
            value = _tokens(_TITLE.sub("", match["v"]))
            key = "holder:" + stem(match["k"].lower())
            if value and key not in out:
                out[key] = value
    return out


def _age(value: str) -> frozenset[str]:
    """An age as its digits ("七十三" -> "73"), none when the number can be no age."""
    n = number(value)
    return frozenset({str(n)}) if n is not None and 0 < n <= OLDEST else frozenset()


# The years before each stage of school, counted from the first year of primary school.
_STAGE_YEARS = {"小": 0, "初": 6, "高": 9, "大": 12, "研": 16}


def _grade(value: str) -> frozenset[str]:
    """A school year as its count from primary school's first ("初二" -> "8", "Year 5" ->
    "5"), none when it names no year."""
    digits = re.search(r"\d{1,2}", value)
    if digits:  # Year 4, grade 5, 5th grade, P4: the English count is primary's
        return frozenset({str(int(digits.group(0)))})
    n = number(re.sub(r"[^一二三四五六]", "", value))
    if n is None:
        return frozenset()
    stage = next((c for c in value if c in _STAGE_YEARS), "小")
    return frozenset({str(_STAGE_YEARS[stage] + n)})


def _tokens(value: str) -> frozenset[str]:
    if has_cjk(value):
        value = _ZH_FILLER.sub("", value)
        chars = re.sub(rf"[^{_CJK}A-Za-z0-9]", "", value)
        grams = {chars[i : i + 2] for i in range(len(chars) - 1)} or {chars}
        return frozenset(g for g in grams if g and g not in _HEADS)
    words = {stem(w.lower()) for w in content_words(value)}
    return frozenset(w for w in words if w not in _HEADS and w not in STOPWORDS)


# A thing one had, told as gone ("sold the Focus", "the Corsa finally died", "gave my Kindle
# away", "left The Tides", "朗逸卖了", "AirPods丢了", "把思域卖了"): what ``older`` said one
# has or does with it holds no more, whatever ``newer`` names instead.
_EN_GONE = re.compile(
    r"\b(?:sold|traded in|traded|scrapped|ditched|got rid of|gave away|replaced|returned"
    r"|left|quit)\s+(?:(?:my|our|the|his|her|their|[A-Z][a-z]+'s)\s+)?(?P<t>[A-Za-z][\w-]*(?:\s+[A-Z0-9][\w-]*)?)"
    r"|\bgave\s+(?:(?:my|our|the|his|her|their|[A-Z][a-z]+'s)\s+)?(?P<g>[A-Za-z][\w-]*)\s+away\b"
    r"|(?:\b(?:the|my|our)\s+|^)(?P<d>[A-Z][\w-]*)\s+(?:finally\s+|just\s+)?"
    r"(?:died|broke down|was stolen|got stolen|was written off|got written off)\b"
    r"|\b(?P<n>[A-Z][\w-]*)\s+(?:has\s+|had\s+)?(?:sadly\s+)?passed away\b",
    re.IGNORECASE,
)
_LEFT = frozenset({"left", "quit"})  # what follows must be a name: "left work early" is no job left
_ZH_GONE = re.compile(
    rf"(?:把|将)?(?P<t>[{_CJK}A-Za-z0-9]{{2,8}}?)(?:已经|终于|彻底|早就|总算)?"
    r"(?P<v>卖了|卖掉了|卖掉|丢了|坏了|送人了|退掉了|报废了|转手了|去世了|扔了|扔掉了|淘汰了)"
)
# A thing told as the old one of its kind ("旧车卖了", "sold my old car"): the kind names the
# older's thing of that kind, by its word or by the slot the kind fills ("开一辆大众朗逸").
_OLD_ONE = re.compile(r"(?i)^(?:旧|老|原来的?|之前的?|以前的?|old\s+)")
_KIND_SLOT = {"车": "car", "car": "car"}
# An end that may be mended ("手机坏了", "the Corsa died"): gone only beside a new one.
_WEAK = re.compile(r"(?i)坏了|\b(?:died|broke down)\b")
_ANEW = re.compile(r"(?i)新|换|现在|买了|入手|\b(?:got|bought|new|now|instead|replaced)\b")
_ZH_TELLER = re.compile(r"^(?:用户|我们|我|他们|他|她)?(?:提到|说|表示)?(?:的)?(?:把|将)?")


# An end told of whom by name: a partner one broke up with or divorced ("broke up with Sam",
# "Sam and I split up", "the divorce from Mark", "跟小美分手了", "和Anna离婚了"), a pet or a
# person who died ("Biscuit died in March"): what ``older`` said of them holds no more. (A
# pursuit stopped, "法语不学了", is :mod:`relations`' stop rule: read as a thing gone it
# retired durable facts that name the pursuit beside others.)
_EN_ENDED = re.compile(
    r"\b(?:broke up|split up|separated|split)\s+(?:with|from)\s+(?P<t>[A-Z][\w-]*)"
    r"|\b(?:divorced|divorce)\s+(?:from\s+)?(?P<d>[A-Z][\w-]*)"
    r"|\b(?P<p>[A-Z][\w-]*)\s+and\s+(?:I|me|the user)\s+(?:have\s+|had\s+|finally\s+)?"
    r"(?:broke up|split up|split|separated|got divorced|divorced)\b"
    r"|\b(?:I|me)\s+and\s+(?P<q>[A-Z][\w-]*)\s+(?:have\s+|had\s+|finally\s+)?"
    r"(?:broke up|split up|split|separated|got divorced|divorced)\b"
    # one named bare died (a pet, a person), not a thing with its article ("the Clio died":
    # broken down, perhaps mended)
    r"|(?<!\bthe\s)(?<!\bmy\s)(?<!\bour\s)(?<!\bhis\s)(?<!\bher\s)(?<!\btheir\s)(?<!\ba\s)"
    r"\b(?P<n>[A-Z][\w-]*)\s+(?:has\s+|had\s+|sadly\s+)*died\b"
)
_ZH_PARTED = re.compile(
    rf"(?P<b>[^，,。；;！!？?]*?)(?:和|跟|与)(?P<t>[{_CJK}A-Za-z·]{{1,6}}?)(?:已经|终于)?"
    r"(?:分手|离婚|分开|分了手|离了婚)"
)
# What may stand before a breakup's 和 and still be its teller: the user, I, when it was.
_ZH_WHEN = re.compile(
    r"(?:提到|说|表示)(?:他|她)|用户|我们|我|提到|说|表示|上个?月|上周|上星期|昨天|前天|前几天|最近|刚刚?|已经|终于|今年|去年"
    r"|\d+\s*[年月日号]|[：:\s]"
)
_THIRD = re.compile(r"[他她]")


def _ended(newer: str) -> list[str]:
    """The partners and pets ``newer`` tells as ended (their words as written)."""
    if not has_cjk(newer):
        return [m["t"] or m["d"] or m["p"] or m["q"] or m["n"] for m in _EN_ENDED.finditer(newer)]
    body = re.split(r"[：:]", newer, maxsplit=1)[-1]
    return [
        m["t"]
        for m in _ZH_PARTED.finditer(body)
        if not _ZH_WHEN.sub("", m["b"]) and not _THIRD.search(m["t"]) and "的" not in m["t"]
    ]


def ended_names(text: str) -> frozenset[str]:
    """The names of the partners and pets ``text`` tells as ended."""
    return frozenset(_ended(text))


def tells_end(text: str) -> bool:
    """Whether ``text`` tells by name the end of a partner or a pet."""
    return bool(_ended(text))


def _gone(newer: str) -> list[str]:
    """The things ``newer`` tells as gone (their words as written)."""
    ended = _ended(newer)
    if _WEAK.search(newer) and not _ANEW.search(_WEAK.sub("", newer)):
        newer = _WEAK.sub("", newer)  # broken, perhaps mended: no end told
    if has_cjk(newer):
        body = re.split(r"[：:]", newer, maxsplit=1)[-1]
        return ended + [_ZH_TELLER.sub("", m["t"]) for m in _ZH_GONE.finditer(body)]
    out: list[str] = ended
    for m in _EN_GONE.finditer(newer):
        thing = m["t"] or m["g"] or m["d"] or m["n"]
        verb = m.group(0).split()[0].lower()
        if thing is None or thing[:1].isdigit():
            continue
        if verb in _LEFT and not thing[:1].isupper():
            continue
        out.append(thing)
    return out


def tells_gone(text: str) -> bool:
    """Whether ``text`` tells a thing, a partner or a pet as gone."""
    return bool(_gone(text))


def disposed(newer: str, older: str, who: frozenset[str] = frozenset()) -> bool:
    """Whether ``newer`` tells as gone a thing ``older`` names (a word of it, Chinese by a
    character pair), ``older`` telling of no such end itself."""
    return not _gone(older) and _named_in(_gone(newer), older, who)


def ended(newer: str, older: str, who: frozenset[str] = frozenset()) -> bool:
    """Whether ``newer`` tells by name the end of a partner or a pet ``older`` names ("Sam
    and I broke up" after "is dating Sam", "Biscuit died" after "has a dog called Biscuit",
    "跟小美分手了" after "在和小美谈恋爱"), ``older`` telling of no end itself: the clearest
    of changes, the old value named as over."""
    return not _gone(older) and _named_in(_ended(newer), older, who)


def _named_in(things: list[str], older: str, who: frozenset[str]) -> bool:
    """Whether ``older`` names one of ``things`` (a word of it, Chinese by a character pair
    that is not the subject's own name)."""
    low = older.lower()
    mine = {n[i : i + 2] for n in who if has_cjk(n) for i in range(len(n) - 1)}
    for thing in things:
        kind = _OLD_ONE.sub("", thing).strip().lower()
        if kind != thing.lower() and _KIND_SLOT.get(kind) in slot_values(older):
            return True  # "旧车卖了" after "开一辆大众朗逸"
        if has_cjk(thing):
            chars = re.sub(rf"[^{_CJK}A-Za-z0-9]", "", thing)
            grams = {chars[i : i + 2] for i in range(len(chars) - 1)} - mine - {"用户"}
            if any(g in older for g in grams if has_cjk(g)):
                return True
            words = re.findall(r"[A-Za-z]{3,}", thing)
        else:
            words = [w for w in re.findall(r"[A-Za-z][\w-]*", thing) if len(w) >= 3]
        for word in words:
            if word.lower() in STOPWORDS or word.lower() in _HEADS:
                continue
            if re.search(rf"(?<![a-z]){re.escape(word.lower())}", low):
                return True
    return False


def swapped(newer: str, older: str, who: frozenset[str] = frozenset()) -> str:
    """The slot ``newer`` gives another value of than ``older`` gave ("" when none): both
    fill it, their values share no word. ``who``: the subject's names; a value that names
    the subject ("奶奶住在王建国家") is someone else's, at the subject's."""
    if has_cjk(newer) != has_cjk(older):
        return ""  # "在新加坡" / "at DBS Bank": values in two languages share no word anyway
    if FORMER.search(newer) and not FORMER.search(older):
        return ""  # "以前在纺织厂当会计": the value held before, not now
    if ORIGIN.search(older) and not ORIGIN.search(newer):
        return ""  # "老家在湖南长沙": where one comes from, beside where one lives now
    if disposed(newer, older, who):
        return "gone"  # "sold the Focus" after "drives a Ford Focus"
    new, old = slot_values(newer), slot_values(older)
    for slot in sorted(set(new) & set(old)):
        if new[slot] & old[slot] or _names(new[slot] | old[slot], who):
            continue
        if slot in ("age", "grade") and not _older(new[slot], old[slot]):
            continue  # an age or a school year only grows: a younger one is someone else's
        if slot == "search" and not _same_search(newer, older):
            continue  # a flat found ends no job search
        if slot in _ANOTHER and _ANOTHER[slot].search(newer):
            continue  # a second car beside the first, a company moved beside one's home
        if slot in _WITH_PLACE and _with_place(older, slot):
            continue  # "works nights at St James's": the shift leaves, the workplace stays
        return slot
    return ""


# An employer one joins, named with the verb of the first day ("入职招商银行", "去华泰证券
# 报到了", "joined Arup", "started at Boots"): a change of employer whatever else the line
# says holds ("还是八点半上班") and whichever day it names.
_JOINED = re.compile(
    rf"(?:入职|跳槽到|跳槽去了?|加入了?)[{_CJK}A-Za-z0-9]{{2,10}}"
    rf"|(?:去|到)[{_CJK}A-Za-z0-9]{{2,10}}?(?:入职|报到)"
    r"|(?i:\b(?:joined|started (?:a new job )?(?:at|with))\s+[A-Z])"
)


def joined(newer: str, older: str, who: frozenset[str] = frozenset()) -> bool:
    """Whether ``newer`` tells of joining an employer other than the one ``older`` names
    (the caller checks the subject, the order and that the newer is no plan)."""
    return bool(_JOINED.search(newer)) and swapped(newer, older, who) == "employer"


def _same_search(newer: str, older: str) -> bool:
    """Whether the two statements tell of one search (what each looks for, where said, is
    the same)."""
    new, old = _search(newer), _search(older)
    return new is not None and old is not None and (not new[1] or not old[1] or new[1] == old[1])


def _with_place(text: str, slot: str) -> bool:
    """Whether the clause of ``text`` filling ``slot`` also names where (an employer, a
    place: "at St James's", "在协和医院")."""
    for pattern in _PATTERNS[slot]:
        match = pattern.search(text)
        if match:
            start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, match.start())), default=0)
            end = _CLAUSE_END.search(text, match.end())
            return bool(_PLACE.search(text[start : end.start() if end else len(text)]))
    return False


def _older(new: frozenset[str], old: frozenset[str]) -> bool:
    return min(int(v) for v in new) > max(int(v) for v in old)


def at_subject(text: str, who: frozenset[str]) -> bool:
    """Whether a slot value of ``text`` names the subject ("奶奶住在王建国家"): the line tells
    of someone else, at the subject's, and changes none of the subject's own values."""
    return any(_names(value, who) for value in slot_values(text).values())


def _names(value: frozenset[str], who: frozenset[str]) -> bool:
    """Whether a value's tokens spell one of the subject's names (a pair of a Chinese name
    is enough: "王建国家" holds 王建, 建国)."""
    for name in who:
        if len(name) < 2:
            continue
        grams = {name[i : i + 2] for i in range(len(name) - 1)} if has_cjk(name) else {name}
        if grams <= value or (has_cjk(name) and len(grams & value) >= 2):
            return True
    return False


def slots(text: str) -> frozenset[str]:
    """The single-valued slots ``text`` fills."""
    return frozenset(slot_values(text))


__all__ = [
    "FORMER",
    "at_subject",
    "disposed",
    "ended",
    "ended_names",
    "joined",
    "slot_values",
    "slots",
    "swapped",
    "tells_end",
    "tells_gone",
]
