"""Redaction of secrets (API keys, bearer tokens, passwords, private keys) from text.

Applied to everything before it is written to a memory file or sent to a model.
"""

from __future__ import annotations

import re

MASK = "[REDACTED]"

_PATTERNS: tuple[re.Pattern[str], ...] = (
    # PEM private keys, whole block.
    re.compile(
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)",
        re.S,
    ),
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
    r"(?i)(?P<label>\b(?:api[_\- ]?key|access[_\- ]?key|secret(?:[_\- ]?key)?|token|"
    r"password|passwd|pwd|passphrase|private[_\- ]?key|client[_\- ]?secret)\b"
    r"|密码|口令|密钥|令牌)"
    r"(?P<sep>\s*(?:[:=：]|是|为|is)\s*)"
    r"(?P<value>[^\s，。,;；]+)"
)


def redact(text: str) -> str:
    """Return ``text`` with every secret it recognises replaced by ``[REDACTED]``."""
    for pattern in _PATTERNS:
        text = pattern.sub(MASK, text)
    return _LABELLED.sub(
        lambda m: (
            m.group(0) if m.group("value") == MASK else m.group("label") + m.group("sep") + MASK
        ),
        text,
    )


def contains_secret(text: str) -> bool:
    """True when :func:`redact` would change ``text``."""
    return redact(text) != text
