"""Value types shared by the store, the policies and the graph nodes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

Kind = Literal["semantic", "episodic", "procedural"]
Category = Literal["identity", "preference", "constraint", "fact", "event", "rule"]
Status = Literal[
    "candidate", "confirmed", "frozen", "pending_override", "superseded", "archived", "deleted"
]
Source = Literal["explicit", "implicit", "emotional"]

KINDS: tuple[Kind, ...] = ("semantic", "episodic", "procedural")
CATEGORIES: tuple[Category, ...] = (
    "identity", "preference", "constraint", "fact", "event", "rule"
)
STATUSES: tuple[Status, ...] = (
    "candidate", "confirmed", "frozen", "pending_override", "superseded", "archived", "deleted"
)
SOURCES: tuple[Source, ...] = ("explicit", "implicit", "emotional")

LIVE_STATUSES: tuple[Status, ...] = ("candidate", "confirmed", "frozen")
"""What a search returns by default: memories that may be injected."""

KIND_OF_CATEGORY: Mapping[Category, Kind] = {
    "identity": "semantic",
    "preference": "semantic",
    "constraint": "semantic",
    "fact": "semantic",
    "event": "episodic",
    "rule": "procedural",
}
DEFAULT_CATEGORY_OF_KIND: Mapping[Kind, Category] = {
    "semantic": "fact",
    "episodic": "event",
    "procedural": "rule",
}


@dataclass(frozen=True, kw_only=True)
class Memory:
    """One atomic memory as stored in SQLite (the source of truth)."""

    id: int
    scope: str
    kind: Kind
    category: Category
    content: str
    subject: str
    qualifiers: tuple[str, ...]
    importance: int
    confidence: float
    source: Source
    status: Status
    created_at: datetime
    updated_at: datetime
    last_seen_at: datetime
    last_used_at: datetime | None
    use_count: int
    confirm_count: int
    confirmations: tuple[Mapping[str, Any], ...]
    """One entry per confirming session: ``{"session", "at", "emotional"}``."""
    superseded_by: int | None
    override_of: int | None
    version: int
    source_ref: Mapping[str, Any]
    embedder_id: str | None
    dim: int | None
    slot: str | None = None
    """A single-valued slot this memory fills (e.g. ``city``); None when multi-valued."""

    @property
    def confirmed_sessions(self) -> tuple[str, ...]:
        return tuple(str(c.get("session")) for c in self.confirmations)


@dataclass(frozen=True, kw_only=True)
class ScoredMemory:
    """A search or recall hit with the parts of its score."""

    memory: Memory
    score: float
    vector_score: float
    keyword_score: float
    breakdown: Mapping[str, float] = field(default_factory=dict)
    routes: tuple[str, ...] = ()


Action = Literal["admit", "confirm", "merge", "enrich", "supersede", "retire", "forget",
                 "drop", "pending_override", "ignore"]
ACTIONS: tuple[Action, ...] = ("admit", "confirm", "merge", "enrich", "supersede", "retire",
                               "forget", "drop", "pending_override", "ignore")


@dataclass(frozen=True, kw_only=True)
class Candidate:
    """A memory proposed by an extractor, before the gate decides on it."""

    content: str
    kind: Kind
    category: Category
    subject: str = "user"
    qualifiers: tuple[str, ...] = ()
    importance: int = 5
    confidence: float = 0.8
    source: Source = "explicit"
    slot: str | None = None
    change_signal: bool = False
    """The user signalled a change of value (改成, from now on, ...)."""
    negation: bool = False
    """The user retired something ("I don't eat meat anymore")."""
    forget: bool = False
    """A forget request: ``content`` describes what to erase."""
    restated: bool = False
    """The user marked it as a repetition ("again", "再说一次"): it confirms what it repeats."""
    drop_reason: str | None = None
    """Set when an extractor filter already rejected it (kept for the trace)."""
    source_ref: Mapping[str, Any] = field(default_factory=dict)
    replaces: tuple[str, ...] = ()
    """Terms of a value the statement said it replaces ("switched from Notion to Linear",
    policy.replacement); ``content`` no longer names it."""


@dataclass(frozen=True, kw_only=True)
class GateDecision:
    """What the gate does with one candidate, and why (machine-readable reason)."""

    action: Action
    reason: str
    candidate: Candidate
    target_ids: tuple[int, ...] = ()
    status: Status = "candidate"
    """Status of a new row when the action admits one."""
    evict_ids: tuple[int, ...] = ()
    """Hot-pool memories the bounded gate sends to the archive to make room."""


def candidate_to_dict(candidate: Candidate) -> dict[str, Any]:
    data = {name: getattr(candidate, name) for name in Candidate.__dataclass_fields__}
    data["qualifiers"] = list(candidate.qualifiers)
    data["replaces"] = list(candidate.replaces)
    data["source_ref"] = dict(candidate.source_ref)
    return data


def candidate_from_dict(data: Mapping[str, Any]) -> Candidate:
    fields = {k: v for k, v in data.items() if k in Candidate.__dataclass_fields__}
    fields["qualifiers"] = tuple(fields.get("qualifiers", ()))
    fields["replaces"] = tuple(fields.get("replaces", ()))
    return Candidate(**fields)
