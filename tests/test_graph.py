"""The memory graph end to end: shape, cross-session recall, drop-in, isolation, writes."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import create_react_agent

from hermes_graph import MemoryStore
from hermes_graph.clock import FakeClock
from hermes_graph.errors import ScopeError
from hermes_graph.extract import LLMExtractor
from hermes_graph.graph import add_memory, create_memory_graph, memory_hooks
from hermes_graph.state import MemoryContext, MemoryState
from hermes_graph.writer import MemoryWriter
from tests.graph_helpers import RecordingChatModel

SNAPSHOT = Path(__file__).parent / "snapshots" / "memory_graph.mmd"


def ctx(scope: str, session: str, clock: FakeClock) -> MemoryContext:
    return MemoryContext(scope=scope, session_id=session, clock=clock)


def say(graph: Any, text: str, context: MemoryContext, thread: str | None = None) -> Any:
    config = {"configurable": {"thread_id": thread}} if thread else None
    return graph.invoke({"messages": [HumanMessage(text)]}, config, context=context)


def test_graph_shape_matches_snapshot(store: MemoryStore) -> None:
    graph = create_memory_graph(RecordingChatModel(), store=store)
    drawing = graph.get_graph().draw_mermaid()
    assert drawing == SNAPSHOT.read_text(encoding="utf-8")


def test_memory_from_one_session_is_injected_in_the_next(store: MemoryStore,
                                                         clock: FakeClock) -> None:
    model = RecordingChatModel()
    graph = create_memory_graph(model, store=store, checkpointer=InMemorySaver())
    first = say(graph, "我对花生过敏，点餐的时候帮我避开。", ctx("u1", "s1", clock), "t1")
    assert [d["candidate"]["content"] for d in first["decisions"]
            if d["action"] == "admit"] == ["我对花生过敏"]
    clock.advance(days=20)
    second = say(graph, "帮我推荐一家今晚吃饭的餐厅", ctx("u1", "s2", clock), "t2")
    assert "花生" in second["memory_block"]
    assert second["memory_tokens"] > 0
    assert second["recalled"][0]["breakdown"]["importance"] > 0
    shown = model.seen[-1]
    memory_messages = [m for m in shown if isinstance(m, SystemMessage)]
    assert len(memory_messages) == 1 and "花生" in str(memory_messages[0].content)
    # the block is shown to the model but never written into the history
    history = graph.get_state({"configurable": {"thread_id": "t2"}}).values["messages"]
    assert [type(m) for m in history] == [HumanMessage, AIMessage]


def test_scopes_never_see_each_other_through_the_graph(store: MemoryStore,
                                                       clock: FakeClock) -> None:
    graph = create_memory_graph(RecordingChatModel(), store=store)
    say(graph, "I live in Leeds and I am allergic to shellfish.", ctx("alice", "a1", clock))
    say(graph, "I live in Porto and I prefer tea to coffee.", ctx("bob", "b1", clock))
    clock.advance(days=1)
    bob = say(graph, "Where should I go for dinner near home?", ctx("bob", "b2", clock))
    alice = say(graph, "Where should I go for dinner near home?", ctx("alice", "a2", clock))
    assert "Porto" in bob["memory_block"] and "Leeds" not in bob["memory_block"]
    assert "shellfish" not in bob["memory_block"]
    assert "Leeds" in alice["memory_block"] and "Porto" not in alice["memory_block"]


def test_graph_refuses_to_run_without_a_scope(store: MemoryStore) -> None:
    graph = create_memory_graph(RecordingChatModel(), store=store)
    with pytest.raises(ScopeError, match="MemoryContext"):
        graph.invoke({"messages": [HumanMessage("hi there, I live in Leeds")]})


def test_add_memory_wraps_a_node_of_the_users_own_graph(store: MemoryStore,
                                                        clock: FakeClock) -> None:
    model = RecordingChatModel()

    class AgentState(MemoryState, total=False):
        turns: int

    def agent(state: AgentState) -> dict[str, Any]:
        reply = model.invoke(state.get("llm_input_messages") or state["messages"])
        return {"messages": [reply], "turns": state.get("turns", 0) + 1}

    builder: StateGraph[Any, Any, Any, Any] = StateGraph(AgentState, context_schema=MemoryContext)
    builder.add_node("agent", agent)
    builder.add_edge(START, "agent")
    builder.add_edge("agent", END)
    graph = add_memory(builder, "agent", store=store).compile()
    nodes = set(graph.get_graph().nodes)
    assert {"memory_recall", "memory_inject", "agent", "memory_extract", "memory_gate",
            "memory_persist"} <= nodes
    say(graph, "Please always answer me in Chinese.", ctx("u1", "s1", clock))
    clock.advance(days=2)
    result = say(graph, "Explain how a hash map works.", ctx("u1", "s2", clock))
    assert "Chinese" in result["memory_block"]
    assert result["turns"] == 1
    assert any("Chinese" in str(m.content) for m in model.seen[-1])


def test_create_react_agent_gets_memory_through_its_hooks(store: MemoryStore,
                                                          clock: FakeClock) -> None:
    model = RecordingChatModel()
    pre, post = memory_hooks(store)
    agent = create_react_agent(model, [], pre_model_hook=pre, post_model_hook=post,
                               context_schema=MemoryContext)
    say(agent, "我是一名插画师，平时用 iPad 画画。", ctx("u9", "s1", clock))
    assert any("插画师" in m.content for m in store.list("u9"))
    clock.advance(days=3)
    say(agent, "帮我安排一下明天的工作", ctx("u9", "s2", clock))
    assert any("插画师" in str(m.content) for m in model.seen[-1])


def test_background_writer_flush_applies_every_write(store: MemoryStore,
                                                     clock: FakeClock) -> None:
    writer = MemoryWriter()
    graph = create_memory_graph(RecordingChatModel(), store=store, writer=writer)
    facts = ["I live in Leeds.", "I am allergic to peanuts.", "Please never use emojis.",
             "I work at ACME as a data engineer.", "I prefer short answers."]
    for n, fact in enumerate(facts):
        state = say(graph, fact, ctx("u1", f"s{n}", clock))
        assert state["write_queued"] is True
    applied = writer.flush()
    writer.close()
    assert len(applied) == len(facts)
    assert sorted(m.content for m in store.list("u1")) == sorted(f.rstrip(".") for f in facts)
    assert writer.errors == []


def test_llm_extractor_broken_json_keeps_nothing_and_does_not_crash(
        store: MemoryStore, clock: FakeClock, caplog: pytest.LogCaptureFixture) -> None:
    extractor = LLMExtractor(FakeListChatModel(responses=['{"memories": [{"content": "I li']))
    graph = create_memory_graph(RecordingChatModel(), store=store, extractor=extractor)
    with caplog.at_level(logging.WARNING):
        result = say(graph, "I live in Leeds.", ctx("u1", "s1", clock))
    assert result["messages"][-1].content == "ok"
    assert result["candidates"] == [] and store.list("u1") == []
    assert any("not JSON" in r.getMessage() for r in caplog.records)


def test_llm_extractor_valid_json_is_gated_and_stored(store: MemoryStore,
                                                      clock: FakeClock) -> None:
    answer = ('{"memories": [{"content": "User lives in Leeds", "kind": "semantic", '
              '"category": "identity", "subject": "user", "importance": 7, "confidence": 0.95, '
              '"source": "explicit"}, {"content": "password is hunter2hunter2", '
              '"category": "fact", "importance": 5, "confidence": 0.9}]}')
    extractor = LLMExtractor(FakeListChatModel(responses=[answer]))
    graph = create_memory_graph(RecordingChatModel(), store=store, extractor=extractor)
    result = say(graph, "I live in Leeds. My password is hunter2hunter2", ctx("u1", "s1", clock))
    actions = [(d["action"], d["reason"]) for d in result["decisions"]]
    assert actions[0][0] == "admit"
    assert actions[1] == ("drop", "filter:secret:password")
    assert [m.content for m in store.list("u1")] == ["User lives in Leeds"]
    assert "hunter2" not in str(result["decisions"])


def test_llm_extractor_uses_structured_output_when_the_model_has_it(
        store: MemoryStore, clock: FakeClock) -> None:
    from langchain_core.exceptions import OutputParserException

    from tests.graph_helpers import StructuredChatModel

    good = {"memories": [{"content": "User is vegetarian", "category": "constraint",
                          "importance": 9, "confidence": 0.95}]}
    graph = create_memory_graph(RecordingChatModel(), store=store,
                                extractor=LLMExtractor(StructuredChatModel(good)))
    say(graph, "I'm vegetarian.", ctx("u1", "s1", clock))
    assert [m.content for m in store.list("u1")] == ["User is vegetarian"]
    broken = LLMExtractor(StructuredChatModel(OutputParserException("bad tool call")))
    graph = create_memory_graph(RecordingChatModel(), store=store, extractor=broken)
    result = say(graph, "I'm vegan now.", ctx("u2", "s1", clock))
    assert result["candidates"] == [] and store.list("u2") == []
