"""Read-side mechanisms (seeds 000 §3.4-3.5, 001 §4.3, 004 §4-5): scoring, decay, routes,
current-instruction priority, tiers and budget. Real stores, fake embeddings and clock."""

from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone

from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from hermes_graph import MemoryConfig, MemoryStore
from hermes_graph.clock import FakeClock
from hermes_graph.explain import explain
from hermes_graph.graph import create_memory_graph
from hermes_graph.nodes.inject import build_block
from hermes_graph.nodes.recall import recall_memories, should_skip
from hermes_graph.policy.budget import approx_tokens
from hermes_graph.policy.dates import with_absolute_dates
from hermes_graph.policy.scoring import freshness, fused_score, relevance_share
from hermes_graph.state import MemoryContext
from tests.graph_helpers import RecordingChatModel

CONFIG = MemoryConfig()
T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def test_fused_score_matches_a_hand_computed_case(store: MemoryStore, clock: FakeClock) -> None:
    memory = store.add("u", "I prefer aisle seats", category="preference", importance=8,
                       at=T0)
    store.mark_used("u", [memory.id] * 1, at=T0)
    memory = store.get("u", memory.id)
    now = T0 + timedelta(days=36)
    score, parts = fused_score(memory, similarity=0.6, context_match=1.0, now=now, config=CONFIG)
    expected = {
        "semantic": 0.45 * 0.6,
        "freshness": 0.20 * math.exp(-36 / 180),
        "importance": 0.15 * 0.8,
        "frequency": 0.10 * math.log(2) / math.log(51),
        "context": 0.10 * 1.0,
    }
    assert parts == {k: parts[k] for k in expected}
    for name, value in expected.items():
        assert math.isclose(parts[name], value, rel_tol=1e-9), name
    assert math.isclose(score, sum(expected.values()), rel_tol=1e-9)


def test_relevance_share_gates_recency_and_popularity_by_relative_relevance() -> None:
    assert relevance_share(0.6, 0.6, CONFIG) == 1.0
    assert math.isclose(relevance_share(0.3, 0.6, CONFIG), 0.5 ** CONFIG.prior_gate_power)
    assert relevance_share(-0.2, 0.6, CONFIG) == 0.0
    assert relevance_share(0.3, 0.0, CONFIG) == 1.0  # nothing relevant: nothing to gate
    assert relevance_share(0.3, 0.6, CONFIG.replace(prior_gate_power=0.0)) == 1.0


def test_share_scales_only_freshness_and_frequency(store: MemoryStore) -> None:
    memory = store.add("u", "I prefer aisle seats", category="preference", importance=8, at=T0)
    store.mark_used("u", [memory.id], at=T0)
    memory = store.get("u", memory.id)
    _, full = fused_score(memory, similarity=0.6, context_match=1.0, now=T0, config=CONFIG)
    _, half = fused_score(memory, similarity=0.6, context_match=1.0, now=T0, config=CONFIG,
                          share=0.5)
    for name in ("semantic", "importance", "context"):
        assert half[name] == full[name]
    for name in ("freshness", "frequency"):
        assert math.isclose(half[name], full[name] / 2)


def test_a_fresh_popular_side_remark_does_not_outrank_the_memory_asked_about(
        store: MemoryStore) -> None:
    asked = store.add("u", "Went hiking in the Alps with Anna", category="event", at=T0)
    later = T0 + timedelta(days=200)
    aside = store.add("u", "Bought new boots before the Alps trip", category="event", at=later)
    store.mark_used("u", [aside.id] * 50, at=later)
    query, now = "hiking in the Alps with Anna", later + timedelta(days=1)

    def order(config: MemoryConfig) -> list[int]:
        return [i["id"] for i in recall_memories(store, "u", query, now=now, config=config,
                                                 touch=False)]
    assert order(CONFIG)[:2] == [asked.id, aside.id]
    # ungated, recency and use (0.3 of the score) lift the side remark to the top
    assert order(CONFIG.replace(prior_gate_power=0.0))[:2] == [aside.id, asked.id]


