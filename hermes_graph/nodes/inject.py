"""inject: render recalled memories as one delimited block inside a token budget.

The block is added to what the model sees this turn (``llm_input_messages``)
as a system message marked as remembered data; it is never written back into
the conversation history.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from langchain_core.messages import AnyMessage, SystemMessage

from hermes_graph.config import MemoryConfig
from hermes_graph.policy.budget import BlockItem, RenderedBlock, TokenCounter, render_block
from hermes_graph.state import MemoryState, RecalledItem

log = logging.getLogger(__name__)


def _section(item: RecalledItem) -> str:
    if item["kind"] == "procedural":
        return "rules"
    return "events" if item["kind"] == "episodic" else "facts"


def _text(item: RecalledItem) -> str:
    if item["kind"] == "episodic":
        return f"{datetime.fromisoformat(item['created_at']).date().isoformat()}: {item['content']}"
    return item["content"]


def _pack_score(item: RecalledItem) -> float:
    """Core items pack by their query-independent rank; the others by fused score."""
    if item["tier"] == "core":
        return -float(sum(v * 1000 ** (3 - n) for n, v in enumerate(item["core_order"][:3])))
    return item["score"]


def build_block(recalled: Sequence[RecalledItem], config: MemoryConfig, *,
                count: TokenCounter, core_text: str | None = None,
                current_instruction: bool = False) -> RenderedBlock:
    items = [BlockItem(id=i["id"], text=_text(i), section=_section(i), tier=i["tier"],
                       score=_pack_score(i)) for i in recalled]
    return render_block(items, config, count=count, core_text=core_text,
                        current_instruction=current_instruction)


def with_memory(messages: Sequence[AnyMessage], block: str) -> list[AnyMessage]:
    """The messages the model sees: the block after any leading system prompt."""
    if not block:
        return list(messages)
    lead = 0
    while lead < len(messages) and isinstance(messages[lead], SystemMessage):
        lead += 1
    return [*messages[:lead], SystemMessage(content=block, name="memory"), *messages[lead:]]


def make_inject_node(config: MemoryConfig, count: TokenCounter) -> Callable[..., dict[str, Any]]:
    def inject(state: MemoryState) -> dict[str, Any]:
        started = time.perf_counter()
        block = build_block(state.get("recalled", []), config, count=count,
                            core_text=state.get("core_block"),
                            current_instruction=bool(state.get("current_instruction")))
        if block.dropped:
            log.info("memory block: %d memories dropped for budget: %s", len(block.dropped),
                     list(block.dropped))
        return {
            "memory_block": block.text,
            "memory_tokens": block.tokens,
            "budget_dropped": list(block.dropped),
            "core_block": block.core_text,
            "llm_input_messages": with_memory(state.get("messages", []), block.text),
            "timings": {"inject_ms": (time.perf_counter() - started) * 1000},
        }
    return inject
