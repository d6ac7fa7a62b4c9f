"""Traditional characters and written Cantonese read as Simplified Mandarin, for judging and
indexing only.

The judgement (classifier, change rules, slots, dates, people) and the search tokenizer
were built on Simplified Mandarin. :func:`plain` gives the text they read: Traditional
characters as Simplified (OpenCC's ``hk2s``: Hong Kong and Taiwan forms alike) and the
common words of Cantonese grammar as their Mandarin equivalents (咗 了, 而家 现在, 唔 不,
係 是, 喺 在, 佢 他, 嘅 的, 冇 没, 聽日 明天, 下晝 下午 ...). Words that are also Mandarin
(食 as 吃, 今日 as 今天, 話 after a person as 说) are read so only in a text that is
Traditional or Cantonese already, so a Simplified Mandarin text is read as it is.

A Traditional or Cantonese text's everyday words that Hong Kong or Taiwan write otherwise
than the mainland are read as the mainland's too (芫茜 香菜, 的士 出租车, 雪櫃 冰箱, 計程車
出租车, 軟體 软件: OpenCC's Taiwan and Hong Kong phrases and a table by class), so
"唔食芫茜" and a later "而家食香菜" are one fact, and a query "出租车" finds "的士".

What the user wrote stays theirs: :func:`plain` keeps every character's place but for
those words (each other replacement is as long as what it replaces), so a text made from
plain lines is given back in the lines' own script by :func:`shown` (the characters it
shares with them as they were written, a word read otherwise as the word written, the
words it adds, such as "用户", in Traditional where they were).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Any

from memory.plain_vocabulary_opencc import OPENCC

_lock = threading.Lock()
_converters: dict[str, Any] = {}

# characters no Mandarin text writes: a text with one is Cantonese
_CANTONESE = re.compile("[咗嘅啲喺冇嚟睇搵畀攞瞓佢哋嗰𠮶嘢咩唔諗谂噉揾攰揸]")
# OpenCC reads these only where a CJK character is (ASCII and punctuation pass unchanged)
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f]")

# Cantonese words and their Mandarin equivalents of the same length, read after hk2s (so
# in Simplified form), longest first. The general class: pronouns, aspect and sentence
# particles, negation, copula and locative, demonstratives and question words, the days
# and parts of the day, and the everyday verbs written with their own characters.
_WORDS: dict[str, str] = {
    # pronouns and possessive
    "我哋": "我们",
    "你哋": "你们",
    "佢哋": "他们",
    "佢": "他",
    "嘅": "的",
    # things and quantity
    "乜嘢": "什么",
    "咩嘢": "什么",
    "啲嘢": "东西",
    "食嘢": "吃饭",
    "食烟": "抽烟",
    "嘢": "事",
    "啲": "些",
    # aspect and sentence particles
    "过咗身": "去世了",
    "咗": "了",
    # negation, existence, copula, place
    "唔该晒": "谢谢了",
    "多谢晒": "多谢了",
    "唔该": "谢谢",
    "唔使": "不用",
    "唔驶": "不用",
    "唔好": "不要",
    "唔": "不",
    "冇": "没",
    "喺": "在",
    # demonstratives and questions
    "𠮶度": "那里",
    "𠮶": "那",
    "嗰度": "那里",
    "嗰": "那",
    "边度": "哪里",
    "边个": "哪个",
    "边间": "哪间",
    "边只": "哪只",
    "边啲": "哪些",
    "点解": "为何",
    "点样": "怎样",
    "咁样": "这样",
    "噉样": "这样",
    # now and just now
    "而家": "现在",
    "依家": "现在",
    "宜家": "现在",
    "啱啱": "刚刚",
    "头先": "刚才",
    "是咪": "是否",
    # how often: habits ("成日", "日日", "逢" in context)
    "个个礼拜": "每个星期",
    "个个月": "每个月",
    "成日": "经常",
    "间中": "偶尔",
    "不嬲": "一向",
    # days and parts of the day
    "琴日": "昨天",
    "寻日": "昨天",
    "琴晚": "昨晚",
    "寻晚": "昨晚",
    "听日": "明天",
    "听朝": "明早",
    "听晚": "明晚",
    "下昼": "下午",
    "晏昼": "中午",
    "朝早": "早上",
    # home, work, school
    "屋企": "家里",
    "返工": "上班",
    "翻工": "上班",
    "放工": "下班",
    "返学": "上学",
    "翻学": "上学",
    "钟意": "喜欢",
    "倾偈": "聊天",
    "揸车": "开车",
    "揸": "开",
    "行山": "爬山",
    "落雨": "下雨",
    "出街": "出门",
    "攰": "累",
    # everyday verbs
    "嚟": "来",
    "睇": "看",
    "搵": "找",
    "揾": "找",
    "谂": "想",
    "畀": "给",
    "攞": "拿",
    "瞓": "睡",
}

# The same, for words Mandarin writes too (in another sense, or the same sense in a
# literary register): read so only in a Traditional or Cantonese text.
_ALSO_MANDARIN: dict[str, str] = {
    "今日": "今天",
    "日日": "每天",
    "晚晚": "每晚",
    "朝朝": "每早",
    "前日": "前天",
    "后日": "后天",
    "夜晚": "晚上",
    "中意": "喜欢",
    "阿妈": "妈妈",
    "阿爸": "爸爸",
    "老豆": "爸爸",
    "老窦": "爸爸",
    "细路": "小孩",
    "好似": "好像",
    "呢个": "这个",
    "呢度": "这里",
    "呢排": "最近",
    "呢间": "这间",
    "呢只": "这只",
    "呢位": "这位",
    "呢次": "这次",
    "呢几": "这几",
    "呢种": "这种",
    "呢边": "这边",
    "俾": "给",
}

# Everyday words that Hong Kong or Taiwan write otherwise than the mainland, with the
# mainland's word (as long or not: :func:`shown` gives a changed word back whole), read
# only in a Traditional or Cantonese text. By class: food, transport, work and school,
# home, money and shopping, family, health, phones and computers. OpenCC's own Taiwan and
# Hong Kong phrases (:mod:`memory.plain_vocabulary_opencc`: 计程车, 软体, 简讯, 滑鼠 ...) are
# read too; this table adds what they lack.
_VOCABULARY: dict[str, str] = {
    # food and drink
    "芫茜": "香菜",
    "士多啤梨": "草莓",
    "薯仔": "土豆",
    "凤梨": "菠萝",
    "高丽菜": "卷心菜",
    "椰菜": "卷心菜",
    "青瓜": "黄瓜",
    "粟米": "玉米",
    "车厘子": "樱桃",
    "奇异果": "猕猴桃",
    "朱古力": "巧克力",
    "芝士": "奶酪",
    "忌廉": "奶油",
    "三文治": "三明治",
    "多士": "吐司",
    "雪糕": "冰淇淋",
    "便当": "盒饭",
    "饭盒": "盒饭",
    "公仔面": "方便面",
    "即食面": "方便面",
    "饮管": "吸管",
    "鸡髀": "鸡腿",
    # transport
    "的士": "出租车",
    "巴士": "公交车",
    "公车": "公交车",
    "单车": "自行车",
    "电单车": "摩托车",
    "机车": "摩托车",
    "捷运": "地铁",
    "港铁": "地铁",
    "泊车": "停车",
    # work and school
    "老细": "老板",
    "见工": "面试",
    "功课": "作业",
    # home
    "雪柜": "冰箱",
    "冷气机": "空调",
    "冷气": "空调",
    "搬屋": "搬家",
    "租屋": "租房",
    "买楼": "买房",
    "楼价": "房价",
    "冲凉": "洗澡",
    "洗衫": "洗衣",
    "锁匙": "钥匙",
    "电饭煲": "电饭锅",
    "风筒": "吹风机",
    # money and shopping
    "街市": "菜市场",
    "银包": "钱包",
    "埋单": "买单",
    "买飞": "买票",
    # family
    "细佬": "弟弟",
    "家姐": "姐姐",
    "细妹": "妹妹",
    "仔女": "子女",
    "外父": "岳父",
    "外母": "岳母",
    # health
    "伤风": "感冒",
    "肚痛": "肚子疼",
    "钟头": "小时",
    # phones and computers
    "手提电话": "手机",
    "手提电脑": "笔记本电脑",
    "电邮": "邮件",
    "短讯": "短信",
    "视像": "视频",
    "影片": "视频",
    "叉电": "充电",
}

# Words read in context, each as long as what it replaces: (pattern, replacement). The
# first ones are Cantonese wherever they stand; the rest are read so only in a
# Traditional or Cantonese text, like :data:`_ALSO_MANDARIN`.
Replacement = str | Callable[[str], str]


def _progressive(word: str) -> str:
    """The progressive "读紧" (reading now) as "在读": the aspect before the verb."""
    return "在" + word[0]


_CANTONESE_CONTEXT: tuple[tuple[str, Replacement], ...] = (
    # moved, transferred, flew to: "搬咗去大埔" -> "搬到了大埔"
    (r"(?<=[搬调转移飞])咗[去到嚟]", "到了"),
    # "係咩" (is it?) asks; "what" elsewhere ("食咩")
    (r"(?<=是)咩", "吗"),
    (r"咩", "啥"),
)
_CONTEXT: tuple[tuple[str, Replacement], ...] = (
    # eat, drink as verbs; 食物, 零食, 饮料 ... are nouns
    (r"(?<![零美素粮伙主甜熟肉面饮])食(?![物品堂谱材欲量疗言肆])", "吃"),
    (r"(?<![冷热餐])饮(?![食料品用])", "喝"),
    # "佢话" -> "他说": said, after a person or before whom it tells of
    (r"(?<=[我你他她们户妈爸哥姐弟妹仔女公婆生师])话|话(?=[他她我你])", "说"),
    # with: "佢同阿欣" (同学, 同事, 同意 ... stay)
    (r"(?<=[我你他她们户])同(?![学事意时样一志居步类期岁龄行伴胞])", "和"),
    # son, daughter: "我个仔" (一个女 stays)
    (r"(?<![一两几每这那哪三四五六七八九十])个仔", "儿子"),
    (r"(?<![一两几每这那哪三四五六七八九十])个女(?![人孩生子])", "女儿"),
    # doing now: "读紧" -> "在读" (紧张, 要紧, 抓紧 ... stay)
    (
        r"(?<![要赶抓收很太好拉绑捏握系扎绷加吃最])[\u4e00-\u9fff]紧(?![张急密凑要身贴])",
        _progressive,
    ),
    # still, also: not 仲裁, 仲介, 伯仲
    (r"(?<!伯)仲(?![裁介夏秋春冬])", "还"),
    # week: "礼拜三", "上个礼拜"; 做礼拜 (worship) stays
    (r"礼拜(?=[一二三四五六日天])|(?<=[上下个今这每])礼拜", "星期"),
    # every: "逢星期三" (每逢, 相逢 stay)
    (r"(?<![每相重])逢(?=星期|礼拜|周|[一二三四五六七八九十初])", "每"),
    # chat: "再倾" (倾向, 倾斜, 倾听 ... stay)
    (r"(?<![向左右前后])倾(?![向斜听家泻销注覆城盆慕诉力])", "聊"),
    # a job: "份工" (not "一份工作")
    (r"份工(?![作资人])", "工作"),
    # money: "五十蚊" (蚊 is a mosquito elsewhere)
    (r"(?<=[0-9一二三四五六七八九十百千万两几])蚊", "块"),
)


Rules = tuple[re.Pattern[str], list[Replacement | dict[str, str]]]


def _rules(rules: tuple[tuple[str, Replacement], ...], words: dict[str, str]) -> Rules:
    """One pattern of ``rules`` (a group each) and ``words`` (the last group), with what
    each group is replaced by."""
    alternatives = [f"({pattern})" for pattern, _ in rules]
    listed = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    alternatives.append(f"({listed})")
    replacements: list[Replacement | dict[str, str]] = [r for _, r in rules]
    replacements.append(words)
    assert all(re.compile(pattern).groups == 0 for pattern, _ in rules)
    return re.compile("|".join(alternatives)), replacements


def _substitute(rules: Rules, text: str) -> str:
    pattern, replacements = rules

    def one(match: re.Match[str]) -> str:
        index = match.lastindex or 0
        replacement = replacements[index - 1]
        word = match.group()
        if isinstance(replacement, dict):
            return replacement[word]
        return replacement if isinstance(replacement, str) else replacement(word)

    return pattern.sub(one, text)


_ALWAYS = _rules(_CANTONESE_CONTEXT, _WORDS)
_MARKED = _rules(_CONTEXT, _ALSO_MANDARIN)
_VOCABULARY_ALL = {**OPENCC, **_VOCABULARY}
_VOCABULARY_WORDS = re.compile(
    "|".join(re.escape(w) for w in sorted(_VOCABULARY_ALL, key=len, reverse=True))
)


def _converter(config: str) -> Any:
    """OpenCC's converter for ``config`` (made once: its dictionaries load in ~30 ms)."""
    found = _converters.get(config)
    if found is None:
        with _lock:
            found = _converters.get(config)
            if found is None:
                import opencc

                found = _converters[config] = opencc.OpenCC(config)
    return found