def test_freshness_decays_with_the_kinds_time_constant(store: MemoryStore) -> None:
    event = store.add("u", "Went to a jazz concert", category="event", at=T0)
    rule = store.add("u", "Always answer in Chinese", category="rule", at=T0)
    later = T0 + timedelta(days=14)
    assert math.isclose(freshness(event, later, CONFIG), math.exp(-1))
    assert math.isclose(freshness(rule, later, CONFIG), math.exp(-14 / 365))
    assert freshness(event, T0, CONFIG) == 1.0


def test_recall_records_use(store: MemoryStore) -> None:
    memory = store.add("u", "I am allergic to peanuts", category="constraint", importance=9,
                       status="confirmed", at=T0)
    recall_memories(store, "u", "snack ideas with peanuts", now=T0 + timedelta(days=1),
                    config=CONFIG)
    used = store.get("u", memory.id)
    assert used.use_count == 1 and used.last_used_at == T0 + timedelta(days=1)


def test_profile_route_recalls_a_rule_for_an_unrelated_query(store: MemoryStore) -> None:
    rule = store.add("u", "Never use emojis in anything you write for me", category="rule",
                     importance=8, status="confirmed", at=T0)
    items = recall_memories(store, "u", "Draft a note to my landlord about the leaking tap",
                            now=T0 + timedelta(days=30), config=CONFIG)
    [item] = [i for i in items if i["id"] == rule.id]
    assert "profile" in item["routes"] and item["tier"] == "core"


def test_chinese_keyword_route_finds_a_two_character_term(store: MemoryStore) -> None:
    store.add("u", "我对花生过敏", category="constraint", importance=5, at=T0)
    store.add("u", "项目代号叫星火计划", category="fact", at=T0)
    items = recall_memories(store, "u", "星火", now=T0 + timedelta(days=1), config=CONFIG)
    assert items[0]["content"] == "项目代号叫星火计划" and "keyword" in items[0]["routes"]


def test_current_instruction_down_weights_same_topic_memories(store: MemoryStore) -> None:
    budget = store.add("u", "装修总预算五十万", category="constraint", slot="budget", importance=9,
                       status="confirmed", at=T0)
    now = T0 + timedelta(days=3)
    normal = {i["id"]: i for i in recall_memories(store, "u", "帮我挑沙发，预算多少合适", now=now,
                                                    config=CONFIG, touch=False)}
    this_turn = {i["id"]: i for i in recall_memories(store, "u", "这次不用考虑预算，挑最好的沙发",
                                                       now=now, config=CONFIG, touch=False)}
    assert this_turn[budget.id]["breakdown"]["current_instruction_factor"] == 0.5
    assert "current_instruction_factor" not in normal[budget.id]["breakdown"]
    block = explain(store, "u", "这次不用考虑预算，挑最好的沙发", now=now)["memory_block"]
    assert "follow the current message" in block


def test_greetings_and_tool_requests_skip_retrieval() -> None:
    assert should_skip("早上好呀", CONFIG) and should_skip("thanks!", CONFIG)
    assert should_skip("Translate 'good luck' into German", CONFIG)
    assert should_skip("帮我算下 2375 除以 25 等于多少", CONFIG)
    assert not should_skip("What should I cook for my family tonight?", CONFIG)
    assert not should_skip("Translate my bio into German", CONFIG)
    assert not should_skip("早上好", CONFIG.replace(skip_recall_for_smalltalk=False))


