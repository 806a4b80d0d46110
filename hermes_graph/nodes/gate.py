"""gate: decide per candidate — drop, confirm, merge, supersede, retire, forget or admit."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from langgraph.runtime import Runtime

from hermes_graph.config import MemoryConfig
from hermes_graph.nodes._common import context_of, now_of
from hermes_graph.policy.bounded import HOT_STATUSES, decide_admission
from hermes_graph.policy.gate import (
    Neighbourhood,
    contradiction_remainder,
    decide,
    forget_remainder,
)
from hermes_graph.policy.normalize import normalize_key
from hermes_graph.policy.slots import slots_named
from hermes_graph.policy.topics import topics_named
from hermes_graph.state import DecisionItem, MemoryContext, MemoryState
from hermes_graph.store import MemoryStore
from hermes_graph.types import (
    LIVE_STATUSES,
    Candidate,
    GateDecision,
    Memory,
    Status,
    candidate_from_dict,
    candidate_to_dict,
)

NEIGHBOURS = 5
SLOT_FAMILY: dict[str, tuple[str, ...]] = {"employer": ("job", "commute"), "job": ("employer",),
                                           "work": ("schedule", "commute"),
                                           "residence": ("commute",)}
"""Slots that change together: a new employer is usually a new job too ("new gig, fully
remote instructional designer" after "I teach at a secondary school"), and a new home or
employer a new way to work ("每天骑车上班十分钟" is over after a move to Shanghai)."""
PARKED_OR_LIVE: tuple[Status, ...] = (*LIVE_STATUSES, "pending_override")
"""A repeated override confirms the parked one instead of parking another."""


def neighbourhood(store: MemoryStore, scope: str, candidate: Candidate) -> Neighbourhood:
    """Gather what the scope holds near a candidate (the gate itself stays pure)."""
    if candidate.drop_reason is not None:
        return Neighbourhood()
    slots = [*slots_named(candidate.content), *([candidate.slot] if candidate.slot else [])] \
        if candidate.forget else (
        [candidate.slot, *SLOT_FAMILY.get(candidate.slot, ())] if candidate.slot else [])
    everything = candidate.forget and ("all" in candidate.qualifiers
                                       or "venting" in candidate.qualifiers
                                       or bool(topics_named(candidate.content)))
    similar = store.search(scope, candidate.content, k=NEIGHBOURS,
                           query_vector=store.embed_document(candidate.content))
    holders = store.list(scope, statuses=LIVE_STATUSES, slots=slots) if slots else []
    # a memory fills one slot column, but its words may name another ("我在北京做产品，住望京")
    held = {m.id for m in holders}
    holders += [h.memory for h in similar if h.memory.id not in held
                and h.memory.slot not in slots and set(slots) & set(slots_named(h.memory.content))]
    return Neighbourhood(
        exact=store.find_exact(scope, candidate.content, statuses=PARKED_OR_LIVE),
        similar=similar,
        slot_holders=holders,
        same_subject=[] if candidate.subject == "user" else store.list(
            scope, statuses=LIVE_STATUSES, subjects=[candidate.subject]),
        everything=store.list(scope, statuses=LIVE_STATUSES) if everything else [],
    )


NEW_ROW_ACTIONS = ("admit", "supersede", "pending_override")


def bounded(decision: GateDecision, pool: list[Memory], *, now: datetime,
            config: MemoryConfig) -> GateDecision:
    """Run a decision that adds a row through the bounded gate's admission."""
    if decision.action not in NEW_ROW_ACTIONS:
        return decision
    replaced = set(decision.target_ids) if decision.action == "supersede" else set()
    admission = decide_admission(decision.candidate, [m for m in pool if m.id not in replaced],
                                 now=now, config=config)
    if not admission.admit:
        return replace(decision, action="drop", reason=admission.reason, target_ids=())
    return replace(decision, evict_ids=admission.evict,
                   reason=f"{decision.reason};{admission.reason}")


def gate_candidates(store: MemoryStore, scope: str, session: str,
                    candidates: Sequence[Candidate], config: MemoryConfig,
                    now: datetime | None = None) -> list[GateDecision]:
    decisions: list[GateDecision] = []
    seen: set[str] = set()
    now = now or store.clock()
    pool = store.list(scope, statuses=HOT_STATUSES)
    for candidate in candidates:
        key = normalize_key(candidate.content)
        if candidate.drop_reason is None and not candidate.forget and key in seen:
            decisions.append(GateDecision(action="ignore", reason="dup:same_turn",
                                          candidate=candidate))
            continue
        seen.add(key)
        decision = decide(candidate, neighbourhood(store, scope, candidate), session=session,
                          config=config)
        decision = bounded(decision, pool, now=now, config=config)
        gone = {*decision.evict_ids, *(decision.target_ids if decision.action == "forget" else ())}
        pool = [m for m in pool if m.id not in gone]
        decisions.append(decision)
        if decision.action == "forget" and "all" not in candidate.qualifiers:
            decisions += _kept_rests(store, scope, decision, forget_remainder)
        elif decision.action in ("retire", "supersede") and candidate.negation \
                and candidate.slot is None:
            decisions += _kept_rests(store, scope, decision, contradiction_remainder)
    return _resolve_overlaps(decisions)


def _kept_rests(store: MemoryStore, scope: str, decision: GateDecision,
                remainder: Callable[[Memory, str], str | None]) -> list[GateDecision]:
    """A memory a forget request or a negation names only in part goes whole (a forgotten
    part leaves no trace, not even in history) and its other clauses are written anew."""
    rests: list[GateDecision] = []
    for memory in (store.get(scope, i) for i in decision.target_ids):
        rest = remainder(memory, decision.candidate.content)
        if rest is None:
            continue
        kept = Candidate(content=rest, kind=memory.kind, category=memory.category,
                         subject=memory.subject, qualifiers=memory.qualifiers,
                         importance=memory.importance, confidence=memory.confidence,
                         source=memory.source, slot=memory.slot,
                         source_ref=dict(memory.source_ref))
        status = memory.status if memory.status in ("candidate", "confirmed") else "confirmed"
        rests.append(GateDecision(action="admit", candidate=kept, status=status,
                                  reason=f"{decision.action}:kept_rest_of m{memory.id}"))
    return rests


TARGETLESS: dict[str, str] = {"supersede": "admit", "pending_override": "admit",
                              "retire": "ignore", "confirm": "drop", "merge": "drop",
                              "enrich": "drop", "ignore": "ignore"}
"""What a decision becomes when every memory it targeted is forgotten in the same turn:
a restatement or merge of the forgotten would bring it back, so it is dropped."""


def _without_forgotten(d: GateDecision, forgotten: set[int]) -> GateDecision:
    """Every decision of a turn was made against the store before the turn, so one may
    target a memory a forget request of the same turn erases ("昨天是气话哈…我在这家做
    HR 六年了"): the erased memory is no target any more."""
    if d.action == "forget" or not forgotten & set(d.target_ids):
        return d
    kept = tuple(i for i in d.target_ids if i not in forgotten)
    if kept or d.action == "admit":
        return replace(d, target_ids=kept)
    return replace(d, action=TARGETLESS[d.action], target_ids=(),  # type: ignore[arg-type]
                   reason=f"{d.reason};target_forgotten_in_turn")


def _resolve_overlaps(decisions: list[GateDecision]) -> list[GateDecision]:
    """A supersede in the same turn outranks a plain retirement of the same memory
    ("小米那台我已经不用了，现在换成 iPhone 了"): the old value gets the link. A memory
    forgotten in the turn is no other decision's target."""
    forgotten = {i for d in decisions if d.action == "forget" for i in d.target_ids}
    decisions = [_without_forgotten(d, forgotten) for d in decisions]
    superseded = {i for d in decisions if d.action == "supersede" for i in d.target_ids}
    resolved: list[GateDecision] = []
    for d in decisions:
        if d.action == "retire" and superseded & set(d.target_ids):
            rest = tuple(i for i in d.target_ids if i not in superseded)
            d = replace(d, target_ids=rest) if rest else replace(
                d, action="ignore", target_ids=(), reason=f"{d.reason};covered_by_supersede")
        resolved.append(d)
    return resolved


def decision_item(decision: GateDecision, memory_id: int | None = None) -> DecisionItem:
    return DecisionItem(action=decision.action, reason=decision.reason,
                        candidate=candidate_to_dict(decision.candidate),  # type: ignore[typeddict-item]
                        target_ids=list(decision.target_ids),
                        evict_ids=list(decision.evict_ids), status=decision.status,
                        memory_id=memory_id)


def make_gate_node(store: MemoryStore, config: MemoryConfig) -> Callable[..., dict[str, Any]]:
    def gate(state: MemoryState, runtime: Runtime[MemoryContext]) -> dict[str, Any]:
        context = context_of(runtime, "gate")
        started = time.perf_counter()
        candidates = [candidate_from_dict(c) for c in state.get("candidates", [])]
        decisions = gate_candidates(store, context.scope, context.session_id, candidates, config,
                                    now=now_of(context, store))
        return {"decisions": [decision_item(d) for d in decisions],
                "timings": {"gate_ms": (time.perf_counter() - started) * 1000}}
    return gate
