"""What a secret or an ID number looks like, in Chinese and English (seed 004 privacy).

Passwords, API keys and tokens, access codes, ID numbers, bank cards, one-time codes and
phone numbers. Digits alone decide for cards and Chinese ID numbers: a run that passes
the Luhn check or the ID check digit is one, whatever words surround it. Text is folded
to simplified characters before matching. Users can extend the tables.
"""

from __future__ import annotations

import re

from hermes_graph.language.hanzi import simplified
from hermes_graph.language.rules import PatternRule, rule

SECRET_RULES: tuple[PatternRule, ...] = (
    rule("password", r"(密码|口令|passcode|password|passwd|pwd)\s*(是|为|:|：|is)?\s*\S+",
         ["my password is hunter22", "邮箱密码是abc123456", "pwd: qwerty!!"],
         ["I forgot to change it", "我忘了怎么重置"]),
    rule("password", r"\b[a-z][a-z0-9+.-]*://[^\s:/@]+:[^\s@/]+@",
         ["connect with postgres://app:s3cret@db.local/main",
          "the feed is at https://bob:pa55@feeds.example.org"],
         ["see https://example.org/docs"]),
    rule("password", r"(连接串|连接字符串|connection string|conn string|\bdsn\b)\S{0,4}\s*"
         r"(是|为|:|：|is|=)?\s*\S+",
         ["the connection string is Server=db;User=sa;Pwd=x", "连接串：host=10.0.0.2 user=root"]),
    rule("api_key", r"\b(sk|pk|rk|ghp|gho|xox[bap]|AKIA|AIza|ya29|glpat|github_pat)"
         r"[-_A-Za-z0-9]{12,}",
         ["use sk-proj-abcdEFGH12345678 for now", "token ghp_1234567890abcdefABCD leaked"],
         ["I ask a lot of questions"]),
    rule("api_key", r"(api[ _-]?key|token|secret)\s*(是|为|:|：|is|=)\s*\S{8,}",
         ["my api key is 9f8e7d6c5b4a3210", "token: abcdef123456"]),
    rule("api_key", r"\beyJ[-_A-Za-z0-9]{8,}\.[-_A-Za-z0-9]{8,}\.[-_A-Za-z0-9]{8,}",
         ["jwt eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.SflKxwRJSMeKKF2Q",
          "header eyJ0eXAiOiJKV1Qi.eyJuYW1lIjoiSm9o.abc123def456"]),
    rule("api_key", r"\bBearer\s+[-_.~+/A-Za-z0-9]{16,}",
         ["Authorization: Bearer abcdefghijklmnop1234", "send Bearer 0123456789abcdefXYZ"]),
    rule("api_key", r"\bkey\s+[-_A-Za-z0-9]{30,}",
         ["license key ABCDEFGHIJKLMNOPQRSTUVWXYZ012345", "key 0123456789abcdef0123456789abcdef"]),
    rule("access_code", r"\b(PIN|pin code|passcode|(door|gate|alarm|lock|unlock|access|entry|safe|"
         r"garage|keypad|building) code)\S{0,3}\s*(is|was|:|=)?\s*#?\d{3,8}\b",
         ["the door code is 4821", "my PIN: 0912", "gate code #7731 if you come by"],
         ["there is a dress code at work"]),
    rule("access_code", r"(开锁|门锁|门禁|开门|密码锁|保险柜|取件)\S{0,4}(码|密码)\S{0,3}\d{3,8}",
         ["门禁码是2580", "快递取件码:618842"]),
    rule("national_id", r"(?<!\d)\d{17}[\dXx](?!\d)",
         ["身份证号 11010519491231002X", "ID 440524188001010014 on the form"]),
    rule("national_id", r"\b\d{3}-\d{2}-\d{4}\b",
         ["my SSN is 078-05-1120", "SSN 123-45-6789"], ["call 555-1234 later"]),
    rule("national_id", r"(身份证|护照|passport|social security|SSN)\S{0,6}\s*\S*\d{6,}",
         ["passport#E12345678", "护照号码G12345678"]),
    rule("bank_card", r"(?<!\d)(?:\d[ -]?){15,18}\d(?!\d)",
         ["card 4111 1111 1111 1111 exp 12/28", "卡号6222021234567890123"]),
    rule("bank_card", r"(银行卡|卡号|card number)\S{0,4}\s*\d{4,}",
         ["card number 5500-0000", "卡号：6222 0212"]),
    rule("verification_code", r"(验证码|verification code|OTP)\S{0,4}\s*\d{4,8}",
         ["验证码 482913", "my OTP 123456 expires soon"]),
)
PHONE_RULES: tuple[PatternRule, ...] = (
    rule("phone", r"(?<!\d)1[3-9]\d{9}(?!\d)", ["我手机13812345678", "打 15900001111 找我"]),
    rule("phone", r"(?<!\d)\+?\d{1,3}[ -]?\(?\d{2,4}\)?[ -]?\d{3,4}[ -]?\d{3,4}(?!\d)",
         ["call me on +44 20 7946 0958", "my number is (415) 555-0132"],
         ["I was born in 1990", "it costs 1,200 dollars"]),
)
_DIGIT_RUN = re.compile(r"(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])")


def luhn_valid(digits: str) -> bool:
    """The card check digit (Luhn): each second digit from the right doubled."""
    total = 0
    for n, char in enumerate(reversed(digits)):
        value = int(char) * (2 if n % 2 else 1)
        total += value - 9 if value > 9 else value
    return total % 10 == 0


_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def cn_id_valid(number: str) -> bool:
    """The check character of an 18-character Chinese ID number (ISO 7064 MOD 11-2)."""
    if len(number) != 18 or not number[:17].isdigit():
        return False
    total = sum(int(d) * w for d, w in zip(number[:17], _ID_WEIGHTS, strict=True))
    check = "10X98765432"[total % 11]
    return number[17].upper() == check


def checksummed(text: str) -> list[str]:
    """Card or ID numbers found by their check digits alone."""
    found: list[str] = []
    for match in _DIGIT_RUN.finditer(text):
        digits = re.sub(r"\D", "", match.group())
        if luhn_valid(digits):
            found.append("bank_card")
    for match in re.finditer(r"(?<![\dA-Za-z])\d{17}[\dXx](?![\dA-Za-z])", text):
        if cn_id_valid(match.group()):
            found.append("national_id")
    return found


def secret_kinds(text: str, *, include_phone: bool) -> list[str]:
    """Names of the secret kinds present in ``text`` (empty when clean)."""
    text = simplified(text)  # "密碼是…" is a password too
    rules = SECRET_RULES + (PHONE_RULES if include_phone else ())
    found = [r.name for r in rules if r.pattern.search(text)] + checksummed(text)
    return list(dict.fromkeys(found))
