"""Resolve relative dates against the turn's time (issue: memories keep absolute dates).

"next Wednesday" said on 2026-01-13 means 2026-01-21; a memory read months later
must still say which day. Resolved dates are appended in ISO form, keeping the
user's words: "I'm flying to Denver next Wednesday (2026-01-21)". A phrase that
names a week, a weekend or a month gets that span, never an invented day: "two
weeks ago (week of 2023-05-08)", "last weekend (weekend of 2023-05-20)", "last
month (2023-04)". The span a memory is dated with is its event time; recall's
time anchor compares it with the days a query names. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime, timedelta

_WEEKDAYS_EN = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAYS_ZH = "一二三四五六日"
_ZH_DAY = {"今天": 0, "明天": 1, "后天": 2, "大后天": 3, "昨天": -1, "前天": -2}
_EN_DAY = {"today": 0, "tonight": 0, "tomorrow": 1, "yesterday": -1, "last night": -1,
           "the day after tomorrow": 2, "the day before yesterday": -2}
_EN_NUMBER = {"a": 1, "an": 1, "one": 1, "a couple of": 2, "two": 2, "three": 3, "four": 4,
              "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_ZH_NUMBER = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
              "九": 9, "十": 10}
_SPAN_STEP = {"last": -1, "this": 0, "next": 1, "上": -1, "这": 0, "本": 0, "下": 1}
_COUNT = r"\d{1,3}|an?|one|a couple of|two|three|four|five|six|seven|eight|nine|ten"

_PATTERN = re.compile(
    r"(?P<zh_week>(这|本|下|上)(周|星期|礼拜)(?P<zh_wd>[一二三四五六日天]))"
    r"|(?P<zh_day>大后天|后天|明天|今天|昨天|前天)"
    r"|(?P<zh_n>\d{1,3}|[一两二三四五六七八九十])(?:个)?(?P<zh_unit>天|周|星期|礼拜|月)(?P<zh_dir>前|后)"
    # "马上月底" (right at month end) and "上周期" (the last cycle) name no span
    r"|(?<![马以之向早晚加])(?P<zh_span>上|这|本|下)(?:个)?(?P<zh_span_unit>周末|周(?!期)|星期|礼拜|月)"
    r"|\b(?P<en_rel>next|this|last) (?P<en_wd>monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday)\b"
    r"|\b(?P<en_day>the day after tomorrow|the day before yesterday|today|tonight|tomorrow|"
    r"yesterday|last night)\b"
    rf"|\b(?P<ago_n>{_COUNT}) (?P<ago_unit>days?|weeks?|months?) ago\b"
    rf"|\bin (?P<n>{_COUNT}) (?P<unit>days?|weeks?|months?)\b"
    r"|\b(?P<en_span>last|this|next) (?P<en_span_unit>week|weekend|month)\b",
    re.IGNORECASE)


def _week_day(today: date, which: str, weekday: int) -> date:
    monday = today - timedelta(days=today.weekday())
    offset = {"this": 0, "next": 7, "last": -7}[which]
    return monday + timedelta(days=offset + weekday)


def _count(text: str) -> int:
    text = text.lower()
    if text.isdigit():
        return int(text)
    return _EN_NUMBER.get(text) or _ZH_NUMBER[text]


def _shift_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def _span_label(today: date, unit: str, step: int) -> str:
    """The week, weekend or month ``step`` units from the one holding ``today``."""
    monday = today - timedelta(days=today.weekday())
    if unit in ("week", "周", "星期", "礼拜"):
        return f"week of {(monday + timedelta(weeks=step)).isoformat()}"
    if unit in ("weekend", "周末"):
        return f"weekend of {(monday + timedelta(days=5, weeks=step)).isoformat()}"
    return _shift_months(today, step).isoformat()[:7]


def _offset_label(today: date, count: int, unit: str) -> str:
    """``count`` days (a day), weeks (that week) or months (that month) from today."""
    unit = unit.lower()
    if unit.startswith("day") or unit == "天":
        return (today + timedelta(days=count)).isoformat()
    if unit.startswith("month") or unit == "月":
        return _shift_months(today, count).isoformat()[:7]
    return _span_label(today + timedelta(weeks=count), "week", 0)


def date_label(match: re.Match[str], today: date) -> str:
    """The ISO day, ``week of``/``weekend of`` day or ISO month a relative phrase names."""
    if match["zh_n"]:
        sign = -1 if match["zh_dir"] == "前" else 1
        return _offset_label(today, sign * _count(match["zh_n"]), match["zh_unit"])
    if match["zh_span"]:
        return _span_label(today, match["zh_span_unit"], _SPAN_STEP[match["zh_span"]])
    if match["ago_n"]:
        return _offset_label(today, -_count(match["ago_n"]), match["ago_unit"])
    if match["n"]:
        return _offset_label(today, _count(match["n"]), match["unit"])
    if match["en_span"]:
        return _span_label(today, match["en_span_unit"].lower(),
                           _SPAN_STEP[match["en_span"].lower()])
    return resolve(match, today).isoformat()


def resolve(match: re.Match[str], today: date) -> date:
    """The day a day-naming phrase (not a week, weekend or month) means."""
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
    return today + timedelta(days=_EN_DAY[match["en_day"].lower()])


_LABEL = re.compile(r"\s*\((?:week of |weekend of )?\d{4}-\d{2}(?:-\d{2})?\)")
"""A label :func:`with_absolute_dates` already appended (it runs once per phrase)."""


def with_absolute_dates(text: str, at: datetime) -> str:
    """Append the ISO date after each relative date phrase (idempotent)."""
    today = at.date()

    def add(match: re.Match[str]) -> str:
        if _LABEL.match(text, match.end()):
            return match.group(0)
        return f"{match.group(0)} ({date_label(match, today)})"

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


_DATED = re.compile(r"\b(?:(?P<span>week|weekend) of )?(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})\b"
                    r"|\((?P<my>\d{4})-(?P<mm>\d{2})\)")
_SPAN_DAYS = {"week": 7, "weekend": 2}


def dated_spans(content: str) -> list[TimeWindow]:
    """The days, weeks, weekends and months a memory is dated with (ISO labels, as
    :func:`with_absolute_dates` writes them)."""
    spans: list[TimeWindow] = []
    for match in _DATED.finditer(content):
        try:
            if match["my"]:
                first = date(int(match["my"]), int(match["mm"]), 1)
                spans.append((first, _shift_months(first, 1)))
                continue
            start = date(int(match["y"]), int(match["m"]), int(match["d"]))
        except ValueError:
            continue
        spans.append((start, start + timedelta(days=_SPAN_DAYS.get(match["span"] or "", 1))))
    return spans


def dated_within(content: str, windows: Sequence[TimeWindow]) -> bool:
    """Does the memory's own wording date it inside a window (a labelled day, week,
    weekend or month no longer than the window)? Stronger than when it was said: a
    session said on that day also holds everything else talked about then."""
    return any(start <= span_start and span_end <= end
               for span_start, span_end in dated_spans(content) for start, end in windows)


def said_or_dated_within(content: str, said_at: datetime,
                         windows: Sequence[TimeWindow]) -> bool:
    """Was the memory said on a day in one of the windows, or is it dated within one?

    A dated span counts when it overlaps the window and is no longer than the window
    or a week: "last month" says nothing about which day of it a question names."""
    said = said_at.date()
    if any(start <= said < end for start, end in windows):
        return True
    return any(span_start < end and start < span_end
               and (span_end - span_start).days <= max((end - start).days, 7)
               for span_start, span_end in dated_spans(content) for start, end in windows)


# --- type and scene match (seed 000 §3.4): a question asking when, a memory saying when -----

_ASKS_WHEN = re.compile(
    r"^\s*(?:do you (?:remember|know)\s+|can you tell me\s+|remind me\s+)?"
    r"(?:when|since when|how long|what (?:year|month|date|day|time of year)"
    r"|which (?:year|month|date|day)|how many (?:days|weeks|months|years))\b"
    r"|什么时候|啥时候|何时|哪天|哪一天|哪年|哪一年|几月|哪个月|几号|多久|多长时间|几年|几个月",
    re.IGNORECASE)
_AMOUNT = r"(?:\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|a few|few|a couple of)"
_STATES_TIME = re.compile(
    r"\b(?:19|20)\d{2}\b|\d{2,4}\s*年|\d{1,2}\s*月\s*\d{1,2}\s*[日号]|去年|前年|今年"
    r"|[一二两三四五六七八九十几\d]+\s*(?:个月|年)"
    r"|\b(?:january|february|march|april|june|july|august|september|october|november"
    r"|december)\b|\b(?:jan|feb|mar|apr|aug|sept?|oct|nov|dec)\.? \d{1,2}\b"
    rf"|\b{_AMOUNT} (?:days?|weeks?|months?|years?)\b",
    re.IGNORECASE)


def asks_when(query: str) -> bool:
    """Does the question ask for a time or a duration ("When did I…", "how long", "哪天",
    "what year")?"""
    return bool(_ASKS_WHEN.search(query))


def states_time(content: str) -> bool:
    """Does the memory say when or how long: an ISO label, a relative date phrase, a
    calendar date, a month, a year or a span ("in July", "2019", "for three years",
    "两年", "3月5日")?"""
    return bool(_LABEL.search(content) or _DATED.search(content) or _PATTERN.search(content)
                or _STATES_TIME.search(content))
