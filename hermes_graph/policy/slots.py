"""Single-valued slots (seed 000 §3.3, seed 004 §4.3).

A slot holds one value at a time (where the user lives, their employer, their
phone, budget, preferred language): a new value with a change signal
supersedes the old one. Multi-valued things (hobbies, allergies, skills) have
no slot and accumulate. A forget request naming a slot ("forget where I
live") erases the memories that fill it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

SLOT_PATTERNS: Mapping[str, re.Pattern[str]] = {
    "residence": re.compile(
        r"住在|家在|我家|搬到|搬去|住址|住哪|老家在|\blive (in|at)\b|\bliving in\b|\bbased in\b|"
        r"\bmoved to\b|\bwhere I live\b|\bmy (location|address|home town|hometown)\b",
        re.IGNORECASE),
    "employer": re.compile(
        r"在\S{1,12}(工作|上班)|跳槽|入职|\bwork (at|for)\b|\bmy (employer|company)\b|"
        r"\bwhere I work\b|\bjoined \S+ as\b", re.IGNORECASE),
    "phone": re.compile(
        r"手机|iPhone|安卓|Android|\bphone\b|\bPixel\b|\bGalaxy\b", re.IGNORECASE),
    "budget": re.compile(r"预算|\bbudget\b", re.IGNORECASE),
    "database": re.compile(
        r"数据库|\b(database|mysql|postgres(ql)?|mongodb|sqlite|mariadb|oracle db|sql server|"
        r"dynamodb)\b", re.IGNORECASE),
    "language": re.compile(
        r"(用|说|讲|回复|回答)\S{0,3}(中文|英文|英语|日语|简体|繁体)|"
        r"\b(reply|answer|respond|write|speak)\w* (to me )?in (english|chinese|french|german|"
        r"spanish|japanese)\b|\bmy (preferred )?language\b", re.IGNORECASE),
    "verbosity": re.compile(
        r"简短|简洁|详细|说细|展开说|啰嗦|长篇|\b(concise|brief|short answers?|long answers?|"
        r"in (more )?detail|detailed|verbose|every detail)\b", re.IGNORECASE),
    "job": re.compile(
        r"我(是|做)(一名|一个|个)?\S{0,6}(工程师|设计师|老师|医生|护士|律师|会计|程序员|产品经理|学生|插画师)|"
        r"\bI'?m an? (freelance |senior |junior )?\w*(er|or|ist|ian|ant)\b|\bmy job\b|"
        r"\bwhat I do for a living\b", re.IGNORECASE),
}


CLOSED_SLOT_VALUES: Mapping[str, Mapping[str, re.Pattern[str]]] = {
    "verbosity": {
        "short": re.compile(r"简短|简洁|短点|精简|\b(concise|brief|short|terse)\b", re.IGNORECASE),
        "long": re.compile(r"详细|说细|细一点|展开|\b(detailed|in (more )?detail|every detail|long|"
                           r"thorough)\b", re.IGNORECASE),
    },
    "language": {
        "zh": re.compile(r"中文|汉语|简体|繁体|\bchinese\b", re.IGNORECASE),
        "en": re.compile(r"英文|英语|\benglish\b", re.IGNORECASE),
        "ja": re.compile(r"日语|日文|\bjapanese\b", re.IGNORECASE),
        "fr": re.compile(r"法语|\bfrench\b", re.IGNORECASE),
        "de": re.compile(r"德语|\bgerman\b", re.IGNORECASE),
        "es": re.compile(r"西班牙语|\bspanish\b", re.IGNORECASE),
    },
}
"""Slots whose values form a closed set: the value is which alternative is named."""


def closed_value(slot: str | None, text: str) -> str | None:
    """The named alternative of a closed-valued slot; the last one named wins
    ("不用英文，用中文" names Chinese last)."""
    values = CLOSED_SLOT_VALUES.get(slot or "")
    if not values:
        return None
    found = [(m.start(), name) for name, p in values.items() for m in p.finditer(text)]
    return max(found)[1] if found else None


GENERIC_SLOT_TERMS = frozenset({
    "以后", "今后", "之后", "回答", "回复", "使用",
    "工作", "上班", "公司", "住在", "我家", "家在", "手机", "预算", "现在", "数据", "据库",
    "数据库",
    "live", "lives", "living", "work", "works", "company", "phone", "budget", "now", "database",
    "moved", "based", "job", "employer", "use", "using", "reply", "answer", "always", "please",
})
"""Words that name a slot rather than its value: sharing them is not sharing a value."""


def slot_of(text: str) -> str | None:
    """The single-valued slot a statement fills, or None when it is multi-valued."""
    for name, pattern in SLOT_PATTERNS.items():
        if pattern.search(text):
            return name
    return None


def slots_named(text: str) -> list[str]:
    """Every slot a (forget) request mentions."""
    return [name for name, pattern in SLOT_PATTERNS.items() if pattern.search(text)]
