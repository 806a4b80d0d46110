"""Secrets and ID numbers (seed 004 privacy): what never reaches storage or logs (pure).

Passwords, API keys and tokens, access codes, ID numbers, bank cards, one-time codes and
(by default) phone numbers. Text is folded to simplified characters first, so "密碼是…"
is caught like "密码是…". Each pattern table is a module constant users can extend.
"""

from __future__ import annotations

import dataclasses
import re

from hermes_graph.language.hanzi import simplified
from hermes_graph.types import Candidate


def _rx(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


SECRET_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("password", _rx(r"(密码|口令|passcode|password|passwd|pwd)\s*(是|为|:|：|is)?\s*\S+",
                     r"\b[a-z][a-z0-9+.-]*://[^\s:/@]+:[^\s@/]+@",  # user:password@host
                     r"(连接串|连接字符串|connection string|conn string|\bdsn\b)\S{0,4}\s*(是|为|:|：|is|=)?\s*\S+")),
    ("api_key", _rx(r"\b(sk|pk|rk|ghp|gho|xox[bap]|AKIA|AIza|ya29|glpat|github_pat)[-_A-Za-z0-9]{12,}",
                    r"(api[ _-]?key|token|secret)\s*(是|为|:|：|is|=)\s*\S{8,}",
                    r"\beyJ[-_A-Za-z0-9]{8,}\.[-_A-Za-z0-9]{8,}\.[-_A-Za-z0-9]{8,}",  # a JWT
                    r"\bBearer\s+[-_.~+/A-Za-z0-9]{16,}", r"\bkey\s+[-_A-Za-z0-9]{30,}")),
    ("access_code", _rx(r"\b(PIN|pin code|passcode|(door|gate|alarm|lock|unlock|access|entry|safe|garage|"
                        r"keypad|building) code)\S{0,3}\s*(is|was|:|=)?\s*#?\d{3,8}\b",
                        r"(开锁|门锁|门禁|开门|密码锁|保险柜|取件)\S{0,4}(码|密码)\S{0,3}\d{3,8}")),
    ("national_id", _rx(r"(?<!\d)\d{17}[\dXx](?!\d)", r"\b\d{3}-\d{2}-\d{4}\b",
                        r"(身份证|护照|passport|social security|SSN)\S{0,6}\s*\S*\d{6,}")),
    ("bank_card", _rx(r"(?<!\d)(?:\d[ -]?){15,18}\d(?!\d)", r"(银行卡|卡号|card number)\S{0,4}\s*\d{4,}")),
    ("verification_code", _rx(r"(验证码|verification code|OTP)\S{0,4}\s*\d{4,8}")),
)
PHONE_PATTERN = _rx(r"(?<!\d)1[3-9]\d{9}(?!\d)", r"(?<!\d)\+?\d{1,3}[ -]?\(?\d{2,4}\)?[ -]?\d{3,4}[ -]?\d{3,4}(?!\d)")


def secret_kinds(text: str, *, include_phone: bool) -> list[str]:
    """Names of the secret kinds present in ``text`` (empty when clean)."""
    text = simplified(text)  # "密碼是…" is a password too
    found = [name for name, pattern in SECRET_PATTERNS if pattern.search(text)]
    if include_phone and PHONE_PATTERN.search(text):
        found.append("phone")
    return found


def screen_secrets(candidate: Candidate, *, include_phone: bool) -> Candidate:
    """A candidate holding a secret or an ID number becomes a dropped, redacted one
    (seed 004 privacy rules), whatever extractor made it and whatever else it was
    dropped for: the secret goes no further, not even into a trace."""
    secrets = secret_kinds(candidate.content, include_phone=include_phone)
    if not secrets:
        return candidate
    return dataclasses.replace(candidate, content="[redacted]",
                               drop_reason=f"secret:{'+'.join(secrets)}")
