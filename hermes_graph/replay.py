"""Replaying recorded conversations through the memory graph (no model is called).

Each session is a new thread; each user turn is invoked with the recorded
assistant answer as ``recorded_reply``, at the turn's recorded time. After a
session, the catch-up pass runs over the whole session.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from hermes_graph.clock import FakeClock
from hermes_graph.config import MemoryConfig
from hermes_graph.eval.scenarios import Session
from hermes_graph.extract.base import MESSAGE_REF_KEY, Extractor, Turn
from hermes_graph.extract.learned import LearnedExtractor
from hermes_graph.graph import create_memory_graph
from hermes_graph.nodes.inject import build_block
from hermes_graph.nodes.recall import recall_memories
from hermes_graph.policy.budget import TokenCounter, approx_tokens
from hermes_graph.policy.recall import current_instruction
from hermes_graph.state import DecisionItem, MemoryContext
from hermes_graph.store import MemoryStore
from hermes_graph.writer import end_session


@dataclass
class TurnTrace:
    scope: str
    session: str
    at: str
    user: str
    reply: str
    recalled: list[dict[str, Any]] = field(default_factory=list)
    memory_block: str = ""
    memory_tokens: int = 0
    candidates: list[dict[str, Any]] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class ProbeResult:
    text: str
    tokens: int
    ms: float
    recalled: list[dict[str, Any]]


class Replayer:
    """Drives one store through recorded sessions and probes."""

    def __init__(self, store: MemoryStore, *, config: MemoryConfig | None = None,
                 extractor: Extractor | None = None,
                 token_counter: TokenCounter = approx_tokens) -> None:
        self.store = store
        self.config = config or MemoryConfig()
        self.extractor = extractor or LearnedExtractor(self.config, embeddings=store.embeddings)
        self.count = token_counter
        self.clock = FakeClock("2000-01-01T00:00:00+00:00")
        self.graph = create_memory_graph(None, store=store, config=self.config,
                                         extractor=self.extractor, token_counter=token_counter,
                                         checkpointer=InMemorySaver())

    def replay(self, session: Session,
               on_turn: Callable[[TurnTrace], None] | None = None) -> list[TurnTrace]:
        traces: list[TurnTrace] = []
        context = MemoryContext(scope=session.scope, session_id=session.id, clock=self.clock)
        thread = {"configurable": {"thread_id": f"{session.scope}\x00{session.id}"}}
        turns = session.turns
        history: list[Turn] = []
        for n, turn in enumerate(turns):
            history.append(Turn(role=turn.role, content=turn.content, session=session.id,
                                index=n, at=turn.at, speaker=turn.speaker, ref=turn.ref))
            if turn.role != "user":
                continue
            following = turns[n + 1] if n + 1 < len(turns) else None
            reply = following.content if following and following.role == "assistant" else ""
            self.clock.set(turn.at)
            message = HumanMessage(content=turn.content, name=turn.speaker,
                                   additional_kwargs={MESSAGE_REF_KEY: turn.ref} if turn.ref
                                   else {})
            update: dict[str, Any] = {"messages": [message], "recorded_reply": reply}
            state = self.graph.invoke(update, thread,  # type: ignore[call-overload]
                                      context=context)
            trace = TurnTrace(scope=session.scope, session=session.id, at=turn.at.isoformat(),
                              user=turn.content, reply=reply,
                              recalled=list(state.get("recalled", [])),
                              memory_block=state.get("memory_block", ""),
                              memory_tokens=state.get("memory_tokens", 0),
                              candidates=list(state.get("candidates", [])),
                              decisions=list(state.get("decisions", [])))
            traces.append(trace)
            if on_turn is not None:
                on_turn(trace)
        if turns:
            self.clock.set(turns[-1].at)
            self.catch_up(session, history, turns[-1].at)
        return traces

    def catch_up(self, session: Session, history: list[Turn], now: datetime) -> list[
            DecisionItem]:
        return end_session(self.store, self.extractor, scope=session.scope, session=session.id,
                           turns=history, now=now, config=self.config)

    def probe(self, scope: str, query: str, at: datetime) -> ProbeResult:
        """Recall + inject for a new message in a new session (nothing is written)."""
        started = time.perf_counter()
        recalled = recall_memories(self.store, scope, query, now=at, config=self.config)
        block = build_block(recalled, self.config, count=self.count,
                            current_instruction=current_instruction(query) is not None)
        elapsed = (time.perf_counter() - started) * 1000
        return ProbeResult(text=block.text, tokens=block.tokens, ms=elapsed,
                           recalled=[dict(r) for r in recalled])

