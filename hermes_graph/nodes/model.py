"""model: call the user's chat model, or the user's own agent graph."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.runnables import Runnable

from hermes_graph.state import MemoryState

ModelLike = BaseChatModel | Runnable[Any, Any]


def call_model(model: ModelLike | None, state: MemoryState) -> list[Any]:
    """New messages for the history; a recorded reply (replay) is used as is."""
    recorded = state.get("recorded_reply")
    if recorded is not None:
        return [AIMessage(content=recorded)] if recorded else []
    if model is None:
        raise ValueError("model: no chat model given and no recorded reply in the state")
    messages = state.get("llm_input_messages") or state.get("messages", [])
    if isinstance(model, BaseChatModel):
        return [model.invoke(list(messages))]
    agent: Runnable[Any, Any] = model
    result = agent.invoke({"messages": messages})  # a user's agent graph
    produced = result["messages"] if isinstance(result, dict) else [result]
    return list(produced[len(messages):]) if isinstance(result, dict) else produced


def make_model_node(model: ModelLike | None) -> Callable[..., dict[str, Any]]:
    def model_node(state: MemoryState) -> dict[str, Any]:
        started = time.perf_counter()
        new = call_model(model, state)
        return {"messages": new, "llm_input_messages": [], "recorded_reply": None,
                "timings": {"model_ms": (time.perf_counter() - started) * 1000}}
    return model_node