def _simplified(text: str) -> str:
    """``text``'s Traditional characters as Simplified, each character in its place."""
    if not _HAN.search(text):
        return text
    out = _converter("hk2s").convert(text)
    if len(out) == len(text):
        return out
    convert = _converter("hk2s").convert  # a phrase that changed length: by characters
    return "".join(c if len(d := convert(c)) != 1 else d for c in text)


# "係" (is) read before the characters are simplified: Simplified writes 系 for it and
# for 系 (a department, a system); 關係 and 係數 keep theirs.
_IS = re.compile(r"(?<![關联聯关])係(?!数|數)")


def _same_length(text: str) -> tuple[str, bool]:
    """``text`` read plain but for the vocabulary, each character in its place, and
    whether it is Traditional or Cantonese (so its vocabulary is read too)."""
    cantonese = _CANTONESE.search(text) is not None or "係" in text
    simplified = _simplified(_IS.sub("是", text))
    out = _substitute(_ALWAYS, simplified)
    marked = cantonese or out != text  # Traditional, or Cantonese words read already
    return (_substitute(_MARKED, out) if marked else out), marked


@lru_cache(maxsize=65536)
def plain(text: str) -> str:
    """``text`` as Simplified Mandarin; a Simplified Mandarin text comes back as it is."""
    if not _HAN.search(text):
        return text
    out, marked = _same_length(text)
    if not marked:
        return out
    return _VOCABULARY_WORDS.sub(lambda m: _mainland(m, text), out)