def test_budget_is_never_exceeded_and_the_core_tier_is_stable(store: MemoryStore,
                                                              clock: FakeClock) -> None:
    config = CONFIG.replace(core_tier_tokens=60, hot_tier_tokens=80, long_tail_tier_tokens=40)
    for n in range(40):
        store.add("u", f"Rule {n}: always mention the colour number {n} when you answer",
                  category="rule", importance=8, status="confirmed", at=T0)
        store.add("u", f"I enjoy hobby number {n} with friends on weekends", category="fact",
                  importance=5, at=T0)
    model = RecordingChatModel()
    graph = create_memory_graph(model, store=store, config=config, checkpointer=InMemorySaver())
    blocks = []
    thread = {"configurable": {"thread_id": "t"}}
    for query in ("Tell me about hobby number 3", "What about colour number 7?",
                  "And hobby number 30 with friends?"):
        state = graph.invoke({"messages": [HumanMessage(query)]}, thread,
                             context=MemoryContext(scope="u", session_id="s", clock=clock))
        blocks.append(state["memory_block"])
        assert state["budget_dropped"]
        limit = sum((config.core_tier_tokens, config.hot_tier_tokens,
                     config.long_tail_tier_tokens)) + approx_tokens(blocks[-1].split("\n")[1]) + 10
        assert state["memory_tokens"] <= limit
    cores = [b.split("More facts")[0].split("Past events")[0] for b in blocks]
    assert cores[0] == cores[1] == cores[2]


def test_rendered_block_puts_rules_first_and_events_last_with_dates() -> None:
    recalled = [
        {"id": 3, "content": "Visited Kyoto", "kind": "episodic", "category": "event",
         "created_at": "2026-03-02T10:00:00+00:00", "score": 0.9, "breakdown": {},
         "routes": ["vector"], "tier": "hot", "core_order": []},
        {"id": 1, "content": "Answer in Chinese", "kind": "procedural", "category": "rule",
         "created_at": "2026-01-02T10:00:00+00:00", "score": 0.3, "breakdown": {},
         "routes": ["profile"], "tier": "core", "core_order": [1, 0, -8, -1]},
        {"id": 2, "content": "I live in Leeds", "kind": "semantic", "category": "identity",
         "created_at": "2026-01-02T10:00:00+00:00", "score": 0.5, "breakdown": {},
         "routes": ["profile"], "tier": "core", "core_order": [1, 1, -7, -2]},
    ]
    text = build_block(recalled, CONFIG, count=approx_tokens).text  # type: ignore[arg-type]
    lines = text.splitlines()
    assert lines[0] == "<memory>" and lines[-1] == "</memory>"
    assert lines[2].startswith("How to answer: Answer in Chinese [m1]")
    assert lines[3].startswith("Facts and preferences: I live in Leeds [m2]")
    assert lines[4] == "Past events: 2026-03-02: Visited Kyoto [m3]"


def test_relative_dates_become_absolute() -> None:
    tuesday = datetime(2026, 1, 13, 18, 0, tzinfo=timezone.utc)
    assert with_absolute_dates("I fly to Denver next Wednesday", tuesday) == \
        "I fly to Denver next Wednesday (2026-01-21)"
    assert with_absolute_dates("我下周三要出差", tuesday) == "我下周三 (2026-01-21)要出差"
    assert with_absolute_dates("后天复查", tuesday) == "后天 (2026-01-15)复查"
    once = with_absolute_dates("tomorrow", tuesday)
    assert with_absolute_dates(once, tuesday) == once == "tomorrow (2026-01-14)"


def test_heat_of_the_moment_remarks_steer_nothing_until_said_calmly(store: MemoryStore) -> None:
    remark = store.add("u", "Never suggest a new framework to me again", category="rule",
                       source="emotional", confidence=0.6, session="night", at=T0)
    query_at = T0 + timedelta(days=2)
    items = recall_memories(store, "u", "Which framework should I learn next?", now=query_at,
                            config=CONFIG, touch=False)
    assert remark.id not in [i["id"] for i in items]
    store.confirm("u", remark.id, session="day", emotional=False, at=T0 + timedelta(days=1))
    items = recall_memories(store, "u", "Which framework should I learn next?", now=query_at,
                            config=CONFIG, touch=False)
    assert remark.id in [i["id"] for i in items]
