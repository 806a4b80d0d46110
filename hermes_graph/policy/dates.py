"""Resolve relative dates against the turn's time (issue: memories keep absolute dates).

"next Wednesday" said on 2026-01-13 means 2026-01-21; a memory read months later
must still say which day. Resolved dates are appended in ISO form, keeping the
user's words: "I'm flying to Denver next Wednesday (2026-01-21)". Pure.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

_WEEKDAYS_EN = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAYS_ZH = "一二三四五六日"
_ZH_DAY = {"今天": 0, "明天": 1, "后天": 2, "大后天": 3, "昨天": -1, "前天": -2}
_EN_DAY = {"today": 0, "tonight": 0, "tomorrow": 1, "yesterday": -1}

_PATTERN = re.compile(
    r"(?P<zh_week>(这|本|下|上)(周|星期|礼拜)(?P<zh_wd>[一二三四五六日天]))"
    r"|(?P<zh_day>大后天|后天|明天|今天|昨天|前天)"
    r"|\b(?P<en_rel>next|this|last) (?P<en_wd>monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday)\b"
    r"|\b(?P<en_day>today|tonight|tomorrow|yesterday)\b"
    r"|\bin (?P<n>\d{1,3}) (?P<unit>days?|weeks?)\b",
    re.IGNORECASE)


def _week_day(today: date, which: str, weekday: int) -> date:
    monday = today - timedelta(days=today.weekday())
    offset = {"this": 0, "next": 7, "last": -7}[which]
    return monday + timedelta(days=offset + weekday)


def resolve(match: re.Match[str], today: date) -> date:
    if match["zh_week"]:
        which = {"这": "this", "本": "this", "下": "next", "上": "last"}[match["zh_week"][0]]
        wd = match["zh_wd"]
        return _week_day(today, which, 6 if wd in "日天" else _WEEKDAYS_ZH.index(wd))
    if match["zh_day"]:
        return today + timedelta(days=_ZH_DAY[match["zh_day"]])
    if match["en_rel"]:
        which = match["en_rel"].lower()
        target = _WEEKDAYS_EN.index(match["en_wd"].lower())
        if which == "next" and target > today.weekday():
            # "next Friday" said on a Tuesday is usually the coming one
            which = "this" if (target - today.weekday()) > 1 else "next"
        return _week_day(today, which, target)
    if match["en_day"]:
        return today + timedelta(days=_EN_DAY[match["en_day"].lower()])
    days = int(match["n"]) * (7 if match["unit"].lower().startswith("week") else 1)
    return today + timedelta(days=days)


def with_absolute_dates(text: str, at: datetime) -> str:
    """Append the ISO date after each relative date phrase (idempotent)."""
    today = at.date()

    def add(match: re.Match[str]) -> str:
        tail = text[match.end():match.end() + 13]
        if re.match(r"\s*\(\d{4}-\d{2}-\d{2}\)", tail):
            return match.group(0)
        return f"{match.group(0)} ({resolve(match, today).isoformat()})"

    return _PATTERN.sub(add, text)
