"""recall: find what the scope remembers that bears on the latest user message.

Routes, merged and de-duplicated (seed 004 §4.1): the query (FAISS vector +
FTS5 keyword route of the store), the current session's topic (its earlier
user messages), the profile (frozen and important identity / constraint /
rule / preference memories, always considered), the cold archive (the long
tail), the turns right after and just before a query hit (reply carry) and what
was said on a day or in a month the query names (time anchor). Each memory gets
the fused score with its breakdown (policy.scoring); a memory said by a speaker
the query names (subject match) or in a named window counts more
(policy.conversation, policy.dates); a query naming a speaker is embedded without
the name (subject-free query), so similarity measures its topic; a question asking
when matches a memory that says when (type and scene match, policy.dates).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Sequence
from datetime import date, datetime, timezone
from typing import Any

import numpy as np
from langchain_core.messages import AnyMessage, HumanMessage
from langgraph.runtime import Runtime

from hermes_graph.config import MemoryConfig
from hermes_graph.nodes._common import context_of, now_of
from hermes_graph.policy import signals, subjects
from hermes_graph.policy.conversation import (
    carried_relevance,
    named_speakers,
    speaker_of,
    subject_factor,
    without_speakers,
)
from hermes_graph.policy.dates import (
    TimeWindow,
    asks_when,
    dated_within,
    query_windows,
    said_or_dated_within,
    states_time,
    widen,
)
from hermes_graph.policy.frozen import confirmation_weight
from hermes_graph.policy.normalize import distinctive_terms
from hermes_graph.policy.recall import (
    CurrentInstruction,
    core_rank,
    current_instruction,
    is_core,
    outdated_by_slot,
    tier_of,
)
from hermes_graph.policy.scoring import expired_plan, fused_score, relevance_share
from hermes_graph.state import MemoryContext, MemoryState, RecalledItem
from hermes_graph.store import MemoryStore
from hermes_graph.types import LIVE_STATUSES, Memory

log = logging.getLogger(__name__)

PROFILE_CATEGORIES = ("identity", "constraint", "rule", "preference")
FAMILY_SUBJECTS = tuple(f"user.{name}" for _, name in subjects.FAMILY_CANONICAL)
TOPIC_TURNS = 3
"""Earlier user messages of the session that make up its topic."""


def _text(message: AnyMessage) -> str:
    return message.content if isinstance(message.content, str) else str(message.content)


def latest_user_text(state: MemoryState) -> str | None:
    for message in reversed(state.get("messages", [])):
        if isinstance(message, HumanMessage):
            return _text(message)
    return None


def session_topic(messages: Sequence[AnyMessage]) -> str | None:
    """The session's earlier user messages (not the latest), as one topic query."""
    users = [_text(m) for m in messages if isinstance(m, HumanMessage)][:-1]
    topic = " ".join(users[-TOPIC_TURNS:]).strip()
    return topic or None


def should_skip(query: str, config: MemoryConfig) -> bool:
    """Greetings, thanks and pure tool requests cannot use retrieval (seed 004 §5.3);
    the core tier (rules for how to answer) still applies."""
    if not config.skip_recall_for_smalltalk:
        return False
    text = query.strip()
    if signals.matches(signals.SMALLTALK, text):
        return True
    without_ask = re.sub(r"^(帮我|请帮我|麻烦你?|help me|can you|could you|please)\s*", "", text,
                         flags=re.IGNORECASE)
    return signals.matches(signals.TOOL_REQUEST, text) and not signals.matches(
        signals.PERSONAL, without_ask)


