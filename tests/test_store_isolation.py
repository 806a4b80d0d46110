"""Scope isolation as a property: random adds, searches, forgets and purges over
several scopes never let one scope see or change another scope's memories."""

from __future__ import annotations

import tempfile
from pathlib import Path

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    consumes,
    invariant,
    rule,
    run_state_machine_as_test,
)

from hermes_graph import MemoryNotFoundError, MemoryStore
from hermes_graph.testing import FakeClock, HashingEmbeddings
from hermes_graph.types import LIVE_STATUSES, STATUSES

# Near-identical names on purpose: case, whitespace, CJK, path-like.
SCOPES = ("alice", "Alice", "alice ", "用户甲", "team/1")
# Every scope draws from the same texts, so a leak would be visible.
TEXTS = ("我对花生过敏", "I am allergic to peanuts", "项目代号叫星火计划", "ticket ACME-113",
         "I live in Lisbon since 2019", "我每天早上喝绿茶", "my sister plays the cello",
         "I prefer window seats 靠窗")
QUERIES = (*TEXTS, "花生", "星火", "ACME-113", "peanuts", "2019", "绿茶 cello")
INITIAL = ("candidate", "confirmed", "frozen", "pending_override", "archived")


class ScopeMachine(RuleBasedStateMachine):
    memories = Bundle("memories")

    def __init__(self) -> None:
        super().__init__()
        self._dir = tempfile.TemporaryDirectory()
        self.path = Path(self._dir.name) / "iso.db"
        self.store = self._open()
        self.model: dict[str, dict[int, tuple[str, str]]] = {s: {} for s in SCOPES}

    def _open(self) -> MemoryStore:
        # dim 16: many hash collisions, so vectors of different texts look alike
        return MemoryStore(self.path, embeddings=HashingEmbeddings(16),
                           clock=FakeClock("2024-01-01T00:00:00Z"))

    def owner(self, memory_id: int) -> str | None:
        return next((s for s, rows in self.model.items() if memory_id in rows), None)

    @rule(target=memories, scope=st.sampled_from(SCOPES), text=st.sampled_from(TEXTS),
          status=st.sampled_from(INITIAL))
    def add(self, scope: str, text: str, status: str) -> int:
        memory = self.store.add(scope, text, status=status)
        assert memory.scope == scope
        assert self.owner(memory.id) is None, "a new memory reused a live id"
        self.model[scope][memory.id] = (text, status)
        return memory.id

    @rule(scope=st.sampled_from(SCOPES), texts=st.lists(st.sampled_from(TEXTS), max_size=4))
    def add_many(self, scope: str, texts: list[str]) -> None:
        for memory in self.store.add_many(scope, [{"content": t} for t in texts]):
            assert memory.scope == scope
            self.model[scope][memory.id] = (memory.content, memory.status)

    @rule(scope=st.sampled_from(SCOPES), query=st.sampled_from(QUERIES),
          statuses=st.sets(st.sampled_from(STATUSES), min_size=1))
    def search(self, scope: str, query: str, statuses: set[str]) -> None:
        hits = self.store.search(scope, query, k=50, statuses=sorted(statuses))
        for hit in hits:
            assert hit.memory.scope == scope, f"{scope!r} saw {hit.memory.scope!r}'s memory"
            assert hit.memory.id in self.model[scope], f"{scope!r} saw memory {hit.memory.id}"
            assert hit.memory.status in statuses
        wanted = {i for i, (text, status) in self.model[scope].items()
                  if text == query and status in statuses}
        assert wanted <= {h.memory.id for h in hits}, "an exact-content memory was not found"

    @rule(scope=st.sampled_from(SCOPES), memory_id=memories)
    def get(self, scope: str, memory_id: int) -> None:
        if memory_id in self.model[scope]:
            assert self.store.get(scope, memory_id).scope == scope
        else:
            with pytest.raises(MemoryNotFoundError):
                self.store.get(scope, memory_id)

    @rule(scope=st.sampled_from(SCOPES), memory_id=consumes(memories))
    def forget(self, scope: str, memory_id: int) -> None:
        if memory_id in self.model[scope]:
            self.store.forget(scope, memory_id)
            del self.model[scope][memory_id]
        else:
            with pytest.raises(MemoryNotFoundError):
                self.store.forget(scope, memory_id)

    @rule(scope=st.sampled_from(SCOPES), memory_id=memories)
    def archive(self, scope: str, memory_id: int) -> None:
        row = self.model[scope].get(memory_id)
        if row is not None and row[1] in LIVE_STATUSES:
            self.store.transition(scope, memory_id, "archived", reason="property test")
            self.model[scope][memory_id] = (row[0], "archived")
        elif row is None:
            with pytest.raises(MemoryNotFoundError):
                self.store.transition(scope, memory_id, "archived", reason="property test")

    @rule(scope=st.sampled_from(SCOPES))
    def purge(self, scope: str) -> None:
        assert self.store.purge_scope(scope) == len(self.model[scope])
        self.model[scope] = {}

    @rule()
    def reopen(self) -> None:
        self.store.close()
        self.store = self._open()

    @invariant()
    def every_scope_holds_exactly_its_memories(self) -> None:
        for scope, rows in self.model.items():
            listed = {m.id: (m.content, m.status) for m in self.store.list(scope)}
            assert listed == rows, f"scope {scope!r}"

    def teardown(self) -> None:
        self.store.close()
        self._dir.cleanup()


def test_no_search_returns_another_scopes_memory() -> None:
    run_state_machine_as_test(ScopeMachine, settings=settings(
        max_examples=30, stateful_step_count=30, deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]))
