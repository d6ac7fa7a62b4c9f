"""Secrets in the ways people say them, in Chinese and English, never reach memory.

One table of phrasings (passwords said in passing, keys, cards, identity numbers, and
phone numbers where the config asks), one table of ordinary text that must stay as it
is, the checksums with exact numbers, and the bot end to end: a card number and a
password said in a chat reach no note, MEMORY.md, diary or session file.
"""

from __future__ import annotations

import pytest
from bot_support import BotFactory, all_text, owner

from memory.identifiers import is_card_number, is_cn_resident_id, is_us_ssn, luhn_valid
from memory.redact import MASK, Redaction, redact, redact_all

# (text, the secret that must go)
SECRETS = [
    # passwords, English
    ("I think hunter2 is my password", "hunter2"),
    ("hunter2 is the wifi password", "hunter2"),
    ("Tr0ub4dor&3 was my old bank password", "Tr0ub4dor&3"),
    ("The password I use everywhere is CorrectHorse9", "CorrectHorse9"),
    ("I changed my password to blue-Whale-42 yesterday", "blue-Whale-42"),
    ("we set the router password to Zx81spectrum", "Zx81spectrum"),
    ("just use sunflower99 as the password", "sunflower99"),
    ("my wifi password? it's qwerty123", "qwerty123"),
    ("login: admin / pass: opensesame", "opensesame"),
    ("My PIN is 4821", "4821"),
    ("PIN 7391 for the garage", "7391"),
    ("the door code is 2580", "2580"),
    ("my bank password was Autumn#2024 until today", "Autumn#2024"),
    # passwords, Chinese
    ("我的密码是hunter2", "hunter2"),
    ("hunter2是我的密码", "hunter2"),
    ("abc123456就是我的邮箱密码", "abc123456"),
    ("密码改成了Abc12345", "Abc12345"),
    ("把wifi密码设置为 Qq@998877", "Qq@998877"),
    ("wifi密码：cow2026wifi", "cow2026wifi"),
    ("支付密码123456别告诉别人", "123456"),
    ("登录口令为 tiger_2024", "tiger_2024"),
    ("门禁密码就是 0926", "0926"),
    ("验证码 482913", "482913"),
    # keys and tokens
    ("API密钥：sk-proj-abcdefghijklmnop1234", "sk-proj-abcdefghijklmnop1234"),
    ("github token ghp_abcdefghijklmnopqrstuvwxyz0123", "ghp_abcdefghijklmnopqrstuvwxyz0123"),
    ("aws key AKIAIOSFODNN7EXAMPLE in the notes", "AKIAIOSFODNN7EXAMPLE"),
    # cards
    ("Card: 4111 1111 1111 1111", "1111 1111"),
    ("pay with 4111111111111111 exp 12/27", "4111111111111111"),
    ("my amex is 3782 822463 10005", "822463"),
    ("mastercard 5555-5555-5555-4444", "5555-5555"),
    ("银行卡号 6222 0212 3456 7890 128", "3456 7890"),
    ("我的卡号是6222021234567890128", "6222021234567890128"),
    ("CVV 123", "123"),
    ("安全码是 456", "456"),
    # identity numbers
    ("身份证号码是110101199003074514", "110101199003074514"),
    ("我的身份证 11010519491231002X", "11010519491231002X"),
    ("my SSN is 078-05-1120", "078-05-1120"),
    ("social security number: 123-45-6789", "123-45-6789"),
    ("passport number: E12345678", "E12345678"),
    ("护照号码是 E98765432", "E98765432"),
]

# Phrasings written after the patterns above were (6 of these 12 were caught then).
SECOND_ROUND = [
    ("My Gmail password = P@ssw0rd!", "P@ssw0rd!"),
    ("wifi: CowNet, key: moo12345", "moo12345"),
    ("the alarm code? 1234", "1234"),
    ("pw is dragon77", "dragon77"),
    ("Her password, by the way, is letmein42", "letmein42"),
    ("pin码是 5566", "5566"),
    ("信用卡 4012 8888 8888 1881 有效期 09/28", "8888 8888"),
    ("My ID card number is 440304198511201235", "440304198511201235"),
    ("code for the safe is 9911", "9911"),
    ("the master password for bitwarden: sail-boat-77-x", "sail-boat-77-x"),
    ("银行密码 888888", "888888"),
    ("remember: password 12345678", "12345678"),
]

# A third round, written later (9 of these 15 were caught then): hedged and chosen passwords.
THIRD_ROUND = [
    ("密码大概是 abc123", "abc123"),
    ("I set hunter2 as my password", "hunter2"),
    ("my password should be Moon-River-8", "Moon-River-8"),
    ("wifi密码应该是 cowcow88", "cowcow88"),
    ("我把密码改为了 Xy7788zz", "Xy7788zz"),
    ("the new passcode is 902211", "902211"),
    ("我家wifi的密码是 happyhome2026", "happyhome2026"),
    ("pwd=Secr3t!", "Secr3t!"),
    ("my password is now winter2027", "winter2027"),
    ("密码: 我爱北京天安门", "我爱北京天安门"),
    ("Our netflix password is still popcorn55", "popcorn55"),
    ("他的邮箱密码好像是 qq112233", "qq112233"),
    ("密码可能是qwer1234", "qwer1234"),
    ("I made my password purple-cat-9", "purple-cat-9"),
    ("the PIN for my card is 2468", "2468"),
]