class _Candidates:
    """Memories found by the routes, with their best similarity and route names."""

    def __init__(self) -> None:
        self.memories: dict[int, Memory] = {}
        self.similarity: dict[int, float] = {}
        self.keyword: set[int] = set()
        self.routes: dict[int, list[str]] = {}

    def add(self, memory: Memory, route: str, similarity: float | None = None,
            keyword: bool = False) -> None:
        self.memories.setdefault(memory.id, memory)
        if similarity is not None:
            self.similarity[memory.id] = max(similarity, self.similarity.get(memory.id, -1.0))
        if keyword:
            self.keyword.add(memory.id)
        routes = self.routes.setdefault(memory.id, [])
        if route not in routes:
            routes.append(route)


def _midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=timezone.utc)


def _gather(store: MemoryStore, scope: str, query: str, topic: str | None, *,
            skip: bool, family_topic: bool, windows: Sequence[TimeWindow],
            config: MemoryConfig) -> _Candidates:
    found = _Candidates()
    profile = store.list(scope, statuses=(*LIVE_STATUSES,), categories=PROFILE_CATEGORIES,
                         min_importance=config.profile_min_importance,
                         most_important_first=True, limit=config.profile_cap)
    if family_topic:  # the family's own facts, by topic
        profile += store.list(scope, statuses=(*LIVE_STATUSES,), subjects=FAMILY_SUBJECTS,
                              most_important_first=True, limit=config.profile_cap)
    profile += store.list(scope, statuses=("frozen",))
    for memory in profile:
        found.add(memory, "profile")
    if skip:
        return found
    vector = store.embed_query(query)
    k = config.recall_k * config.coarse_pool_factor
    hits = store.search(scope, query, k=k, query_vector=vector)
    if config.subject_free_query:  # the speakers are known from the first hits
        named = named_speakers(query, filter(None, (speaker_of(h.memory) for h in hits)))
        topic_only = without_speakers(query, named) if named else ""
        if topic_only and topic_only != query:
            vector = store.embed_query(topic_only)
            hits = store.search(scope, query, k=k, query_vector=vector)
    for hit in hits:
        for route in hit.routes:
            # relevance: the cosine, raised by a keyword (BM25) match where there is one
            found.add(hit.memory, route, max(hit.vector_score, hit.score),
                      keyword=route == "keyword")
    _carry_replies(store, scope, [h.memory for h in hits], found, config)
    for start, end in windows:  # the window's best matches, however far down the whole scope
        for hit in store.search(scope, query, k=k, query_vector=vector,
                                said_between=(_midnight(start), _midnight(end))):
            found.add(hit.memory, "time_anchor", hit.vector_score)
    for hit in store.search(scope, query, k=config.long_tail_top_n, statuses=("archived",),
                            query_vector=vector):
        found.add(hit.memory, "archive", hit.vector_score, keyword=hit.keyword_score > 0)
    if topic:
        for hit in store.search(scope, topic, k=config.recall_k):
            found.add(hit.memory, "topic", hit.vector_score * config.topic_route_weight)
    _current_slot_values(store, scope, found)
    missing = [i for i in found.memories if i not in found.similarity]
    for memory_id, stored in store.vectors(scope, missing).items():
        found.similarity[memory_id] = float(np.dot(stored, vector))  # profile route: exact cosine
    return found


def _current_slot_values(store: MemoryStore, scope: str, found: _Candidates) -> None:
    """Every live value of a slot that a found memory fills joins, as relevant as the found
    one: "I live in Austin" found for a query brings the later "we moved to Portland"."""
    slots = {m.slot for m in found.memories.values() if m.slot is not None}
    if not slots:
        return
    relevance: dict[tuple[str, str | None], float] = {}
    for memory_id, memory in found.memories.items():
        key = (memory.subject, memory.slot)
        if memory.slot is not None and memory_id in found.similarity:
            relevance[key] = max(relevance.get(key, -1.0), found.similarity[memory_id])
    for memory in store.list(scope, statuses=LIVE_STATUSES, slots=sorted(slots)):
        if memory.id not in found.memories:
            found.add(memory, "slot", relevance.get((memory.subject, memory.slot)))


