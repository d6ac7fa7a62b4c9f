"""Redaction of secrets (API keys, bearer tokens, passwords, private keys) from text.

Applied to everything before it is written to a memory file or a saved conversation, and
to the notes a dream sends to a model. A labelled secret ("password: …", "密码是 …") is
masked to the end of its clause, so pass phrases with spaces go too.
"""

from __future__ import annotations

import re

MASK = "[REDACTED]"

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

# "password: hunter2", "api_key=abc", "密码是 123456", "token：xyz"
_LABELLED = re.compile(
    r"(?i)(?P<label>\b(?:[a-z_]*api[_\- ]?key|[a-z_]*access[_\- ]?key(?:[_\- ]?id)?|"
    r"[a-z_]*secret(?:[_\- ]?(?:access[_\- ]?)?key)?|[a-z_]*token|"
    r"password|passwd|pwd|passphrase|passcode|pin(?: code)?|private[_\- ]?key|"
    r"client[_\- ]?secret)\b(?: (?:for|of|to) (?:the |my |our )?[\w\-]+)?"
    r"|\b(?:passwort|kennwort|mot de passe|contrase[ñn]a|senha|parola d'ordine)\b"
    r"|密码|口令|密钥|令牌|验证码)"
    r"(?P<sep>\s*(?:[:=：]|是|为|\bis\b|\bist\b|\blautet\b|\best\b|\bes\b)\s*)"
    r"(?P<value>[^，。,;；\n]+)"
)


# mysql -u root -pSECRET: a password glued to -p
_MYSQL = re.compile(r"(\bmysql\w*\b[^\n]*?\s-p)(?!\s)(\S+)")


def redact(text: str) -> str:
    """Return ``text`` with every secret it recognises replaced by ``[REDACTED]``."""
    for pattern in _PATTERNS:
        text = pattern.sub(MASK, text)
    text = _MYSQL.sub(lambda m: m.group(1) + MASK, text)
    return _LABELLED.sub(
        lambda m: (
            m.group(0) if m.group("value") == MASK else m.group("label") + m.group("sep") + MASK
        ),
        text,
    )


def contains_secret(text: str) -> bool:
    """True when :func:`redact` would change ``text``."""
    return redact(text) != text
