"""persist: apply the gate's decisions in one transaction, recording transitions.

After the decisions, the lifecycle is kept in step in the same transaction:
confirmed memories may freeze, confirmed parked overrides are applied, stale
frozen memories weather, the hot pool and the archive are held to their caps.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from langgraph.runtime import Runtime

from hermes_graph.config import MemoryConfig
from hermes_graph.errors import MemoryNotFoundError
from hermes_graph.nodes._common import context_of, now_of
from hermes_graph.nodes.gate import decision_item
from hermes_graph.policy import bounded, frozen
from hermes_graph.state import DecisionItem, MemoryContext, MemoryState
from hermes_graph.store import MemoryStore
from hermes_graph.store.lifecycle import is_live
from hermes_graph.types import GateDecision, Memory, candidate_from_dict

ACTOR = "gate"
CONTRADICTING = ("supersede", "retire", "pending_override")


def _add(store: MemoryStore, scope: str, decision: GateDecision, session: str,
         at: datetime) -> int:
    c = decision.candidate
    memory = store.add(
        scope, c.content, kind=c.kind, category=c.category, subject=c.subject,
        qualifiers=c.qualifiers, importance=c.importance, confidence=c.confidence,
        source=c.source, status=decision.status, slot=c.slot, source_ref=c.source_ref,
        session=session, at=at, reason=decision.reason, actor=ACTOR)
    return memory.id


def _found(store: MemoryStore, scope: str, memory_id: int) -> Memory | None:
    try:
        return store.get(scope, memory_id)
    except MemoryNotFoundError:
        return None


def _exists(store: MemoryStore, scope: str, memory_id: int) -> bool:
    return _found(store, scope, memory_id) is not None


def _move(store: MemoryStore, scope: str, ids: Sequence[int], to: str, reason: str,
          at: datetime, superseded_by: int | None = None) -> None:
    """Transition the still-live ones (an earlier decision of the batch may have moved or
    erased one)."""
    for memory_id in ids:
        memory = _found(store, scope, memory_id)
        if memory is not None and is_live(memory.status):
            store.transition(scope, memory_id, to, reason=reason, actor=ACTOR,  # type: ignore[arg-type]
                             superseded_by=superseded_by, at=at)


def enriched_ref(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """The enriched memory still names where each of its words came from: the first
    statement's reference, plus every later message's external ids and turn."""
    merged = dict(old)
    refs = [*old.get("refs", ()), *(r for r in new.get("refs", ()) if r not in old.get("refs", ()))]
    if refs:
        merged["refs"] = refs
    merged["enriched_from"] = [*old.get("enriched_from", ()),
                               {k: new[k] for k in ("session", "turn", "at") if k in new}]
    return merged


def _add_refs(store: MemoryStore, scope: str, memory_id: int, new: Mapping[str, Any],
              now: datetime) -> None:
    """A message that says a memory again is one of its sources too: its external ids join
    the memory's ``refs`` (what the memory can be traced back to)."""
    old = store.get(scope, memory_id).source_ref
    added = [r for r in new.get("refs", ()) if r not in old.get("refs", ())]
    if added:
        store.update(scope, memory_id, source_ref={**old, "refs": [*old.get("refs", ()), *added]},
                     reason="said again", actor=ACTOR, at=now)


