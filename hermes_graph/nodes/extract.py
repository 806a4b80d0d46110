"""extract: turn the latest user message into candidate memories."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from langgraph.runtime import Runtime

from hermes_graph.errors import ExtractionError
from hermes_graph.extract.base import MESSAGE_REF_KEY, Extractor, Role, Turn
from hermes_graph.nodes._common import context_of, now_of
from hermes_graph.policy import privacy
from hermes_graph.state import MemoryContext, MemoryState
from hermes_graph.store import MemoryStore
from hermes_graph.types import Candidate, Memory, candidate_to_dict

log = logging.getLogger(__name__)

CONTEXT_TURNS = 4
"""Earlier messages handed to the extractor as context (never extracted from)."""
EXISTING_SHOWN = 8


def turns_from_messages(messages: Sequence[AnyMessage], *, session: str,
                        now: datetime) -> list[Turn]:
    turns: list[Turn] = []
    for index, message in enumerate(messages):
        if isinstance(message, HumanMessage | AIMessage) and isinstance(message.content, str):
            role: Role = "user" if isinstance(message, HumanMessage) else "assistant"
            ref = message.additional_kwargs.get(MESSAGE_REF_KEY)
            turns.append(Turn(role=role, content=message.content, session=session,
                              index=index, at=now, speaker=message.name,
                              ref=ref if isinstance(ref, str) and ref else None))
    return turns


def screen_all(candidates: Sequence[Candidate], *, include_phone: bool) -> list[Candidate]:
    return [privacy.screen_secrets(c, include_phone=include_phone) for c in candidates]


def extract_candidates(extractor: Extractor, turns: Sequence[Turn], *, now: datetime,
                       store: MemoryStore | None = None,
                       scope: str | None = None) -> list[Candidate]:
    """Run the extractor on the last user turn; bad extractor output keeps nothing.

    Extractors that set ``uses_existing`` (the LLM one) also get the scope's nearest
    memories, so they can say which one a new fact updates. Every candidate is screened
    for secrets here too, so a user's own extractor cannot store one.
    """
    if not turns or turns[-1].role != "user":
        return []
    existing: list[Memory] = []
    if getattr(extractor, "uses_existing", False) and store is not None and scope is not None:
        existing = [h.memory for h in store.search(scope, turns[-1].content, k=EXISTING_SHOWN)]
    try:
        candidates = extractor.extract(list(turns[-CONTEXT_TURNS:]), now=now, existing=existing)
    except ExtractionError as exc:
        log.warning("extractor output rejected, nothing kept from this turn: %s", exc)
        return []
    include_phone = store.config.drop_phone_numbers if store is not None else True
    return screen_all(candidates, include_phone=include_phone)


def make_extract_node(store: MemoryStore, extractor: Extractor, *,
                      submit: Callable[[MemoryContext, list[Turn]], None] | None = None,
                      ) -> Callable[..., dict[str, Any]]:
    def extract(state: MemoryState, runtime: Runtime[MemoryContext]) -> dict[str, Any]:
        context = context_of(runtime, "extract")
        started = time.perf_counter()
        messages = [m for m in state.get("messages", [])]
        # the reply was just appended: extract from the user turn before it
        while messages and not isinstance(messages[-1], HumanMessage):
            messages.pop()
        turns = turns_from_messages(messages, session=context.session_id,
                                    now=now_of(context, store))
        if submit is not None:
            submit(context, turns)
            return {"candidates": [], "write_queued": True,
                    "timings": {"extract_ms": (time.perf_counter() - started) * 1000}}
        candidates = extract_candidates(extractor, turns, now=now_of(context, store),
                                        store=store, scope=context.scope)
        return {"candidates": [candidate_to_dict(c) for c in candidates],
                "write_queued": False,
                "timings": {"extract_ms": (time.perf_counter() - started) * 1000}}
    return extract