def _carry_replies(store: MemoryStore, scope: str, hits: Sequence[Memory],
                   found: _Candidates, config: MemoryConfig) -> None:
    """Reply carry (policy.conversation): the turns after a query hit, and the one before
    it, inherit its relevance."""
    after = config.reply_carry_turns if config.reply_carry > 0 else 0
    before = 1 if config.reply_carry_back > 0 else 0
    if not (after or before) or not hits:
        return
    neighbours = store.follow_ups(scope, hits, turns=after, turns_before=before,
                                  kinds=config.reply_carry_kinds)
    for hit in hits:
        for step, memory in neighbours.get(hit.id, ()):
            carried = carried_relevance(found.similarity[hit.id], step, config)
            if carried > found.similarity.get(memory.id, 0.0):
                found.add(memory, "reply_carry" if step > 0 else "reply_carry_back", carried)


def recall_memories(store: MemoryStore, scope: str, query: str, *, now: datetime,
                    config: MemoryConfig, topic: str | None = None,
                    touch: bool = True) -> list[RecalledItem]:
    """All routes merged, scored with a breakdown, floored, tiered; best first.

    ``touch`` records the recall (use_count, last_used_at) on what is returned.
    """
    skip = should_skip(query, config)
    family_topic = signals.matches(subjects.FAMILY_TOPIC, query)
    self_only = signals.matches(subjects.SELF_ONLY, query)
    terms = distinctive_terms(query)
    named_days = query_windows(query) if config.time_anchor_boost > 0 else []
    windows = [widen(w, config.time_anchor_slack_days) for w in named_days]
    found = _gather(store, scope, query, topic, skip=skip, family_topic=family_topic,
                    windows=windows, config=config)
    instruction = current_instruction(query)
    named = named_speakers(query, filter(None, map(speaker_of, found.memories.values())))
    subject = {i: subject_factor(m, named, config) for i, m in found.memories.items()}
    anchored = {i: 1.0 + config.time_anchor_boost if windows and said_or_dated_within(
        m.content, m.created_at, windows) else 1.0 for i, m in found.memories.items()}
    # its own words date it on the named day: the query's context, however it is worded
    dated = {i for i, m in found.memories.items()
             if named_days and dated_within(m.content, named_days)}
    for memory_id in dated:  # the route explains the context match
        found.add(found.memories[memory_id], "dated")
    # type and scene match: a question asking when wants a memory that says when
    says_when = ({i for i, m in found.memories.items() if states_time(m.content)}
                 if config.when_context > 0 and asks_when(query) else set())
    for memory_id in says_when:
        found.add(found.memories[memory_id], "says_when")
    best = max((found.similarity.get(i, 0.0) * subject[i] * anchored[i]
                for i in found.memories), default=0.0)
    outdated = outdated_by_slot(list(found.memories.values()))
    scored: list[tuple[float, Memory, dict[str, float]]] = []
    for memory_id, memory in found.memories.items():
        if memory_id in outdated:
            continue  # a later value of the same slot stands in its place
        own = found.similarity.get(memory_id, 0.0)
        if expired_plan(memory, now, config):
            own *= config.expired_plan_factor
        similarity = own * subject[memory_id] * anchored[memory_id]
        keyword_hit = memory_id in found.keyword
        routes = found.routes[memory_id]
        if memory.source == "emotional" and not confirmation_weight(memory, config)[1]:
            continue  # heat of the moment: it steers nothing until said calmly
        core = "profile" in routes and is_core(memory, config)
        # a family member's fact comes when the query is about the family, or about the
        # very thing it says ("plan the first week of September" / "Lucia starts
        # kindergarten in September")
        family = memory.subject.startswith("user.") and (
            family_topic or own >= config.family_direct_cosine)
        named_person = memory.subject == "third_party" and bool(
            terms & distinctive_terms(subjects.person_terms(memory.content)))
        if memory.subject != "user" and (self_only or not (family or named_person or core)):
            # others' facts come when the query names them or the family, never for the
            # user alone ("我自己想吃点…": the father's gout stays out)
            continue
        if not (core or family or keyword_hit or memory_id in dated
                or similarity >= config.similarity_floor):
            continue  # beyond the core, the profile route still needs relevance
        context = (1.0 if family or memory.kind == "procedural" or memory_id in dated
                   else config.keyword_context if keyword_hit else 0.0)
        if memory_id in says_when:
            context = max(context, config.when_context)
        # an event's age and popularity say nothing about whether it is the one asked
        # about; a fact's or procedure's newest, most used version usually is the one
        score, parts = fused_score(memory, similarity=similarity, context_match=context, now=now,
                                   config=config,
                                   share=relevance_share(similarity, best, config)
                                   if memory.kind == "episodic" else 1.0)
        parts = _boost_parts(parts, own, subject[memory_id], anchored[memory_id], config)
        score, parts = _current_first(memory, score, parts, instruction, config)
        scored.append((score, memory, parts))
    scored.sort(key=lambda s: (-s[0], s[1].id))
    items: list[RecalledItem] = []
    rank = 0
    for score, memory, parts in scored:
        archived = memory.status == "archived"
        tier = tier_of(memory, rank, archived=archived,
                       in_profile="profile" in found.routes[memory.id], config=config)
        if tier != "core" and score < config.inject_floor:
            continue
        if tier == "hot":
            rank += 1
        items.append(_item(memory, score, parts, found.routes[memory.id], tier,
                           core_rank(memory)))
    if touch and items:
        store.mark_used(scope, [i["id"] for i in items], at=now)
    return items