def _mainland(match: re.Match[str], text: str) -> str:
    """The mainland's word for ``match`` (in the plain form of ``text``), where ``text``
    wrote that word itself: "嘅士兵" (的士兵) is no taxi."""
    start, end = match.span()
    word = match.group()
    return _VOCABULARY_ALL[word] if _simplified(text[start:end]) == word else word


def _placed(text: str) -> tuple[str, list[tuple[int, int]]]:
    """:func:`plain` ``text`` and, for each of its characters, the span of ``text`` it
    reads: its own place, or the whole word a vocabulary word replaced."""
    out, marked = _same_length(text) if _HAN.search(text) else (text, False)
    if not marked:
        return out, [(i, i + 1) for i in range(len(text))]
    parts: list[str] = []
    places: list[tuple[int, int]] = []
    last = 0
    for match in _VOCABULARY_WORDS.finditer(out):
        start, end = match.span()
        word = _mainland(match, text)
        parts += [out[last:start], word]
        places += [(i, i + 1) for i in range(last, start)] + [(start, end)] * len(word)
        last = end
    parts.append(out[last:])
    places += [(i, i + 1) for i in range(last, len(out))]
    return "".join(parts), places


def is_plain(text: str) -> bool:
    """True when ``text`` reads as it is written (no Traditional, no Cantonese)."""
    return plain(text) == text


