"""The bounded gate (seed 001 §2): admission score, dynamic threshold, hot pool, archive.

score = w_recency·recency + w_importance·importance/10 + w_confidence·confidence

A candidate must reach the median score of the scope's hot pool (once the pool is
large enough for a median to mean something). When the hot pool is full, a new
memory that beats the lowest-scoring evictable one sends it to the cold archive;
otherwise the newcomer is rejected. Identity and constraint memories are protected
by an importance floor: the best ``importance_floor_rank`` of them are never evicted.
All pure: functions of memories, a clock reading and the config.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from hermes_graph.clock import days_between
from hermes_graph.config import MemoryConfig
from hermes_graph.types import Candidate, Memory, Status

PROTECTED_CATEGORIES = ("identity", "constraint")
HOT_STATUSES: tuple[Status, ...] = ("candidate", "confirmed")
"""The hot pool; frozen memories have their own pool (seed 001 §4.1)."""


def admission_score(*, importance: int, confidence: float, age_days: float,
                    config: MemoryConfig) -> float:
    recency = math.exp(-max(0.0, age_days) / config.admission_recency_tau_days)
    return (config.w_recency * recency + config.w_importance * importance / 10.0
            + config.w_confidence * confidence)


def memory_score(memory: Memory, now: datetime, config: MemoryConfig) -> float:
    age = days_between(max(memory.last_seen_at, memory.created_at), now)
    return admission_score(importance=memory.importance, confidence=memory.confidence,
                           age_days=age, config=config)


def candidate_score(candidate: Candidate, config: MemoryConfig) -> float:
    return admission_score(importance=candidate.importance, confidence=candidate.confidence,
                           age_days=0.0, config=config)


@dataclass(frozen=True, kw_only=True)
class Admission:
    admit: bool
    reason: str
    evict: tuple[int, ...] = ()
    score: float = 0.0
    threshold: float | None = None


def protected_ids(pool: Sequence[Memory], now: datetime, config: MemoryConfig) -> set[int]:
    """Identity/constraint memories within the importance floor's rank."""
    protected = sorted((m for m in pool if m.category in PROTECTED_CATEGORIES),
                       key=lambda m: -memory_score(m, now, config))
    return {m.id for m in protected[: config.importance_floor_rank]}


def decide_admission(candidate: Candidate, pool: Sequence[Memory], *, now: datetime,
                     config: MemoryConfig) -> Admission:
    """Admit, admit with an eviction, or reject a new memory for the hot pool."""
    score = candidate_score(candidate, config)
    scores = {m.id: memory_score(m, now, config) for m in pool}
    threshold = None
    if len(pool) >= config.admission_min_pool:
        threshold = statistics.median(scores.values())
        protected_newcomer = candidate.category in PROTECTED_CATEGORIES
        if score < threshold and not protected_newcomer:
            return Admission(admit=False, reason=f"bounded:below_median {score:.3f}<"
                             f"{threshold:.3f}", score=score, threshold=threshold)
    if len(pool) < config.hot_pool_cap:
        return Admission(admit=True, reason="bounded:admitted", score=score, threshold=threshold)
    safe = protected_ids(pool, now, config)
    evictable = sorted((m for m in pool if m.id not in safe), key=lambda m: (scores[m.id], m.id))
    overflow = len(pool) - config.hot_pool_cap + 1
    losers = evictable[:overflow]
    if len(losers) < overflow or any(scores[m.id] >= score for m in losers):
        return Admission(admit=False, reason="bounded:pool_full_not_better", score=score,
                         threshold=threshold)
    return Admission(admit=True, reason="bounded:evicts_lowest", score=score,
                     threshold=threshold, evict=tuple(m.id for m in losers))


def archive_overflow(archive: Sequence[Memory], config: MemoryConfig) -> list[int]:
    """Oldest archived memories beyond the archive's own cap."""
    if len(archive) <= config.archive_cap:
        return []
    ordered = sorted(archive, key=lambda m: (m.updated_at, m.id))
    return [m.id for m in ordered[: len(archive) - config.archive_cap]]
