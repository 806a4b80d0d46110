"""Read-path policy (pure): current-instruction priority and tier assignment.

Seed 004 §4.3 / §5.3: when the user's current message sets a value or a rule
for this turn ("这次不用考虑预算", "this time ignore my usual format"), older
memories on the same topic are down-weighted for this turn only, and the
memory block says that the current message takes precedence.

Seed 001 §4.3: tier 1 (core) is the frozen profile plus the rules for how to
answer and the most important identity/constraint memories, ranked without
the query so it is identical on every turn of a session; tier 2 (hot) holds
live memories relevant to the current topic; tier 3 (long tail) holds the
rest of what retrieval found, archived memories included.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from hermes_graph.config import MemoryConfig
from hermes_graph.policy.normalize import distinctive_terms
from hermes_graph.policy.slots import slot_of
from hermes_graph.types import Memory

THIS_TURN = re.compile(
    r"这次|本次|这回|这一次|今天先|暂时|临时|\b(this time|for now|just this once|today only|"
    r"for this (one|task|answer|reply|question)|right now|ignore my usual|"
    r"instead of (the|my) usual)\b",
    re.IGNORECASE)
"""Markers of an instruction meant for the current turn only."""


@dataclass(frozen=True, kw_only=True)
class CurrentInstruction:
    """What the current message sets for this turn, and the topic it covers."""

    text: str
    slot: str | None
    terms: frozenset[str]

    def covers(self, memory: Memory) -> bool:
        """Is this older memory on the topic the current message just set?"""
        if self.slot is not None and memory.slot == self.slot:
            return True
        return bool(self.terms & distinctive_terms(memory.content))


def current_instruction(query: str) -> CurrentInstruction | None:
    if not THIS_TURN.search(query):
        return None
    terms = frozenset(t for t in distinctive_terms(THIS_TURN.sub(" ", query)) if len(t) >= 2)
    return CurrentInstruction(text=query, slot=slot_of(query), terms=terms)


def core_rank(memory: Memory) -> tuple[int, int, int, int]:
    """Query-independent order of the core tier: frozen, then rules, then importance."""
    return (0 if memory.status == "frozen" else 1, 0 if memory.kind == "procedural" else 1,
            -memory.importance, -memory.id)


def is_core(memory: Memory, config: MemoryConfig) -> bool:
    """Frozen memories, rules for how to answer, and the weightiest identity/constraints."""
    if memory.subject != "user" and not (memory.subject.startswith("user.")
                                         and memory.importance >= config.core_min_importance):
        return False  # other people's facts never sit in the user's core profile
    if memory.status == "frozen" or memory.kind == "procedural":
        return True
    return memory.category in ("identity", "constraint") and \
        memory.importance >= config.core_min_importance


def tier_of(memory: Memory, rank: int, *, archived: bool, in_profile: bool,
            config: MemoryConfig) -> str:
    """Only the profile route feeds the core tier, so the query never changes it."""
    if in_profile and is_core(memory, config) and not archived:
        return "core"
    if archived or rank >= config.hot_tier_top_n:
        return "long_tail"
    return "hot"


def outdated_by_slot(memories: Sequence[Memory]) -> set[int]:
    """Ids of memories a later statement of the same single-valued slot (same subject)
    outdates: a slot holds one value, so of "预算15万左右" and a later "预算得压到10万以内"
    only the later is shown, even when no change word made the gate supersede the first
    (seed 000 §3.3 keeps both and weighs the newer more)."""
    latest: dict[tuple[str, str], datetime] = {}
    for memory in memories:
        if memory.slot is not None:
            key = (memory.subject, memory.slot)
            latest[key] = max(latest.get(key, _said_last(memory)), _said_last(memory))
    # two parts of one statement, said at the same time, never outdate each other
    return {m.id for m in memories
            if m.slot is not None and _said_last(m) < latest[(m.subject, m.slot)]}


def _said_last(memory: Memory) -> datetime:
    return max(memory.last_seen_at, memory.created_at)


def split_core(profile: Sequence[Memory], config: MemoryConfig) -> list[Memory]:
    return sorted((m for m in profile if is_core(m, config)), key=core_rank)
