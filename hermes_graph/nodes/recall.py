"""recall: find what the scope remembers that bears on the latest user message."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from hermes_graph.config import MemoryConfig
from hermes_graph.nodes._common import context_of, now_of
from hermes_graph.policy import signals
from hermes_graph.policy.scoring import fused_score
from hermes_graph.state import MemoryContext, MemoryState, RecalledItem
from hermes_graph.store import MemoryStore
from hermes_graph.types import Memory

PROFILE_CATEGORIES = ("identity", "constraint", "rule", "preference")
CORE_CATEGORIES = ("identity", "constraint", "rule")


def latest_user_text(state: MemoryState) -> str | None:
    for message in reversed(state.get("messages", [])):
        if isinstance(message, HumanMessage):
            return message.text if hasattr(message, "text") else str(message.content)
    return None


def _item(memory: Memory, score: float, breakdown: dict[str, float], routes: list[str],
          tier: str) -> RecalledItem:
    return RecalledItem(id=memory.id, content=memory.content, kind=memory.kind,
                        category=memory.category, created_at=memory.created_at.isoformat(),
                        score=round(score, 4), breakdown={k: round(v, 4) for k, v in
                                                          breakdown.items()},
                        routes=routes, tier=tier)


def should_skip(query: str, config: MemoryConfig) -> bool:
    """Greetings and thanks cannot use memory (seed 004: skip recall when it cannot help)."""
    return config.skip_recall_for_smalltalk and signals.matches(signals.SMALLTALK, query.strip())


def recall_memories(store: MemoryStore, scope: str, query: str, *, now: datetime,
                    config: MemoryConfig) -> list[RecalledItem]:
    """Merge the search route (vector + keyword) with the profile route, scored."""
    if should_skip(query, config):
        return []
    found: dict[int, RecalledItem] = {}
    for hit in store.search(scope, query, k=config.recall_k * 2):
        keyword_hit = hit.keyword_score > 0
        if hit.vector_score < config.similarity_floor and not keyword_hit:
            continue
        memory = hit.memory
        context = 1.0 if keyword_hit or memory.kind == "procedural" else 0.0
        score, parts = fused_score(memory, similarity=hit.vector_score,
                                   context_match=context, now=now, config=config)
        if score < config.inject_floor:
            continue
        found[memory.id] = _item(memory, score, parts, list(hit.routes), "hot")
    profile = [m for m in store.list(scope, statuses=("frozen", "confirmed", "candidate"),
                                     categories=PROFILE_CATEGORIES)
               if m.subject == "user" or m.subject.startswith("user.")]
    profile = [m for m in profile if m.status == "frozen"
               or m.importance >= config.profile_min_importance]
    profile.sort(key=lambda m: (-m.importance, -m.id))
    for memory in profile[: config.profile_cap]:
        core = memory.status == "frozen" or memory.category in CORE_CATEGORIES
        previous = found.get(memory.id)
        if previous is not None:
            routes = [*previous["routes"], "profile"]
            found[memory.id] = {**previous, "routes": routes,
                                "tier": "core" if core else previous["tier"]}
            continue
        context = 1.0 if memory.kind == "procedural" else 0.0
        score, parts = fused_score(memory, similarity=0.0, context_match=context, now=now,
                                   config=config)
        found[memory.id] = _item(memory, score, parts, ["profile"], "core" if core else "hot")
    return sorted(found.values(), key=lambda i: (-i["score"], i["id"]))


def make_recall_node(store: MemoryStore, config: MemoryConfig) -> Callable[..., dict[str, Any]]:
    def recall(state: MemoryState, runtime: Runtime[MemoryContext]) -> dict[str, Any]:
        context = context_of(runtime, "recall")
        started = time.perf_counter()
        query = latest_user_text(state)
        items = [] if not query else recall_memories(
            store, context.scope, query, now=now_of(context, store), config=config)
        return {"recalled": items,
                "timings": {"recall_ms": (time.perf_counter() - started) * 1000}}
    return recall
