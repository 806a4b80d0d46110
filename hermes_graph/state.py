"""The typed graph state and the run-scoped context of the memory graph.

Messages use LangGraph's ``add_messages`` reducer. Scope, session and clock
come through ``context_schema`` (a :class:`MemoryContext` on ``Runtime``), never
through globals. The other fields are what each node produced, kept as plain
JSON-ready dicts so a checkpointer can store them and a trace can show them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

from hermes_graph.clock import Clock


@dataclass(frozen=True, kw_only=True)
class MemoryContext:
    """Run-scoped data: whose memory (scope), which conversation, what time it is."""

    scope: str
    session_id: str
    clock: Clock | None = None


class RecalledItem(TypedDict):
    id: int
    content: str
    kind: str
    category: str
    created_at: str
    score: float
    breakdown: dict[str, float]
    routes: list[str]
    tier: str
    core_order: list[int]
    """Query-independent rank inside the core tier (frozen, rules, importance)."""


class CandidateItem(TypedDict, total=False):
    content: str
    kind: str
    category: str
    subject: str
    qualifiers: list[str]
    importance: int
    confidence: float
    source: str
    slot: str | None
    change_signal: bool
    negation: bool
    forget: bool
    restated: bool
    drop_reason: str | None
    source_ref: dict[str, Any]


class DecisionItem(TypedDict):
    action: str
    reason: str
    candidate: CandidateItem
    target_ids: list[int]
    evict_ids: list[int]
    status: str
    memory_id: int | None


def merge_timings(left: dict[str, float] | None, right: dict[str, float] | None) -> dict[
        str, float]:
    return {**(left or {}), **(right or {})}


class MemoryState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    recalled: list[RecalledItem]
    current_instruction: bool
    """The latest message sets a value or rule for this turn (it outranks memory)."""
    memory_block: str
    memory_tokens: int
    budget_dropped: list[int]
    core_block: str
    """The core tier rendered on this session's first turn (reused so it stays identical)."""
    llm_input_messages: list[AnyMessage]
    """What the model sees this turn; the memory block lives here, not in ``messages``."""
    recorded_reply: str | None
    """Replay: the recorded assistant answer; when set, no model is called."""
    candidates: list[CandidateItem]
    decisions: list[DecisionItem]
    write_queued: bool
    timings: Annotated[dict[str, float], merge_timings]
