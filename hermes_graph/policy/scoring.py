"""The fused recall score and its breakdown (seed 000 §3.4), pure.

score = w_semantic·similarity + w_freshness·exp(-Δt/τ_kind)·share
      + w_importance·importance/10 + w_frequency·log(1+use)/log(1+max_count)·share
      + w_context·kind/context match

share = (similarity / best similarity among the candidates) ** prior_gate_power for an
episodic memory, 1 for the others (recall decides; a fact's newest version should win). The
weights are the seed's; the share keeps recency and popularity from outranking
relevance: at full weight they are worth up to 0.30 against 0.45 for similarity, so a
fresh, often-recalled memory at cosine 0.3 beat the memory a question was about at
0.6. Among memories about as relevant as the best one they still decide the order
(the newer of two conflicting values wins as before).
"""

from __future__ import annotations

import math
from datetime import datetime

from hermes_graph.clock import days_between
from hermes_graph.config import MemoryConfig
from hermes_graph.policy.dates import dated_spans
from hermes_graph.types import Memory

PLAN = "plan"
"""The qualifier of a memory that says what the user intends to do."""


def freshness(memory: Memory, now: datetime, config: MemoryConfig) -> float:
    """exp(-Δt/τ) with τ per kind; Δt from the last time the user said it."""
    anchor = max(memory.last_seen_at, memory.created_at)
    age = max(0.0, days_between(anchor, now))
    return math.exp(-age / config.tau_days[memory.kind])


def expired_plan(memory: Memory, now: datetime, config: MemoryConfig) -> bool:
    """A plan dated for days that are all past (by more than ``plan_grace_days``) no
    longer says what the user will do: "flying to Oslo on Thursday (2026-01-15)" read in
    March. Undated plans and past events are never expired."""
    if PLAN not in memory.qualifiers:
        return False
    spans = dated_spans(memory.content)
    return bool(spans) and all(
        days_between(datetime.combine(end, now.time(), now.tzinfo), now) > config.plan_grace_days
        for _, end in spans)


def frequency(use_count: int, config: MemoryConfig) -> float:
    return min(1.0, math.log1p(use_count) / math.log1p(config.frequency_max_count))


def relevance_share(similarity: float, best: float, config: MemoryConfig) -> float:
    """How much of the freshness and frequency terms a memory gets: its relevance
    relative to the best candidate's, to the power ``prior_gate_power`` (0: all)."""
    if config.prior_gate_power <= 0 or best <= 0:
        return 1.0
    return float(min(1.0, max(0.0, similarity) / best) ** config.prior_gate_power)


def fused_score(memory: Memory, *, similarity: float, context_match: float, now: datetime,
                config: MemoryConfig, share: float = 1.0) -> tuple[float, dict[str, float]]:
    """The score and each weighted part of it (the parts sum to the score).

    ``share`` (see :func:`relevance_share`) scales the two query-independent terms
    that say nothing about the question: recency and popularity."""
    parts = {
        "semantic": config.w_semantic * max(0.0, similarity),
        "freshness": config.w_freshness * freshness(memory, now, config) * share,
        "importance": config.w_importance_recall * memory.importance / 10.0,
        "frequency": config.w_frequency * frequency(memory.use_count, config) * share,
        "context": config.w_context * context_match,
    }
    return sum(parts.values()), parts
