"""The memory status lifecycle: which status changes are legal (pure).

candidate -> confirmed -> frozen is the normal path; frozen -> confirmed is a
demotion (weathering or explicit correction); any live state may end as
superseded, archived or deleted; an archived memory can be reactivated.
``pending_override`` parks a conflicting update to a frozen memory until
further signals confirm (-> confirmed) or reject (-> archived/deleted) it.
"""

from __future__ import annotations

from collections.abc import Mapping

from hermes_graph.errors import IllegalTransitionError, InvalidInputError
from hermes_graph.types import STATUSES, Status

_ENDINGS: frozenset[Status] = frozenset({"superseded", "archived", "deleted"})


def _or_ending(*statuses: Status) -> frozenset[Status]:
    return frozenset(statuses) | _ENDINGS


ALLOWED_TRANSITIONS: Mapping[Status, frozenset[Status]] = {
    "candidate": _or_ending("confirmed"),
    "confirmed": _or_ending("frozen"),
    "frozen": _or_ending("confirmed"),
    "pending_override": _or_ending("confirmed", "frozen"),
    "superseded": frozenset({"deleted"}),
    "archived": frozenset({"confirmed", "deleted"}),
    "deleted": frozenset(),
}

INITIAL_STATUSES: frozenset[Status] = frozenset(
    {"candidate", "confirmed", "frozen", "pending_override", "archived"}
)
"""Statuses a memory may be created with (a row is never born superseded or deleted)."""


def check_status(value: object, what: str = "status") -> Status:
    if value not in STATUSES:
        raise InvalidInputError(f"unknown {what} {value!r}; expected one of {list(STATUSES)}")
    return value


def can_transition(from_status: Status, to_status: Status) -> bool:
    return to_status in ALLOWED_TRANSITIONS[from_status]


def check_transition(from_status: Status, to_status: Status) -> None:
    """Raise :class:`IllegalTransitionError` naming both states when not allowed."""
    check_status(from_status, "from status")
    check_status(to_status, "to status")
    if not can_transition(from_status, to_status):
        raise IllegalTransitionError(from_status, to_status)


def is_live(status: Status) -> bool:
    return status in ("candidate", "confirmed", "frozen", "pending_override")