def _boost_parts(parts: dict[str, float], similarity: float, subject: float, anchored: float,
                 config: MemoryConfig) -> dict[str, float]:
    """Split the semantic part into the memory's own relevance and what the subject match
    and the time anchor added to it (the parts still sum to the score)."""
    if subject == 1.0 and anchored == 1.0:
        return parts
    own = config.w_semantic * max(0.0, similarity)
    boosted = {"semantic": own}
    if subject != 1.0:
        boosted["subject_match"] = own * (subject - 1.0)
    if anchored != 1.0:
        boosted["time_anchor"] = parts["semantic"] - own - boosted.get("subject_match", 0.0)
    return {**parts, **boosted}


def _current_first(memory: Memory, score: float, parts: dict[str, float],
                   instruction: CurrentInstruction | None,
                   config: MemoryConfig) -> tuple[float, dict[str, float]]:
    """Down-weight older memories on the topic the current message just set."""
    if instruction is None or not instruction.covers(memory):
        return score, parts
    factor = config.current_instruction_factor
    return score * factor, {**{k: v * factor for k, v in parts.items()},
                            "current_instruction_factor": factor}


def _item(memory: Memory, score: float, breakdown: dict[str, float], routes: list[str],
          tier: str, order: tuple[int, ...]) -> RecalledItem:
    return RecalledItem(id=memory.id, content=memory.content, kind=memory.kind,
                        category=memory.category, created_at=memory.created_at.isoformat(),
                        score=round(score, 4),
                        breakdown={k: round(v, 4) for k, v in breakdown.items()},
                        routes=list(routes), tier=tier, core_order=list(order))


def make_recall_node(store: MemoryStore, config: MemoryConfig) -> Callable[..., dict[str, Any]]:
    def recall(state: MemoryState, runtime: Runtime[MemoryContext]) -> dict[str, Any]:
        context = context_of(runtime, "recall")
        started = time.perf_counter()
        query = latest_user_text(state)
        items = [] if not query or not query.strip() else recall_memories(
            store, context.scope, query, now=now_of(context, store), config=config,
            topic=session_topic(state.get("messages", [])))
        return {"recalled": items,
                "current_instruction": bool(query and current_instruction(query)),
                "timings": {"recall_ms": (time.perf_counter() - started) * 1000}}
    return recall
