"""Explain a recall: what would be injected for a query, why, and what the budget cut."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from hermes_graph.config import MemoryConfig
from hermes_graph.nodes.inject import build_block
from hermes_graph.nodes.recall import recall_memories, should_skip
from hermes_graph.policy.budget import TokenCounter, approx_tokens
from hermes_graph.policy.recall import current_instruction
from hermes_graph.store import MemoryStore


def explain(store: MemoryStore, scope: str, query: str, *, now: datetime | None = None,
            config: MemoryConfig | None = None,
            token_counter: TokenCounter = approx_tokens) -> dict[str, Any]:
    """Recall and inject without recording a use: every candidate with its score
    breakdown, route and tier, whether the budget kept it, and the block itself."""
    config = config or store.config
    when = now or store.clock()
    recalled = recall_memories(store, scope, query, now=when, config=config, touch=False)
    instruction = current_instruction(query)
    block = build_block(recalled, config, count=token_counter,
                        current_instruction=instruction is not None)
    kept = set(block.included)
    return {
        "scope": scope,
        "query": query,
        "at": when.isoformat(),
        "retrieval_skipped": should_skip(query, config),
        "current_instruction": instruction is not None,
        "memories": [{**item, "injected": item["id"] in kept} for item in recalled],
        "dropped_for_budget": list(block.dropped),
        "memory_block": block.text,
        "tokens": block.tokens,
    }


def format_explanation(report: dict[str, Any]) -> str:
    lines = [f"query: {report['query']}  (scope {report['scope']}, at {report['at']})"]
    if report["retrieval_skipped"]:
        lines.append("retrieval skipped (greeting/thanks): only the core tier is considered")
    if report["current_instruction"]:
        lines.append("the message sets something for this turn: same-topic memories x factor")
    for item in report["memories"]:
        parts = " + ".join(f"{k} {v:.3f}" for k, v in item["breakdown"].items())
        mark = "injected" if item["injected"] else "DROPPED (budget)"
        lines.append(f"  m{item['id']} [{item['tier']}] {item['score']:.3f} = {parts}")
        lines.append(f"      via {', '.join(item['routes'])}; {mark}: {item['content']}")
    if not report["memories"]:
        lines.append("  nothing recalled")
    lines.append(f"memory block ({report['tokens']} tokens):")
    lines.extend(f"  | {line}" for line in report["memory_block"].splitlines())
    return "\n".join(lines)