def _apply_one(store: MemoryStore, scope: str, session: str, d: GateDecision, *,
               now: datetime, config: MemoryConfig) -> int | None:
    memory_id: int | None = None
    emotional = d.candidate.source == "emotional"
    if d.action == "enrich":  # the restatement's new clauses join the memory it restates
        restated = store.get(scope, d.target_ids[0])
        store.update(scope, restated.id, content=d.candidate.content, reason=d.reason,
                     source_ref=enriched_ref(restated.source_ref, d.candidate.source_ref),
                     actor=ACTOR, at=now)
    if d.action in ("confirm", "merge", "enrich"):
        for target in d.target_ids:
            store.confirm(scope, target, session=session, emotional=emotional, at=now,
                          actor=ACTOR)
            if d.action != "enrich":
                _add_refs(store, scope, target, d.candidate.source_ref, now)
    if d.action == "ignore" and d.target_ids and _exists(store, scope, d.target_ids[0]):
        _add_refs(store, scope, d.target_ids[0], d.candidate.source_ref, now)
    elif d.action == "admit":
        memory_id = _add(store, scope, d, session, now)
        for older in d.target_ids:  # same slot, no change signal: recency decides at recall
            old = store.get(scope, older)
            store.update(scope, older, confidence=round(
                old.confidence * config.conflict_confidence_decay, 4),
                reason=f"conflict with memory {memory_id}", actor=ACTOR, at=now)
    elif d.action == "supersede":
        memory_id = _add(store, scope, d, session, now)
        _move(store, scope, d.target_ids, "superseded", d.reason, now, superseded_by=memory_id)
    elif d.action == "pending_override":
        memory_id = _add(store, scope, d, session, now)
        store.update(scope, memory_id, override_of=d.target_ids[0], reason=d.reason,
                     actor=ACTOR, at=now)
    elif d.action == "retire":  # no longer true: out of recall, the archive route included
        _move(store, scope, d.target_ids, "superseded", d.reason, now)
    elif d.action in ("drop", "ignore"):
        logged = d.target_ids[0] if d.target_ids and _exists(store, scope, d.target_ids[0]) \
            else None
        store.record_decision(scope, action=d.action, reason=d.reason, memory_id=logged,
                              session=session, actor=ACTOR, at=now)
    elif d.action == "forget":
        for target in d.target_ids:
            if _exists(store, scope, target):
                store.forget(scope, target, reason=d.reason, actor=ACTOR)
    _move(store, scope, d.evict_ids, "archived", "bounded:evicted_to_archive", now)
    if d.action in CONTRADICTING or (d.action == "admit" and d.target_ids):
        for target in d.target_ids:  # a contradicting signal resets the freeze count
            if _exists(store, scope, target):
                store.reset_confirmations(scope, target, reason=d.reason, actor=ACTOR, at=now)
    return memory_id


def apply_decisions(store: MemoryStore, scope: str, session: str,
                    decisions: Sequence[GateDecision], *, now: datetime,
                    config: MemoryConfig) -> list[DecisionItem]:
    """Apply every decision atomically; returns the trace with new memory ids."""
    applied: list[DecisionItem] = []
    with store.transaction():
        for d in decisions:
            applied.append(decision_item(d, _apply_one(store, scope, session, d, now=now,
                                                       config=config)))
        maintain(store, scope, now=now, config=config)
    return applied


def maintain(store: MemoryStore, scope: str, *, now: datetime, config: MemoryConfig) -> None:
    """Lifecycle upkeep of one scope: freeze, apply parked overrides, weather, enforce caps."""
    frozen_now = store.list(scope, statuses=("frozen",))
    for memory_id in frozen.weathered(frozen_now, now, config):
        store.transition(scope, memory_id, "confirmed", reason="frozen:weathered", actor=ACTOR,
                         at=now)  # and it must earn its freeze again:
        store.reset_confirmations(scope, memory_id, reason="frozen:weathered", actor=ACTOR,
                                  at=now)
    for pending in store.list(scope, statuses=("pending_override",)):
        if frozen.pending_confirmed(pending, config):
            if pending.override_of is not None:
                _move(store, scope, [pending.override_of], "superseded",
                      "frozen:override_confirmed", now, superseded_by=pending.id)
            store.transition(scope, pending.id, "confirmed", reason="frozen:override_confirmed",
                             actor=ACTOR, at=now)
    frozen_count = len(store.list(scope, statuses=("frozen",)))
    for memory in store.list(scope, statuses=("confirmed",)):
        reason = frozen.should_freeze(memory, frozen_count=frozen_count, config=config)
        if reason is not None:
            store.transition(scope, memory.id, "frozen", reason=reason, actor=ACTOR, at=now)
            frozen_count += 1
    if store.count(scope, statuses=bounded.HOT_STATUSES) > config.hot_pool_cap:
        pool = store.list(scope, statuses=bounded.HOT_STATUSES)
        safe = bounded.protected_ids(pool, now, config)
        ranked = sorted((m for m in pool if m.id not in safe),
                        key=lambda m: (bounded.memory_score(m, now, config), m.id))
        _move(store, scope, [m.id for m in ranked[: len(pool) - config.hot_pool_cap]],
              "archived", "bounded:hot_pool_cap", now)
    if store.count(scope, statuses=("archived",)) > config.archive_cap:
        overflow = bounded.archive_overflow(store.list(scope, statuses=("archived",)), config)
        _move_archived(store, scope, overflow, now)


def _move_archived(store: MemoryStore, scope: str, ids: Sequence[int], now: datetime) -> None:
    for memory_id in ids:
        store.transition(scope, memory_id, "deleted", reason="bounded:archive_cap", actor=ACTOR,
                         at=now)


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
                        evict_ids=tuple(item.get("evict_ids", ())),
                        status=item["status"])  # type: ignore[arg-type]
