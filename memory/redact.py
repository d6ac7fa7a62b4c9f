"""Redaction of secrets from text: API keys and tokens, passwords (labelled or said in
passing), private keys, payment cards and identity numbers; phone numbers too where the
configuration asks for it (:class:`Redaction`).

Applied to everything before it is written to a memory file or a saved conversation, and
to the notes a dream sends to a model. A labelled secret ("password: …", "密码是 …") is
masked to the end of its clause, so pass phrases with spaces go too. Digit runs are
masked only when their checksum holds (Luhn for cards, MOD 11-2 for Chinese resident
ids), so order numbers and timestamps stay.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from memory.identifiers import is_card_number, is_cn_resident_id, is_us_ssn

MASK = "[REDACTED]"


@dataclass(frozen=True)
class Redaction:
    """What to mask besides secrets, cards and identity numbers (always masked)."""

    phone_numbers: bool = False


DEFAULT = Redaction()

_PATTERNS: tuple[re.Pattern[str], ...] = (
    # PEM and PGP private keys, whole block (to the end if the block is cut off).
    re.compile(
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----.*?"
        r"(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
        re.S,
    ),
    # Credentials inside URLs: scheme://user:password@host
    re.compile(r"(?<=://)[^/\s:@]+:[^/\s@]+(?=@)"),
    # "Authorization: Basic xxx"
    re.compile(r"(?i)\bbasic\s+[A-Za-z0-9+/=]{8,}"),
    # "Authorization: Bearer xxx", "bearer xxx"
    re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/=\-]{8,}"),
    # OpenAI-style, Anthropic-style and similar prefixed keys.
    re.compile(r"\b(?:sk|pk|rk)-[A-Za-z0-9_\-]{16,}"),
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}"),
    re.compile(r"\bxox[abprs]-[A-Za-z0-9\-]{10,}"),
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    re.compile(r"\bAIza[0-9A-Za-z_\-]{30,}"),
    # Telegram bot tokens: 123456789:AA...
    re.compile(r"\b\d{6,12}:[A-Za-z0-9_\-]{30,}"),
    # JSON web tokens.
    re.compile(r"\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
)

# mysql -u root -pSECRET: a password glued to -p
_MYSQL = re.compile(r"(\bmysql\w*\b[^\n]*?\s-p)(?!\s)(\S+)")

# Digit runs checked by checksum: cards (spaces or dashes between groups), resident ids, SSNs.
_CARD = re.compile(r"(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])")
_CN_ID = re.compile(r"(?<![0-9A-Za-z])\d{17}[0-9Xx](?![0-9A-Za-z])")
_SSN = re.compile(r"(?<![\d-])(\d{3})-(\d{2})-(\d{4})(?![\d-])")

_EN_SECRET = r"(?:password|passcode|passphrase|pass phrase|pin(?: code)?)"
_TOKEN = r"[^\s，。,;；]{3,}"
_ZH_CHARS = r"[A-Za-z0-9!@#$%^&*._+=~\-]"
_ZH_TOKEN = _ZH_CHARS + "{3,}"
_OWNER = r"(?:my|the|our|his|her|their|your)"
_NOT_A_VALUE = r"(?!(?:what|which|who|where|how|this|that|it|here|there|mine|yours)\b)"
# Passwords said in passing, the secret in the group "value".
_PROSE: tuple[re.Pattern[str], ...] = (
    # "hunter2 is my password", "X was the wifi password"
    re.compile(
        rf"(?i)(?<!\S){_NOT_A_VALUE}(?P<value>{_TOKEN})\s+(?:is|was|will be|=)\s+{_OWNER}"
        rf"(?:\s+[\w-]+){{0,2}}?\s+{_EN_SECRET}\b(?!\s+(?:manager|reset|policy|hint|rules?)\b)"
    ),
    # "changed my password to X", "set the wifi password to X"
    re.compile(
        rf"(?i)\b(?:chang|set|reset|updat|switch)\w*\s+(?:{_OWNER}\s+)?(?:[\w-]+\s+)?"
        rf"{_EN_SECRET}\s+(?:to|into|as)\s+(?P<value>{_TOKEN})"
    ),
    # "use X as my password", "I set X as the wifi password"
    re.compile(
        rf"(?i)\b(?:us(?:e|ed|es|ing)|set(?:s|ting)?|cho(?:ose|se|osing)|pick(?:ed|s|ing)?)\s+"
        rf"(?P<value>{_TOKEN})\s+as\s+{_OWNER}\s+(?:[\w-]+\s+)?"
        rf"{_EN_SECRET}\b"
    ),
    # "my password should be Moon-River-8": after a modal, only a value with a digit or sign
    re.compile(
        rf"(?i)\b{_EN_SECRET}\s+(?:should|might|could|must|will|would|may) be\s+"
        r"(?P<value>(?=[^\s，。,;；]*(?:\d|_|[^\w\s]))[^\s，。,;；]{3,})"
    ),
    # "my wifi password? it's X"
    re.compile(rf"(?i)\b{_EN_SECRET}\W{{1,3}}(?:it'?s|it is)\s+(?P<value>{_TOKEN})"),
    # "password hunter2", "PIN 4821": no separator, but a value with a digit in it
    re.compile(rf"(?i)\b{_EN_SECRET}\s+(?P<value>(?=[^\s，。,;；]*\d)[^\s，。,;；]{{4,}})"),
    # "the door code is 2580", "code for the safe: 9911": a value with a digit in it
    re.compile(
        r"(?i)\b(?:(?:door|gate|alarm|entry|lock|safe|locker) code|code (?:for|of|to) the "
        r"(?:safe|door|gate|alarm|lock|locker))\s*(?:is|was|[:=?])?\s*"
        r"(?P<value>(?=[^\s，。,;；]*\d)[^\s，。,;；]+)"
    ),
    re.compile(r"(?i)\bpass\s*[:=]\s*(?P<value>[^\s，。,;；]+)"),
    re.compile(r"(?i)\bkey\s*[:=]\s*(?P<value>(?=[^\s，。,;；]*\d)[^\s，。,;；]+)"),
    re.compile(r"(?i)\b(?:cvv2?|cvc|csc|security code)\s*(?:is|[:=])?\s*(?P<value>\d{3,4})\b"),
    # "hunter2是我的密码", "123456就是银行卡密码"
    re.compile(
        rf"(?P<value>{_ZH_TOKEN})\s*(?:就|也|都)?(?:是|为)\s*(?:我|我们|他|她|你|咱)?的?"
        r"[\u4e00-\u9fffA-Za-z]{0,6}?(?:密码|口令|密钥|PIN码)"
    ),
    # "密码改成了X", "把wifi密码设置为X"
    re.compile(
        r"(?:密码|口令|PIN码)[\u4e00-\u9fff]{0,4}?(?:改|设|换|重置)(?:置|定)?(?:成|为|到)了?\s*"
        r"(?P<value>[^，。,;；\s]+)"
    ),
    # "支付密码123456", "验证码 482913": no separator, an ASCII value
    re.compile(rf"(?:密码|口令|验证码|PIN码)\s*(?P<value>{_ZH_CHARS}{{4,}})"),
)

_LABELS = (
    r"\b(?:[a-z_]*api[_\- ]?key|[a-z_]*access[_\- ]?key(?:[_\- ]?id)?|"
    r"[a-z_]*secret(?:[_\- ]?(?:access[_\- ]?)?key)?|[a-z_]*token|"
    r"password|passwd|pwd|pw|passphrase|passcode|pin(?: code)?|private[_\- ]?key|"
    r"(?:wi-?fi|wpa2?|network|wireless) key|"
    r"client[_\- ]?secret|card number|credit card|debit card|cvv2?|cvc|"
    r"passport(?: number| no\.?)?|"
    r"social security(?: number)?|ssn|(?:bank )?account number|iban)\b"
    r"(?: (?:for|of|to) (?:the |my |our )?[\w\-]+| (?:I|we|you) \w+(?: \w+)?)?"
    r"(?:,[^,\n]{1,30},)?"  # "password, by the way, is ..."
    r"|\b(?:passwort|kennwort|mot de passe|contrase[ñn]a|senha|parola d'ordine)\b"
    r"|密码|口令|密钥|令牌|验证码|pin码|卡号|安全码|身份证(?:号码|号)?|护照号(?:码)?|社保号|银行账号"
)
_PHONE_LABELS = r"|\b(?:phone|mobile|cell|tel|telephone)(?: number| no\.?)?\b|电话|手机号?|联系方式"
_HEDGE_ZH = r"(?:大概|应该|可能|好像|估计|大约|似乎|一般|其实)?"
_SEP = (
    rf"\s*(?:[:=：?？]|{_HEDGE_ZH}(?:就|都|也|还)?是|为|\bis\b|\bwas\b|\bist\b"
    r"|\blautet\b|\best\b|\bes\b)\s*"
)


# "密码是什么？", "the password is what?": a question, not a value
_QUESTION = r"(?!\s*(?:什么|多少|啥|哪|几|what\b|which\b|where\b|how\b|[?？]))"


def _labelled(labels: str) -> re.Pattern[str]:
    # "password: hunter2", "api_key=abc", "密码是 123456", "token：xyz"
    return re.compile(
        rf"(?i)(?P<label>{labels})(?P<sep>{_SEP}){_QUESTION}(?P<value>[^，。,;；\n]+)"
    )


_LABELLED = _labelled(_LABELS)
_LABELLED_PHONES = _labelled(_LABELS + _PHONE_LABELS)
_PHONES: tuple[re.Pattern[str], ...] = (
    # Chinese mobile numbers: 13812345678, +86 138 1234 5678
    re.compile(r"(?<![\d+])(?:\+?86[ -]?)?1[3-9]\d(?:[ -]?\d{4}){2}(?!\d)"),
    # International: +1 415 555 0132, +44 20 7946 0958
    re.compile(r"(?<![\w+])\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}(?!\d)"),
    # North American: (415) 555-0132, 415-555-0132, 415.555.0132
    re.compile(r"(?<!\d)(?:\(\d{3}\)\s?|\d{3}[-.])\d{3}[-.]\d{4}(?!\d)"),
)


def _mask_value(match: re.Match[str]) -> str:
    if MASK in match.group("value"):
        return match.group(0)
    start, end = match.span("value")
    offset = match.start()
    text = match.group(0)
    return text[: start - offset] + MASK + text[end - offset :]


# Every pattern above needs one of these in the text: a label word (lower-cased), nine or
# more digits in a row or spaced by single spaces or dashes (cards, ids, SSNs), or a long
# run of token characters (keys, tokens). Most
# lines hold none, and looking for them costs a fraction of running every pattern.
_HINT_WORDS = (
    *("key", "secret", "token", "pass", "pwd", "pw", "pin", "card", "cvv", "cvc", "csc"),
    *("ssn", "iban", "account", "social", "kennwort", "mot de passe", "contrase", "senha"),
    *("parola", "basic", "bearer", "mysql", "://", "begin", "code", "eyj"),
    *("密码", "口令", "密钥", "令牌", "验证码", "卡号", "安全码", "身份证", "护照", "社保"),
    "银行账号",
)
_DIGITS = re.compile(r"\d(?:[ -]?\d){8}")
_RUN = re.compile(r"[A-Za-z0-9_\-]{15}")


def _may_hold_secret(text: str) -> bool:
    low = text.lower()
    return (
        any(word in low for word in _HINT_WORDS)
        or _DIGITS.search(text) is not None
        or _RUN.search(text) is not None
    )


def redact(text: str, policy: Redaction = DEFAULT) -> str:
    """Return ``text`` with every secret it recognises replaced by ``[REDACTED]``."""
    if not policy.phone_numbers and not _may_hold_secret(text):
        return text
    return redact_all(text, policy)


def redact_all(text: str, policy: Redaction = DEFAULT) -> str:
    """:func:`redact` without the quick check (the tests hold the two equal)."""
    for pattern in _PATTERNS:
        text = pattern.sub(MASK, text)
    text = _MYSQL.sub(lambda m: m.group(1) + MASK, text)
    text = _CARD.sub(lambda m: _digits_masked(m, is_card_number), text)
    text = _CN_ID.sub(lambda m: MASK if is_cn_resident_id(m.group(0)) else m.group(0), text)
    text = _SSN.sub(lambda m: MASK if is_us_ssn(*m.groups()) else m.group(0), text)
    if policy.phone_numbers:
        for pattern in _PHONES:
            text = pattern.sub(MASK, text)
    for pattern in _PROSE:
        text = pattern.sub(
            lambda m: m.group(0) if MASK in m.group("value") else _mask_value(m), text
        )
    labelled = _LABELLED_PHONES if policy.phone_numbers else _LABELLED
    return labelled.sub(
        lambda m: (
            m.group(0)
            if m.group("value").startswith(MASK)
            else m.group("label") + m.group("sep") + MASK
        ),
        text,
    )


def _digits_masked(match: re.Match[str], valid: Callable[[str], bool]) -> str:
    digits = re.sub(r"[ -]", "", match.group(0))
    return MASK if valid(digits) else match.group(0)
