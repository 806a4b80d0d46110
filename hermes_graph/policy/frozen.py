"""The frozen gate (seed 001 §3, §5.2): freezing, overrides of frozen memories, weathering.

A memory freezes only when its category is whitelisted, its confidence is high
enough, and it was confirmed in enough *different* sessions, where an emotional
confirmation counts ``emotional_confirmation_weight`` and at least one must be
calm. The frozen pool has its own cap. A conflicting update to a frozen memory
is ignored (low confidence), parked as ``pending_override`` (high), or applied
(explicit correction, very high). A frozen memory with no recall hit and no
confirmation for ``weathering_days`` returns to ``confirmed``. All pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Literal

from hermes_graph.clock import days_between
from hermes_graph.config import MemoryConfig
from hermes_graph.types import Candidate, Memory

OverrideAction = Literal["ignore", "pending_override", "apply"]


def confirmation_weight(memory: Memory, config: MemoryConfig) -> tuple[float, bool]:
    """(weighted count of distinct confirming sessions, any calm confirmation)."""
    by_session: dict[str, bool] = {}
    for confirmation in memory.confirmations:
        session = str(confirmation.get("session"))
        calm = not confirmation.get("emotional", False)
        by_session[session] = by_session.get(session, False) or calm
    weight = sum(1.0 if calm else config.emotional_confirmation_weight
                 for calm in by_session.values())
    return weight, any(by_session.values())


def should_freeze(memory: Memory, *, frozen_count: int, config: MemoryConfig) -> str | None:
    """A reason to freeze, or None. Only confirmed memories are promoted."""
    if memory.status != "confirmed" or memory.category not in config.freeze_categories:
        return None
    if memory.confidence < config.freeze_min_confidence:
        return None
    weight, calm = confirmation_weight(memory, config)
    if weight < config.freeze_min_sessions or not calm:
        return None
    if frozen_count >= config.frozen_pool_cap:
        return None
    return f"frozen:confirmed_in_{weight:g}_sessions"


def override_action(candidate: Candidate, *, config: MemoryConfig) -> OverrideAction:
    """What a conflicting update does to a frozen memory."""
    if candidate.confidence >= config.override_apply_confidence and candidate.change_signal \
            and candidate.source == "explicit":
        return "apply"
    if candidate.confidence >= config.override_pending_confidence:
        return "pending_override"
    return "ignore"


def pending_confirmed(pending: Memory, config: MemoryConfig) -> bool:
    """A parked override is applied once later, distinct sessions confirmed it."""
    weight, calm = confirmation_weight(pending, config)
    return calm and weight >= 2.0


def weathered(frozen: Sequence[Memory], now: datetime, config: MemoryConfig) -> list[int]:
    """Frozen memories with neither a recall hit nor a confirmation for weathering_days."""
    stale = []
    for memory in frozen:
        last = max(memory.last_seen_at, memory.last_used_at or memory.last_seen_at)
        if days_between(last, now) >= config.weathering_days:
            stale.append(memory.id)
    return stale