@lru_cache(maxsize=8192)
def _traditional(text: str) -> str:
    return _converter("s2t").convert(text) if _HAN.search(text) else text


def shown(text: str, written: list[str]) -> str:
    """``text``, made from the plain forms of the ``written`` lines, in their script: each
    run it shares with a plain line is given as that line wrote it, and what it adds (a
    "用户", a resolved date) in Traditional characters where a line was Traditional."""
    if all(is_plain(line) for line in written):
        return text
    source = "\n".join(written)
    read: list[str] = []
    places: list[tuple[int, int]] = []  # of each character of the plain lines, in source
    offset = 0
    for line in written:
        line_read, line_places = _placed(line)
        read.append(line_read)
        places += [(a + offset, b + offset) for a, b in line_places]
        places.append((offset + len(line), offset + len(line) + 1))  # the line's end
        offset += len(line) + 1
    traditional = _simplified(source) != source
    out: list[str] = []
    done = 0  # where in source what was given back ends
    matcher = SequenceMatcher(None, "\n".join(read), text, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            start, end = max(places[i1][0], done), places[i2 - 1][1]
            if end > start:  # a word read otherwise is given back whole, once
                out.append(source[start:end])
                done = end
        elif j2 > j1:
            added = text[j1:j2]
            out.append(_traditional(added) if traditional else added)
    return "".join(out)
