"""Secrets in their common written forms never survive redaction."""

from __future__ import annotations

import pytest

from memory.redact import MASK, redact

SECRETS = [
    ("my key is sk-abcdefghijklmnopqrstuv123", "sk-abcdefghijklmnopqrstuv123"),
    ("Authorization: Bearer abc.def.ghi123456", "abc.def.ghi123456"),
    ("Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA=="),
    ("密码是 hunter2，别告诉别人", "hunter2"),
    ("My password: correct horse battery staple", "horse battery staple"),
    ("The password for the router is X7-abc", "X7-abc"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG", "wJalrXUtnFEMI"),
    ("postgres://admin:S3cr3t@db.local/app", "S3cr3t"),
    ("token=123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ", "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ"),
    (
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF\n-----END PGP PRIVATE KEY BLOCK-----",
        "lQOYBF",
    ),
    ("mysql -u root -pHunter2Pass mydb", "Hunter2Pass"),
    ("Das Kennwort lautet Sommer2026", "Sommer2026"),
    ("Passwort ist Geheim123", "Geheim123"),
    ("-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----", "MIIEow"),
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_secret_is_masked(text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out
    assert MASK in out


@pytest.mark.parametrize(
    "text",
    ["I like tokens of appreciation", "I need to reset my password tomorrow", "用户喜欢美式咖啡"],
)
def test_ordinary_text_is_kept(text: str) -> None:
    assert redact(text) == text


def test_a_redacted_line_is_not_distilled_into_memory() -> None:
    from memory.chatter import is_transient

    assert is_transient(f"User: wifi password: {MASK}")
    assert not is_transient("User: the wifi is called CowNet")
