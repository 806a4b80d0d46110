"""Resolve relative dates against the turn's time (issue: memories keep absolute dates).

"next Wednesday" said on 2026-01-13 means 2026-01-21; a memory read months later
must still say which day. Resolved dates are appended in ISO form, keeping the
user's words: "I'm flying to Denver next Wednesday (2026-01-21)". Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
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


# --- time anchors: calendar dates a query names (recall's time-anchor route) ----------

_MONTH = (r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
          r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_ORD = r"(?:st|nd|rd|th)?"
_DAY_PATTERNS: tuple[tuple[re.Pattern[str], tuple[int, int, int]], ...] = (
    # (pattern, group numbers of year, month, day)
    (re.compile(rf"\b(\d{{1,2}}){_ORD} (?:of )?{_MONTH},? (\d{{4}})\b", re.IGNORECASE),
     (3, 2, 1)),
    (re.compile(rf"\b{_MONTH} (\d{{1,2}}){_ORD},? (\d{{4}})\b", re.IGNORECASE), (3, 1, 2)),
    (re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b"), (1, 2, 3)),
    (re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]"), (1, 2, 3)),
)
_MONTH_PATTERNS: tuple[tuple[re.Pattern[str], tuple[int, int]], ...] = (
    (re.compile(rf"\b{_MONTH},? (\d{{4}})\b", re.IGNORECASE), (2, 1)),
    (re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月"), (1, 2)),
)

_MONTHS_EN = ("january", "february", "march", "april", "may", "june", "july", "august",
              "september", "october", "november", "december")


TimeWindow = tuple[date, date]
"""[first day, day after the last): the days a query's date phrase covers."""


def _month_number(text: str) -> int:
    if text.isdigit():
        return int(text)
    return [m[:3] for m in _MONTHS_EN].index(text[:3].lower()) + 1


def query_windows(query: str) -> list[TimeWindow]:
    """The calendar days and months a query names ("on 9 November, 2022", "in June 2022",
    "2023-05-07", "2023年5月"), as day windows. Relative phrases ("yesterday", "今天") are
    not anchors here: in chat they are mostly filler ("what should I cook today?")."""
    windows: list[TimeWindow] = []
    rest = query
    for pattern, (y, m, d) in _DAY_PATTERNS:
        for match in pattern.finditer(rest):
            try:
                day = date(int(match[y]), _month_number(match[m]), int(match[d]))
            except ValueError:
                continue  # "30 February": names no day
            windows.append((day, day + timedelta(days=1)))
        rest = pattern.sub(" ", rest)  # a day's month must not also anchor the whole month
    for pattern, (y, m) in _MONTH_PATTERNS:
        for match in pattern.finditer(rest):
            month = _month_number(match[m])
            if not 1 <= month <= 12:
                continue
            first = date(int(match[y]), month, 1)
            windows.append((first, (first + timedelta(days=31)).replace(day=1)))
    return list(dict.fromkeys(windows))


def widen(window: TimeWindow, slack_days: int) -> TimeWindow:
    """The window with ``slack_days`` added on each side (time zones, "the day before")."""
    return window[0] - timedelta(days=slack_days), window[1] + timedelta(days=slack_days)


_ISO_DAY = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


def said_or_dated_within(content: str, said_at: datetime,
                         windows: Sequence[TimeWindow]) -> bool:
    """Was the memory said on a day in one of the windows, or does it name such a day
    (an ISO date, as :func:`with_absolute_dates` writes them)?"""
    days = [said_at.date()]
    for match in _ISO_DAY.finditer(content):
        try:
            days.append(date(int(match[1]), int(match[2]), int(match[3])))
        except ValueError:
            continue
    return any(start <= day < end for day in days for start, end in windows)
