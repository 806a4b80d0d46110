"""persist: apply the gate's decisions in one transaction, recording transitions."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from langgraph.runtime import Runtime

from hermes_graph.config import MemoryConfig
from hermes_graph.nodes._common import context_of, now_of
from hermes_graph.nodes.gate import decision_item
from hermes_graph.state import DecisionItem, MemoryContext, MemoryState
from hermes_graph.store import MemoryStore
from hermes_graph.store.lifecycle import is_live
from hermes_graph.types import GateDecision, candidate_from_dict

ACTOR = "gate"


def _add(store: MemoryStore, scope: str, decision: GateDecision, session: str,
         at: datetime) -> int:
    c = decision.candidate
    memory = store.add(
        scope, c.content, kind=c.kind, category=c.category, subject=c.subject,
        qualifiers=c.qualifiers, importance=c.importance, confidence=c.confidence,
        source=c.source, status=decision.status, slot=c.slot, source_ref=c.source_ref,
        session=session, at=at, reason=decision.reason, actor=ACTOR)
    return memory.id


def apply_decisions(store: MemoryStore, scope: str, session: str,
                    decisions: Sequence[GateDecision], *, now: datetime,
                    config: MemoryConfig) -> list[DecisionItem]:
    """Apply every decision atomically; returns the trace with new memory ids."""
    applied: list[DecisionItem] = []
    with store.transaction():
        for d in decisions:
            memory_id: int | None = None
            emotional = d.candidate.source == "emotional"
            if d.action in ("confirm", "merge"):
                for target in d.target_ids:
                    store.confirm(scope, target, session=session, emotional=emotional, at=now,
                                  actor=ACTOR)
            elif d.action == "admit":
                memory_id = _add(store, scope, d, session, now)
                for older in d.target_ids:  # same slot, no change signal: recency decides
                    old = store.get(scope, older)
                    store.update(scope, older, confidence=round(
                        old.confidence * config.conflict_confidence_decay, 4),
                        reason=f"conflict with memory {memory_id}", actor=ACTOR, at=now)
            elif d.action == "supersede":
                memory_id = _add(store, scope, d, session, now)
                for older in d.target_ids:
                    if not is_live(store.get(scope, older).status):
                        continue  # already retired earlier in this batch
                    store.transition(scope, older, "superseded", reason=d.reason, actor=ACTOR,
                                     superseded_by=memory_id, at=now)
            elif d.action == "retire":
                for older in d.target_ids:
                    if not is_live(store.get(scope, older).status):
                        continue
                    store.transition(scope, older, "archived", reason=d.reason, actor=ACTOR,
                                     at=now)
            applied.append(decision_item(d, memory_id))
    erased: set[int] = set()
    for d in decisions:  # physical erasure runs its own scrub after the commit
        if d.action == "forget":
            for target in d.target_ids:
                if target not in erased:
                    erased.add(target)
                    store.forget(scope, target, reason=d.reason, actor=ACTOR)
    return applied


def make_persist_node(store: MemoryStore, config: MemoryConfig) -> Callable[..., dict[str, Any]]:
    def persist(state: MemoryState, runtime: Runtime[MemoryContext]) -> dict[str, Any]:
        context = context_of(runtime, "persist")
        if state.get("write_queued"):
            return {}
        started = time.perf_counter()
        decisions = [_from_item(i) for i in state.get("decisions", [])]
        applied = apply_decisions(store, context.scope, context.session_id, decisions,
                                  now=now_of(context, store), config=config)
        return {"decisions": applied,
                "timings": {"persist_ms": (time.perf_counter() - started) * 1000}}
    return persist


def _from_item(item: DecisionItem) -> GateDecision:
    return GateDecision(action=item["action"], reason=item["reason"],  # type: ignore[arg-type]
                        candidate=candidate_from_dict(item["candidate"]),
                        target_ids=tuple(item["target_ids"]),
                        status=item["status"])  # type: ignore[arg-type]