PHONES = [
    ("我的手机号是 13812345678", "13812345678"),
    ("电话：+86 138 1234 5678", "1234 5678"),
    ("call me at +1 415 555 0132", "555 0132"),
    ("my number is (415) 555-0132", "555-0132"),
    ("her mobile: 07700 900123", "900123"),
]

ORDINARY = [
    "I need to reset my password tomorrow",
    "I forgot my password again",
    "The password manager is 1Password",
    "密码学是一门有趣的学科",
    "我忘记密码了",
    "The meeting is on 2026-11-29 at 10:30",
    "order number 1234567890123",
    "the card 4111 1111 1111 1112 was declined",  # fails the Luhn check
    "我的生日是1990年3月7日",
    "110101199013074514 is not an id",  # month 13
    "Room 1203, building 4, floor 12",
    "The token economy of the game",
    "He is my best friend",
    "version 3.11.7 of Python",
    "用户喜欢美式咖啡，不加糖",
    "the timestamp 1700000000000 in the log",
    "我的手机号是 13812345678",  # phone numbers only where the config asks
    "call me at +1 415 555 0132",
    "What is your password?",
    "This is my password hint",
    "key: value pairs in JSON",
    "The key is under the mat",
    "the pass is valid until Friday",
    "my locker code is behind the clock",
    "I set the alarm as my top priority",
    "the password should be changed every month",
    "密码应该是什么？",
]


@pytest.mark.parametrize(("text", "secret"), SECRETS + SECOND_ROUND + THIRD_ROUND)
def test_a_secret_is_masked(text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out, out
    assert MASK in out


@pytest.mark.parametrize(("text", "number"), PHONES)
def test_phone_numbers_where_the_config_asks(text: str, number: str) -> None:
    assert number in redact(text)
    out = redact(text, Redaction(phone_numbers=True))
    assert number not in out and MASK in out, out


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_is_kept(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    "text", [t for t, _ in SECRETS + SECOND_ROUND + THIRD_ROUND + PHONES] + ORDINARY
)
def test_the_quick_check_never_skips_a_secret(text: str) -> None:
    # redact() skips text holding none of the patterns' anchors; every pattern still agrees
    for variant in (text, text.upper(), f"- 用户: {text}。", text.replace(" ", "  ")):
        for policy in (Redaction(), Redaction(phone_numbers=True)):
            assert redact(variant, policy) == redact_all(variant, policy), variant


def test_the_table_is_big_enough() -> None:
    assert len(SECRETS) + len(PHONES) >= 30
    chinese = [t for t, _ in SECRETS + PHONES if any("\u4e00" <= c <= "\u9fff" for c in t)]
    assert len(chinese) >= 15


def test_checksums() -> None:
    assert luhn_valid("4111111111111111") and luhn_valid("79927398713")
    assert not luhn_valid("4111111111111112") and not luhn_valid("") and not luhn_valid("4")
    assert is_card_number("6222021234567890128") and is_card_number("378282246310005")
    assert not is_card_number("1234567890123")  # passes no issuer prefix
    assert not is_card_number("4111111111111")  # 13 digits, Luhn fails
    assert is_cn_resident_id("110101199003074514") and is_cn_resident_id("11010519491231002x")
    assert not is_cn_resident_id("110101199003074515")  # check digit
    assert not is_cn_resident_id("110101199013074514")  # month 13
    assert is_us_ssn("078", "05", "1120")
    assert not any(
        is_us_ssn(*p)
        for p in [
            ("000", "12", "3456"),
            ("666", "12", "3456"),
            ("912", "12", "3456"),
            ("123", "00", "4567"),
            ("123", "45", "0000"),
        ]
    )


def test_a_card_and_a_password_said_in_chat_reach_no_file(make_bot: BotFactory) -> None:
    bot, _ = make_bot()
    bot.handle(owner("My visa is 4111 1111 1111 1111, expiry 12/27"))
    bot.handle(owner("I think hunter2 is my password for the NAS"))
    bot.handle(owner("我的身份证号码是110101199003074514"))
    bot.handle(owner("The user likes green tea"))
    bot.conversations.flush(owner("x").scope, bot.clock())
    bot.handle(owner("/memory dream 1"))
    assert bot.services.dreams.wait_idle(60)
    bot.shutdown()
    workspace = bot.services.scopes.workspace
    text = all_text(workspace)
    assert "green tea" in (workspace / "memory" / "2026-11-29.md").read_text(encoding="utf-8")
    for secret in ("4111 1111 1111 1111", "hunter2", "110101199003074514"):
        assert secret not in text, secret


def test_phone_numbers_are_kept_out_of_files_when_the_config_asks(make_bot: BotFactory) -> None:
    bot, _ = make_bot(redact_phone_numbers=True)
    bot.handle(owner("My dentist's number is 13812345678"))
    bot.conversations.flush(owner("x").scope, bot.clock())
    bot.shutdown()
    text = all_text(bot.services.scopes.workspace)
    assert "13812345678" not in text and "dentist" in text
