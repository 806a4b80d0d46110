"""Injectable, timezone-aware clocks (decay and weathering are tested with a fake one)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone

from hermes_graph.errors import InvalidInputError

Clock = Callable[[], datetime]
"""A zero-argument callable returning an aware ``datetime``."""


def system_clock() -> datetime:
    return datetime.now(timezone.utc)


class FakeClock:
    """A clock that only moves when told to."""

    def __init__(self, start: datetime | str) -> None:
        self._now = parse_time(start) if isinstance(start, str) else require_aware(start)

    def __call__(self) -> datetime:
        return self._now

    def set(self, when: datetime | str) -> None:
        self._now = parse_time(when) if isinstance(when, str) else require_aware(when)

    def advance(self, *, days: float = 0, hours: float = 0, minutes: float = 0,
                seconds: float = 0) -> datetime:
        self._now += timedelta(days=days, hours=hours, minutes=minutes, seconds=seconds)
        return self._now


def require_aware(value: datetime, what: str = "time") -> datetime:
    if not isinstance(value, datetime):
        raise InvalidInputError(f"{what} must be a datetime, got {type(value).__name__}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise InvalidInputError(f"{what} must be timezone-aware, got naive {value.isoformat()}")
    return value


def parse_time(text: str, what: str = "time") -> datetime:
    """Parse ISO-8601 with an offset (``Z`` accepted); naive times are rejected."""
    if not isinstance(text, str):
        raise InvalidInputError(f"{what} must be an ISO-8601 string, got {type(text).__name__}")
    try:
        value = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError as exc:
        raise InvalidInputError(f"{what} {text!r} is not ISO-8601: {exc}") from None
    return require_aware(value, what)


def to_db(value: datetime) -> str:
    """Store times as fixed-width UTC text so they sort as they compare."""
    return require_aware(value).astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")


def from_db(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def days_between(earlier: datetime, later: datetime) -> float:
    return (later - earlier).total_seconds() / 86400.0
