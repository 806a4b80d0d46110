"""Graph factories: the memory graph, and memory wired into a user's own graph.

``create_memory_graph`` compiles recall -> inject -> model -> extract -> gate ->
persist. ``add_memory`` wires the same nodes around a named node of a user's
``StateGraph``. ``memory_hooks`` gives ``create_react_agent`` memory through its
``pre_model_hook`` (recall + inject) and ``post_model_hook`` (extract + gate +
persist).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from hermes_graph.config import MemoryConfig
from hermes_graph.extract.base import Extractor, Turn
from hermes_graph.extract.learned import LearnedExtractor
from hermes_graph.nodes._common import context_of, now_of
from hermes_graph.nodes.extract import make_extract_node
from hermes_graph.nodes.gate import make_gate_node
from hermes_graph.nodes.inject import make_inject_node
from hermes_graph.nodes.model import ModelLike, make_model_node
from hermes_graph.nodes.persist import make_persist_node
from hermes_graph.nodes.recall import make_recall_node
from hermes_graph.policy.budget import TokenCounter, approx_tokens
from hermes_graph.state import MemoryContext, MemoryState
from hermes_graph.store import MemoryStore
from hermes_graph.writer import MemoryWriter

Node = Callable[..., dict[str, Any]]
NODE_NAMES = ("recall", "inject", "model", "extract", "gate", "persist")


@dataclass(frozen=True)
class MemoryNodes:
    recall: Node
    inject: Node
    extract: Node
    gate: Node
    persist: Node


def memory_nodes(store: MemoryStore, *, config: MemoryConfig | None = None,
                 extractor: Extractor | None = None, writer: MemoryWriter | None = None,
                 token_counter: TokenCounter = approx_tokens) -> MemoryNodes:
    """The five memory nodes bound to a store (the model node is the user's)."""
    config = config or MemoryConfig()
    extractor = extractor or LearnedExtractor(config, embeddings=store.embeddings)
    submit = None
    if writer is not None:
        def submit(context: MemoryContext, turns: list[Turn]) -> None:
            writer.submit(store, extractor, scope=context.scope, session=context.session_id,
                          turns=turns, now=now_of(context, store), config=config)
    return MemoryNodes(
        recall=make_recall_node(store, config),
        inject=make_inject_node(config, token_counter),
        extract=make_extract_node(store, extractor, submit=submit),
        gate=make_gate_node(store, config),
        persist=make_persist_node(store, config),
    )


def create_memory_graph(model: ModelLike | None, *, store: MemoryStore,
                        config: MemoryConfig | None = None, extractor: Extractor | None = None,
                        writer: MemoryWriter | None = None,
                        token_counter: TokenCounter = approx_tokens,
                        checkpointer: Any = None) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile recall -> inject -> model -> extract -> gate -> persist.

    ``model`` is any langchain-core chat model or a compiled agent graph taking
    ``{"messages": [...]}``; None only for replay, where every turn carries a
    ``recorded_reply``. Pass ``writer`` to run the write path in the background.
    Invoke with ``context=MemoryContext(scope=..., session_id=...)``; with a
    checkpointer, a thread is a session.
    """
    nodes = memory_nodes(store, config=config, extractor=extractor, writer=writer,
                         token_counter=token_counter)
    builder = StateGraph(MemoryState, context_schema=MemoryContext)
    builder.add_node("recall", nodes.recall)
    builder.add_node("inject", nodes.inject)
    builder.add_node("model", make_model_node(model))
    builder.add_node("extract", nodes.extract)
    builder.add_node("gate", nodes.gate)
    builder.add_node("persist", nodes.persist)
    builder.add_edge(START, "recall")
    for left, right in itertools.pairwise(NODE_NAMES):
        builder.add_edge(left, right)
    builder.add_edge("persist", END)
    return builder.compile(checkpointer=checkpointer)


def add_memory(builder: StateGraph[Any, Any, Any, Any], around: str, *, store: MemoryStore,
               config: MemoryConfig | None = None, extractor: Extractor | None = None,
               writer: MemoryWriter | None = None,
               token_counter: TokenCounter = approx_tokens,
               prefix: str = "memory_") -> StateGraph[Any, Any, Any, Any]:
    """Wire memory around node ``around`` of a user's graph (before compiling).

    Edges that entered ``around`` now enter ``{prefix}recall``; edges that left it
    now leave ``{prefix}persist``. The user's state must include the fields of
    :class:`MemoryState` (subclass it), and ``around`` should read
    ``llm_input_messages`` when present to see the memory block.
    """
    if around not in builder.nodes:
        raise ValueError(f"add_memory: no node {around!r}; nodes are {sorted(builder.nodes)}")
    nodes = memory_nodes(store, config=config, extractor=extractor, writer=writer,
                         token_counter=token_counter)
    names = {n: f"{prefix}{n}" for n in ("recall", "inject", "extract", "gate", "persist")}
    for name in ("recall", "inject", "extract", "gate", "persist"):
        builder.add_node(names[name], getattr(nodes, name))
    incoming = [(s, e) for s, e in builder.edges if e == around]
    outgoing = [(s, e) for s, e in builder.edges if s == around]
    for edge in incoming + outgoing:
        builder.edges.discard(edge)
    for source, _ in incoming:
        builder.add_edge(source, names["recall"])
    builder.add_edge(names["recall"], names["inject"])
    builder.add_edge(names["inject"], around)
    builder.add_edge(around, names["extract"])
    builder.add_edge(names["extract"], names["gate"])
    builder.add_edge(names["gate"], names["persist"])
    for _, target in outgoing:
        builder.add_edge(names["persist"], target)
    return builder


def memory_hooks(store: MemoryStore, *, config: MemoryConfig | None = None,
                 extractor: Extractor | None = None, writer: MemoryWriter | None = None,
                 token_counter: TokenCounter = approx_tokens) -> tuple[Node, Node]:
    """(pre_model_hook, post_model_hook) for ``create_react_agent``.

    The pre hook recalls and returns ``llm_input_messages`` (the memory block is
    shown to the model but not added to the history); the post hook extracts,
    gates and persists from the latest user turn.
    """
    nodes = memory_nodes(store, config=config, extractor=extractor, writer=writer,
                         token_counter=token_counter)

    def pre_model_hook(state: dict[str, Any], runtime: Runtime[MemoryContext]) -> dict[str, Any]:
        context_of(runtime, "pre_model_hook")
        recalled = nodes.recall(state, runtime)
        injected = nodes.inject({**state, **recalled})
        return {"llm_input_messages": injected["llm_input_messages"]}

    def post_model_hook(state: dict[str, Any], runtime: Runtime[MemoryContext]) -> dict[
            str, Any]:
        last = state.get("messages", [])[-1:] if state.get("messages") else []
        if last and getattr(last[0], "tool_calls", None):
            return {}  # the agent is mid tool-loop: write once the model answers
        extracted = nodes.extract(state, runtime)
        if extracted.get("write_queued"):
            return {}
        gated = nodes.gate({**state, **extracted}, runtime)
        nodes.persist({**state, **extracted, **gated}, runtime)
        return {}

    return pre_model_hook, post_model_hook
