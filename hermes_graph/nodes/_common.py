"""Helpers shared by the node wrappers: the run context and the turn's time."""

from __future__ import annotations

from datetime import datetime

from langgraph.runtime import Runtime

from hermes_graph.errors import ScopeError
from hermes_graph.state import MemoryContext
from hermes_graph.store import MemoryStore


def context_of(runtime: Runtime[MemoryContext], node: str) -> MemoryContext:
    context = runtime.context
    if not isinstance(context, MemoryContext):
        raise ScopeError(
            f"{node}: no memory scope; invoke the graph with "
            "context=MemoryContext(scope=..., session_id=...)")
    return context


def now_of(context: MemoryContext, store: MemoryStore) -> datetime:
    return context.clock() if context.clock is not None else store.clock()
